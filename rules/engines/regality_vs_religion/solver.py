"""Perfect play for Regality vs Religion: alpha-beta with a transposition table and symmetries.

The value of a position is from Regality's point of view: ``+20 + margin`` when Regality wins,
``-20 + margin`` when it loses (``margin`` = Regality's allies minus Religion's at the end), 0 for a
draw. Maximising it means "win first, then by as many allies as possible"; the loser limits the
margin. Positions are stored once per symmetry class of the board, using only the symmetries the
tiles in play allow (all eight for old-style; a Fortuneteller or a Sage removes some).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rules.engines.core import Action
from rules.engines.regality_vs_religion.game import WIN_SCORE, RvRState

INF = float("inf")


class SolveTimeoutError(Exception):
    """The solver ran past its time limit."""


@dataclass
class Solution:
    """The game-theoretic value of a position and what it cost to find it."""

    value: float
    best_action: Action | None
    nodes: int
    seconds: float
    table_size: int
    complete: bool = True
    root_values: dict[str, float] = field(default_factory=dict)

    @property
    def winner(self) -> str | None:
        """Return 'regality', 'religion' or None (draw)."""
        if self.value > 0:
            return "regality"
        if self.value < 0:
            return "religion"
        return None

    @property
    def margin(self) -> int:
        """Return the winner's ally count minus the loser's at the end of perfect play."""
        if self.value > 0:
            return int(self.value - WIN_SCORE)
        if self.value < 0:
            return int(-(self.value + WIN_SCORE))
        return 0

    @property
    def nodes_per_second(self) -> float:
        """Return search speed."""
        return self.nodes / self.seconds if self.seconds > 0 else float(self.nodes)


def perft(state: RvRState, depth: int) -> int:
    """Count the action sequences of length ``depth`` (fewer where the game ends first)."""
    if depth == 0 or state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_unchecked(action)
        total += perft(child, depth - 1)
    return total


class Solver:
    """A full-depth searcher (MTD(f) over fail-soft alpha-beta); the table survives between calls.

    The table holds a (lower, upper) bound per symmetry-reduced position. A history table orders
    moves: actions that caused cut-offs before are tried first.
    """

    def __init__(self, time_limit: float | None = None, max_table: int = 4_000_000) -> None:
        self.table: dict[object, tuple[float, float]] = {}
        self.history: dict[Action, int] = {}
        self.max_table = max_table
        self.time_limit = time_limit
        self.deadline: float | None = None
        self.nodes = 0

    def solve(self, state: RvRState, root_values: bool = False) -> Solution:
        """Return the perfect-play value of ``state`` (and its best action)."""
        if not state.is_perfect_information():
            raise ValueError("only open-information positions can be solved")
        start = time.perf_counter()
        self.deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        self.nodes = 0
        root = state.clone().quiet()
        values: dict[str, float] = {}
        best: Action | None = None
        try:
            value = self.value(root)
            if not root.is_terminal():
                maximising = root.to_move == 0
                actions = root.legal_actions()
                actions.sort(key=lambda a: -self.history.get(a, 0))
                for action in actions:
                    child = root.clone()
                    child.apply_unchecked(action)
                    if root_values:
                        values[str(action)] = self.value(child)
                        keeps = values[str(action)] == value
                    elif maximising:
                        # One null-window search tells whether this action keeps the value.
                        keeps = self._search(child, value - 1, value) >= value
                    else:
                        keeps = self._search(child, value, value + 1) <= value
                    if keeps and best is None:
                        best = action
                        if not root_values:
                            break
            complete = True
        except SolveTimeoutError:
            value, best, complete = 0.0, None, False
        seconds = time.perf_counter() - start
        return Solution(value, best, self.nodes, seconds, len(self.table), complete, values)

    def wins(self, state: RvRState) -> bool:
        """Return True if Regality wins ``state`` with perfect play (one null-window search)."""
        return self._search(state, 0, 1) >= 1

    def value(self, state: RvRState) -> float:
        """Return the exact value: a null-window search for the winner, then MTD(f) for the margin.

        The winner search is cheap; its fail-soft bound is a good first guess for the margin, so
        MTD(f) usually needs one or two more null-window searches.
        """
        lower, upper = -INF, INF
        g = self._search(state, 0, 1)
        if g >= 1:
            lower = g
        else:
            upper = g
            g2 = self._search(state, -1, 0)
            if g2 >= 0:
                return 0.0
            upper = min(upper, g2)
            g = upper
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self._search(state, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return float(g)

    def _search(self, state: RvRState, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta over single decisions.

        Placements are tried in history-heuristic order; the choices after a placement are tried
        best-first by the ally margin they leave.
        """
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 4095 and time.monotonic() > self.deadline:
            raise SolveTimeoutError
        if state.phase == "over":
            return state.search_value()
        # A choice pending after a placement is only reached through its placement, whose own
        # table entry already catches transpositions: no need to store it again.
        table = self.table
        key = state.search_key() if state.phase != "effect" else None
        entry = table.get(key) if key is not None else None
        if entry is not None:
            lower, upper = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        alpha0, beta0 = alpha, beta
        maximising = state.to_move == 0
        history = self.history
        actions = state.legal_actions()
        if len(actions) > 1:
            if state.phase == "effect":
                # Choices: try the one that leaves the mover best off first (cheap to apply).
                scored = []
                for action in actions:
                    child = state.clone()
                    child.apply_unchecked(action)
                    if child.phase == "over":
                        value = child.search_value()
                        score = 1000 + (value if maximising else -value)
                    else:
                        regality, religion = child.allies()
                        score = regality - religion if maximising else religion - regality
                    scored.append((score, action, child))
                scored.sort(key=_first, reverse=True)
                children = [(action, child) for _, action, child in scored]
            else:
                actions.sort(key=lambda a: -history.get(a, 0))
                children = [(action, None) for action in actions]
        else:
            children = [(actions[0], None)]
        best = -INF if maximising else INF
        for action, child in children:
            if child is None:
                child = state.clone()
                child.apply_unchecked(action)
            value = self._search(child, alpha, beta)
            if maximising:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                history[action] = history.get(action, 0) + 1
                break
        return self._store(key, entry, best, alpha0, beta0)

    def _store(
        self,
        key: object,
        entry: tuple[float, float] | None,
        best: float,
        alpha0: float,
        beta0: float,
    ) -> float:
        """Record what a search of the window (alpha0, beta0) proved about ``key``."""
        lower, upper = (-INF, INF) if entry is None else entry
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta0:
            lower = max(lower, best)
        else:
            lower = upper = best
        if key is not None and (entry is not None or len(self.table) < self.max_table):
            self.table[key] = (lower, upper)
        return best


def turn_outcomes(state: RvRState) -> dict[object, RvRState]:
    """Every distinct position the player to move can reach by the end of this turn.

    Placement and the choices that follow it (target, decline, re-enactment) are expanded
    together; outcomes equal up to a board symmetry are kept once.
    """
    player = state.to_move
    outcomes: dict[object, RvRState] = {}
    stack = [state]
    while stack:
        current = stack.pop()
        for action in current.legal_actions():
            child = current.clone()
            child.apply_unchecked(action)
            if child.phase == "effect" and child.to_move == player:
                stack.append(child)
                continue
            key = child.canonical_key() if child.phase != "over" else ("over", child.key())
            if key not in outcomes:
                outcomes[key] = child
    return outcomes


def _first(item: tuple) -> float:
    return item[0]


def solve(state: RvRState, time_limit: float | None = None) -> Solution:
    """Solve ``state`` with a fresh table."""
    return Solver(time_limit=time_limit).solve(state)
