"""Reggae Revolution card records as the engine uses them, and a reader for the fixture files.

The engine takes plain ``Card.record()``-shaped dicts (or core ``CardRecord`` values) and turns
each into a ``CardSpec``: the card's symbol, colour, cost in symbols, suppressed symbols,
persuasion need and effects. ``fixture_records()`` reads ``fixtures/reggae-revolution`` with
PyYAML alone (no Django), so tests, benchmarks and workers can play without a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.engines.core import CardRecord, card_key, thaw
from rules.engines.core.records import read_fixture_records
from rules.engines.reggae_revolution.effects import (
    ANY,
    COLOURS,
    SYMBOLS,
    effect_problems,
    with_defaults,
)

GAME_SLUG = "reggae-revolution"
FIXTURE_DIR = Path(__file__).resolve().parents[3] / "fixtures" / GAME_SLUG


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card definition: what the engine needs to play it."""

    key: str
    name: str
    type: str
    colour: str | None
    symbol: str | None
    cost: tuple[str, ...]
    suppresses: tuple[str, ...]
    persuasion: int
    effects: tuple[Mapping[str, Any], ...]
    copies: int
    #: the cost as a count per symbol (``SYMBOLS`` order), what paying it is checked against
    need: tuple[int, ...]

    @property
    def is_wild(self) -> bool:
        """Return True for a wild card (any one symbol, any one colour)."""
        return self.type == "wild"


class CardDataError(ValueError):
    """Card records the engine cannot play with; the message lists every problem."""


def _plain(record: Mapping[str, Any] | CardRecord) -> dict[str, Any]:
    if isinstance(record, CardRecord):
        return record.as_record()
    return thaw(record)


def card_spec(record: Mapping[str, Any] | CardRecord) -> CardSpec:
    """Build a ``CardSpec`` from one card record; raise CardDataError if the engine cannot use it."""
    data = _plain(record)
    name = data.get("name", "?")
    card_type = data.get("type")
    stats = data.get("stats") or {}
    effects = data.get("effects") or []
    problems = [f"{name}: {p}" for p in effect_problems(str(card_type), effects)]
    colour = data.get("branch")
    symbol = stats.get("symbol")
    if card_type == "wild":
        symbol, colour = ANY, None
    if card_type in ("starter", "main"):
        if symbol not in SYMBOLS:
            problems.append(f"{name}: a {card_type} card needs one of the four symbols")
        if colour not in COLOURS:
            problems.append(f"{name}: a {card_type} card needs one of the four colours")
    cost = tuple(stats.get("cost") or ())
    if card_type in ("starter", "main", "wild") and (
        not cost or any(s not in SYMBOLS for s in cost)
    ):
        problems.append(f"{name}: a {card_type} card needs a cost in symbols")
    suppresses = tuple(stats.get("suppresses") or ())
    persuasion = int(data.get("strength") or 0)
    if card_type == "villain" and (
        not suppresses or any(s not in SYMBOLS for s in suppresses) or persuasion < 1
    ):
        problems.append(f"{name}: a villain needs suppressed symbols and a persuasion need")
    if card_type == "villain" and colour not in COLOURS:
        problems.append(f"{name}: a villain needs one of the four colours")
    if card_type not in ("starter", "main", "wild", "villain", "scheme", "oppression"):
        problems.append(f"{name}: unknown card type {card_type!r}")
    if problems:
        raise CardDataError("; ".join(problems))
    return CardSpec(
        key=card_key(name),
        name=name,
        type=str(card_type),  # one of the known types: an unknown one raised above
        colour=colour,
        symbol=symbol,
        cost=cost,
        suppresses=suppresses,
        persuasion=persuasion,
        effects=tuple(with_defaults(e) for e in effects),
        copies=int(data.get("copies_in_set") or 1),
        need=symbol_counts(cost),
    )


def symbol_counts(symbols: Iterable[str]) -> tuple[int, ...]:
    """How many of each symbol (``SYMBOLS`` order) ``symbols`` holds."""
    counts = [0] * len(SYMBOLS)
    for symbol in symbols:
        counts[SYMBOLS.index(symbol)] += 1
    return tuple(counts)


def card_specs(records: Iterable[Mapping[str, Any] | CardRecord]) -> tuple[CardSpec, ...]:
    """Build every ``CardSpec`` and check the records make a playable game box."""
    specs: list[CardSpec] = []
    problems: list[str] = []
    for record in records:
        try:
            specs.append(card_spec(record))
        except CardDataError as exc:
            problems.append(str(exc))
    starters = [s for s in specs if s.type == "starter"]
    if sorted(s.symbol or "" for s in starters) != sorted(SYMBOLS):
        problems.append("the records need exactly one starter card per symbol")
    if not any(s.type in ("main", "wild") for s in specs):
        problems.append("the records need a main deck")
    if not any(s.type == "villain" for s in specs):
        problems.append("the records need at least one villain")
    if problems:
        raise CardDataError("; ".join(problems))
    order = {"starter": 0, "main": 1, "wild": 2, "villain": 3, "scheme": 4, "oppression": 5}
    return tuple(sorted(specs, key=lambda s: (order[s.type], s.key)))


def fixture_records(folder: Path = FIXTURE_DIR) -> list[dict[str, Any]]:
    """Read the game's fixture files into ``Card.record()``-shaped dicts, without Django."""
    return read_fixture_records(folder)
