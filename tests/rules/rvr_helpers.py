"""Helpers for Regality vs Religion tests: hand-built positions and readable moves."""

from __future__ import annotations

from rules.engines.core import Action, get_game
from rules.engines.regality_vs_religion.board import CELL_INDEX
from rules.engines.regality_vs_religion.game import RvRGame, RvRState

_GAME = get_game("regality-vs-religion")
assert isinstance(_GAME, RvRGame)
GAME: RvRGame = _GAME


def position(text: str, variant: str = "standard") -> RvRState:
    """Return a state set up from the position notation."""
    return GAME.new_initial_state(0, {"variant": variant, "position": text})


def play(state: RvRState, *moves: str) -> RvRState:
    """Apply moves written as in ``str(Action)``; each must be legal."""
    for move in moves:
        state.apply(Action.parse(move))
    return state


def moves(state: RvRState) -> set[str]:
    """Return the legal actions as strings."""
    return {str(action) for action in state.legal_actions()}


def at(state: RvRState, cell: str) -> str | None:
    """Describe a cell: 'king/reg', 'king/reg!' when face down, None when empty."""
    code = state.cells[CELL_INDEX[cell]]
    if code < 0:
        return None
    text = f"{state.tables.keys[code & 31]}/{('reg', 'rel')[(code >> 5) & 1]}"
    if (code >> 8) - 1 >= 0:
        text += f"[{state.tables.keys[(code >> 8) - 1]}]"
    return text + ("!" if code & 0xC0 else "")


def area(state: RvRState, player: int) -> list[str]:
    """Return the tile keys in a player's area."""
    return [state.tables.keys[t] for t in state.areas[player]]


def discard(state: RvRState) -> list[str]:
    """Return the discard pile's tile keys, sorted."""
    return sorted(state.tables.keys[t] for t in state.discard)
