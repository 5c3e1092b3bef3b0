"""How good a Reggae Revolution position is for the team: the heuristic ``State.evaluate`` returns.

The game is co-operative, so one value serves every seat. It rewards scored pairs most, then
owning cards that can still score missing pairs, and it punishes suppressed symbols (the loss
condition), villains still to persuade and oppression cards clogging the team's decks. What the
active player can still do this turn with the hand it holds counts too, at part of its worth: a
Yay left with a card for a missing pair, and the persuasion that would free the most symbols
(an open gift's included), so a search that stops mid-turn sees the boons that open them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules.engines.core.weights import weights_beside
from rules.engines.reggae_revolution.effects import COLOURS, SYMBOLS

if TYPE_CHECKING:
    from rules.engines.reggae_revolution.state import ReggaeState

PAIRS = len(SYMBOLS) * len(COLOURS)
#: the value's feature weights, tuned by self-play (``bench/tune.py``) and loaded from
#: weights.json: ``covered`` (the share of pairs scored), ``potential`` (the share the team's
#: cards could still score), ``unspent`` (each resource in the pool), ``pressure`` (each
#: persuasion still owed to a villain), ``oppressed`` (each oppression card the team owns),
#: ``danger_1`` to ``danger_3`` (the penalty for 1, 2 or 3 suppressed symbols; 4 is the loss
#: itself), ``yay_in_reach`` (a Yay still to take this turn with a card for a missing pair, as
#: a share of a scored pair's worth less the potential its card held) and ``sway_in_reach``
#: (the share of its danger drop a persuasion the active hand can complete this turn is worth)
WEIGHTS = weights_beside(__file__)


def danger(suppressed: int) -> float:
    """The penalty for ``suppressed`` suppressed symbols (none for 0; 3 and more alike)."""
    return WEIGHTS[f"danger_{min(suppressed, 3)}"] if suppressed else 0.0


def team_value(state: ReggaeState) -> float:
    """Return the team's prospects in [-1, 1]: +1 won, -1 lost, in between a heuristic."""
    if state.result:
        return float(state.result)
    table = state.table
    covered = state.covered_pair_count() / PAIRS
    missing = state.missing_pairs()
    owned = [card for player in range(state.n) for card in state.owner_cards(player)]
    can_cover = {
        (table[c].symbol, table[c].colour)
        for c in owned
        if (table[c].symbol, table[c].colour) in missing
    }
    wilds = sum(1 for c in owned if table[c].is_wild)
    potential = min(len(missing), len(can_cover) + wilds) / PAIRS
    oppressed = sum(1 for c in owned if table[c].type == "oppression")
    pressure = sum(max(0, table[v].persuasion - len(state.gifts[v])) for v in state.villains)
    unspent = sum(state.pool)
    w = WEIGHTS
    value = (
        w["covered"] * covered
        + w["potential"] * potential
        + w["unspent"] * unspent
        - danger(len(state.suppressed_symbols()))
        - w["pressure"] * pressure
        - w["oppressed"] * oppressed
        + _in_reach(state, missing)
    )
    return max(-0.95, min(0.95, value))


def _in_reach(state: ReggaeState, missing: set[tuple[str, str]]) -> float:
    """The part of the value the active hand holds this turn (§Main Phase: Yay and Sway)."""
    if state.phase not in ("villain", "main"):
        return 0.0
    table = state.table
    hand = state.hand[state.active]
    scorers = {(table[c].symbol, table[c].colour) for c in hand} & missing
    wilds = sum(1 for c in hand if table[c].is_wild)
    yays = min(state.yays_left, len(scorers) + wilds, len(missing))
    w = WEIGHTS
    pair_worth = (w["covered"] - w["potential"]) / PAIRS
    yay = w["yay_in_reach"] * pair_worth
    return yay * yays + w["sway_in_reach"] * _best_persuasion(state, hand)


def _best_persuasion(state: ReggaeState, hand: list[int]) -> float:
    """The danger drop of the best persuasion ``hand`` can complete now (§Sway): cards of the
    villain's colour and wild cards, and other cards while open gifts last."""
    table = state.table
    suppressing = Counter(s for v in state.villains for s in table[v].suppresses)
    now = danger(len(suppressing))
    givable = [c for c in hand if table[c].type in ("starter", "main", "wild")]
    best = 0.0
    for villain in state.villains:
        need = table[villain].persuasion - len(state.gifts[villain])
        matching = sum(
            1 for c in givable if table[c].is_wild or table[c].colour == table[villain].colour
        )
        if matching + min(state.open_gifts, len(givable) - matching) < need:
            continue
        freed = sum(1 for s in table[villain].suppresses if suppressing[s] == 1)
        best = max(best, now - danger(len(suppressing) - freed))
    return best
