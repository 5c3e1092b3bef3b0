"""Decklists in and out: plain text (the main format), JSON and CSV.

``decklist_read`` turns any of the three into a ``Decklist``; ``decklist_entries`` matches it to a
game (sections become zones where the game has zones, names become canonical card names);
``decklist_export`` writes a canonical, sorted, sectioned list that reads back to the same deck.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from decks.decklist.csvio import format_csv, parse_csv
from decks.decklist.jsonio import format_json, parse_json
from decks.decklist.model import (
    METADATA_KEYS,
    Decklist,
    DecklistEntry,
    DecklistParseError,
    ParseProblem,
    quantity_message,
)
from decks.decklist.text import format_text, parse_text
from decks.validation import CardIndex, card_index, rules_for

DecklistFormat = Literal["text", "json", "csv"]

__all__ = [
    "Decklist",
    "DecklistEntry",
    "DecklistParseError",
    "DecklistSettings",
    "ParseProblem",
    "deck_counts",
    "decklist_entries",
    "decklist_export",
    "decklist_read",
    "decklist_settings",
]


def decklist_read(text: str | bytes, kind: DecklistFormat = "text") -> Decklist:
    """Parse a decklist in one of the three formats; raises ``DecklistParseError`` only."""
    if kind == "json":
        return parse_json(text)
    if kind == "csv":
        return parse_csv(text)
    return parse_text(text)


#: each export kind's media type (text says its charset: a deck named "Café" reads the same in
#: any client) and file extension; the site's downloads and the API's export share it
EXPORT_TYPES: dict[str, tuple[str, str]] = {
    "text": ("text/plain; charset=utf-8", "txt"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "json": ("application/json", "json"),
}


@dataclass(frozen=True, slots=True)
class DecklistSettings:
    """How a decklist's own ``# key: value`` lines ask to be judged (docs/decklists.md,
    *Metadata keys*): a format's slug, a variant and the day, each None when not said."""

    format: str | None = None
    variant: str | None = None
    as_of: dt.date | None = None


def decklist_settings(decklist: Decklist, game_slug: str) -> DecklistSettings:
    """The format, variant and as_of ``decklist`` names for itself. Raises
    ``DecklistParseError`` when it says it is for another game than ``game_slug`` or its as_of
    is not a date (``YYYY-MM-DD``). What a caller is told explicitly wins over these."""
    meta = decklist.metadata
    problems = []
    declared = meta.get("game", "").strip()
    if declared and declared != game_slug:
        problems.append(ParseProblem(0, f"this decklist is for {declared}, not {game_slug}"))
    as_of = None
    if meta.get("as_of", "").strip():
        try:
            as_of = dt.date.fromisoformat(meta["as_of"].strip())
        except ValueError:
            problems.append(ParseProblem(0, f"as_of {meta['as_of']!r} is not a date (YYYY-MM-DD)"))
    if problems:
        raise DecklistParseError(problems)
    return DecklistSettings(
        format=meta.get("format", "").strip() or None,
        variant=meta.get("variant", "").strip() or None,
        as_of=as_of,
    )


# a JSON decklist: an object, or the bare list of cards (a text list's "[Section]" header never
# opens with "{" or closes at once)
_JSON_START = re.compile(r"\s*(\{|\[\s*(\{|\]))")
# a CSV header naming a card column and another: "quantity,name", "Name,Quantity,Zone" ...
_CSV_HEADER = re.compile(r'(?i)\s*"?(quantity|name|zone)"?\s*,.*\bname\b|\s*"?name"?\s*,')


