"""Validation of a card against its game's card schema.

Each game ships a JSON Schema (``card_schema`` in ``fixtures/<game>/game.yaml``) that a card's
*record* must satisfy. The record is the card flattened to plain data: its type, subtypes, branch,
rarity, cost, printed numbers, ``stats`` and ``effects``. Validating the whole record (rather than
``stats`` alone) lets a game say things like "an Unconstitutional Act has no branch and prints a
drain value" or "every effect uses the effect vocabulary" in one place, as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator

#: the Card columns a game's printed numbers live in; each game names and labels the ones it
#: prints in ``Game.number_labels`` (``cost`` is Revolt N Reign's ``ip_cost``, "IP cost")
PRINTED_NUMBERS = ("cost", "attack", "defense", "drain", "generation", "strength")


@dataclass(frozen=True)
class PrintedNumber:
    """One number a card prints: its column, the game's name and label for it, and its value."""

    column: str
    name: str
    label: str
    value: int


def printed_numbers(
    number_labels: Mapping[str, Any] | None, card: Any
) -> tuple[PrintedNumber, ...]:
    """Return the numbers ``card`` prints, in its game's ``number_labels`` order (unset ones left
    out). ``card`` is anything with the number columns as attributes (a ``Card``, a record)."""
    numbers = []
    for column, meta in (number_labels or {}).items():
        value = getattr(card, column, None)
        if value is None:
            continue
        names = meta if isinstance(meta, Mapping) else {}
        numbers.append(
            PrintedNumber(
                column=column,
                name=str(names.get("name", column)),
                label=str(names.get("label", column)),
                value=value,
            )
        )
    return tuple(numbers)


def _freeze(schema: Mapping[str, Any]) -> str:
    import json

    return json.dumps(schema, sort_keys=True)


@lru_cache(maxsize=32)
def _validator(frozen: str) -> Draft202012Validator:
    import json

    schema = json.loads(frozen)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def check_schema(schema: Mapping[str, Any]) -> list[str]:
    """Return problems with a game's card schema itself (empty when it is a valid JSON Schema)."""
    try:
        Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"card schema is not valid JSON Schema: {exc.message}"]
    return []


def _where(error: jsonschema.ValidationError) -> str:
    parts = [str(p) for p in error.absolute_path]
    return ".".join(parts) if parts else "(card)"


def record_errors(schema: Mapping[str, Any], record: Mapping[str, Any]) -> list[str]:
    """Return one readable message per way ``record`` breaks ``schema`` (empty when it fits).

    Messages name the path inside the record, e.g. ``effects.0.amount: -3 is less than 0``.
    """
    if not schema:
        return []
    validator = _validator(_freeze(schema))
    errors = sorted(validator.iter_errors(dict(record)), key=lambda e: list(e.absolute_path))
    messages = []
    for error in errors:
        # For oneOf/anyOf failures the most specific sub-error is the useful one.
        best = jsonschema.exceptions.best_match([error]) if error.context else error
        messages.append(f"{_where(best)}: {best.message}")
    return messages
