"""How good a Reggae Revolution position is for the team: the heuristic ``State.evaluate`` returns.

The game is co-operative, so one value serves every seat. It rewards scored pairs most, then
owning cards that can still score missing pairs, and it punishes suppressed symbols (the loss
condition), villains still to persuade and oppression cards clogging the team's decks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.engines.reggae_revolution.effects import COLOURS, SYMBOLS

if TYPE_CHECKING:
    from rules.engines.reggae_revolution.state import ReggaeState

PAIRS = len(SYMBOLS) * len(COLOURS)
#: penalty for 0, 1, 2 or 3 suppressed symbols (4 is the loss itself)
DANGER = (0.0, 0.04, 0.12, 0.35)


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
    )
    return max(-0.95, min(0.95, value))
