"""Engine-side card records: plain immutable data built from ``Card.record()`` dicts.

The database side (``rules/adapters.py``) produces plain dicts; engines turn them into
``CardRecord`` values here and never see a model instance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

NUMBER_KEYS = ("cost", "attack", "defense", "drain", "generation", "strength")


def freeze(value: Any) -> Any:
    """Return ``value`` with lists made tuples and dicts made read-only, recursively."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """Return frozen data as plain dicts and lists again (for JSON and comparisons)."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(item) for item in value]
    return value


def card_key(name: str) -> str:
    """Return the stable slug an engine uses for a card name ("Queen / Cardinal" -> "queen-cardinal")."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A card as an engine sees it: names, vocabulary slugs, printed numbers, stats and effects."""

    name: str
    key: str
    type: str
    branch: str | None
    subtypes: tuple[str, ...]
    numbers: Mapping[str, int]
    stats: Mapping[str, Any]
    effects: tuple[Any, ...]

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CardRecord:
        """Build from one ``Card.record()``-shaped dict (missing optional keys allowed)."""
        if "name" not in record or "type" not in record:
            raise ValueError(f"a card record needs 'name' and 'type': {dict(record)!r}")
        return cls(
            name=record["name"],
            key=card_key(record["name"]),
            type=record["type"],
            branch=record.get("branch"),
            subtypes=tuple(record.get("subtypes", ())),
            numbers=MappingProxyType({k: record[k] for k in NUMBER_KEYS if k in record}),
            stats=freeze(record.get("stats", {})),
            effects=freeze(record.get("effects", [])),
        )

    def as_record(self) -> dict[str, Any]:
        """Return the plain ``Card.record()`` shape again."""
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "subtypes": list(self.subtypes),
        }
        if self.branch is not None:
            data["branch"] = self.branch
        data.update(self.numbers)
        data["stats"] = thaw(self.stats)
        data["effects"] = thaw(self.effects)
        return data


def engine_records(records: Iterable[Mapping[str, Any]]) -> tuple[CardRecord, ...]:
    """Turn plain card records into engine records, refusing duplicate names."""
    result: list[CardRecord] = []
    seen: set[str] = set()
    for record in records:
        card = record if isinstance(record, CardRecord) else CardRecord.from_record(record)
        if card.key in seen:
            raise ValueError(f"duplicate card {card.name!r} in the records")
        seen.add(card.key)
        result.append(card)
    return tuple(result)
