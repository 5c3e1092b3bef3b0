"""The weights of how good a Reggae Revolution position is for the team: the heuristic
``State.evaluate`` returns (``state.team_value``, which reads the state's fields natively and so
lives beside the state; this module imports no state, so the two import in one direction).

The game is co-operative, so one value serves every seat. It rewards scored pairs most, then
owning cards that can still score missing pairs, and it punishes suppressed symbols (the loss
condition), villains still to persuade and oppression cards clogging the team's decks. What the
active player can still do this turn with the hand it holds counts too, at part of its worth: a
Yay left with a card for a missing pair, and the persuasion that would free the most symbols
(an open gift's included), so a search that stops mid-turn sees the boons that open them.
"""

from __future__ import annotations

from rules.engines.core.weights import weights_beside
from rules.engines.reggae_revolution.effects import COLOURS, SYMBOLS

PAIRS = len(SYMBOLS) * len(COLOURS)
#: the value's feature weights, tuned by self-play (``bench/tune.py``) and loaded from
#: weights.json: ``covered`` (the share of pairs scored), ``potential`` (the share the team's
#: cards could still score), ``unspent`` (each resource in the pool), ``pressure`` (each
#: persuasion still owed to a villain), ``oppressed`` (each oppression card the team owns),
#: ``danger_1`` to ``danger_3`` (the penalty for 1, 2 or 3 suppressed symbols; 4 is the loss
#: itself), ``yay_in_reach`` (a Yay still to take this turn with a card for a missing pair, as
#: a share of a scored pair's worth less the potential its card held) and ``sway_in_reach``
#: (the share of its danger drop a persuasion the active hand can complete this turn is worth).
#: The same file holds the team policy's weights, named ``policy_...`` (``policy.py``)
WEIGHTS = weights_beside(__file__)


def danger(suppressed: int) -> float:
    """The penalty for ``suppressed`` suppressed symbols (none for 0; 3 and more alike)."""
    return WEIGHTS[f"danger_{min(suppressed, 3)}"] if suppressed else 0.0
