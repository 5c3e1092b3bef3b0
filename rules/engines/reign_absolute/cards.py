"""Reign Absolute card records as the engine plays them, and a reader for the fixture files.

Every card record (``Card.record()`` shape, or a core ``CardRecord``) becomes a ``CardSpec``: a
unit's Strength, printed bonuses and parsed abilities, or a reinforcement's kind, single operation
and printed random values. ``fixture_records()`` reads ``fixtures/reign-absolute`` with PyYAML
only, so tests, benchmarks and workers need no database. The effect language is documented in
``docs/rules/reign-absolute.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.engines.core import CardRecord, card_key, thaw
from rules.engines.core.records import read_fixture_records

GAME_SLUG = "reign-absolute"
FIXTURE_DIR = Path(__file__).resolve().parents[3] / "fixtures" / GAME_SLUG
UNIT_TYPES = ("liege", "unit")
COMBAT_TIMINGS = ("start_of_combat", "when_attacking", "when_defending")
COMBAT_OPS = (
    "draw_reinforcements",
    "bonus",
    "reveal_adjacent",
    "cancel_enemy_reinforcements",
    "ignore_enemy_bonus",
)
ACTION_OPS = ("move", "swap_with_adjacent_ally", "peek")
ALWAYS_OPS = ("survives_ties", "immobile", "attacks_without_moving")
TURN_OPS = (
    "extra_turn",
    "extra_moves",
    "swap_adjacent_allies",
    "peek",
    "recall_unit",
    "draw_reinforcements",
)


class CardDataError(ValueError):
    """Card records the engine cannot play with; the message lists every problem."""


@dataclass(frozen=True, slots=True)
class CombatAbility:
    """One combat operation of a unit and the role it applies in (None: either role)."""

    role: str | None
    op: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card definition: a faction unit (Liege included) or a reinforcement."""

    key: str
    name: str
    type: str
    faction: str | None
    strength: int
    attack: int
    defence: int
    combat: tuple[CombatAbility, ...]
    actions: tuple[Mapping[str, Any], ...]
    after_setup: tuple[Mapping[str, Any], ...]
    always: frozenset[str]
    op: Mapping[str, Any] | None
    copies: int
    values: tuple[int, ...]
    faction_deck_size: int
    immobile: bool = False
    march: int = 0
    swaps: bool = False
    peek_range: int = 0

    @property
    def worth(self) -> float:
        """Return a rough fighting value for heuristics: Strength plus half the printed bonuses."""
        return self.strength + (self.attack + self.defence) / 2 + 1.0

    @property
    def is_unit(self) -> bool:
        """Return True for a Liege or a unit."""
        return self.type in UNIT_TYPES

    @property
    def is_liege(self) -> bool:
        """Return True for a faction's Liege."""
        return self.type == "liege"

    @property
    def is_combat(self) -> bool:
        """Return True for a Combat Reinforcement."""
        return self.type == "combat-reinforcement"

    def combat_ops(self, role: str) -> list[Mapping[str, Any]]:
        """Return the combat operations that apply while this unit is ``attacker``/``defender``."""
        return [a.op for a in self.combat if a.role is None or a.role == role]


def _plain(record: Mapping[str, Any] | CardRecord) -> dict[str, Any]:
    if isinstance(record, CardRecord):
        return record.as_record()
    return thaw(record)


def _unit_abilities(name: str, effects: list[Any], problems: list[str]) -> dict[str, Any]:
    parsed: dict[str, Any] = {"combat": [], "actions": [], "after_setup": [], "always": set()}
    roles = {"start_of_combat": None, "when_attacking": "attacker", "when_defending": "defender"}
    for effect in effects:
        when = effect.get("when") if isinstance(effect, Mapping) else None
        ops = effect.get("do") if isinstance(effect, Mapping) else None
        if not isinstance(ops, list) or not ops:
            problems.append(f"{name}: an ability needs a list of operations")
            continue
        for op in ops:
            kind = op.get("op") if isinstance(op, Mapping) else None
            if when in COMBAT_TIMINGS and kind in COMBAT_OPS:
                parsed["combat"].append(CombatAbility(roles[when], op))
            elif when == "action" and kind in ACTION_OPS:
                parsed["actions"].append(op)
            elif when == "after_setup" and kind == "swap_adjacent_allies":
                parsed["after_setup"].append(op)
            elif when == "always" and kind in ALWAYS_OPS:
                parsed["always"].add(kind)
            else:
                problems.append(f"{name}: the engine cannot run {kind!r} at {when!r}")
    return parsed


