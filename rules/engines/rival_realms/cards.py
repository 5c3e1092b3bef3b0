"""Rival Realms card records as the engine plays them, and a reader for the fixture files.

Every card record (``Card.record()`` shape, or a core ``CardRecord``) becomes a ``CardSpec``: its
type, supply cost or supply gained, attack and defense, prerequisites, additional costs and parsed
abilities. ``fixture_records()`` reads ``fixtures/rival-realms`` with PyYAML only, so tests,
benchmarks and workers need no database. The effect language is documented in
``docs/rules/rival-realms.md``; anything outside it is refused with the card's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.engines.core import CardRecord, card_key, thaw
from rules.engines.core.records import read_fixture_records

GAME_SLUG = "rival-realms"
FIXTURE_DIR = Path(__file__).resolve().parents[3] / "fixtures" / GAME_SLUG
CARD_TYPES = ("supply", "realm", "unit", "reinforce")
PHASES = ("deploy", "attack", "defend", "reinforce", "resolve", "redraw", "any")
TRIGGERS = ("on_deploy", "turn_start", "attacks", "blocks", "combat_end")
PAYMENTS = (
    "supply",
    "discard_self",
    "lose_self",
    "discard_from_hand",
    "discard_from_field",
    "lose_from_field",
    "lose_life",
)
OPS = (
    "gain_supply",
    "draw",
    "gain_life",
    "damage_rival",
    "damage_unit",
    "prevent_damage",
    "modify",
    "lose_card",
    "return_to_hand",
    "rival_discards",
)
TARGETS = (
    "this_unit",
    "own_unit",
    "enemy_unit",
    "own_combat_units",
    "enemy_combat_units",
    "own_units",
    "enemy_realm",
)
TESTS = ("field_count", "on_field", "lost_count")


class CardDataError(ValueError):
    """Card records the engine cannot play with; the message lists every problem."""


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card: its kind and the parts that kind uses."""

    kind: str
    phases: tuple[str, ...]
    cost: tuple[Mapping[str, Any], ...]
    when: str | None
    do: tuple[Mapping[str, Any], ...]
    conditions: tuple[Mapping[str, Any], ...]

    def usable_in(self, phase: str) -> bool:
        """Return True when an activated ability may be used in ``phase``."""
        return self.kind == "activated" and (phase in self.phases or "any" in self.phases)


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card definition as the engine needs it."""

    key: str
    name: str
    type: str
    subtypes: tuple[str, ...]
    cost: int
    attack: int
    defense: int
    supply: int
    reinforce_kind: str | None
    prerequisites: tuple[str, ...]
    additional_costs: tuple[Mapping[str, Any], ...]
    abilities: tuple[Ability, ...]
    copies: int

    @property
    def is_permanent(self) -> bool:
        """Return True for realms and units, the cards that stay on a field."""
        return self.type in ("realm", "unit")

    def of_kind(self, kind: str) -> list[tuple[int, Ability]]:
        """Return (index, ability) for every ability of ``kind``."""
        return [(i, a) for i, a in enumerate(self.abilities) if a.kind == kind]


def _plain(record: Mapping[str, Any] | CardRecord) -> dict[str, Any]:
    if isinstance(record, CardRecord):
        return record.as_record()
    return thaw(record)


def _check_ops(name: str, ops: list[Any], problems: list[str]) -> None:
    for op in ops:
        kind = op.get("op") if isinstance(op, Mapping) else None
        if kind not in OPS:
            problems.append(f"{name}: unknown operation {kind!r}")
        elif "target" in op and op["target"] not in TARGETS:
            problems.append(f"{name}: unknown target {op['target']!r}")


def _ability(name: str, raw: Mapping[str, Any], problems: list[str]) -> Ability | None:
    kind = raw.get("ability")
    if kind not in ("on_play", "activated", "triggered", "static", "victory"):
        problems.append(f"{name}: unknown ability kind {kind!r}")
        return None
    ops = list(raw.get("do") or [])
    _check_ops(name, ops, problems)
    phases = tuple(raw.get("phases") or ())
    if any(p not in PHASES for p in phases):
        problems.append(f"{name}: unknown phase in {list(phases)}")
    cost = tuple(raw.get("cost") or ())
    if any(c.get("pay") not in PAYMENTS for c in cost):
        problems.append(f"{name}: unknown payment in its ability cost")
    when = raw.get("when")
    if kind == "triggered" and when not in TRIGGERS:
        problems.append(f"{name}: unknown trigger {when!r}")
    conditions = tuple(raw.get("conditions") or ())
    if any(c.get("test") not in TESTS for c in conditions):
        problems.append(f"{name}: unknown victory test")
    if kind == "static" and any(op.get("op") != "modify" for op in ops):
        problems.append(f"{name}: a static ability only modifies numbers")
    return Ability(kind, phases, cost, when, tuple(ops), conditions)


def card_spec(record: Mapping[str, Any] | CardRecord) -> CardSpec:
    """Build a ``CardSpec`` from one card record; raise CardDataError if the engine cannot use it."""
    data = _plain(record)
    name = str(data.get("name", "?"))
    card_type = str(data.get("type"))
    stats = data.get("stats") or {}
    problems: list[str] = []
    if card_type not in CARD_TYPES:
        problems.append(f"{name}: unknown card type {card_type!r}")
    if card_type == "unit" and ("attack" not in data or "defense" not in data):
        problems.append(f"{name}: a unit needs attack and defense")
    if card_type == "reinforce" and stats.get("reinforce_kind") not in ("once", "discard"):
        problems.append(f"{name}: a reinforce card is marked once or discard")
    additional = tuple(stats.get("additional_costs") or ())
    if any(c.get("pay") not in PAYMENTS for c in additional):
        problems.append(f"{name}: unknown payment in its additional costs")
    abilities = [_ability(name, raw, problems) for raw in data.get("effects") or []]
    if problems:
        raise CardDataError("; ".join(problems))
    return CardSpec(
        key=card_key(name),
        name=name,
        type=card_type,
        subtypes=tuple(data.get("subtypes") or ()),
        cost=int(data.get("cost") or 0),
        attack=int(data.get("attack") or 0),
        defense=int(data.get("defense") or 0),
        supply=int(data.get("generation") or 0),
        reinforce_kind=stats.get("reinforce_kind"),
        prerequisites=tuple(stats.get("prerequisites") or ()),
        additional_costs=additional,
        abilities=tuple(a for a in abilities if a is not None),
        copies=int(data.get("copies_in_set") or 1),
    )


def card_specs(records: Iterable[Mapping[str, Any] | CardRecord]) -> tuple[CardSpec, ...]:
    """Build every ``CardSpec``; refuse the set if any card cannot be played."""
    specs: list[CardSpec] = []
    problems: list[str] = []
    for record in records:
        try:
            specs.append(card_spec(record))
        except CardDataError as exc:
            problems.append(str(exc))
    names = {s.name for s in specs}
    for spec in specs:
        missing = [p for p in spec.prerequisites if p not in names]
        if missing:
            problems.append(f"{spec.name}: prerequisites {missing} are not cards of the set")
    if problems:
        raise CardDataError("; ".join(problems))
    return tuple(sorted(specs, key=lambda s: (CARD_TYPES.index(s.type), s.key)))


def fixture_records(folder: Path = FIXTURE_DIR) -> list[dict[str, Any]]:
    """Read the game's fixture files into ``Card.record()``-shaped dicts, without Django."""
    return read_fixture_records(folder)
