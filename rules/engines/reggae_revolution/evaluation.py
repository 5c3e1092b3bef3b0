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

from rules.engines.reggae_revolution.effects import COLOURS, SYMBOLS

if TYPE_CHECKING:
    from rules.engines.reggae_revolution.state import ReggaeState

PAIRS = len(SYMBOLS) * len(COLOURS)
#: penalty for 0, 1, 2 or 3 suppressed symbols (4 is the loss itself)
DANGER = (0.0, 0.04, 0.12, 0.35)
#: a scored pair's worth (``covered``) less the potential its card held (``potential``)
PAIR_WORTH = (0.6 - 0.15) / PAIRS
#: what a Yay still to take this turn is worth while the hand holds a card for a missing pair:
#: most of a pair (two in reach outweigh one scored), yet scoring at once stays better
YAY_IN_REACH = 0.75 * PAIR_WORTH
#: the share of its danger drop a persuasion the active hand can complete this turn is worth
SWAY_IN_REACH = 0.5


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
    danger = DANGER[min(len(state.suppressed_symbols()), 3)]
    pressure = sum(max(0, table[v].persuasion - len(state.gifts[v])) for v in state.villains)
    unspent = sum(state.pool)
    value = (
        0.6 * covered
        + 0.15 * potential
        + 0.003 * unspent
        - danger
        - 0.01 * pressure
        - 0.01 * oppressed
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
    return YAY_IN_REACH * yays + SWAY_IN_REACH * _best_persuasion(state, hand)


def _best_persuasion(state: ReggaeState, hand: list[int]) -> float:
    """The danger drop of the best persuasion ``hand`` can complete now (§Sway): cards of the
    villain's colour and wild cards, and other cards while open gifts last."""
    table = state.table
    suppressing = Counter(s for v in state.villains for s in table[v].suppresses)
    danger = DANGER[min(len(suppressing), 3)]
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
        best = max(best, danger - DANGER[min(len(suppressing) - freed, 3)])
    return best