def _reinforcement_op(
    name: str, card_type: str, effects: list[Any], problems: list[str]
) -> Mapping[str, Any] | None:
    timing, allowed = (
        ("in_combat", ("bonus", "draw_reinforcements", "cancel_enemy_reinforcements"))
        if card_type == "combat-reinforcement"
        else ("on_draw", TURN_OPS)
    )
    if len(effects) != 1 or len(effects[0].get("do") or []) != 1:
        problems.append(f"{name}: a reinforcement carries exactly one effect with one operation")
        return None
    effect = effects[0]
    op = effect["do"][0]
    if effect.get("when") != timing or op.get("op") not in allowed:
        problems.append(f"{name}: the engine cannot run {op.get('op')!r} at {effect.get('when')!r}")
        return None
    return op


def card_spec(record: Mapping[str, Any] | CardRecord) -> CardSpec:
    """Build a ``CardSpec`` from one card record; raise CardDataError if the engine cannot use it."""
    data = _plain(record)
    name = str(data.get("name", "?"))
    card_type = str(data.get("type"))
    stats = data.get("stats") or {}
    effects = data.get("effects") or []
    problems: list[str] = []
    abilities: dict[str, Any] = {"combat": [], "actions": [], "after_setup": [], "always": set()}
    op = None
    values: tuple[int, ...] = ()
    copies = int(data.get("copies_in_set") or 1)
    if card_type in UNIT_TYPES:
        if not data.get("branch"):
            problems.append(f"{name}: a {card_type} needs a faction")
        if "strength" not in data:
            problems.append(f"{name}: a {card_type} needs a Strength")
        abilities = _unit_abilities(name, effects, problems)
        if card_type == "liege" and not stats.get("faction_deck_size"):
            problems.append(f"{name}: a Liege states its faction deck size")
    elif card_type in ("combat-reinforcement", "turn-reinforcement"):
        op = _reinforcement_op(name, card_type, effects, problems)
        values = tuple(int(v) for v in stats.get("random_values") or ())
        if len(values) != copies:
            problems.append(f"{name}: one random value per copy is needed")
    else:
        problems.append(f"{name}: unknown card type {card_type!r}")
    if problems:
        raise CardDataError("; ".join(problems))
    return CardSpec(
        key=card_key(name),
        name=name,
        type=card_type,
        faction=data.get("branch") if card_type in UNIT_TYPES else None,
        strength=int(data.get("strength") or 0),
        attack=int(data.get("attack") or 0),
        defence=int(data.get("defense") or 0),
        combat=tuple(abilities["combat"]),
        actions=tuple(abilities["actions"]),
        after_setup=tuple(abilities["after_setup"]),
        always=frozenset(abilities["always"]),
        op=op,
        copies=copies,
        values=values,
        faction_deck_size=int(stats.get("faction_deck_size") or 0),
        immobile="immobile" in abilities["always"],
        march=max(
            (int(op["spaces"]) for op in abilities["actions"] if op["op"] == "move"), default=0
        ),
        swaps=any(op["op"] == "swap_with_adjacent_ally" for op in abilities["actions"]),
        peek_range=max(
            (int(op["range"]) for op in abilities["actions"] if op["op"] == "peek"), default=0
        ),
    )


def card_specs(records: Iterable[Mapping[str, Any] | CardRecord]) -> tuple[CardSpec, ...]:
    """Build every ``CardSpec`` and check the records make a playable box (lieges, decks)."""
    specs: list[CardSpec] = []
    problems: list[str] = []
    for record in records:
        try:
            specs.append(card_spec(record))
        except CardDataError as exc:
            problems.append(str(exc))
    factions = sorted({s.faction for s in specs if s.faction})
    for faction in factions:
        lieges = [s for s in specs if s.faction == faction and s.is_liege]
        if len(lieges) != 1:
            problems.append(f"faction {faction} needs exactly one Liege")
    if not any(not s.is_unit for s in specs):
        problems.append("the records need a Reinforcement deck")
    if problems:
        raise CardDataError("; ".join(problems))
    order = {"liege": 0, "unit": 1, "combat-reinforcement": 2, "turn-reinforcement": 3}
    return tuple(sorted(specs, key=lambda s: (s.faction or "~", order[s.type], s.key)))


def fixture_records(folder: Path = FIXTURE_DIR) -> list[dict[str, Any]]:
    """Read the game's fixture files into ``Card.record()``-shaped dicts, without Django."""
    return read_fixture_records(folder)
