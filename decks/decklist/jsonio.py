"""JSON decklists: ``{"game", "name", "format", "variant", "cards": [{"name", "quantity", "zone"}]}``."""

from __future__ import annotations

import json
from typing import Any

from common.inputs import JSONInputError, json_loads_bounded
from decks.decklist.model import (
    MAX_NAME_LENGTH,
    MAX_QUANTITY,
    METADATA_KEYS,
    Decklist,
    DecklistEntry,
    DecklistParseError,
    ParseProblem,
    is_sideboard,
    sideboard_message,
)


def parse_json(text: str | bytes) -> Decklist:
    """Read a JSON decklist. Raises ``DecklistParseError``; a card's "line" is its 1-based index."""
    try:
        data = json_loads_bounded(text)  # nesting capped at API_JSON_MAX_DEPTH, no recursion
    except JSONInputError as exc:
        raise DecklistParseError([ParseProblem(exc.line or 0, exc.message)]) from None
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as exc:
        line = getattr(exc, "lineno", 0)
        reason = getattr(exc, "msg", "not valid JSON")
        raise DecklistParseError([ParseProblem(line, f"not valid JSON: {reason}")]) from None
    if isinstance(data, list):
        data = {"cards": data}
    if not isinstance(data, dict):
        raise DecklistParseError([ParseProblem(0, "a JSON decklist is an object with 'cards'")])
    decklist = Decklist()
    for key in METADATA_KEYS:
        value = data.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            decklist.metadata[key] = str(value)
    cards = data.get("cards", [])
    problems: list[ParseProblem] = []
    if not isinstance(cards, list):
        raise DecklistParseError([ParseProblem(0, "'cards' must be a list")])
    for position, item in enumerate(cards, start=1):
        entry, problem = _entry(item, position)
        if problem:
            problems.append(ParseProblem(position, f"card {position}: {problem}"))
        elif entry is not None:
            decklist.entries.append(entry)
    if problems:
        raise DecklistParseError(problems)
    return decklist


def _entry(item: Any, position: int) -> tuple[DecklistEntry | None, str]:
    if not isinstance(item, dict):
        return None, "must be an object with 'name' and 'quantity'"
    name = item.get("name")
    quantity = item.get("quantity", 1)
    zone = item.get("zone") or ""
    section = item.get("section") or ""
    if not isinstance(name, str) or not name.strip():
        return None, "needs a non-empty 'name'"
    if len(name.strip()) > MAX_NAME_LENGTH:
        return None, f"a card name is at most {MAX_NAME_LENGTH} characters"
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        return None, "'quantity' must be a whole number"
    if not 1 <= quantity <= MAX_QUANTITY:
        return None, f"quantity {quantity} is not between 1 and {MAX_QUANTITY}"
    if not isinstance(zone, str) or not isinstance(section, str):
        return None, "'zone' and 'section' must be text"
    if is_sideboard(zone) or is_sideboard(section):
        return None, sideboard_message(zone if is_sideboard(zone) else section)
    return DecklistEntry(name.strip(), quantity, section or zone, position, zone), ""


def format_json(metadata: dict[str, str], entries: list[tuple[int, str, str]]) -> str:
    """Write ``(quantity, name, zone)`` entries as a JSON decklist."""
    data: dict[str, Any] = {key: value for key, value in metadata.items() if value}
    data["cards"] = [
        {"name": name, "quantity": quantity, **({"zone": zone} if zone else {})}
        for quantity, name, zone in entries
    ]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
