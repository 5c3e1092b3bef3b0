"""Regality vs Religion: Revolution, played by the common engine API.

Player 0 is Regality (red), player 1 Religion (blue). A turn is one placement followed, when the
placed tile has an active power that can do something, by one decision: ``decline`` or one target
choice (a Bard or Performer adds a second decision: which power to re-enact, then its target).
Every ruling the rulebook leaves open is recorded in ``docs/rules/regality-vs-religion.md``.

A board cell is one integer, ``-1`` when empty, else
``tile | facing << 5 | destroyed_by << 6 | (covered_tile + 1) << 8`` where ``facing`` is the player
the tile faces (its ally), ``destroyed_by`` is 0 for a face-up tile or 1 + the destroying player for
a face-down one, and ``covered_tile`` is the ally under a Tower (-1 for none).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Hashable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Final, cast

from rules.engines.core import (
    TERMINAL,
    Action,
    CardSightings,
    Game,
    IllegalActionError,
    Information,
    Rng,
    SetupError,
    State,
)
from rules.engines.core.weights import weights_beside
from rules.engines.regality_vs_religion.board import CELL_INDEX, CELL_NAMES, CELLS
from rules.engines.regality_vs_religion.powers import Tables
from rules.engines.regality_vs_religion.tiles import builtin_records

#: the perfect-play solver of small endgames ("solve": ``solver.endgame_action``). The solver
#: reads this module, so it fills this in as it loads (the package loads it)
ENDGAME: dict[str, Callable[..., Action | None]] = {}

REGALITY, RELIGION = 0, 1
#: the evaluation's feature weights (``RvRState.evaluate``: the ally balance on the board and
#: the tiles left in hand), tuned by self-play (``bench/tune.py``) and loaded from weights.json
WEIGHTS = weights_beside(__file__)
SIDE_NAMES = ("regality", "religion")
VARIANTS = ("standard", "old-style", "random", "secret-random", "draft", "secret-draft")
SECRET_VARIANTS = ("secret-random", "secret-draft")
NEUTRAL_AREA_SIZE = 5
RANDOM_DRAW = 2
SECRET_DRAFT_DRAW = 4
DEFAULT_MAX_PLACEMENTS = 100
MATCH_WINS = 2
MATCH_MAX_GAMES = 7
#: how a game ends (a match ends with its last game's reason); the plugin gives each one words
BOARD_FULL = "board-full"
DEATH = "death"
NO_TILE = "no-tile"
NO_PLACEMENT = "no-placement"
TURN_LIMIT = "turn-limit"
END_REASONS = (BOARD_FULL, DEATH, NO_TILE, NO_PLACEMENT, TURN_LIMIT)
WIN_SCORE: Final = 20  # search value of a win before the ally margin is added

DECLINE = Action("decline")
GO_FIRST = Action("order", ("first",))
GO_SECOND = Action("order", ("second",))

EMPTY = -1
FULL_BOARD = 9


def _tile(code: int) -> int:
    return code & 31


def _facing(code: int) -> int:
    return (code >> 5) & 1


def _is_down(code: int) -> bool:
    return code & 0xC0 != 0


def _covered(code: int) -> int:
    return (code >> 8) - 1


def _code(tile: int, facing: int, covered: int = -1) -> int:
    return tile | (facing << 5) | ((covered + 1) << 8)


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(perm)
    for source, target in enumerate(perm):
        inverse[target] = source
    return tuple(inverse)


def _class_code(code: int, classes: tuple[int, ...], cache: dict[int, int]) -> int:
    """Return (and remember) a cell code with its tiles replaced by their behaviour classes."""
    if code < 0:
        value = -1
    elif code & 0xC0:
        value = -2 - ((code >> 6) & 3)
    else:
        under = (code >> 8) - 1
        value = (classes[code & 31] << 8) | (code & 32)
        if under >= 0:
            value |= (classes[under] + 1) << 1
    cache[code] = value
    return value


class RvRState(State):
    """A Regality vs Religion position (one game, or a best-of-three match)."""

    __slots__ = (
        "areas",
        "cells",
        "choices",
        "citizen_due",
        "discard",
        "draft_step",
        "final_allies",
        "first",
        "games_played",
        "hidden",
        "match",
        "match_history",
        "max_placements",
        "neutral",
        "offer",
        "offer_owner",
        "origin",
        "outcome",
        "passed",
        "pending",
        "phase",
        "pile",
        "placements",
        "points",
        "points_games",
        "recallers",
        "reenactors",
        "seen_out",
        "symmetries",
        "tables",
        "to_move",
        "used",
        "variant",
        "wins",
    )

    def __init__(self, game: RvRGame, seed: int, blank: bool = False) -> None:
        super().__init__(game, seed)
        if blank:  # clone() fills every field
            return
        self.tables: Tables = game.tables
        self.cells: list[int] = [EMPTY] * 9
        self.areas: list[list[int]] = [[], []]
        self.neutral: list[int] = []
        self.discard: list[int] = []
        self.pile: list[int] = []
        self.used: list[int] = []
        self.offer: list[int] = []
        self.offer_owner = 0
        self.hidden: list[list[int]] = [[], []]
        self.origin: dict[int, str] = {}
        self.passed: list[tuple[int, ...]] = [(), ()]
        self.seen_out: list[frozenset[int]] = [frozenset(), frozenset()]
        self.phase = "place"
        self.to_move = 0
        self.first = 0
        self.pending: tuple[int, int, int, bool, int] | None = None
        self.choices: dict[Action, tuple] = {}
        self.citizen_due = True
        self.placements = 0
        self.max_placements = DEFAULT_MAX_PLACEMENTS
        self.draft_step = 0
        self.variant = "standard"
        self.outcome: tuple[tuple[float, float], str] | None = None
        self.final_allies = (0, 0)
        self.match = False
        self.wins = [0, 0]
        self.games_played = 0
        self.match_history: list[dict[str, Any]] = []
        self.points = [0, 0]
        self.points_games = 0
        self.symmetries: tuple[tuple[Any, tuple[int, ...]], ...] = ()
        self.recallers = False
        self.reenactors = False

    # ------------------------------------------------------------------ API basics
    def current_player(self) -> int:
        """Return the player to act or TERMINAL."""
        return TERMINAL if self.phase == "over" else self.to_move

    def is_terminal(self) -> bool:
        """Return True when the game (or match) is over."""
        return self.phase == "over"

    def returns(self) -> list[float]:
        """Return +1/-1 for the winner/loser, 0/0 for a draw or an unfinished game."""
        if self.phase != "over" or self.outcome is None:
            return [0.0, 0.0]
        return list(self.outcome[0])

    def end_reason(self) -> str:
        """Return board-full, death, no-tile, no-placement or turn-limit (a match ends with its
        last game's)."""
        return self.outcome[1] if self.phase == "over" and self.outcome else ""

    def first_player(self) -> int | None:
        """Return the seat that placed the Citizen (in a match, that of the last game played)."""
        return self.first

    def card_sightings(self) -> list[CardSightings] | None:
        """Per side, its tiles: its seven side tiles, the Citizen and every neutral tile either
        side held; those it drew (held: the side tiles in its area from the start, the tiles in
        its area at the end, those it picked in a draft, recalled, lost to an Assassin or placed,
        and, in the standard variant, the neutral area both sides take from); and those it
        played (placed on the board: the ``place`` and ``cover`` events). In a match the earlier
        games' areas are gone by the end, so a tile held there counts only if its events say."""
        if self.events is None:
            return None
        tables = self.tables
        names = {spec.key: spec.name for spec in tables.specs}
        neutrals = {tables.keys[tile] for tile in tables.neutrals}
        citizen = tables.keys[tables.citizen]
        held: list[set[str]] = [{tables.keys[tile] for tile in area} for area in self.areas]
        played: list[set[str]] = [set(), set()]
        shared = {tables.keys[tile] for tile in self.neutral}
        for event in self.events:
            tile = event.detail.get("tile")
            if not isinstance(tile, str) or tile not in names or event.player not in (0, 1):
                continue
            if event.kind in ("place", "cover"):
                played[event.player].add(tile)
                if self.variant == "standard" and tile in neutrals and tile != citizen:
                    shared.add(tile)  # every neutral tile of a standard game starts out shared
            elif event.kind in ("pick", "recall"):
                held[event.player].add(tile)
            elif event.kind == "assassinate":
                held[1 - event.player].add(tile)
        sides = (tables.regality, tables.religion)
        drew = [
            {tables.keys[tile] for tile in sides[player]} | held[player] | played[player] | shared
            for player in (0, 1)
        ]
        dealt = (drew[0] | drew[1]) & neutrals
        result = []
        for player in (0, 1):
            deck = {tables.keys[tile] for tile in sides[player]} | {citizen} | dealt | drew[player]
            result.append(
                CardSightings(
                    frozenset(names[key] for key in deck),
                    frozenset(names[key] for key in drew[player]),
                    frozenset(names[key] for key in played[player]),
                )
            )
        return result

    def is_perfect_information(self) -> bool:
        """Return False in the secret variants."""
        return self.variant not in SECRET_VARIANTS

    def clone(self) -> RvRState:
        """Return an independent copy (lists copied, immutable parts shared)."""
        new = RvRState(cast(RvRGame, self.game), 0, blank=True)
        self._copy_base(new)
        new.tables = self.tables
        new.cells = self.cells.copy()
        new.areas = [self.areas[0].copy(), self.areas[1].copy()]
        new.neutral = self.neutral.copy()
        new.discard = self.discard.copy()
        new.pile = self.pile.copy()
        new.used = self.used.copy()
        new.offer = self.offer.copy()
        new.offer_owner = self.offer_owner
        new.hidden = [self.hidden[0].copy(), self.hidden[1].copy()]
        new.origin = self.origin.copy() if self.origin else self.origin
        new.passed = self.passed.copy()
        new.seen_out = self.seen_out.copy()
        new.phase = self.phase
        new.to_move = self.to_move
        new.first = self.first
        new.pending = self.pending
        new.choices = self.choices  # never mutated, only replaced
        new.citizen_due = self.citizen_due
        new.placements = self.placements
        new.max_placements = self.max_placements
        new.draft_step = self.draft_step
        new.variant = self.variant
        new.outcome = self.outcome
        new.final_allies = self.final_allies
        new.match = self.match
        new.wins = self.wins.copy()
        new.games_played = self.games_played
        new.match_history = self.match_history.copy()
        new.points = self.points.copy()
        new.points_games = self.points_games
        new.symmetries = self.symmetries
        new.recallers = self.recallers
        new.reenactors = self.reenactors
        return new

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Return the legal actions of the player to act (stable order)."""
        phase = self.phase
        if phase == "place":
            return self._placement_actions(self.to_move)
        if phase == "effect":
            return [DECLINE, *self.choices]
        if phase in ("draft", "secret-draft"):
            verb = "pick" if phase == "draft" else "keep"
            keys = self.tables.keys
            return [Action(verb, (keys[t],)) for t in sorted(self.offer)]
        if phase == "order":
            return [GO_FIRST, GO_SECOND]
        return []

    def _placement_actions(self, player: int) -> list[Action]:
        tables = self.tables
        cells = self.cells
        if self.citizen_due and tables.citizen in self.areas[player]:
            candidates = [tables.citizen]
        else:
            candidates = sorted(self.areas[player] + self.neutral)
        empty = [c for c in CELLS if cells[c] == EMPTY]
        coverable: list[int] | None = None
        actions: list[Action] = []
        cover = tables.cover
        place = tables.place_actions
        for tile in candidates:
            row = place[tile]
            if cover[tile]:
                if coverable is None:
                    coverable = self._coverable(player)
                actions.extend(row[c] for c in coverable)
            else:
                actions.extend(row[c] for c in empty)
        return actions

    def _coverable(self, player: int) -> list[int]:
        protected = self._protected()
        shield = self.tables.shield
        result = []
        for c in CELLS:
            code = self.cells[c]
            if (
                code >= 0
                and not _is_down(code)
                and _facing(code) == player
                and not shield[code & 31]
                and c not in protected
            ):
                result.append(c)
        return result

    # ------------------------------------------------------------------ passive powers
    def _protected(self) -> set[int]:
        """Cells shielded by a face-up, uncovered Sage-like tile next to them."""
        protect = self.tables.protect_cells
        result: set[int] = set()
        for c in CELLS:
            code = self.cells[c]
            if code >= 0 and not code & 0xC0:
                cells = protect[code & 31][c]
                if cells:
                    result.update(cells)
        return result

    def _negated(self, cell: int) -> bool:
        """True if a tile placed on ``cell`` loses its active power (Shaman, Sorceress)."""
        negate = self.tables.negate_cells
        for c in CELLS:
            code = self.cells[c]
            if code >= 0 and not code & 0xC0 and cell in negate[code & 31][c]:
                return True
        return False

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> None:
        phase = self.phase
        if phase == "place":
            self._place(action)
        elif phase == "effect":
            self._resolve(action)
        elif phase == "draft":
            self._draft_pick(action)
        elif phase == "secret-draft":
            self._secret_keep(action)
        elif phase == "order":
            first = self.to_move if action == GO_FIRST else 1 - self.to_move
            self.log("order", self.to_move, starts=SIDE_NAMES[first])
            self._begin_game(first)
        else:
            raise IllegalActionError(f"{action} cannot be played: the game is over")

    def _place(self, action: Action) -> None:
        player = self.to_move
        tables = self.tables
        # A place action's arguments are (tile key, cell name). The solver applies it in its hot
        # loop, where a cast() call would cost, so the two lookups say what they index instead.
        tile = tables.by_key[action.args[0]]  # type: ignore[index]
        cell = CELL_INDEX[action.args[1]]  # type: ignore[index]
        area = self.areas[player]
        if tile in area:
            area.remove(tile)
            if tile in self.hidden[player]:
                self.hidden[player].remove(tile)
                self.origin.pop(tile, None)
        else:
            self.neutral.remove(tile)
        self.citizen_due = False
        self.placements += 1
        if tables.cover[tile]:
            under = self.cells[cell] & 31
            self.cells[cell] = _code(tile, player, covered=under)
            self.log(
                "cover",
                player,
                tile=tables.keys[tile],
                cell=CELL_NAMES[cell],
                covered=tables.keys[under],
            )
            self._end_turn()
            return
        self.cells[cell] = _code(tile, player)
        self.log("place", player, tile=tables.keys[tile], cell=CELL_NAMES[cell])
        if tables.active[tile] is not None:
            if self._negated(cell):
                self.log("negated", player, tile=tables.keys[tile], cell=CELL_NAMES[cell])
            else:
                no_destroy = EMPTY not in self.cells
                choices = self._choices(tile, cell, cell, no_destroy, 0)
                if choices:
                    self.pending = (tile, cell, cell, no_destroy, 0)
                    self.choices = choices
                    self.phase = "effect"
                    return
        self._end_turn()

    def _choices(
        self, tile: int, origin: int, placed: int, no_destroy: bool, depth: int
    ) -> dict[Action, tuple]:
        """Every effective choice of ``tile``'s active power used from ``origin``."""
        tables = self.tables
        power = tables.active[tile]
        if power is None:
            return {}
        kind = power.kind
        player = self.to_move
        cells = self.cells
        choices: dict[Action, tuple] = {}
        if kind in ("turn", "destroy", "banish"):
            if kind == "destroy" and no_destroy:
                return choices
            protected = self._protected()
            shield = tables.shield
            for group in tables.groups[tile][player][origin]:
                hit = []
                for c in group:
                    code = cells[c]
                    if code < 0 or code & 0xC0:
                        continue
                    shielded = shield[code & 31] or c in protected
                    if power.only_shielded and not shielded:
                        continue
                    if shielded and not power.ignores_shield:
                        continue
                    hit.append(c)
                if hit:
                    label = "+".join(CELL_NAMES[c] for c in sorted(hit))
                    choices[Action(kind, (label,))] = (kind, tuple(hit))
        elif kind == "reenact":
            if depth >= 3:
                return choices
            protected = self._protected()
            for group in tables.groups[tile][player][origin]:
                for c in group:
                    code = cells[c]
                    if code < 0 or code & 0xC0 or c in protected:
                        continue
                    target = code & 31
                    if tables.shield[target] or tables.active[target] is None:
                        continue
                    if self._choices(target, c, placed, no_destroy, depth + 1):
                        choices[Action("reenact", (CELL_NAMES[c],))] = ("reenact", c)
        elif kind == "transport":
            movable = self._affectable()
            empty = [c for c in CELLS if cells[c] == EMPTY]
            for source in movable:
                for target in empty:
                    action = Action("transport", (CELL_NAMES[source], CELL_NAMES[target]))
                    choices[action] = ("transport", source, target)
        elif kind == "recall-board":
            # Tile list, Witch: any one ally on the board, the Witch (or the Bard or Performer
            # re-enacting it) included: the text makes no exception.
            for c in self._affectable():
                if _facing(cells[c]) == player:
                    choices[Action("recall", (CELL_NAMES[c],))] = ("recall-board", c)
        elif kind == "recall-discard":
            for t in sorted(set(self.discard)):
                choices[Action("recall", (tables.keys[t],))] = ("recall-discard", t)
        elif kind == "assassinate":
            opponent = 1 - player
            hidden = self.hidden[opponent]
            for t in sorted(set(self.areas[opponent]) - set(hidden)):
                choices[Action("assassinate", (tables.keys[t],))] = ("assassinate", t)
            for slot in range(len(hidden)):
                choices[Action("assassinate", (f"hidden-{slot}",))] = ("assassinate-hidden", slot)
        return choices

    def _affectable(self) -> list[int]:
        protected = self._protected()
        shield = self.tables.shield
        return [
            c
            for c in CELLS
            if self.cells[c] >= 0
            and not _is_down(self.cells[c])
            and not shield[self.cells[c] & 31]
            and c not in protected
        ]

    def _resolve(self, action: Action) -> None:
        player = self.to_move
        tables = self.tables
        cells = self.cells
        pending = self.pending
        assert pending is not None
        tile = pending[0]
        choices = self.choices
        self.pending = None
        self.choices = {}
        self.phase = "place"
        if action == DECLINE:
            self.log("decline", player, tile=tables.keys[tile])
            self._end_turn()
            return
        payload = choices[action]
        kind = payload[0]
        if kind == "turn":
            for c in payload[1]:
                cells[c] ^= 1 << 5
            self.log("turn", player, cells=[CELL_NAMES[c] for c in payload[1]])
        elif kind == "destroy":
            for c in payload[1]:
                cells[c] |= (player + 1) << 6
            self.log(
                "destroy",
                player,
                cells=[CELL_NAMES[c] for c in payload[1]],
                tiles=[tables.keys[cells[c] & 31] for c in payload[1]],
            )
        elif kind == "banish":
            for c in payload[1]:
                self.log("banish", player, cell=CELL_NAMES[c], tile=tables.keys[cells[c] & 31])
                self._remove_from_board(c)
        elif kind == "reenact":
            c = payload[1]
            target = cells[c] & 31
            self.log("reenact", player, cell=CELL_NAMES[c], tile=tables.keys[target])
            self.pending = (target, c, pending[2], pending[3], pending[4] + 1)
            self.choices = self._choices(*self.pending)
            self.phase = "effect"
            return
        elif kind == "transport":
            source, target = payload[1], payload[2]
            cells[target], cells[source] = cells[source], EMPTY
            self.log(
                "transport",
                player,
                tile=tables.keys[cells[target] & 31],
                cell=CELL_NAMES[source],
                to=CELL_NAMES[target],
            )
        elif kind == "recall-board":
            c = payload[1]
            recalled = cells[c] & 31
            cells[c] = EMPTY
            insort(self.areas[player], recalled)
            self.log("recall", player, tile=tables.keys[recalled], cell=CELL_NAMES[c])
        elif kind == "recall-discard":
            recalled = payload[1]
            self.discard.remove(recalled)
            insort(self.areas[player], recalled)
            self.log("recall", player, tile=tables.keys[recalled], zone="discard")
        elif kind in ("assassinate", "assassinate-hidden"):
            opponent = 1 - player
            victim = payload[1] if kind == "assassinate" else self.hidden[opponent][payload[1]]
            self.areas[opponent].remove(victim)
            if victim in self.hidden[opponent]:
                self.hidden[opponent].remove(victim)
                self.origin.pop(victim, None)
            self.discard.append(victim)
            self.log("assassinate", player, tile=tables.keys[victim])
        self._end_turn()

    def _remove_from_board(self, cell: int) -> None:
        """Send the top tile of ``cell`` to the discard pile; a covered ally comes back up."""
        code = self.cells[cell]
        self.discard.append(code & 31)
        under = _covered(code)
        self.cells[cell] = EMPTY if under < 0 else _code(under, _facing(code))

    # ------------------------------------------------------------------ turn flow
    def _end_turn(self) -> None:
        player = self.to_move
        cells = self.cells
        if EMPTY not in cells and not any(code & 0xC0 for code in cells):
            self._board_full()
        elif self.placements >= self.max_placements:
            self._finish(None, TURN_LIMIT)
        else:
            self._start_turn(1 - player)

    def _start_turn(self, player: int) -> None:
        """Remove the player's destroyed tiles, then apply the rulebook's endings (Game end).

        Removing a destroyed Tower uncovers the ally under it, so the board can stand full of
        face-up tiles now: that is the Game end's full board (allies are counted), not a player
        without tiles. A player with no tile in its area or the neutral area loses; one that
        holds tiles but can place none of them (only a Tower, and no ally to cover) loses too
        (ruling 14).
        """
        self.to_move = player
        self.phase = "place"
        self.log("turn-start", player, turn=self.placements + 1)
        mark = (player + 1) << 6
        cells = self.cells
        for c in CELLS:
            code = cells[c]
            if code >= 0 and code & 0xC0 == mark:
                self.log("removed", player, tile=self.tables.keys[code & 31], cell=CELL_NAMES[c])
                self._remove_from_board(c)
        if EMPTY not in cells and not any(code & 0xC0 for code in cells):
            self._board_full()
        elif not self.areas[player] and not self.neutral:
            self._finish(1 - player, NO_TILE)
        elif not self._can_place(player):
            self._finish(1 - player, NO_PLACEMENT)

    def _can_place(self, player: int) -> bool:
        cover = self.tables.cover
        tiles = self.areas[player] + self.neutral
        if EMPTY in self.cells and any(not cover[t] for t in tiles):
            return True
        return bool(tiles) and bool(self._placement_actions(player))

    def allies(self) -> tuple[int, int]:
        """Return how many face-up tiles on the board face each player."""
        regality = religion = 0
        for code in self.cells:
            if code >= 0 and not code & 0xC0:
                if code & 32:
                    religion += 1
                else:
                    regality += 1
        return regality, religion

    def _board_full(self) -> None:
        allies = self.allies()
        self.final_allies = allies
        for code in self.cells:
            if self.tables.lose_at_end[code & 31]:
                self._finish(1 - _facing(code), DEATH)
                return
        self._finish(0 if allies[0] > allies[1] else 1, BOARD_FULL)

    def _finish(self, winner: int | None, reason: str) -> None:
        if reason != BOARD_FULL and reason != DEATH:
            self.final_allies = self.allies()
        self.pending = None
        self.choices = {}
        result: tuple[float, float] = (0.0, 0.0)
        if winner is not None:
            result = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        self.log(
            "game-end",
            -1,
            winner=None if winner is None else SIDE_NAMES[winner],
            reason=reason,
            allies=list(self.final_allies),
        )
        if not self.match:
            self.outcome = (result, reason)
            self.phase = "over"
            return
        self.games_played += 1
        self.match_history.append(
            {"winner": winner, "reason": reason, "allies": list(self.final_allies)}
        )
        if winner is not None:
            self.wins[winner] += 1
        if self.points_games:
            # Point system: every ally is a point; losing to Death or for not being able to place
            # a tile (none left, or none placeable) scores 0.
            for player in (0, 1):
                lost_outright = player != winner and reason in (DEATH, NO_TILE, NO_PLACEMENT)
                self.points[player] += 0 if lost_outright else self.final_allies[player]
            self.match_history[-1]["points"] = list(self.points)
            if self.games_played >= self.points_games:
                self._end_match(self.points, reason)
                return
        elif max(self.wins) >= MATCH_WINS or self.games_played >= MATCH_MAX_GAMES:
            self._end_match(self.wins, reason)
            return
        # The loser (after a draw: the player who went second) chooses who starts the next game.
        self.phase = "order"
        self.to_move = (1 - winner) if winner is not None else 1 - self.first

    def _end_match(self, scores: list[int], reason: str) -> None:
        if scores[0] == scores[1]:
            result = (0.0, 0.0)
        else:
            result = (1.0, -1.0) if scores[0] > scores[1] else (-1.0, 1.0)
        self.outcome = (result, reason)
        self.phase = "over"

    # ------------------------------------------------------------------ setup
    def _draw(self, count: int) -> list[int]:
        if len(self.pile) < count:
            # Optional rule: when the neutral tiles run out, the removed ones are reshuffled.
            refill = [t for t in self.used if t != self.tables.citizen]
            self.used = [t for t in self.used if t == self.tables.citizen]
            self.rng.shuffle(refill)
            self.pile.extend(refill)
            self.seen_out = [frozenset(), frozenset()]
        drawn, self.pile = self.pile[:count], self.pile[count:]
        return drawn

    def _begin_game(self, first: int) -> None:
        tables = self.tables
        # Neutral tiles that took part in the previous game are removed (match play).
        taking_part = [
            t
            for zone in (self.areas[0], self.areas[1], self.neutral, self.discard, self.offer)
            for t in zone
            if t in tables.neutrals and t != tables.citizen
        ]
        for code in self.cells:
            if code >= 0:
                for t in (code & 31, _covered(code)):
                    if t >= 0 and t in tables.neutrals and t != tables.citizen:
                        taking_part.append(t)
        self.used.extend(taking_part)
        everyone = frozenset(self.used)
        self.seen_out = [everyone, everyone]
        self.cells = [EMPTY] * 9
        self.areas = [list(tables.regality), list(tables.religion)]
        insort(self.areas[first], tables.citizen)
        self.neutral, self.discard, self.offer = [], [], []
        self.hidden, self.origin, self.passed = [[], []], {}, [(), ()]
        self.first = first
        self.citizen_due = True
        self.placements = 0
        self.pending, self.choices = None, {}
        self.draft_step = 0
        second = 1 - first
        variant = self.variant
        self.log("game-start", first, variant=variant, starts=SIDE_NAMES[first])
        if variant == "standard":
            self.neutral = sorted(self._draw(NEUTRAL_AREA_SIZE))
        elif variant == "old-style":
            self.used.extend(self.pile)
            self.pile = []
            everyone = frozenset(self.used)
            self.seen_out = [everyone, everyone]
        elif variant in ("random", "secret-random"):
            for player in (first, second):
                drawn = self._draw(RANDOM_DRAW)
                for t in drawn:
                    insort(self.areas[player], t)
                    if variant == "secret-random":
                        self.hidden[player].append(t)
                        self.origin[t] = "pool"
        elif variant == "draft":
            self.offer = sorted(self._draw(NEUTRAL_AREA_SIZE))
            self.offer_owner = first
            self.phase, self.to_move = "draft", first
            self._compute_symmetries()
            return
        elif variant == "secret-draft":
            self.offer = sorted(self._draw(SECRET_DRAFT_DRAW))
            self.offer_owner = first
            self.phase, self.to_move = "secret-draft", first
            self._compute_symmetries()
            return
        self._compute_symmetries()
        self._start_turn(first)

    def _compute_symmetries(self) -> None:
        in_play = set(self.tables.regality) | set(self.tables.religion) | {self.tables.citizen}
        for zone in (self.areas[0], self.areas[1], self.neutral, self.discard, self.offer):
            in_play.update(zone)
        for code in self.cells:
            if code >= 0:
                in_play.add(code & 31)
                if _covered(code) >= 0:
                    in_play.add(_covered(code))
        self.symmetries = tuple(
            (itemgetter(*_inverse(perm)), perm)
            for perm in self.tables.symmetries_for(sorted(in_play))
        )
        # Tiles that bring tiles back to an area make the game able to loop; the placement count
        # (and with it the turn limit) then belongs in the position key.
        self.recallers = any(
            (power := self.tables.active[t]) is not None
            and power.kind in ("recall-board", "recall-discard")
            for t in in_play
        )
        self.reenactors = not self.tables.reenactors.isdisjoint(in_play)

    def _draft_pick(self, action: Action) -> None:
        player = self.to_move
        tile = self.tables.by_key[cast(str, action.args[0])]
        self.offer.remove(tile)
        insort(self.areas[player], tile)
        self.log("pick", player, tile=self.tables.keys[tile])
        self.draft_step += 1
        if self.draft_step < 3:
            self.to_move = 1 - player
            return
        # The second player takes both remaining tiles.
        for t in self.offer:
            insort(self.areas[1 - player], t)
            self.log("pick", 1 - player, tile=self.tables.keys[t])
        self.offer = []
        self._start_turn(self.first)

    def _secret_keep(self, action: Action) -> None:
        player = self.to_move
        tables = self.tables
        tile = tables.by_key[cast(str, action.args[0])]
        self.offer.remove(tile)
        insort(self.areas[player], tile)
        self.hidden[player].append(tile)
        # What the opponent knows about this tile: drawn unseen, or one of those it passed over.
        self.origin[tile] = "pool" if self.draft_step in (0, 2) else "passed"
        self.log("keep", player, secret=True)
        step = self.draft_step
        self.draft_step += 1
        if step in (0, 2):
            # Pass the other three to the opponent, who sees them.
            self.passed[player] = tuple(sorted(self.offer))
            self.offer_owner = 1 - player
            self.to_move = 1 - player
            return
        # Steps 1 and 3: the two tiles not kept are discarded, seen by this player only.
        self.used.extend(self.offer)
        self.seen_out[player] = self.seen_out[player] | frozenset(self.offer)
        self.offer = []
        if step == 1:
            self.offer = sorted(self._draw(SECRET_DRAFT_DRAW))
            self.offer_owner = player
            return  # the same player draws and keeps next
        self._start_turn(self.first)

    # ------------------------------------------------------------------ information
    def observation(self, player: int) -> dict[str, Any]:
        """Return the state as ``player`` sees it: opponent's secret tiles are only counted."""
        keys = self.tables.keys
        opponent = 1 - player
        board = []
        for c in CELLS:
            code = self.cells[c]
            if code < 0:
                continue
            entry: dict[str, Any] = {
                "cell": CELL_NAMES[c],
                "tile": keys[code & 31],
                "ally_of": SIDE_NAMES[_facing(code)],
                "face_down": _is_down(code),
            }
            if _covered(code) >= 0:
                entry["covers"] = keys[_covered(code)]
            board.append(entry)
        hidden_opp = self.hidden[opponent]
        offer_visible = self.offer_owner == player or self.phase == "draft"
        observation: dict[str, Any] = {
            "player": SIDE_NAMES[player],
            "variant": self.variant,
            "phase": self.phase,
            "to_move": None if self.phase == "over" else SIDE_NAMES[self.to_move],
            "starting_player": SIDE_NAMES[self.first],
            "board": board,
            "own_area": [keys[t] for t in self.areas[player]],
            "opponent_area": [keys[t] for t in self.areas[opponent] if t not in hidden_opp],
            "opponent_hidden": len(hidden_opp),
            "neutral_area": [keys[t] for t in self.neutral],
            "discard": sorted(keys[t] for t in self.discard),
            "offer": [keys[t] for t in self.offer] if offer_visible else [],
            "offer_size": len(self.offer),
            "passed_to_opponent": [keys[t] for t in self.passed[player]],
            "known_removed": sorted(keys[t] for t in self.seen_out[player]),
            "unseen_neutral_count": len(self.pile) + len(set(self.used) - self.seen_out[player]),
            "choices": [str(a) for a in self.choices] if self.to_move == player else [],
            "placements": self.placements,
            "allies": dict(zip(SIDE_NAMES, self.allies(), strict=True)),
        }
        if self.match:
            observation["match"] = {
                "wins": dict(zip(SIDE_NAMES, self.wins, strict=True)),
                "games_played": self.games_played,
            }
            if self.points_games:
                observation["match"]["points"] = dict(zip(SIDE_NAMES, self.points, strict=True))
                observation["match"]["games"] = self.points_games
        return observation

    def determinise(self, player: int, rng: Rng) -> RvRState:
        """Resample every tile ``player`` cannot see, keeping what it knows (see rules doc)."""
        state = self.clone()
        # The action history and event log name secret tiles: a determinisation starts afresh.
        state.history = []
        state.events = [] if self.events is not None else None
        if self.is_perfect_information():
            # The order of unseen neutral tiles is still unknown to everyone.
            rng.shuffle(state.pile)
            return state
        opponent = 1 - player
        unknown_used = [t for t in self.used if t not in self.seen_out[player]]
        offer_unknown = (
            self.offer
            if (
                self.offer_owner != player
                and self.phase != "draft"
                and tuple(sorted(self.offer)) != self.passed[player]
            )
            else []
        )
        hidden = self.hidden[opponent]
        # Sorted first, so the result depends only on what ``player`` knows, not on where
        # the hidden tiles really are.
        unknown = sorted([*hidden, *self.pile, *unknown_used, *offer_unknown])
        rng.shuffle(unknown)
        passed = set(self.passed[player])
        from_passed = [t for t in unknown if t in passed]
        from_pool = [t for t in unknown if t not in passed]
        new_hidden = []
        for t in hidden:
            source = from_passed if self.origin.get(t) == "passed" and from_passed else from_pool
            new_hidden.append(source.pop())
        # Tiles passed over but not kept were discarded: they go to the unknown removed slots.
        rest_used = from_passed + from_pool
        new_used_unknown = rest_used[: len(unknown_used)]
        rest = rest_used[len(unknown_used) :]
        new_offer = rest[: len(offer_unknown)]
        new_pile = rest[len(offer_unknown) :]
        mapping = dict(zip(hidden, new_hidden, strict=True))
        state.areas[opponent] = sorted(
            [t for t in self.areas[opponent] if t not in hidden] + new_hidden
        )
        state.hidden[opponent] = new_hidden
        state.origin = {k: v for k, v in self.origin.items() if k not in mapping}
        for old, new in mapping.items():
            state.origin[new] = self.origin[old]
        it = iter(new_used_unknown)
        state.used = [t if t in self.seen_out[player] else next(it) for t in self.used]
        if offer_unknown:
            state.offer = sorted(new_offer)
        state.pile = new_pile
        return state

    def zone_counts(self) -> dict[str, int]:
        """Return tiles per zone; the total is the number of tiles in the game."""
        board = sum(1 for code in self.cells if code >= 0)
        covered = sum(1 for code in self.cells if code >= 0 and _covered(code) >= 0)
        return {
            "board": board,
            "covered": covered,
            "regality_area": len(self.areas[0]),
            "religion_area": len(self.areas[1]),
            "neutral_area": len(self.neutral),
            "discard": len(self.discard),
            "offer": len(self.offer),
            "pile": len(self.pile),
            "removed": len(self.used),
        }

    # ------------------------------------------------------------------ search hooks
    def key(self) -> Hashable:
        """Return the position without history (for transposition tables)."""
        return (tuple(self.cells), self.pending, self._rest_key())

    def _rest_key(self) -> tuple:
        return (
            self.to_move,
            self.phase,
            tuple(self.areas[0]),
            tuple(self.areas[1]),
            tuple(self.neutral),
            tuple(sorted(self.discard)) if len(self.discard) > 1 else tuple(self.discard),
            tuple(self.offer),
            self.citizen_due,
            self.draft_step,
            self.placements if self.recallers else 0,
            tuple(self.wins),
            tuple(self.points),
        )

    def canonical_key(self) -> Hashable:
        """Return the key with the board in its smallest form over the symmetries in play."""
        symmetries = self.symmetries
        if len(symmetries) <= 1:
            return self.key()
        cells = self.cells
        pending = self.pending
        best = None
        for gather, perm in symmetries:
            board = gather(cells)
            if best is None or board < best[0]:
                best = (board, perm)
            elif board == best[0] and pending is not None:
                # Equal boards: keep the pending cells that sort first, so the key is canonical.
                mine = (perm[pending[1]], perm[pending[2]])
                theirs = (best[1][pending[1]], best[1][pending[2]])
                if mine < theirs:
                    best = (board, perm)
        assert best is not None  # there were two symmetries or more
        board, perm = best
        if pending is not None:
            pending = (pending[0], perm[pending[1]], perm[pending[2]], pending[3], pending[4])
        return (board, pending, self._rest_key())

    def search_key(self) -> Hashable:
        """Return a key that identifies positions of equal value (used by the solver).

        Once on the board a tile matters only by how it behaves there (shield, protection,
        negation, cover, Death, and its active power while a Bard or Performer may still be
        placed), so a King and a General standing on the board are the same piece unless a
        Witch or Hermit could still bring tiles back; destroyed tiles are then anonymous too.
        """
        if self.recallers:
            return self.canonical_key()
        symmetries = self.symmetries
        tables = self.tables
        classes, codes = tables.plain_class, tables.plain_codes
        if self.reenactors:
            reenactors = tables.reenactors
            for zone in (self.areas[0], self.areas[1], self.neutral, self.offer, self.pile):
                if not reenactors.isdisjoint(zone):
                    classes, codes = tables.power_class, tables.power_codes
                    break
        board = [codes[c] if c in codes else _class_code(c, classes, codes) for c in self.cells]
        pending = self.pending
        rest = (
            self.to_move,
            self.phase,
            tuple(self.areas[0]),
            tuple(self.areas[1]),
            tuple(self.neutral),
            tuple(self.offer),
            self.citizen_due,
            self.draft_step,
        )
        if len(symmetries) <= 1:
            return (tuple(board), pending, rest)
        best = None
        for gather, perm in symmetries:
            mapped = gather(board)
            if pending is not None:
                mapped = (*mapped, perm[pending[1]], perm[pending[2]])
            if best is None or mapped < best:
                best = mapped
        return (best, None if pending is None else (pending[0], pending[3], pending[4]), rest)

    def search_value(self) -> float:
        """Return a terminal value for player 0: win/loss of 20 plus Regality's ally margin."""
        if not self.outcome:
            return 0.0
        result = self.outcome[0][0]
        margin = self.final_allies[0] - self.final_allies[1]
        if result > 0:
            return WIN_SCORE + margin
        if result < 0:
            return -WIN_SCORE + margin
        return 0.0

    def solved_action(self, reach: int = 0) -> Action | None:
        """Return the solver's perfect play in a small endgame (``reach`` spaces larger than
        the default), else None (``solver.endgame_action``)."""
        solve = ENDGAME.get("solve")
        return solve(self, reach=reach) if solve is not None else None

    def evaluate(self, player: int) -> float:
        """Return a heuristic in [-1, 1]: ally balance on the board plus tiles in hand, weighed
        by ``WEIGHTS``."""
        if self.phase == "over":
            return self.returns()[player]
        allies = self.allies()
        board = (allies[player] - allies[1 - player]) / 9
        hand = (len(self.areas[player]) - len(self.areas[1 - player])) / 15
        w = WEIGHTS
        return max(-0.99, min(0.99, w["board"] * board + w["hand"] * hand))


class RvRGame(Game):
    """Regality vs Religion: Revolution (two players, 3x3 board, 31 tiles)."""

    slug = "regality-vs-religion"
    name = "Regality vs Religion: Revolution"
    min_players = 2
    max_players = 2
    information = Information.IMPERFECT  # the secret variants hide tiles; the others are open
    player_names = SIDE_NAMES

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        self.tables = Tables(self.records)

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the engine's own copy of the 31 tiles."""
        return builtin_records()

    def example_setups(self) -> list[dict[str, Any]]:
        """Return one setup per variant, plus a best-of-three match."""
        setups: list[dict[str, Any]] = [{"variant": v} for v in VARIANTS]
        setups.append({"variant": "standard", "match": True})
        setups.append({"variant": "random", "points": 2})
        return setups

    def new_initial_state(self, seed: int = 0, setup: Mapping[str, Any] | None = None) -> RvRState:
        """Start a game or a match.

        Setup keys: ``variant`` (one of VARIANTS, default standard), ``first`` (regality,
        religion or random; default regality), ``neutral`` (neutral tile names drawn first, in
        order), ``match`` (best of three), ``points`` (the point system over that many games),
        ``max_placements`` (draw after that many placements),
        ``position`` (a position in the notation of ``rules.engines.regality_vs_religion.notation``).
        """
        setup = dict(setup or {})
        unknown = set(setup) - {
            "variant",
            "first",
            "neutral",
            "match",
            "points",
            "max_placements",
            "position",
        }
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(sorted(unknown))}")
        variant = setup.get("variant", "standard")
        if variant not in VARIANTS:
            raise SetupError(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")
        state = RvRState(self, seed)
        state.variant = variant
        state.match = bool(setup.get("match", False))
        points = setup.get("points", 0)
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise SetupError("points must be a number of games (0 for none)")
        if points:
            state.match, state.points_games = True, points
        state.max_placements = int(setup.get("max_placements", DEFAULT_MAX_PLACEMENTS))
        if state.max_placements < 1:
            raise SetupError("max_placements must be at least 1")
        tables = self.tables
        first_value = setup.get("first", "regality")
        if first_value == "random":
            first = state.rng.randrange(2)
        elif first_value in SIDE_NAMES:
            first = SIDE_NAMES.index(first_value)
        elif first_value in (0, 1):
            first = int(first_value)
        else:
            raise SetupError(f"first must be regality, religion or random, not {first_value!r}")
        pool = [t for t in tables.neutrals if t != tables.citizen]
        state.rng.shuffle(pool)
        chosen = []
        for name in setup.get("neutral", ()):
            key = name.lower().replace(" ", "-")
            tile = tables.by_key.get(key)
            if tile is None or tile not in pool or tile in chosen:
                raise SetupError(f"{name!r} is not an unused neutral tile")
            chosen.append(tile)
        state.pile = chosen + [t for t in pool if t not in chosen]
        if "position" in setup:
            from rules.engines.regality_vs_religion.notation import load_position

            load_position(state, setup["position"])
            return state
        state._begin_game(first)
        return state
