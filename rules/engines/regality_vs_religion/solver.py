"""Perfect play for Regality vs Religion: alpha-beta with a transposition table and symmetries.

The value of a position is from Regality's point of view: ``+20 + margin`` when Regality wins,
``-20 + margin`` when it loses (``margin`` = Regality's allies minus Religion's at the end), 0 for a
draw. Maximising it means "win first, then by as many allies as possible"; the loser limits the
margin. Positions are stored once per symmetry class of the board, using only the symmetries the
tiles in play allow (all eight for old-style; a Fortuneteller or a Sage removes some).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from rules.engines.core import Action
from rules.engines.regality_vs_religion.game import WIN_SCORE, RvRState
from rules.engines.regality_vs_religion.powers import TileSpec

INF = float("inf")


def mtdf(search: Callable[[Any, float, float], float], node: Any) -> float:
    """Return a node's exact value by MTD(f) over null-window calls ``search(node, alpha, beta)``.

    The first window settles who wins (the sign); its fail-soft bound is a good first guess for
    the margin, so one or two more null windows usually pin the exact value.
    """
    lower, upper = -INF, INF
    g = search(node, 0, 1)
    if g >= 1:
        lower = g
    else:
        upper = g
        g2 = search(node, -1, 0)
        if g2 >= 0:
            return 0
        upper = min(upper, g2)
        g = upper
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search(node, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


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
    node: str = "decision"  # what one node is: a single decision, or a whole turn (FastSolver)

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
        return float(mtdf(self._search, state))

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


# ---------------------------------------------------------------------- compact turn-level solver
#
# Old-style play (and any tile set whose powers only turn or destroy on the board, with
# no passive power but a tile's own shield) has a much smaller state than ``RvRState``: once on
# the board a tile is only "shielded or not, facing whom, face up or down", and the tiles in hand
# are bit masks. ``FastSolver`` searches whole turns (a placement and its choice together) over
# that compact state, so equal outcomes of different moves (a King declining and a Citizen on the
# same space, two directions that turn the same tiles) are searched once.

# Cell states at the start of a turn: empty, face down (always destroyed by the player who moved
# last, since a player's own destroyed tiles leave at the start of its turn), or face up.
_EMPTY, _DOWN, _PLAIN, _SHIELDED = 0, 1, 2, 4  # _PLAIN / _SHIELDED | facing player
_NEW_DOWN = 6  # destroyed during the turn being generated
_FAST_KINDS = {"turn": 1, "destroy": 2}


def _fast_tile(spec: TileSpec) -> bool:
    """Return True if ``FastSolver`` can play ``spec``: no power, or a board turn or destruction.

    (A banishment could empty a space on the filling placement, which the closed-form last
    placement does not model; positions with a Samurai or Ninja go to the general solver.)
    """
    if spec.protect or spec.negate or spec.cover or spec.lose_at_end:
        return False
    power = spec.active
    return power is None or (
        power.kind in _FAST_KINDS
        and not power.only_shielded
        and not power.ignores_shield
        and power.reach in ("adjacent", "line")
    )


def fast_solvable(state: RvRState) -> bool:
    """Return True if ``FastSolver`` can search ``state`` (old-style and similar tile sets)."""
    if not state.is_perfect_information() or state.match or state.phase not in ("place", "over"):
        return False
    if state.phase == "over":
        return True
    tables = state.tables
    tiles = [*state.areas[0], *state.areas[1], *state.neutral]
    for code in state.cells:
        if code < 0:
            continue
        if code >> 8 or (code & 0xC0 and ((code >> 6) & 3) - 1 == state.to_move):
            return False
        tiles.append(code & 31)
    if not all(_fast_tile(tables.specs[tile]) for tile in tiles):
        return False
    in_hand = len(state.areas[0]) + len(state.areas[1]) + len(state.neutral)
    return state.placements + in_hand < state.max_placements


class FastSolver:
    """MTD(f) over a fail-soft alpha-beta of whole turns on a compact state (see module notes).

    A position is ``(board, hand0, hand1, neutral, to_move, citizen_due)``: ``board`` a tuple of
    nine cell states, hands bit masks over tile indices. The table maps a symmetry-reduced packed
    key to ``(lower, upper, best child key)``; the best child is searched first next time.
    """

    def __init__(
        self, state: RvRState, time_limit: float | None = None, max_table: int = 8_000_000
    ) -> None:
        if not fast_solvable(state):
            raise ValueError("this position needs the general Solver")
        tables = state.tables
        self.tables = tables
        count = len(tables.specs)
        self.kind = tuple(
            _FAST_KINDS.get(s.active.kind, 0) if s.active is not None else 0 for s in tables.specs
        )
        self.code = tuple((_SHIELDED if s.shield else _PLAIN) for s in tables.specs)
        self.groups = tuple(tables.groups[t] if self.kind[t] else ((), ()) for t in range(count))
        self.citizen_bit = 1 << tables.citizen
        self.plays = tuple(_fast_tile(spec) for spec in tables.specs)
        # weaker[u]: tiles whose every choice ``u`` also has, from every space (same shield):
        # when both are in the mover's hand and reach the same board, placing ``u`` (keeping the
        # weaker tile) is never better than placing the weaker tile and keeping ``u``.
        self.weaker = tuple(self._weaker(u, count) for u in range(count))
        self.gathers = [gather for gather, _ in state.symmetries] or [itemgetter(*range(9))]
        self.table: dict[int, tuple[float, float, tuple | None]] = {}
        self.last: dict[tuple[bytes, int, int], int] = {}
        self.canon: dict[bytes, int] = {}
        self.moves: dict[
            tuple[bytes, int, int], tuple[tuple[tuple[int, bytes, int], ...], frozenset[bytes]]
        ] = {}
        self.max_table = max_table
        self.memo_limit = min(max_table, 1_000_000)
        self.time_limit = time_limit
        self.deadline: float | None = None
        self.nodes = 0

    def _weaker(self, strong: int, count: int) -> int:
        if not self.plays[strong]:
            return 0
        mask = 0
        for weak in range(count):
            if weak == strong or not self.plays[weak] or self.code[weak] != self.code[strong]:
                continue
            if not self.kind[weak]:
                same = not self.kind[strong]
            elif self.kind[weak] != self.kind[strong]:
                continue
            else:
                pairs = [
                    (set(self.groups[weak][player][cell]), set(self.groups[strong][player][cell]))
                    for player in (0, 1)
                    for cell in range(9)
                ]
                if not all(mine <= theirs for mine, theirs in pairs):
                    continue
                same = all(mine == theirs for mine, theirs in pairs)
            if same and weak > strong:
                continue  # identical tiles: only the first is held back
            mask |= 1 << weak
        return mask

    # ------------------------------------------------------------------ conversion
    @staticmethod
    def compact(state: RvRState) -> tuple[bytes, int, int, int, int, bool]:
        """Return the compact form of a placement-phase ``state``."""
        shield = state.tables.shield
        board = []
        for code in state.cells:
            if code < 0:
                board.append(_EMPTY)
            elif code & 0xC0:
                board.append(_DOWN)
            else:
                board.append((_SHIELDED if shield[code & 31] else _PLAIN) | ((code >> 5) & 1))

        def mask(tiles: list[int]) -> int:
            result = 0
            for tile in tiles:
                result |= 1 << tile
            return result

        return (
            bytes(board),
            mask(state.areas[0]),
            mask(state.areas[1]),
            mask(state.neutral),
            state.to_move,
            state.citizen_due,
        )

    # ------------------------------------------------------------------ entry points
    def solve(self, state: RvRState, root_values: bool = False) -> Solution:
        """Return the perfect-play value of ``state`` and a best first action."""
        start = time.perf_counter()
        self.deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        self.nodes = 0
        values: dict[str, float] = {}
        best: Action | None = None
        try:
            if state.phase == "over":
                value = state.search_value()
            else:
                value = self.value_of(*self.compact(state))
                best = self._best_action(state, value, values if root_values else None)
            complete = True
        except SolveTimeoutError:
            value, best, complete = 0.0, None, False
        seconds = time.perf_counter() - start
        return Solution(
            float(value), best, self.nodes, seconds, len(self.table), complete, values, "turn"
        )

    def value_of(
        self, board: bytes, h0: int, h1: int, neutral: int, to_move: int, due: bool
    ) -> int:
        """Return the exact value (Regality's view) by MTD(f) on null windows."""
        node = (board, h0, h1, neutral, to_move, due)
        return int(mtdf(self._search, node))

    def _outcome_value(self, outcome: RvRState) -> int:
        if outcome.phase == "over":
            return int(outcome.search_value())
        return self.value_of(*self.compact(outcome))

    def _best_action(
        self, state: RvRState, value: float, values: dict[str, float] | None
    ) -> Action | None:
        """Find the first placement (engine action) whose turn keeps ``value``.

        The table usually proves it already (the search of the root met the outcome that keeps
        the value); only when it does not is a null-window search run per outcome.
        """
        maximising = state.to_move == 0
        turns: list[tuple[Action, list[RvRState]]] = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_unchecked(action)
            outcomes = [child]
            finished: list[RvRState] = []
            while outcomes:
                current = outcomes.pop()
                if current.phase == "effect" and current.to_move == state.to_move:
                    for choice in current.legal_actions():
                        step = current.clone()
                        step.apply_unchecked(choice)
                        outcomes.append(step)
                else:
                    finished.append(current)
            turns.append((action, finished))
        if values is not None:
            best: Action | None = None
            for action, finished in turns:
                scores = [self._outcome_value(o) for o in finished]
                values[str(action)] = float(max(scores) if maximising else min(scores))
                if best is None and values[str(action)] == value:
                    best = action
            return best
        for action, finished in turns:
            for outcome in finished:
                if outcome.phase == "over":
                    score = outcome.search_value()
                    if score >= value if maximising else score <= value:
                        return action
                    continue
                entry = self.table.get(self._key(self.compact(outcome)))
                if entry is not None and (entry[0] >= value if maximising else entry[1] <= value):
                    return action
        for action, finished in turns:
            for outcome in finished:
                if outcome.phase == "over":
                    continue
                node = self.compact(outcome)
                if maximising and self._search(node, value - 1, value) >= value:
                    return action
                if not maximising and self._search(node, value, value + 1) <= value:
                    return action
        return None

    # ------------------------------------------------------------------ search
    def _key(self, node: tuple[bytes, int, int, int, int, bool]) -> int:
        board, h0, h1, neutral, to_move, due = node
        packed = self.canon.get(board)
        if packed is None:
            packed = int.from_bytes(bytes(min([g(board) for g in self.gathers])), "little")
            if len(self.canon) >= self.memo_limit:
                self.canon.clear()
            self.canon[board] = packed
        return (
            packed | (h0 << 72) | (h1 << 104) | (neutral << 136) | (to_move << 168) | (due << 169)
        )

    def _moves(
        self, board: bytes, tile: int, player: int
    ) -> tuple[tuple[tuple[int, bytes, int], ...], frozenset[bytes]]:
        """Every end of turn after ``player`` places ``tile`` on ``board`` (memoised).

        Each is ``(what, board after the turn, value)``: ``what`` is 0 for a full board (the
        game is over with ``value``), 1 when the opponent has no empty space (it loses with
        ``value``), 2 when the opponent fills the last space, 3 for any other position;
        ``value`` is 0 for 2 and 3 (the caller knows whether the opponent has a tile left).
        """
        memo_key = (board, tile, player)
        moves = self.moves.get(memo_key)
        if moves is not None:
            return moves
        empties = [c for c in range(9) if not board[c]]
        plain = [c for c in range(9) if 2 <= board[c] <= 3]
        filled = len(empties) == 1
        other = 1 - player
        placed = self.code[tile] | player
        kind = self.kind[tile]
        tile_groups = self.groups[tile][player]
        boards: list[bytearray] = []
        for cell in empties:
            base = bytearray(board)
            base[cell] = placed
            boards.append(base)
            if kind and not (kind == 2 and filled):
                for group in tile_groups[cell]:
                    hit = [c for c in group if c in plain]
                    if not hit:
                        continue
                    changed = base.copy()
                    if kind == 1:
                        for c in hit:
                            changed[c] ^= 1
                    else:
                        for c in hit:
                            changed[c] = _NEW_DOWN
                    boards.append(changed)
        result: list[tuple[int, bytes, int]] = []
        seen: set[bytes] = set()
        for changed in boards:
            after = bytes(changed).translate(_AFTER_TURN)
            if after in seen:
                continue
            seen.add(after)
            if _EMPTY not in changed and _DOWN not in changed and _NEW_DOWN not in changed:
                result.append((0, after, _final_value(changed)))
            elif _EMPTY not in after:
                result.append((1, after, _no_tile_value(after, other)))
            elif _DOWN not in after and after.count(_EMPTY) == 1:
                result.append((2, after, 0))
            else:
                result.append((3, after, 0))
        moves = (tuple(result), frozenset(seen))
        if len(self.moves) >= self.memo_limit:
            self.moves.clear()
        self.moves[memo_key] = moves
        return moves

    def _children(
        self, node: tuple[bytes, int, int, int, int, bool], alpha: float, beta: float
    ) -> tuple[list[int], list]:
        """Return (terminal values, distinct non-terminal children) after every turn.

        Generation stops as soon as a terminal value alone ends the search of this node (at
        least ``beta`` for Regality to move, at most ``alpha`` for Religion).
        """
        board, h0, h1, neutral, player, due = node
        sign = 1 if player == 0 else -1
        cut = beta if player == 0 else -alpha
        hand = h1 if player else h0
        available = hand | neutral
        if due and hand & self.citizen_bit:
            available = self.citizen_bit
        other = 1 - player
        finals: list[int] = []
        children: list[tuple] = []
        seen: set[tuple] = set()
        bits = available
        while bits:
            low = bits & -bits
            bits ^= low
            tile = low.bit_length() - 1
            if hand & low:
                nh0, nh1, nn = (h0, h1 ^ low, neutral) if player else (h0 ^ low, h1, neutral)
            else:
                nh0, nh1, nn = h0, h1, neutral ^ low
            next_tiles = (nh0 if other == 0 else nh1) | nn
            weak = self.weaker[tile] & hand if hand & low else 0
            dominated: set[bytes] = set()
            while weak:
                other_low = weak & -weak
                weak ^= other_low
                dominated |= self._moves(board, other_low.bit_length() - 1, player)[1]
            for what, after, value in self._moves(board, tile, player)[0]:
                if after in dominated:
                    continue
                if what >= 2:
                    if not next_tiles:
                        value = _no_tile_value(after, other)
                    elif what == 2:
                        value = self._last_value(after, other, next_tiles)
                    else:
                        child = (after, nh0, nh1, nn, other, False)
                        if child not in seen:
                            seen.add(child)
                            children.append(child)
                        continue
                finals.append(value)
                if value * sign >= cut:
                    return finals, children
        return finals, children

    def _last_value(self, board: bytes, player: int, tiles: int) -> int:
        """Value when ``player`` fills the last space (every tile face up, nothing to destroy).

        The margin only grows with the best turn the player can make there (or nothing, by
        declining), so the value is the best over its tiles of one group flip.
        """
        key = (board, player, tiles)
        value = self.last.get(key)
        if value is not None:
            return value
        cell = board.index(_EMPTY)
        own, theirs = _PLAIN | player, _PLAIN | (1 - player)
        gain = 0
        kinds, groups = self.kind, self.groups
        bits = tiles
        while bits:
            low = bits & -bits
            bits ^= low
            tile = low.bit_length() - 1
            if kinds[tile] != 1:
                continue
            for group in groups[tile][player][cell]:
                flip = 0
                for c in group:
                    v = board[c]
                    if v == theirs:
                        flip += 2
                    elif v == own:
                        flip -= 2
                if flip > gain:
                    gain = flip
        margin = _margin(board, player) + 1 + gain
        if player:
            margin = -margin
        value = WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin
        if len(self.last) >= self.memo_limit:
            self.last.clear()
        self.last[key] = value
        return value

    def _search(
        self,
        node: tuple[bytes, int, int, int, int, bool],
        alpha: float,
        beta: float,
        key: int | None = None,
    ) -> float:
        """Fail-soft alpha-beta over whole turns; ``key`` is the node's table key if known.

        Before searching any child, the children's table entries are read: one that already
        proves a cut-off ends the node (enhanced transposition cut-off), and the rest order the
        search (the previous best child first, then children with the best known bound, then by
        the ally margin they leave).
        """
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 4095 and time.monotonic() > self.deadline:
            raise SolveTimeoutError
        table = self.table
        if key is None:
            key = self._key(node)
        entry = table.get(key)
        hint = None
        if entry is not None:
            lower, upper, hint = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        alpha0, beta0 = alpha, beta
        maximising = node[4] == 0
        finals, children = self._children(node, alpha, beta)
        best = -INF if maximising else INF
        best_child = hint
        if finals:
            best = max(finals) if maximising else min(finals)
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        if alpha < beta and children:
            mover = 0 if maximising else 1
            get = table.get
            keyer = self._key
            scored = []
            for child in children:
                child_key = keyer(child)
                known = get(child_key)
                if known is None:
                    score = _margin(child[0], mover)
                elif maximising:
                    if known[0] >= beta:
                        best = known[0]
                        best_child = child
                        alpha = best
                        break
                    score = 100 + known[1] if known[1] > alpha else -100 + known[1]
                else:
                    if known[1] <= alpha:
                        best = known[1]
                        best_child = child
                        beta = best
                        break
                    score = 100 - known[0] if known[0] < beta else -100 - known[0]
                if child == hint:
                    score = 1000
                scored.append((score, child_key, child))
            else:
                scored.sort(key=_first, reverse=True)
                for _, child_key, child in scored:
                    value = self._search(child, alpha, beta, child_key)
                    if maximising:
                        if value > best:
                            best = value
                            best_child = child
                            if value > alpha:
                                alpha = value
                    elif value < best:
                        best = value
                        best_child = child
                        if value < beta:
                            beta = value
                    if alpha >= beta:
                        break
        lower, upper = (-INF, INF) if entry is None else (entry[0], entry[1])
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta0:
            lower = max(lower, best)
        else:
            lower = upper = best
        if entry is not None or len(table) < self.max_table:
            table[key] = (lower, upper, best_child)
        return best


_AFTER_TURN = bytes([0, 0, 2, 3, 4, 5, 1, 7]) + bytes(range(8, 256))


def _margin(board: bytes | bytearray, player: int) -> int:
    """Face-up allies of ``player`` minus the opponent's."""
    margin = board.count(2) + board.count(4) - board.count(3) - board.count(5)
    return -margin if player else margin


def _final_value(board: bytes | bytearray) -> int:
    """Value of a full board (all face up): the most allies wins, a tie goes to Religion."""
    margin = _margin(board, 0)
    return WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin


def _no_tile_value(board: bytes, loser: int) -> int:
    """Value when ``loser`` cannot place a tile at the start of its turn."""
    margin = _margin(board, 0)
    return -WIN_SCORE + margin if loser == 0 else WIN_SCORE + margin


def solve(state: RvRState, time_limit: float | None = None) -> Solution:
    """Solve ``state`` with a fresh table (the fast turn-level solver whenever it applies)."""
    return make_solver(state, time_limit=time_limit).solve(state)


def make_solver(
    state: RvRState, time_limit: float | None = None, max_table: int | None = None
) -> Solver | FastSolver:
    """Return a ``FastSolver`` for ``state`` if it can search it, else the general ``Solver``."""
    if fast_solvable(state):
        if max_table is None:
            return FastSolver(state, time_limit=time_limit)
        return FastSolver(state, time_limit=time_limit, max_table=max_table)
    if max_table is None:
        return Solver(time_limit=time_limit)
    return Solver(time_limit=time_limit, max_table=max_table)
