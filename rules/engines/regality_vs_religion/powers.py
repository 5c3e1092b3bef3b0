"""Compiling tile records (their ``effects`` data) into the tables the engine plays with."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engines.core import Action, CardRecord, engine_records
from rules.engines.regality_vs_religion.board import (
    CELL_NAMES,
    CELLS,
    SYMMETRY_PERMS,
    neighbour,
    ray,
    symmetry_keeps,
)

ACTIVE_KINDS = {
    ("destroy", "board"),
    ("turn", "board"),
    ("banish", "board"),
    ("reenact", "board"),
    ("transport", "board"),
    ("recall", "board"),
    ("recall", "discard"),
    ("banish", "opponent-area"),
}


class UnsupportedPowerError(ValueError):
    """A tile record whose effects the engine cannot execute."""


@dataclass(frozen=True, slots=True)
class ActivePower:
    """An active power: what it does and where it reaches."""

    kind: (
        str  # destroy, turn, banish, reenact, transport, recall-board, recall-discard, assassinate
    )
    groups: tuple[tuple[str, ...], ...]
    reach: str
    only_shielded: bool
    ignores_shield: bool


@dataclass(frozen=True, slots=True)
class TileSpec:
    """Everything the engine needs to know about one tile."""

    index: int
    key: str
    name: str
    branch: str
    active: ActivePower | None
    shield: bool
    protect: tuple[str, ...]
    negate: tuple[str, ...]
    cover: bool
    lose_at_end: bool


def compile_tile(index: int, card: CardRecord) -> TileSpec:
    """Turn one engine record into a ``TileSpec``; raise UnsupportedPowerError if it cannot."""
    active: ActivePower | None = None
    shield = cover = lose = False
    protect: tuple[str, ...] = ()
    negate: tuple[str, ...] = ()
    for effect in card.effects:
        kind, timing, target = effect["kind"], effect["timing"], effect["target"]
        zone = target["zone"]
        groups = tuple(tuple(group) for group in target.get("groups", ()))
        if timing == "active":
            if (kind, zone) not in ACTIVE_KINDS:
                raise UnsupportedPowerError(f"{card.name}: no active power {kind} on {zone}")
            if active is not None:
                raise UnsupportedPowerError(f"{card.name}: more than one active power")
            name = kind
            if kind == "recall":
                name = f"recall-{zone}"
            elif kind == "banish" and zone == "opponent-area":
                name = "assassinate"
            reach = target.get("reach", "any" if zone == "board" else zone)
            if name in ("destroy", "turn", "banish", "reenact") and not groups:
                raise UnsupportedPowerError(f"{card.name}: {kind} needs direction groups")
            active = ActivePower(
                kind=name,
                groups=groups,
                reach=reach,
                only_shielded=bool(target.get("only_shielded", False)),
                ignores_shield=bool(target.get("ignores_shield", False)),
            )
        elif timing == "passive" and kind == "shield" and zone == "self":
            shield = True
        elif timing == "passive" and kind in ("protect", "negate") and zone == "board":
            directions = tuple(d for group in groups for d in group)
            # Passive reaches are read from the board, not a player's seat, so they must look
            # the same from both seats (true of every tile in the game).
            if not symmetry_keeps(2, [directions]):
                raise UnsupportedPowerError(f"{card.name}: a passive reach must be symmetric")
            if kind == "protect":
                protect = directions
            else:
                negate = directions
        elif timing == "placement" and kind == "cover" and target.get("filter") == "ally":
            cover = True
        elif timing == "end" and kind == "lose" and zone == "self":
            lose = True
        else:
            raise UnsupportedPowerError(
                f"{card.name}: unsupported {timing} effect {kind} on {zone}"
            )
    return TileSpec(
        index,
        card.key,
        card.name,
        card.branch or "neutral",
        active,
        shield,
        protect,
        negate,
        cover,
        lose,
    )


def power_problems(record: Mapping[str, Any]) -> list[str]:
    """Return why the engine could not play this record (empty if it can)."""
    try:
        compile_tile(0, CardRecord.from_record(record))
    except (UnsupportedPowerError, KeyError, TypeError) as exc:
        return [f"the engine cannot execute this tile's effects: {exc}"]
    return []


class Tables:
    """Per-tile lookup tables, built once per ``Game`` and shared by all its states."""

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        cards = engine_records(records)
        self.specs = tuple(compile_tile(i, card) for i, card in enumerate(cards))
        self.by_key = {spec.key: spec.index for spec in self.specs}
        self.regality = tuple(s.index for s in self.specs if s.branch == "regality")
        self.religion = tuple(s.index for s in self.specs if s.branch == "religion")
        self.neutrals = tuple(s.index for s in self.specs if s.branch == "neutral")
        try:
            self.citizen = self.by_key["citizen"]
        except KeyError:
            raise UnsupportedPowerError("the tile set has no Citizen") from None
        if len(self.regality) != len(self.religion) or not self.regality:
            raise UnsupportedPowerError("both sides need the same number of tiles")
        self.keys = tuple(s.key for s in self.specs)
        self.shield = tuple(s.shield for s in self.specs)
        self.cover = tuple(s.cover for s in self.specs)
        self.lose_at_end = tuple(s.lose_at_end for s in self.specs)
        self.active = tuple(s.active for s in self.specs)
        # groups[tile][player][cell] -> tuple of cell tuples (only non-empty groups)
        self.groups = tuple(self._groups(s) for s in self.specs)
        self.protect_cells = tuple(self._passive(s.protect) for s in self.specs)
        self.negate_cells = tuple(self._passive(s.negate) for s in self.specs)
        self.place_actions = tuple(
            tuple(Action("place", (s.key, CELL_NAMES[c])) for c in CELLS) for s in self.specs
        )
        self.symmetries_of = tuple(self._symmetries(s) for s in self.specs)
        # Classes of tiles that behave the same once on the board (solver keys): without and
        # with their active power (the power only matters while a re-enactor can still come).
        plain = [(s.shield, s.protect, s.negate, s.cover, s.lose_at_end) for s in self.specs]
        powered = [(*p, s.active) for p, s in zip(plain, self.specs, strict=True)]
        self.plain_class = tuple(sorted(set(plain), key=repr).index(p) for p in plain)
        self.power_class = tuple(sorted(set(powered), key=repr).index(p) for p in powered)
        # Cell code -> class code caches, filled as the solver meets codes (see search_key).
        self.plain_codes: dict[int, int] = {}
        self.power_codes: dict[int, int] = {}
        kinds = [s.active.kind if s.active else "" for s in self.specs]
        self.needs_identity = frozenset(
            i for i, kind in enumerate(kinds) if kind in ("recall-board", "recall-discard")
        )
        self.reenactors = frozenset(i for i, kind in enumerate(kinds) if kind == "reenact")

    @staticmethod
    def _symmetries(spec: TileSpec) -> frozenset[int]:
        group_sets: list[Sequence[Sequence[str]]] = []
        if spec.active is not None and spec.active.groups:
            group_sets.append(spec.active.groups)
        if spec.protect:
            group_sets.append([spec.protect])
        if spec.negate:
            group_sets.append([spec.negate])
        return frozenset(
            i for i in range(len(SYMMETRY_PERMS)) if all(symmetry_keeps(i, g) for g in group_sets)
        )

    @staticmethod
    def _groups(spec: TileSpec) -> tuple:
        power = spec.active
        if power is None or power.reach not in ("adjacent", "line"):
            return ()
        per_player = []
        for player in (0, 1):
            per_cell = []
            for cell in CELLS:
                groups = []
                for group in power.groups:
                    cells: list[int] = []
                    for direction in group:
                        if power.reach == "line":
                            cells.extend(ray(cell, direction, player))
                        else:
                            target = neighbour(cell, direction, player)
                            if target >= 0:
                                cells.append(target)
                    if cells:
                        groups.append(tuple(cells))
                per_cell.append(tuple(groups))
            per_player.append(tuple(per_cell))
        return tuple(per_player)

    @staticmethod
    def _passive(directions: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(c for c in (neighbour(cell, d, 0) for d in directions) if c >= 0)
            for cell in CELLS
        )

    def symmetries_for(self, tiles: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Return the cell permutations under which every one of ``tiles`` plays the same."""
        allowed = set(range(len(SYMMETRY_PERMS)))
        for tile in tiles:
            allowed &= self.symmetries_of[tile]
        return tuple(SYMMETRY_PERMS[i] for i in sorted(allowed))
