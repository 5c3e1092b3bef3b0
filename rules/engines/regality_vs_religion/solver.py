"""Perfect play for Regality vs Religion: alpha-beta with a transposition table and symmetries.

The value of a position is from Regality's point of view: ``+20 + margin`` when Regality wins,
``-20 + margin`` when it loses (``margin`` = Regality's allies minus Religion's at the end), 0 for a
draw. Maximising it means "win first, then by as many allies as possible"; the loser limits the
margin. Positions are stored once per symmetry class of the board, using only the symmetries the
tiles in play allow (all eight for old-style; a Fortuneteller or a Sage removes some).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Final

from rules.engines.core import Action
from rules.engines.regality_vs_religion.game import ENDGAME, WIN_SCORE, RvRState
from rules.engines.regality_vs_religion.powers import TileSpec

INF: Final = float("inf")


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
    """The solver ran past its time limit or its node budget."""


def _check_budget(nodes: int, max_nodes: int | None, deadline: float | None) -> None:
    """Raise ``SolveTimeoutError`` once the search has spent its nodes or its time (the
    searches call this every 4,096 nodes)."""
    if (max_nodes is not None and nodes > max_nodes) or (
        deadline is not None and time.monotonic() > deadline
    ):
        raise SolveTimeoutError


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

    def __init__(
        self,
        time_limit: float | None = None,
        max_table: int = 4_000_000,
        max_nodes: int | None = None,
    ) -> None:
        self.table: dict[object, tuple[float, float]] = {}
        self.history: dict[Action, int] = {}
        self.max_table = max_table
        self.time_limit = time_limit
        self.deadline: float | None = None
        # A budget in nodes gives up at the same point on any machine (a time limit does not).
        self.max_nodes = max_nodes
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
        if not self.nodes & 4095:
            _check_budget(self.nodes, self.max_nodes, self.deadline)
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
        children: list[tuple[Action, RvRState | None]]
        if len(actions) > 1:
            if state.phase == "effect":
                # Choices: try the one that leaves the mover best off first (cheap to apply).
                scored = []
                for action in actions:
                    trial = state.clone()
                    trial.apply_unchecked(action)
                    if trial.phase == "over":
                        value = trial.search_value()
                        score = 1000 + (value if maximising else -value)
                    else:
                        regality, religion = trial.allies()
                        score = float(regality - religion if maximising else religion - regality)
                    scored.append((score, action, trial))
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
# same space, two directions that turn the same tiles) are searched once. The board is one
# integer of bit fields (see ``_UP_FIELDS``), so a turn or a destruction is a mask operation.

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

    A position is ``(board, hand0, hand1, neutral, to_move, citizen_due)``: ``board`` one integer
    (the bit fields above), hands bit masks over the tiles in play (numbered locally). The table
    maps a symmetry-reduced packed key to ``(lower, upper, key of the best child)``; the best
    child is searched first next time.
    """

    def __init__(
        self,
        state: RvRState,
        time_limit: float | None = None,
        max_table: int = 8_000_000,
        max_nodes: int | None = None,
    ) -> None:
        if not fast_solvable(state):
            raise ValueError("this position needs the general Solver")
        tables = state.tables
        self.tables = tables
        # Tiles that can still be placed, numbered 0..n-1; the board only keeps cell states.
        self.tiles = tuple(sorted({*state.areas[0], *state.areas[1], *state.neutral}))
        self.local = {tile: index for index, tile in enumerate(self.tiles)}
        count = len(self.tiles)
        specs = [tables.specs[tile] for tile in self.tiles]
        self.kind = tuple(
            _FAST_KINDS.get(s.active.kind, 0) if s.active is not None else 0 for s in specs
        )
        self.shielded = tuple(bool(s.shield) for s in specs)
        # groups[i][player][cell]: the distinct cell masks one choice of tile i can affect.
        nothing: tuple[tuple[int, ...], ...] = ((),) * 9
        self.groups = tuple(
            tuple(
                tuple(
                    tuple(sorted({_mask(g) for g in tables.groups[tile][p][c]})) for c in range(9)
                )
                for p in (0, 1)
            )
            if self.kind[i]
            else (nothing, nothing)
            for i, tile in enumerate(self.tiles)
        )
        self.turners = sum(1 << i for i in range(count) if self.kind[i] == 1)
        # Every destroyer unshielded, destroying one space: _small's fast destructions apply.
        self.simple_destroyers = all(
            not self.shielded[i]
            and all(_POPCOUNT[g] == 1 for side in self.groups[i] for c in side for g in c)
            for i in range(count)
            if self.kind[i] == 2
        )
        self.reach: dict[int, int] = {}
        self.tile_reaches: dict[int, int] = {}
        self.destroyers = sum(1 << i for i in range(count) if self.kind[i] == 2)
        self.shielded_tiles = sum(1 << i for i in range(count) if self.shielded[i])
        # player | cell << 1 | turning tiles << 5 -> the distinct (shield bit, cell mask) turns
        # those tiles offer from that cell.
        self.turns: dict[int, tuple[tuple[int, int], ...]] = {}
        citizen = self.local.get(tables.citizen)
        self.citizen_bit = 0 if citizen is None else 1 << citizen
        # weaker[u]: tiles whose every choice ``u`` also has, from every space (same shield):
        # when both are in the mover's hand and reach the same board, placing ``u`` (keeping the
        # weaker tile) is never better than placing the weaker tile and keeping ``u``.
        self.weaker = tuple(self._weaker(u, count) for u in range(count))
        perms = [perm for _, perm in state.symmetries] or [tuple(range(9))]
        self.symmetries = tuple(
            tuple(_permute_mask(perm, m) for m in range(512))
            for perm in perms
            if perm != tuple(range(9))
        )
        # Every tile stays with the side (or the neutral area) it started in until it is
        # placed, so the three hands share one field of the keys: h0 | h1 | neutral says which
        # tiles are where. Keys then fit in 63 bits (fast native integers when compiled).
        self.owners = (
            self._hand_mask(state.areas[0]),
            self._hand_mask(state.areas[1]),
            self._hand_mask(state.neutral),
        )
        self.hand_shift = (36, 36, 36, 36 + count)
        self.table: dict[int, tuple[float, float, int | None]] = {}
        # player | cell << 1 | turning tiles << 5 -> the distinct cell masks they can turn
        # from that cell (a few hundred entries, read by every closed-form last placement).
        self.last_groups: dict[int, tuple[int, ...]] = {}
        self.moves: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
        self.deltas: dict[int, tuple[tuple[int, int, int, int, int, int], ...]] = {}
        self.dominated_marks: dict[int, frozenset[int]] = {}
        self.dominated: dict[int, frozenset[int]] = {}
        self.refills: dict[int, float] = {}
        # Keys of _refill's and _small's memos: the turners (and, for _small, the mover's
        # destroyers) of both sides in one field (each tile has one owner), then flags.
        self.flag_shift = 37 + count
        self.powered = self.turners | self.destroyers
        self.small_bounds: dict[int, tuple[float, float]] = {}
        self.max_table = max_table
        self.memo_limit = min(max_table, 1_000_000)
        self.time_limit = time_limit
        self.deadline: float | None = None
        self.max_nodes = max_nodes
        self.nodes = 0
        # Refutations per move, as a tie-break fraction below one ally (_HISTORY_STEP each).
        self.history = [0.0] * (1 << 14)
        self.killers: list[list[int]] = [[] for _ in range(20)]
        self.lookahead_cells = _LOOKAHEAD_CELLS
        self.small_in_table = False
        # Shortcuts that the tests switch off to check them against the generic search. The
        # end positions' memo needs every destruction to take a single tile (no recursion).
        self.inline_three = True
        self.small_memo = self.simple_destroyers

    def _weaker(self, strong: int, count: int) -> int:
        mask = 0
        for weak in range(count):
            if weak == strong or self.shielded[weak] != self.shielded[strong]:
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
    def compact(self, state: RvRState) -> tuple[int, int, int, int, int, bool]:
        """Return the compact form of a placement-phase ``state``."""
        shield = state.tables.shield
        board = 0
        for cell, code in enumerate(state.cells):
            if code < 0:
                continue
            bit = 1 << cell
            if code & 0xC0:
                board |= bit << 27
            else:
                board |= bit << (9 * ((code >> 5) & 1))
                if shield[code & 31]:
                    board |= bit << 18

        hands = (
            self._hand_mask(state.areas[0]),
            self._hand_mask(state.areas[1]),
            self._hand_mask(state.neutral),
        )
        if any(hand & ~owner for hand, owner in zip(hands, self.owners, strict=True)):
            # The keys hold the three hands in one field (see __init__).
            raise ValueError("this solver was built for a position with other hands")
        return (board, hands[0], hands[1], hands[2], state.to_move, state.citizen_due)

    def _hand_mask(self, tiles: list[int]) -> int:
        """The bit mask of ``tiles`` over the tiles in play (``KeyError`` for one that is not)."""
        result = 0
        for tile in tiles:
            result |= 1 << self.local[tile]
        return result

    # ------------------------------------------------------------------ entry points
    def solve(self, state: RvRState, root_values: bool = False) -> Solution:
        """Return the perfect-play value of ``state`` and a best first action."""
        start = time.perf_counter()
        self.deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        self.nodes = 0
        values: dict[str, float] = {}
        best: Action | None = None
        # The table's entries hold no reference cycles, so the cyclic collector would only
        # walk millions of them again and again as they are made (7-12% of a deep solve).
        collecting = gc.isenabled()
        gc.disable()
        try:
            if state.phase == "over":
                value = state.search_value()
            else:
                value = float(self.value_of(*self.compact(state)))
                best = self._best_action(state, value, values if root_values else None)
            complete = True
        except SolveTimeoutError:
            value, best, complete = 0.0, None, False
        finally:
            if collecting:
                gc.enable()
        seconds = time.perf_counter() - start
        return Solution(
            float(value), best, self.nodes, seconds, len(self.table), complete, values, "turn"
        )

    def value_of(self, board: int, h0: int, h1: int, neutral: int, to_move: int, due: bool) -> int:
        """Return the exact value (Regality's view) by MTD(f) on null windows."""
        node = (board, h0, h1, neutral, to_move, due)
        to_fill = _POPCOUNT[511 & ~((board | board >> 9) & 511)]
        self.lookahead_cells = max(_LOOKAHEAD_CELLS, to_fill - 1)
        # Deep searches reach the same end positions by many move orders: store them too.
        self.small_in_table = to_fill >= _SMALL_IN_TABLE
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
    def _key(self, node: tuple[int, int, int, int, int, bool]) -> int:
        board, h0, h1, neutral, to_move, due = node
        # Computed each time: a few masks cost less than a memo read of every board (a cache
        # miss; compiled, 0.66 s against 0.77 s median on six empty cells).
        packed = self._canonical(board)
        s0, s1, s2, s3 = self.hand_shift
        return packed | h0 << s0 | h1 << s1 | neutral << s2 | to_move << s3 | due << (s3 + 1)

    def _canonical(self, board: int) -> int:
        """The least image of ``board`` under the symmetries the tiles allow."""
        packed = board
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        for sym in self.symmetries:
            image = sym[r0] | sym[r1] << 9 | sym[sh] << 18 | sym[down] << 27
            if image < packed:
                packed = image
        return packed

    def _moves(self, board: int, tile: int, player: int) -> tuple[tuple[int, int, int, int], ...]:
        """Every end of turn after ``player`` places ``tile`` on ``board`` (memoised).

        Each is ``(what, board after the turn, value, move)``: ``what`` is 0 for a full board
        (the game is over with ``value``), 2 when the opponent fills the last space, 3 for any
        other position (a destruction never fills the board, so the opponent always has a
        space); ``value`` is 0 for 2 and 3 (the caller knows whether the opponent has a tile);
        ``move`` is ``cell << 4 | choice`` (0 for declining, else the group's number from 1).
        """
        memo_key = board | tile << 36 | player << 42
        moves = self.moves.get(memo_key)
        if moves is not None:
            return moves
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        empty = 511 & ~(r0 | r1 | down)
        plain = (r0 | r1) & ~sh
        delta_key = empty | down << 9 | plain << 18 | player << 27 | tile << 28
        deltas = self.deltas.get(delta_key)
        if deltas is None:
            deltas = self._deltas(empty, down, plain, tile, player, delta_key)
        # The tiles already face down were destroyed by the opponent: they leave at the start
        # of its turn. Tiles destroyed now are face down when it starts.
        up = board & _UP_FIELDS
        result = []
        for what, add, keep, flip, code, _ in deltas:
            after = ((up | add) & keep) ^ flip
            result.append(
                (0, after, _final_value(after), code) if not what else (what, after, 0, code)
            )
        moves = tuple(result)
        if len(self.moves) >= self.memo_limit:
            self.moves.clear()
        self.moves[memo_key] = moves
        return moves

    def _deltas(
        self, empty: int, down: int, plain: int, tile: int, player: int, key: int
    ) -> tuple[tuple[int, int, int, int, int, int], ...]:
        """Every turn of ``player`` placing ``tile`` as a mask operation (memoised by ``key``).

        A turn depends on the board only through its empty, face-down and unshielded face-up
        cells, so many boards share one entry. Each is ``(what, add, keep, flip, move, mark)``:
        the board after the turn is ``((face-up fields | add) & keep) ^ flip``; ``what`` and
        ``move`` as in ``_moves``; ``mark`` (the bits the turn adds, turns or marks face down
        together) tells two turns from one board apart exactly when their boards differ.
        """
        filled = not empty & (empty - 1)
        kind = self.kind[tile]
        groups = self.groups[tile][player]
        shift = 9 * player
        shield = self.shielded[tile]
        everything = (1 << 36) - 1
        result: list[tuple[int, int, int, int, int, int]] = []
        bits = empty
        while bits:
            low = bits & -bits
            bits ^= low
            add = low << shift | (low << 18 if shield else 0)
            cell = low.bit_length() - 1
            code = cell << 4
            after_empty = (empty ^ low) | down
            # Without a destruction: the board fills (what 0), the opponent fills the last
            # space (2), or the game goes on (3). A destruction never fills the board (3).
            if not after_empty:
                what = 0
            elif after_empty & (after_empty - 1):
                what = 3
            else:
                what = 2
            result.append((what, add, everything, 0, code, add))
            # Distinct targets give distinct boards: only the first group of each is kept.
            hits: set[int] = set()
            if kind == 1:
                for index, group in enumerate(groups[cell], 1):
                    hit = group & plain
                    if hit and hit not in hits:
                        hits.add(hit)
                        flip = hit | hit << 9
                        result.append((what, add, everything, flip, code | index, add ^ flip))
            elif kind == 2 and not filled:
                for index, group in enumerate(groups[cell], 1):
                    hit = group & plain
                    if hit and hit not in hits:
                        hits.add(hit)
                        keep = everything ^ (hit | hit << 9)
                        result.append((3, add, keep, hit << 27, code | index, add | hit << 27))
        deltas = tuple(result)
        if len(self.deltas) >= self.memo_limit:
            self.deltas.clear()
        self.deltas[key] = deltas
        return deltas

    def _children(
        self, node: tuple[int, int, int, int, int, bool], alpha: float, beta: float
    ) -> tuple[list[int], list[tuple[tuple[int, int, int, int, int, bool], int]]]:
        """Return (terminal values, distinct non-terminal children) after every turn.

        Each child comes with its move (player, tile, space and choice as one small integer, the
        history heuristic's index). Generation stops as soon as a terminal value alone ends the
        search of this node (at least ``beta`` for Regality to move, at most ``alpha`` for
        Religion).
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
        children: list[tuple[tuple[int, int, int, int, int, bool], int]] = []
        value: int
        dominated: frozenset[int] | None
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        up = board & _UP_FIELDS
        empty = 511 & ~(r0 | r1 | down)
        plain = (r0 | r1) & ~sh
        delta_base = empty | down << 9 | plain << 18 | player << 27
        bits = available
        while bits:
            low = bits & -bits
            bits ^= low
            tile = low.bit_length() - 1
            if hand & low:
                nh0, nh1, nn = (h0, h1 ^ low, neutral) if player else (h0 ^ low, h1, neutral)
            else:
                nh0, nh1, nn = h0, h1, neutral ^ low
            next_tiles = (nh1 if other else nh0) | nn
            # Distinct tiles leave distinct hands, so children of different tiles never merge.
            weak = self.weaker[tile] & hand if hand & low else 0
            dominated = _NO_BOARDS
            if weak:
                weak_key = board | tile << 36 | player << 42 | weak << 43
                dominated = self.dominated.get(weak_key)
                if dominated is None:
                    dominated = self._dominated(board, weak, player, weak_key)
            move_base = player << 13 | tile << 8
            # The turns straight from _deltas' memo (see _moves; no memo of each board's).
            delta_key = delta_base | tile << 28
            deltas = self.deltas.get(delta_key)
            if deltas is None:
                deltas = self._deltas(empty, down, plain, tile, player, delta_key)
            for what, add, keep, flip, code, _ in deltas:
                after = ((up | add) & keep) ^ flip
                if not what:
                    value = _final_value(after)
                else:
                    if dominated and after in dominated:
                        continue
                    if not next_tiles:
                        value = _no_tile_value(after, other)
                    elif what == 2:
                        value = self._last_value(after, other, next_tiles)
                    else:
                        children.append(((after, nh0, nh1, nn, other, False), move_base | code))
                        continue
                finals.append(value)
                if value * sign >= cut:
                    return finals, children
        return finals, children

    def _dominated(self, board: int, weak: int, player: int, key: int) -> frozenset[int]:
        """The boards ``player`` reaches by placing one of the ``weak`` tiles (memoised)."""
        boards: set[int] = set()
        while weak:
            low = weak & -weak
            weak ^= low
            boards.update(move[1] for move in self._moves(board, low.bit_length() - 1, player))
        if len(self.dominated) >= self.memo_limit:
            self.dominated.clear()
        result = self.dominated[key] = frozenset(boards)
        return result

    def _dominated_marks(
        self, empty: int, down: int, plain: int, player: int, weak: int
    ) -> frozenset[int]:
        """The marks (see ``_deltas``) of the turns of the ``weak`` tiles (memoised): a turn of
        a stronger tile with one of these marks reaches a board a weaker tile reaches."""
        key = empty | down << 9 | plain << 18 | player << 27
        marks: set[int] = set()
        bits = weak
        while bits:
            low = bits & -bits
            bits ^= low
            tile_key = key | (low.bit_length() - 1) << 28
            deltas = self.deltas.get(tile_key)
            if deltas is None:
                deltas = self._deltas(empty, down, plain, low.bit_length() - 1, player, tile_key)
            marks.update(delta[5] for delta in deltas)
        if len(self.dominated_marks) >= self.memo_limit:
            self.dominated_marks.clear()
        result = self.dominated_marks[key | weak << 28] = frozenset(marks)
        return result

    def _lookahead(self, node: tuple[int, int, int, int, int, bool]) -> float:
        """Order estimate (Regality's view): the best the player to move reaches in one turn.

        A turn that ends the game counts with its value (which outweighs any margin); the
        others with the ally margin they leave, a destruction marked down as in ``_search``.
        """
        board, h0, h1, neutral, player, _ = node
        estimate: float
        hand = h1 if player else h0
        bits = hand | neutral
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        empty = 511 & ~(r0 | r1 | down)
        if bits and self.simple_destroyers and _POPCOUNT[empty | down] >= 4:
            # No turn can end the game: the best margin in closed form, from each empty space
            # the best turn (+1 + 2 per tile turned over, -2 per own tile) or destruction (+1,
            # +1 per tile of the opponent, -1 per own tile, less the destruction's mark-down).
            own, theirs = (r1, r0) if player else (r0, r1)
            plain = ~sh
            own_plain, theirs_plain = own & plain, theirs & plain
            turners = bits & self.turners
            # (A destruction needs another empty space: filling the board allows none.)
            destroyers = bits & self.destroyers if empty & (empty - 1) else 0
            gain = 1
            cells = empty
            while cells:
                spot = cells & -cells
                cells ^= spot
                cell = spot.bit_length() - 1
                if turners:
                    for _, group in self._turns(player, cell, turners):
                        flip = 1 + 2 * (
                            _POPCOUNT[group & theirs_plain] - _POPCOUNT[group & own_plain]
                        )
                        if flip > gain:
                            gain = flip
                if destroyers and gain < 2 - _DESTROY_PENALTY:
                    reach_key = player | cell << 1 | destroyers << 5
                    targets = self.reach.get(reach_key)
                    if targets is None:
                        targets = self._reach(player, cell, destroyers, reach_key)
                    if targets & theirs_plain:
                        gain = 2 - _DESTROY_PENALTY
                    elif targets & own_plain and gain < -_DESTROY_PENALTY:
                        gain = -_DESTROY_PENALTY
            estimate = float(_POPCOUNT[own] - _POPCOUNT[theirs] + gain)
            return -estimate if player else estimate
        best: float | None = None
        while bits:
            low = bits & -bits
            bits ^= low
            for what, after, value, _ in self._moves(board, low.bit_length() - 1, player):
                estimate = float(value)
                if what >= 2:
                    estimate = float(_POPCOUNT[after & 511] - _POPCOUNT[(after >> 9) & 511])
                    if after >> 27:
                        estimate += _DESTROY_PENALTY if player else -_DESTROY_PENALTY
                if best is None or (estimate < best if player else estimate > best):
                    best = estimate
        return 0 if best is None else best

    def _small(
        self,
        board: int,
        h0: int,
        h1: int,
        neutral: int,
        player: int,
        due: bool,
        alpha: float,
        beta: float,
    ) -> float:
        """``_small_search`` with a bound memo keyed by what the tiles in hand can do.

        Without neutral tiles or a Citizen due, an end-of-game node's value depends on the hands
        only through what their tiles can do: the mover's turning and destroying tiles and
        whether it also holds a plain or a shielded tile without a power; the opponent's
        turning tiles (for the last space) and whether it holds a plain or a shielded tile (for
        the space a destruction frees). That gives far fewer keys than positions: the memo
        holds (lower, upper) bounds, as the table does, and is read before a search.
        """
        if neutral or due or not self.small_memo:
            return self._small_search(board, h0, h1, neutral, player, due, alpha, beta)
        mover, opponent = (h1, h0) if player else (h0, h1)
        key = board | self._small_suffix(player, mover, opponent)
        return self._small_probe(board, h0, h1, neutral, player, due, key, alpha, beta)

    def _small_suffix(self, player: int, mover: int, opponent: int) -> int:
        """``_small``'s memo key less the board (see ``_small``)."""
        shielded = self.shielded_tiles
        powers = mover & self.powered
        rest = mover ^ powers
        flags = (
            (1 if rest & ~shielded else 0)
            | (2 if rest & shielded else 0)
            | (4 if opponent & ~shielded else 0)
            | (8 if opponent & shielded else 0)
        )
        # The mover's powers and the opponent's turners are tiles of different owners.
        return player << 36 | (powers | opponent & self.turners) << 37 | flags << self.flag_shift

    def _small_probe(
        self,
        board: int,
        h0: int,
        h1: int,
        neutral: int,
        player: int,
        due: bool,
        key: int,
        alpha: float,
        beta: float,
    ) -> float:
        """``_small_search`` of a node through the bound memo, ``key`` its memo key."""
        entry = self.small_bounds.get(key)
        if entry is None:
            lower, upper = -INF, INF
        else:
            lower, upper = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        best = self._small_search(board, h0, h1, neutral, player, due, alpha, beta)
        if best <= alpha:
            upper = best if best < upper else upper
        elif best >= beta:
            lower = best if best > lower else lower
        else:
            lower = upper = best
        bounds = self.small_bounds
        if entry is None and len(bounds) >= self.memo_limit:
            bounds.clear()
        bounds[key] = (lower, upper)
        return best

    def _small_search(
        self,
        board: int,
        h0: int,
        h1: int,
        neutral: int,
        player: int,
        due: bool,
        alpha: float,
        beta: float,
    ) -> float:
        """Fail-soft alpha-beta of an end-of-game node (two spaces or fewer left to fill).

        Every turn but a destruction ends in a closed form (the board fills, or the opponent
        fills the last space), whose value depends only on the board it leaves: the turns of
        all the mover's tiles are pooled and each distinct board is valued once. A destruction
        leaves one empty and one face-down space, valued in closed form too (``_refill``). Small
        nodes are almost never reached twice, so they are not stored in the table.
        """
        self.nodes += 1
        value: float | None  # a memo read may miss (None) before the value is computed
        hand = h1 if player else h0
        available = hand | neutral
        if due and hand & self.citizen_bit:
            available = self.citizen_bit
        other = 1 - player
        maximising = player == 0
        best = -INF if maximising else INF
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        empty = 511 & ~(r0 | r1 | down)
        plain = (r0 | r1) & ~sh
        up = board & _UP_FIELDS
        shift = 9 * player
        turners = self.turners
        opponent = h0 if player else h1
        # Tiles from the hand leave the opponent the same tiles; a neutral tile is one fewer.
        pools = [(available & hand, opponent | neutral)]
        bits = available & ~hand
        while bits:
            low = bits & -bits
            bits ^= low
            pools.append((low, opponent | neutral ^ low))
        for tiles, next_tiles in pools:
            if not tiles:
                continue
            turns_key = player | (tiles & turners) << 5
            shields = tiles & self.shielded_tiles
            plains = tiles & ~shields
            cells = empty
            while cells:
                spot = cells & -cells
                cells ^= spot
                placed = up | spot << shift
                outcomes = []
                if plains:
                    outcomes.append(placed)
                if shields:
                    outcomes.append(placed | spot << 18)
                cell = spot.bit_length() - 1
                turns = self.turns.get(turns_key | cell << 1)
                if turns is None:
                    turns = self._turns(player, cell, tiles)
                for shield_bit, group in turns:
                    hit = group & plain
                    if hit:
                        outcomes.append((placed | shield_bit) ^ (hit | hit << 9))
                filling = not ((empty ^ spot) | down)
                for after in outcomes:
                    if filling:
                        margin = _POPCOUNT[after & 511] - _POPCOUNT[(after >> 9) & 511]
                        value = WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin
                    elif not next_tiles:
                        value = _no_tile_value(after, other)
                    else:
                        value = self._last_value(after, other, next_tiles)
                    if maximising:
                        if value > best:
                            best = float(value)
                            if value >= beta:
                                return best
                    elif value < best:
                        best = float(value)
                        if value <= alpha:
                            return best
        # Destructions (only with two empty spaces: filling the board allows none).
        bits = available & self.destroyers if empty & (empty - 1) else 0
        if bits and not neutral and self.simple_destroyers:
            # Without neutral tiles, _refill's value does not depend on which destroyer was
            # used (only on what the kept tiles can do, which none of them changes), so each
            # space within reach of one of them from each empty space is valued once, its memo
            # read here. (Every destroyer here is unshielded and destroys a single space.)
            suffix = self._refill_suffix(other, opponent, hand & ~(bits & -bits))
            cells = empty
            while cells:
                spot = cells & -cells
                cells ^= spot
                placed = up | spot << shift
                cell = spot.bit_length() - 1
                reach_key = player | cell << 1 | bits << 5
                targets = self.reach.get(reach_key)
                if targets is None:
                    targets = self._reach(player, cell, bits, reach_key)
                targets &= plain
                while targets:
                    hit = targets & -targets
                    targets ^= hit
                    after = (placed & ~(hit | hit << 9)) | hit << 27
                    value = self.refills.get(after | suffix)
                    if value is None:
                        value = self._refill_by(
                            after, empty ^ spot, cell, hit, h0, h1, player, bits
                        )
                    if maximising:
                        if value > best:
                            best = value
                            if value >= beta:
                                return best
                    elif value < best:
                        best = value
                        if value <= alpha:
                            return best
            return best
        while bits:
            low = bits & -bits
            bits ^= low
            tile = low.bit_length() - 1
            if hand & low:
                nh0, nh1, nn = (h0, h1 ^ low, neutral) if player else (h0 ^ low, h1, neutral)
            else:
                nh0, nh1, nn = h0, h1, neutral ^ low
            # (not ``shield_bit``: that name holds an int above, and a compiled build keeps one
            # type per name, so a bool stored in it fails)
            shielded = self.shielded[tile]
            cells = empty
            while cells:
                spot = cells & -cells
                cells ^= spot
                placed = up | spot << shift | (spot << 18 if shielded else 0)
                for group in self.groups[tile][player][spot.bit_length() - 1]:
                    hit = group & plain
                    if not hit:
                        continue
                    after = (placed & ~(hit | hit << 9)) | hit << 27
                    if not hit & (hit - 1):
                        # One tile destroyed: the opponent places on the last empty space and
                        # this player fills the destroyed tile's space (closed form).
                        value = self._refill(after, empty ^ spot, nh0, nh1, nn, other)
                        if maximising:
                            if value > best:
                                best = value
                                if value >= beta:
                                    return best
                        elif value < best:
                            best = value
                            if value <= alpha:
                                return best
                        continue
                    if maximising:
                        value = self._small(
                            after, nh0, nh1, nn, other, False, max(alpha, best), beta
                        )
                        if value > best:
                            best = value
                            if value >= beta:
                                return best
                    else:
                        value = self._small(
                            after, nh0, nh1, nn, other, False, alpha, min(beta, best)
                        )
                        if value < best:
                            best = value
                            if value <= alpha:
                                return best
        return best

    def _refill(self, board: int, spot: int, h0: int, h1: int, neutral: int, player: int) -> float:
        """Exact value when ``player`` must place on the one empty space ``spot`` of ``board``
        (which has one face-down tile) and the opponent then fills that tile's space.

        This is the position a destruction leaves two spaces from the end; it is valued like
        ``_small`` would, without a window: the best over the player's placements and turns of
        the closed-form last placement (memoised by the raw position).
        """
        hand = h1 if player else h0
        other = 1 - player
        opponent = h0 if player else h1
        if neutral:
            s0, s1, s2, s3 = self.hand_shift
            # (the top bit keeps these keys apart from those without neutral tiles)
            key = board | h0 << s0 | h1 << s1 | neutral << s2 | player << s3
            key |= 1 << (self.flag_shift + 3)
        else:
            key = board | self._refill_suffix(player, hand, opponent)
        value = self.refills.get(key)
        if value is not None:
            return value
        self.nodes += 1
        r0, r1, sh = board & 511, (board >> 9) & 511, (board >> 18) & 511
        plain = (r0 | r1) & ~sh
        # The face-down tile leaves: the placement's board keeps only the face-up fields.
        placed = (board & _UP_FIELDS) | spot << (9 * player)
        cell = spot.bit_length() - 1
        maximising = player == 0
        best = -INF if maximising else INF
        pools = [(hand, opponent | neutral)]
        bits = neutral
        while bits:
            low = bits & -bits
            bits ^= low
            pools.append((low, opponent | neutral ^ low))
        for tiles, next_tiles in pools:
            if not tiles:
                continue
            outcomes = []
            shields = tiles & self.shielded_tiles
            if tiles & ~shields:
                outcomes.append(placed)
            if shields:
                outcomes.append(placed | spot << 18)
            for shield_bit, group in self._turns(player, cell, tiles):
                hit = group & plain
                if hit:
                    outcomes.append((placed | shield_bit) ^ (hit | hit << 9))
            for after in outcomes:
                if not next_tiles:
                    value = _no_tile_value(after, other)
                else:
                    value = self._last_value(after, other, next_tiles)
                if value > best if maximising else value < best:
                    best = float(value)
        if len(self.refills) >= self.memo_limit:
            self.refills.clear()
        self.refills[key] = best
        return best

    def _tile_reach(self, tile: int, player: int, empty: int, key: int) -> int:
        """The spaces ``tile`` can act on from any of the ``empty`` spaces (memoised)."""
        reach = 0
        for cell in range(9):
            if empty >> cell & 1:
                for group in self.groups[tile][player][cell]:
                    reach |= group
        self.tile_reaches[key] = reach
        return reach

    def _reach(self, player: int, cell: int, tiles: int, key: int) -> int:
        """The spaces the destroyers ``tiles`` can destroy from ``cell`` (memoised by ``key``)."""
        targets = 0
        while tiles:
            low = tiles & -tiles
            tiles ^= low
            for group in self.groups[low.bit_length() - 1][player][cell]:
                targets |= group
        self.reach[key] = targets
        return targets

    def _refill_by(
        self,
        after: int,
        spot: int,
        cell: int,
        hit: int,
        h0: int,
        h1: int,
        player: int,
        destroyers: int,
    ) -> float:
        """``_refill`` after ``player`` (hands ``h0``, ``h1``) placed one of its ``destroyers``
        that can destroy ``hit`` from ``cell`` and did (no neutral tiles)."""
        while destroyers:
            low = destroyers & -destroyers
            destroyers ^= low
            if hit in self.groups[low.bit_length() - 1][player][cell]:
                break
        if player:
            return self._refill(after, spot, h0, h1 ^ low, 0, 0)
        return self._refill(after, spot, h0 ^ low, h1, 0, 1)

    def _refill_suffix(self, player: int, hand: int, opponent: int) -> int:
        """``_refill``'s memo key without neutral tiles, less the board: only what the tiles
        can do matters (the player's turns, whether it holds a plain or a shielded tile, the
        opponent's turns for the last space and whether it holds any tile)."""
        turners = self.turners
        shielded = self.shielded_tiles
        flags = (1 if hand & ~shielded else 0) | (2 if hand & shielded else 0)
        if opponent:
            flags |= 4
        # The two sides' turners are tiles of different owners: one field holds both.
        return player << 36 | ((hand | opponent) & turners) << 37 | flags << self.flag_shift

    def _turns(self, player: int, cell: int, tiles: int) -> tuple[tuple[int, int], ...]:
        """The distinct turns ``tiles`` offer from ``cell``: (shield bit of the tile, targets)."""
        tiles &= self.turners
        key = player | cell << 1 | tiles << 5
        turns = self.turns.get(key)
        if turns is None:
            pooled: set[tuple[int, int]] = set()
            bits = tiles
            while bits:
                low = bits & -bits
                bits ^= low
                tile = low.bit_length() - 1
                shield_bit = 1 << (18 + cell) if self.shielded[tile] else 0
                pooled.update((shield_bit, group) for group in self.groups[tile][player][cell])
            turns = self.turns[key] = tuple(sorted(pooled))
        return turns

    def _last_value(self, board: int, player: int, tiles: int) -> int:
        """Value when ``player`` fills the last space (every tile face up, nothing to destroy).

        The margin only grows with the best turn the player can make there (or nothing, by
        declining), so the value is the best over its tiles of one group flip. Computed each
        time: a few masks, cheaper than a read of a memo of every such board (a cache miss).
        """
        r0, r1, sh = board & 511, (board >> 9) & 511, (board >> 18) & 511
        cell = (511 & ~(r0 | r1)).bit_length() - 1
        gain = 0
        turners = tiles & self.turners
        if turners:
            key = player | cell << 1 | turners << 5
            groups = self.last_groups.get(key)
            if groups is None:
                groups = self._last_groups(player, cell, turners, key)
            plain = ~sh
            own, theirs = (r1 & plain, r0 & plain) if player else (r0 & plain, r1 & plain)
            for group in groups:
                flip = _POPCOUNT[group & theirs] - _POPCOUNT[group & own]
                if flip > gain:
                    gain = flip
        margin = _POPCOUNT[r0] - _POPCOUNT[r1] + (-1 - 2 * gain if player else 1 + 2 * gain)
        return WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin

    def _last_groups(self, player: int, cell: int, turners: int, key: int) -> tuple[int, ...]:
        """The distinct cell masks the ``turners`` can turn from ``cell`` (memoised by ``key``)."""
        pooled: set[int] = set()
        while turners:
            low = turners & -turners
            turners ^= low
            pooled.update(self.groups[low.bit_length() - 1][player][cell])
        groups = self.last_groups[key] = tuple(sorted(pooled))
        return groups

    def _search(
        self,
        node: tuple[int, int, int, int, int, bool],
        alpha: float,
        beta: float,
        key: int | None = None,
    ) -> float:
        """Fail-soft alpha-beta over whole turns; ``key`` is the node's table key if known.

        Before searching any child, the children's table entries are read: one that already
        proves a cut-off ends the node (enhanced transposition cut-off), and the rest order the
        search: the previous best child first, then children with the best known bound, then by
        the ally margin they leave (or a one-turn look-ahead near the root), destructions last
        (they lengthen the game, so their proofs are larger), the last two moves that refuted a
        node as deep with the same player to move first (killers), ties broken by how often the move refuted one (history).
        """
        board = node[0]
        small = _POPCOUNT[(board | board >> 9) & 511] >= 7
        if small and not self.small_in_table:
            return self._small(board, node[1], node[2], node[3], node[4], node[5], alpha, beta)
        self.nodes += 1
        if not self.nodes & 4095:
            _check_budget(self.nodes, self.max_nodes, self.deadline)
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
        if small:
            self.nodes -= 1  # counted by _small
            value = self._small(board, node[1], node[2], node[3], node[4], node[5], alpha, beta)
            return self._store(key, entry, value, alpha0, beta0, hint)
        if (
            _POPCOUNT[(board | board >> 9) & 511] == 6
            and self.inline_three
            and not self.small_in_table
        ):
            best, best_child = self._three(node, alpha, beta, hint)
            return self._store(key, entry, best, alpha0, beta0, best_child)
        maximising = node[4] == 0
        finals, children = self._children(node, alpha, beta)
        best = -INF if maximising else INF
        best_child = hint
        if finals:
            best = float(max(finals) if maximising else min(finals))
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        if alpha < beta and children:
            get = table.get
            s0, s1, s2, _ = self.hand_shift
            scored = []
            seen: set[int] = set()
            history = self.history
            in_table = self.small_in_table
            to_fill = _POPCOUNT[511 & ~((board | board >> 9) & 511)]
            killers = self.killers[to_fill << 1 | node[4]]
            # Near the root, a wrong first try costs a large subtree: look one turn further.
            look = _POPCOUNT[511 & ~((board | board >> 9) & 511)] >= self.lookahead_cells
            for child, move in children:
                after = child[0]
                small = _POPCOUNT[(after | after >> 9) & 511] >= 7 and not in_table
                if small:
                    # Never stored: a raw (unreduced) key only names it as the best child.
                    child_key = after | child[1] << s0 | child[2] << s1 | child[3] << s2
                    known = None
                else:
                    child_key = self._key(child)
                    if child_key in seen:
                        continue  # the same position up to a symmetry
                    seen.add(child_key)
                    known = get(child_key)
                if known is None:
                    if look and not small:
                        score = self._lookahead(child)
                    else:
                        score = float(_POPCOUNT[after & 511] - _POPCOUNT[(after >> 9) & 511])
                    if not maximising:
                        score = -score
                    if after >> 27:
                        score -= _DESTROY_PENALTY
                    score += history[move]
                    if move in killers:
                        score += _KILLER_BONUS
                elif maximising:
                    if known[0] >= beta:
                        best = known[0]
                        best_child = child_key
                        alpha = best
                        break
                    score = 100 + known[1] if known[1] > alpha else -100 + known[1]
                else:
                    if known[1] <= alpha:
                        best = known[1]
                        best_child = child_key
                        beta = best
                        break
                    score = 100 - known[0] if known[0] < beta else -100 - known[0]
                if child_key == hint:
                    score = 1000.0
                scored.append((score, child_key, child, move, small))
            else:
                scored.sort(key=_FIRST, reverse=True)
                for _, child_key, child, move, small in scored:
                    if small:
                        value = self._small(
                            child[0], child[1], child[2], child[3], child[4], child[5], alpha, beta
                        )
                    else:
                        value = self._search(child, alpha, beta, child_key)
                    if maximising:
                        if value > best:
                            best = value
                            best_child = child_key
                            if value > alpha:
                                alpha = value
                    elif value < best:
                        best = value
                        best_child = child_key
                        if value < beta:
                            beta = value
                    if alpha >= beta:
                        _credit_cutoff(move, history, killers)
                        break
        return self._store(key, entry, best, alpha0, beta0, best_child)

    def _three(
        self,
        node: tuple[int, int, int, int, int, bool],
        alpha: float,
        beta: float,
        hint: int | None,
    ) -> tuple[float, int | None]:
        """Fail-soft alpha-beta of a node with three spaces left to fill; return (value, best
        child's raw key).

        The generic search, specialised: every child but a destruction has two spaces to fill
        and is an end position (``_small``, never in the table), so children are scored as they
        are generated, from the board-independent turns of ``_deltas`` (no table reads, no
        symmetry keys), and only a destruction's child, again three spaces from the end, is
        keyed, by ``_search`` itself when it is reached. An end position's key in ``_small``'s
        memo is the board and a suffix per tile placed, so its stored bounds are read here: one
        that already refutes the window ends the node (an enhanced transposition cut-off, which
        the table could not give for these children), the others order the search as the
        table's bounds do in ``_search``; the rest is ``_search``'s order: the previous best
        child, then the ally margin, destructions last, killer moves, history.
        """
        board, h0, h1, neutral, player, due = node
        value: float
        score: float
        dominated: frozenset[int] | None
        hand = h1 if player else h0
        available = hand | neutral
        if due and hand & self.citizen_bit:
            available = self.citizen_bit
        other = 1 - player
        maximising = player == 0
        best = -INF if maximising else INF
        best_child = hint
        s0, s1, s2, _ = self.hand_shift
        history = self.history
        killers = self.killers[6 | player]
        weaker = self.weaker
        r0, r1, sh, down = board & 511, (board >> 9) & 511, (board >> 18) & 511, board >> 27
        empty = 511 & ~(r0 | r1 | down)
        plain = (r0 | r1) & ~sh
        up = board & _UP_FIELDS
        delta_key = empty | down << 9 | plain << 18 | player << 27
        reach_base = player << 5 | empty << 6
        memo = not neutral and self.small_memo
        scored = []
        bits = available
        while bits:
            low = bits & -bits
            bits ^= low
            tile = low.bit_length() - 1
            if hand & low:
                nh0, nh1, nn = (h0, h1 ^ low, neutral) if player else (h0 ^ low, h1, neutral)
                weak = weaker[tile] & hand
            else:
                nh0, nh1, nn = h0, h1, neutral ^ low
                weak = 0
            next_tiles = (nh1 if other else nh0) | nn
            # The children's keys in _small's memo (the opponent moves; no neutral tiles).
            suffix = self._small_suffix(other, next_tiles, nh0 if other else nh1) if memo else -1
            dominated = _NO_BOARDS
            if weak:
                dominated = self.dominated_marks.get(delta_key | weak << 28)
                if dominated is None:
                    dominated = self._dominated_marks(empty, down, plain, player, weak)
            move_base = player << 13 | tile << 8
            # A tile's turns only see the unshielded tiles within its reach.
            reach_key = tile | reach_base
            near = self.tile_reaches.get(reach_key)
            if near is None:
                near = self._tile_reach(tile, player, empty, reach_key)
            near &= plain
            tile_key = empty | down << 9 | near << 18 | player << 27 | tile << 28
            deltas = self.deltas.get(tile_key)
            if deltas is None:
                deltas = self._deltas(empty, down, near, tile, player, tile_key)
            if not next_tiles:
                # The opponent cannot place a tile: each turn ends the game.
                for _, add, keep, flip, _, mark in deltas:
                    if dominated and mark in dominated:
                        continue
                    value = float(_no_tile_value(((up | add) & keep) ^ flip, other))
                    if maximising:
                        if value > best:
                            best = float(value)
                            if value > alpha:
                                alpha = float(value)
                    elif value < best:
                        best = float(value)
                        if value < beta:
                            beta = float(value)
                    if alpha >= beta:
                        return best, hint
                continue
            for _, add, keep, flip, code, mark in deltas:
                if dominated and mark in dominated:
                    continue
                after = ((up | add) & keep) ^ flip
                move = move_base | code
                if flip >> 27 or not memo:
                    # A destruction (its child is searched through the table), or no memo.
                    small_key = -1
                    known = None
                else:
                    small_key = after | suffix
                    known = self.small_bounds.get(small_key)
                if known is None:
                    score = float(_POPCOUNT[after & 511] - _POPCOUNT[(after >> 9) & 511])
                    if not maximising:
                        score = -score
                    if flip >> 27:
                        score -= _DESTROY_PENALTY
                    score += history[move]
                    if move in killers:
                        score += _KILLER_BONUS
                elif maximising:
                    # Enhanced transposition cut-off, from the end positions' memo.
                    if known[0] >= beta:
                        return known[0], after | nh0 << s0 | nh1 << s1 | nn << s2
                    score = 100 + known[1] if known[1] > alpha else -100 + known[1]
                else:
                    if known[1] <= alpha:
                        return known[1], after | nh0 << s0 | nh1 << s1 | nn << s2
                    score = 100 - known[0] if known[0] < beta else -100 - known[0]
                scored.append((score, after, nh0, nh1, nn, move, small_key))
        if hint is not None:
            for index, item in enumerate(scored):
                after, nh0, nh1, nn = item[1:5]
                if after | nh0 << s0 | nh1 << s1 | nn << s2 == hint:
                    scored[index] = (1000, *item[1:])
                    break
        scored.sort(key=_FIRST, reverse=True)
        best_item = None
        # the window update below repeats ``_search``'s on purpose: a call per child is the
        # hottest path of the solver
        for item in scored:
            _, after, nh0, nh1, nn, move, small_key = item
            if after >> 27:
                value = self._search((after, nh0, nh1, nn, other, False), alpha, beta)
            elif small_key >= 0:
                value = self._small_probe(after, nh0, nh1, nn, other, False, small_key, alpha, beta)
            else:
                value = self._small(after, nh0, nh1, nn, other, False, alpha, beta)
            if maximising:
                if value > best:
                    best = value
                    best_item = item
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                best_item = item
                if value < beta:
                    beta = value
            if alpha >= beta:
                _credit_cutoff(move, history, killers)
                break
        if best_item is not None:
            _, after, nh0, nh1, nn, _, _ = best_item
            if after >> 27:
                best_child = self._key((after, nh0, nh1, nn, other, False))
            else:
                best_child = after | nh0 << s0 | nh1 << s1 | nn << s2
        return best, best_child

    def _store(
        self,
        key: int,
        entry: tuple[float, float, int | None] | None,
        best: float,
        alpha0: float,
        beta0: float,
        best_child: int | None,
    ) -> float:
        """Record what a search of the window (alpha0, beta0) proved about ``key``."""
        lower, upper = (-INF, INF) if entry is None else (entry[0], entry[1])
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta0:
            lower = max(lower, best)
        else:
            lower = upper = best
        if entry is not None or len(self.table) < self.max_table:
            self.table[key] = (lower, upper, best_child)
        return best


# Board bit fields (one integer): bits 0-8 the face-up tiles facing Regality, 9-17 those facing
# Religion, 18-26 which of the face-up tiles carry a shield, 27-35 the face-down tiles (always
# destroyed by the player who moved last, since a player's own destroyed tiles leave at the
# start of its turn). A cell in none of them is empty.
_UP_FIELDS: Final = (1 << 27) - 1
# Move ordering: a destruction sorts as if it left this many allies fewer (it adds a turn to
# the game, so its subtree is larger); nodes with at least this many spaces left to fill (empty
# or face down), and within a turn of the root, order their children by a one-turn look-ahead.
_DESTROY_PENALTY: Final = 2
_LOOKAHEAD_CELLS: Final = 5
# A move that refuted a node with as many spaces left to fill (one of the last two such killer
# moves) sorts as if it left this many allies more.
_KILLER_BONUS: Final = 3
_HISTORY_STEP: Final = 0.001
_HISTORY_CAP: Final = 0.999 - _HISTORY_STEP / 2
_FIRST: Final = itemgetter(0)
_NO_BOARDS: Final[frozenset[int]] = frozenset()
# From this many spaces to fill at the root, end positions (two spaces or fewer left) are stored
# in the table as well: a deep search reaches each of them by many move orders.
_SMALL_IN_TABLE = 7
_POPCOUNT: Final = tuple(bin(m).count("1") for m in range(512))


def _credit_cutoff(move: int, history: list[float], killers: list[int]) -> None:
    """A move that cut the search off: raise its history score and keep it as a killer (two)."""
    if history[move] < _HISTORY_CAP:
        history[move] += _HISTORY_STEP
    if move not in killers:
        killers.insert(0, move)
        del killers[2:]


def _mask(cells: tuple[int, ...]) -> int:
    result = 0
    for cell in cells:
        result |= 1 << cell
    return result


def _permute_mask(perm: tuple[int, ...], mask: int) -> int:
    return _mask(tuple(perm[c] for c in range(9) if mask >> c & 1))


def _final_value(board: int) -> int:
    """Value of a full board (all face up): the most allies wins, a tie goes to Religion."""
    margin = _POPCOUNT[board & 511] - _POPCOUNT[(board >> 9) & 511]
    return WIN_SCORE + margin if margin > 0 else -WIN_SCORE + margin


def _no_tile_value(board: int, loser: int) -> int:
    """Value when ``loser`` cannot place a tile at the start of its turn."""
    margin = _POPCOUNT[board & 511] - _POPCOUNT[(board >> 9) & 511]
    return -WIN_SCORE + margin if loser == 0 else WIN_SCORE + margin


def solve(state: RvRState, time_limit: float | None = None) -> Solution:
    """Solve ``state`` with a fresh table (the fast turn-level solver whenever it applies)."""
    return make_solver(state, time_limit=time_limit).solve(state)


def make_solver(
    state: RvRState,
    time_limit: float | None = None,
    max_table: int | None = None,
    max_nodes: int | None = None,
) -> Solver | FastSolver:
    """Return a ``FastSolver`` for ``state`` if it can search it, else the general ``Solver``."""
    if fast_solvable(state):
        if max_table is None:
            return FastSolver(state, time_limit=time_limit, max_nodes=max_nodes)
        return FastSolver(state, time_limit=time_limit, max_table=max_table, max_nodes=max_nodes)
    if max_table is None:
        return Solver(time_limit=time_limit, max_nodes=max_nodes)
    return Solver(time_limit=time_limit, max_table=max_table, max_nodes=max_nodes)


# ---------------------------------------------------------------------- the agents' endgame
#
# The default web agent (alpha-beta, 4 decisions deep: two turns) cannot see the end of a game
# with three spaces or more to fill, and there it gave away won positions
# (tests/rules/test_blunders_regality_vs_religion.py). Near the end the solver answers in a few
# thousand nodes, so the agent asks it instead (``RvRState.solved_action``): up to
# ``ENDGAME_FAST_SPACES`` spaces to fill where the turn-level solver applies (old-style tiles),
# ``ENDGAME_SPACES`` otherwise, within ``ENDGAME_NODES`` nodes (measured on 30 seeded playouts
# per size: at most about 12,000 nodes with four spaces of old-style, 10,000 with two spaces of
# the other variants; three spaces there often take seconds). A budget in nodes, not seconds,
# keeps the agent's choice the same on any machine.
#
# With a ``reach`` (``solved_action(reach)``, the web's alpha-beta asks for 1) the solver takes
# on that many spaces more, within larger budgets: ``REACH_FAST_NODES`` for the turn-level
# solver (its nodes are cheap: five spaces of old-style take well under a second) and
# ``REACH_NODES`` for the general one (about a second of CPU here; three spaces of the other
# variants mostly fit, and a position that does not falls back to alpha-beta). Measured in
# docs/agents.md, "Default agents against their targets".

ENDGAME_FAST_SPACES = 4
ENDGAME_SPACES = 2
ENDGAME_NODES = 50_000
REACH_FAST_NODES = 400_000
REACH_NODES = 60_000


def endgame_action(state: RvRState, max_nodes: int | None = None, reach: int = 0) -> Action | None:
    """Return an action of perfect play for the player to act (the best outcome, then the best
    ally margin), or None when the position is not a small endgame (``reach`` spaces more than
    the agents' default) or the solver would need more than ``max_nodes`` nodes (by default the
    budget of that reach). Only single games with open information: a match plays on past this
    game's end."""
    if not state.is_perfect_information() or state.match:
        return None
    to_fill = sum(1 for code in state.cells if code < 0 or code & 0xC0)
    if state.phase == "place":
        fast = fast_solvable(state)
        limit = (ENDGAME_FAST_SPACES if fast else ENDGAME_SPACES) + reach
        if to_fill > limit:
            return None
        budget = _endgame_nodes(max_nodes, fast, reach)
        return make_solver(state, max_nodes=budget).solve(state).best_action
    if state.phase != "effect":
        return None
    # A choice after a placement: the placement filled a space already.
    choices = []
    for action in state.legal_actions():
        child = state.clone().quiet()
        child.apply_unchecked(action)
        choices.append((action, child))
    live = [child for _, child in choices if child.phase != "over"]
    if live and all(fast_solvable(child) for child in live):
        if to_fill + 1 > ENDGAME_FAST_SPACES + reach:
            return None
        solver = FastSolver(live[0], max_nodes=_endgame_nodes(max_nodes, True, reach))
        return _best_choice(choices, solver, state.to_move)
    if to_fill + 1 > ENDGAME_SPACES + reach:
        return None
    return Solver(max_nodes=_endgame_nodes(max_nodes, False, reach)).solve(state).best_action


def _endgame_nodes(max_nodes: int | None, fast: bool, reach: int) -> int:
    """The node budget of an endgame solve: ``max_nodes`` when given, else that of the reach."""
    if max_nodes is not None:
        return max_nodes
    if reach <= 0:
        return ENDGAME_NODES
    return REACH_FAST_NODES if fast else REACH_NODES


def _best_choice(
    choices: list[tuple[Action, RvRState]], solver: FastSolver, player: int
) -> Action | None:
    """The first choice whose outcome is worth the most to ``player``, each outcome valued by
    one ``FastSolver`` (a choice changes the board only, so the tiles in hand are the same)."""
    best: Action | None = None
    best_value = 0.0
    try:
        for action, child in choices:
            if child.phase == "over":
                value = child.search_value()
            else:
                value = float(solver.value_of(*solver.compact(child)))
            if player == 1:
                value = -value
            if best is None or value > best_value:
                best, best_value = action, value
    except SolveTimeoutError:
        return None
    return best


ENDGAME["solve"] = endgame_action
