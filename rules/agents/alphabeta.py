"""Alpha-beta search with a transposition table, for two-player perfect-information engines.

Values are from player 0's point of view: player 0 maximises, player 1 minimises (a turn may hold
several decisions by the same player, so plain negamax would be wrong). Leaves use the engine's
``search_value()`` (``returns()[0]`` unless the engine adds a margin); depth-limited leaves use
``evaluate(0)``. The table is keyed by ``canonical_key()`` when the engine reduces positions by
board symmetries (it returns a key, not None), else by ``key()``; moves are tried in the engine's
``order_actions`` order. The agent first asks ``solved_action()``: an engine with an exact solver
answers small endgames itself, and the agent plays that instead of searching. All four are
``State`` hooks with neutral defaults.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from rules.engines.core import Action, Rng, State

EXACT, LOWER, UPPER = 0, 1, 2
INF = float("inf")


class SearchTimeoutError(Exception):
    """The search ran past its deadline."""


@dataclass
class SearchResult:
    """The value of a position and how the search got it."""

    value: float
    best_action: Action | None
    nodes: int
    seconds: float
    complete: bool

    @property
    def nodes_per_second(self) -> float:
        """Return search speed."""
        return self.nodes / self.seconds if self.seconds > 0 else float(self.nodes)


class AlphaBeta:
    """A reusable searcher: the transposition table survives between calls."""

    def __init__(self, max_table: int = 4_000_000, deadline: float | None = None) -> None:
        self.table: dict[object, tuple[float, float, Action | None]] = {}
        self.max_table = max_table
        self.nodes = 0
        self.deadline = deadline

    def search(self, state: State, depth: float = INF) -> SearchResult:
        """Return the minimax value of ``state`` searched to ``depth`` decisions."""
        start = time.perf_counter()
        self.nodes = 0
        value, action = self._search(state, depth, -INF, INF)
        return SearchResult(value, action, self.nodes, time.perf_counter() - start, True)

    def _leaf(self, state: State) -> float:
        return state.search_value()

    def _search(
        self, state: State, depth: float, alpha: float, beta: float
    ) -> tuple[float, Action | None]:
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise SearchTimeoutError
        if state.is_terminal():
            return self._leaf(state), None
        if depth <= 0:
            return state.evaluate(0), None
        canonical = state.canonical_key()
        key = (canonical if canonical is not None else state.key(), depth)
        entry = self.table.get(key)
        hint: Action | None = None
        alpha0, beta0 = alpha, beta
        if entry is not None:
            lower, upper, hint = entry
            if lower >= beta:
                return lower, hint
            if upper <= alpha:
                return upper, hint
            if lower == upper:
                return lower, hint
            alpha, beta = max(alpha, lower), min(beta, upper)
        actions = state.legal_actions()
        actions = state.order_actions(actions)
        # a stored best action is only reused when keys are not symmetry-reduced
        if hint is not None and hint in actions and canonical is None:
            actions.remove(hint)
            actions.insert(0, hint)
        maximising = state.current_player() == 0
        best_value = -INF if maximising else INF
        best_action: Action | None = None
        for action in actions:
            child = state.clone()
            child.apply_unchecked(action)
            value, _ = self._search(child, depth - 1, alpha, beta)
            if maximising:
                if value > best_value:
                    best_value, best_action = value, action
                alpha = max(alpha, value)
            else:
                if value < best_value:
                    best_value, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                break
        lower, upper = -INF, INF
        if best_value <= alpha0:
            upper = best_value
        elif best_value >= beta0:
            lower = best_value
        else:
            lower = upper = best_value
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        if len(self.table) < self.max_table or entry is not None:
            self.table[key] = (lower, upper, best_action)
        return best_value, best_action


class AlphaBetaAgent:
    """Plays the alpha-beta best action for the player to act (perfect information only)."""

    name = "alphabeta"
    #: it searches the true position, so it refuses states with hidden information
    needs_perfect_information: ClassVar[bool] = True

    def __init__(self, seed: int = 0, depth: int = 4, reach: int = 0) -> None:
        self.rng = Rng(seed)
        self.depth = depth
        self.reach = reach

    def act(self, state: State) -> Action:
        """Return the engine's solved action if it has one (endgames ``reach`` steps larger than
        the engine's default), else the best action found at the configured depth."""
        if not state.is_perfect_information():
            raise ValueError("alpha-beta needs a perfect-information state; use MCTS instead")
        solved = state.solved_action(self.reach)
        if solved is not None:
            return solved
        result = AlphaBeta().search(state, self.depth)
        if result.best_action is None:
            return self.rng.choice(state.legal_actions())
        return result.best_action