def guess_kind(filename: str, text: str) -> DecklistFormat:
    """The format a file most likely holds, from its name, else its first line past any
    ``#`` metadata: JSON's bracket or a CSV header row (``quantity,name``)."""
    lowered = filename.lower()
    if lowered.endswith(".json") or _JSON_START.match(text):
        return "json"
    if lowered.endswith(".csv"):
        return "csv"
    first = next(
        (line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")),
        "",
    )
    if _CSV_HEADER.match(first):
        return "csv"
    return "text"


_HEADER_COUNT = re.compile(r"\s*\(\s*\d+\s*\)\s*$")  # "Attack (12)"
_GENERIC_HEADERS = frozenset({"deck", "main", "main deck", "maindeck", "cards", "unknown cards"})


def _header_key(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", _HEADER_COUNT.sub("", text).casefold()).split())


def _singulars(key: str) -> set[str]:
    forms = {key}
    if key.endswith("ies"):
        forms.add(key[:-3] + "y")
    if key.endswith("es"):
        forms.add(key[:-2])
    if key.endswith("s"):
        forms.add(key[:-1])
    return forms


_HEADERS_TABLE = "decklist:headers"  # the key of known_headers' table (CardIndex.derived)


def known_headers(game_slug: str) -> frozenset[str]:
    """Header keys a game's decklists may use: card types, subtypes and branches (singular or
    plural), zones and their aliases (checked separately), and a few generic words.

    Derived once per card index (kept in its ``prepared`` tables), so it is rebuilt exactly when
    the index is: a card, type or branch added or renamed shows up in the next decklist read.
    """
    known: frozenset[str] = card_index(game_slug).derived(_HEADERS_TABLE, _header_keys_of)
    return known


def _header_keys_of(index: CardIndex) -> frozenset[str]:
    names: set[str] = set(_GENERIC_HEADERS)
    for slug, name in index.type_names.items():
        names.update({_header_key(slug), _header_key(name)})
    for card in index.cards:
        names.add(_header_key(card.type_name))
        names.update(_header_key(subtype) for subtype in card.subtypes)
        if card.branch:
            names.add(_header_key(card.branch))
    return frozenset(names)


def _header_problems(game_slug: str, decklist: Decklist) -> list[ParseProblem]:
    """Section headers the game does not know (a typo would otherwise pass silently)."""
    if not decklist.headers:
        return []
    index = card_index(game_slug)
    if index.game_id is None:
        return []
    rules = rules_for(game_slug)
    known = known_headers(game_slug)
    problems = []
    for line, header in decklist.headers:
        key = _header_key(header)
        if rules.zone_for_section(header) is not None or _singulars(key) & known:
            continue
        types = ", ".join(index.type_names.values())
        zones = ", ".join(rules.zone_labels.get(zone, zone) for zone in rules.zones)
        allowed = (
            f"a zone ({zones}) or a card type ({types})" if zones else f"a card type ({types})"
        )
        problems.append(
            ParseProblem(
                line,
                f"{header!r} is not a section of {index.game_name} decklists: a header names "
                f"{allowed}; remove it or fix its spelling",
            )
        )
    return problems


def decklist_entries(game_slug: str, decklist: Decklist) -> list[DecklistEntry]:
    """The decklist's entries for a game: canonical names, zones from section headers.

    A line such as ``1776 Declaration`` reads as 1776 copies of "Declaration"; when no card has
    that name but one is called "1776 Declaration", the line means one copy of it. Raises
    ``DecklistParseError`` (every problem with its line) for section headers the game does not
    know, zones in a game without zones, and leading numbers above ``MAX_QUANTITY`` that are not
    part of a card's name.
    """
    index = card_index(game_slug)
    rules = rules_for(game_slug)
    default_zone = rules.zones[0] if rules.zones else ""
    resolved: list[DecklistEntry] = []
    zone_by_section: dict[str, str] = {}
    problems = _header_problems(game_slug, decklist)
    for entry in decklist.entries:
        zone = entry.zone
        if rules.zones and not zone:
            section = entry.section
            if section not in zone_by_section:
                zone_by_section[section] = rules.zone_for_section(section) or ""
            zone = zone_by_section[section] or default_zone
        elif not rules.zones:
            if zone and index.game_id is not None:
                problems.append(
                    ParseProblem(
                        entry.line,
                        f"{index.game_name} decks have no zones, so zone {zone!r} means "
                        "nothing: leave the zone empty",
                    )
                )
            zone = ""
        name, quantity = entry.name, entry.quantity
        card = index.lookup(name)
        if card is None:
            whole = index.lookup(f"{quantity} {name}")
            if whole is not None:
                card, quantity = whole, 1
        if card is None and entry.line in decklist.long_numbers:
            # "1000 Stamp Act" was kept whole in case a card has that name; none has
            digits = decklist.long_numbers[entry.line]
            problems.append(
                ParseProblem(
                    entry.line, f"{quantity_message(digits)} (and no card is called {name!r})"
                )
            )
            continue
        resolved.append(
            DecklistEntry(card.name if card else name, quantity, entry.section, entry.line, zone)
        )
    if problems:
        raise DecklistParseError(sorted(problems, key=lambda problem: problem.line))
    return resolved


def deck_counts(
    entries: Iterable[Any] | Mapping[str, int],
) -> dict[tuple[str, str], int]:
    """``{(name, zone): quantity}`` of entries, repeated lines summed (the deck's identity)."""
    counts: dict[tuple[str, str], int] = {}
    if isinstance(entries, Mapping):
        items = [(name, quantity, "") for name, quantity in entries.items()]
    else:
        items = []
        rows: Iterable[Any] = entries
        for entry in rows:
            if isinstance(entry, tuple | list):
                name, quantity, *rest = entry
                items.append((name, quantity, rest[0] if rest else ""))
            else:
                items.append((entry.name, entry.quantity, entry.zone or ""))
    for name, quantity, zone in items:
        counts[(name, zone or "")] = counts.get((name, zone or ""), 0) + quantity
    return counts


def _sorted_entries(game_slug: str, counts: dict[tuple[str, str], int]) -> list[Any]:
    """(zone position, section position, section, name, quantity, zone) rows, canonical order."""
    index = card_index(game_slug)
    rules = rules_for(game_slug)
    zone_order = {zone: position for position, zone in enumerate(rules.zones)}
    rows = []
    for (name, zone), quantity in counts.items():
        if quantity <= 0:
            continue
        card = index.lookup(name)
        if card is not None:
            section = rules.section(card)
            section_order = index.type_order.get(card.type, len(index.type_order))
            name = card.name
        else:
            section, section_order = "Unknown cards", len(index.type_order) + 1
        rows.append(
            (
                zone_order.get(zone, len(zone_order)),
                section_order,
                section,
                name.casefold(),
                name,
                quantity,
                zone,
            )
        )
    rows.sort()
    return rows


def decklist_export(
    game_slug: str,
    entries: Iterable[Any] | Mapping[str, int],
    metadata: Mapping[str, str] | None = None,
    kind: DecklistFormat = "text",
) -> str:
    """Write a deck canonically: sorted by zone, card type and name, with section headers.

    In games with zones the text sections are the zones (cards within a zone sorted by type and
    name); otherwise they are the card types.
    """
    meta = {"game": game_slug}
    for key, value in (metadata or {}).items():
        if key in METADATA_KEYS and value not in (None, ""):
            meta[key] = str(value)
    rows = _sorted_entries(game_slug, deck_counts(entries))
    if kind == "json":
        return format_json(meta, [(row[5], row[4], row[6]) for row in rows])
    if kind == "csv":
        # cards only, the header first: programs read the export with a plain CSV reader
        return format_csv([(row[5], row[4], row[6]) for row in rows])
    rules = rules_for(game_slug)
    sections: list[tuple[str, list[tuple[int, str]]]] = []
    for row in rows:
        title = rules.zone_labels.get(row[6], row[6]) if rules.zones else row[2]
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append((row[5], row[4]))
    return format_text(sections, meta)
