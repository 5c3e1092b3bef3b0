"""Engine-side card records: plain immutable data built from ``Card.record()`` dicts.

The database side (``rules/adapters.py``) produces plain dicts; engines turn them into
``CardRecord`` values here and never see a model instance.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

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


_YAML_CACHE: dict[tuple[str, int, int], Any] = {}


def read_yaml(path: Path) -> Any:
    """A YAML file's data, parsed once per version of the file (its path, modification time and
    size key a process-wide cache) with libyaml where PyYAML has it; every caller gets its own
    deep copy, so changing what it got changes nothing for the next. Engines build a game's
    card records on every new ``Game()`` (a test hand, a move against the AI): parsing the
    fixtures each time cost a Revolt N Reign test-hands page 120 ms."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _YAML_CACHE:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        _YAML_CACHE[key] = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    return copy.deepcopy(_YAML_CACHE[key])


def read_fixture_records(folder: Path) -> list[dict[str, Any]]:
    """Read a game's fixture folder (``game.yaml`` + ``cards/*.yaml``) into ``Card.record()``-shaped
    dicts without Django, so engines, tests and benchmarks can load real cards anywhere.

    Printed numbers named by the game's own labels (``ip_cost``) are mapped to their columns
    (``cost``) exactly as the loader does; absent values are left out, as in ``Card.record()``.
    """
    game = read_yaml(folder / "game.yaml")
    aliases = {column: column for column in NUMBER_KEYS}
    for column, meta in (game["game"].get("number_labels") or {}).items():
        aliases[meta["name"]] = column
    records: list[dict[str, Any]] = []
    for path in sorted((folder / "cards").glob("*.yaml")):
        for entry in read_yaml(path) or []:
            record: dict[str, Any] = {
                "name": entry["name"],
                "type": entry["type"],
                "subtypes": sorted(entry.get("subtypes") or []),
                "set": entry["set"],
                "stats": entry.get("stats") or {},
                "effects": entry.get("effects") or [],
            }
            for key in ("branch", "rarity", "copies_in_set"):
                if entry.get(key) is not None:
                    record[key] = entry[key]
            for key, value in entry.items():
                if key in aliases and value is not None:
                    record[aliases[key]] = value
            records.append(record)
    return records
