"""The shape every decklist reader produces and every writer consumes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: the most copies one line may give (no deck of the five games comes near it); more is an error
MAX_QUANTITY = 999
MAX_NAME_LENGTH = 120
MAX_LINES = 5000
METADATA_KEYS = ("game", "name", "format", "variant", "as_of", "description", "author", "event")
# "# key: value", the metadata line of a text list and of a CSV list above its header
_METADATA_LINE = re.compile(r"^#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")


def metadata_line(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a ``# key: value`` line (the key lower case, ``-`` read as ``_``:
    ``# As-Of:`` is ``as_of``), or None for another line."""
    match = _METADATA_LINE.match(line.strip())
    if match is None:
        return None
    return match.group(1).lower().replace("-", "_"), match.group(2).strip()


# "Side deck" is left out: in Regality vs Religion "Side" is a zone (a player's own tiles)
_SIDEBOARD = re.compile(r"^(side[\s_-]*board|sb)(\s*\(\d+\))?$", re.IGNORECASE)


def is_sideboard(name: str) -> bool:
    """Whether a section or zone name means a sideboard ("Sideboard", "SB", "Side board (15)")."""
    return bool(_SIDEBOARD.match(name.strip().rstrip(":").strip()))


def sideboard_message(name: str) -> str:
    """Why a sideboard is refused: Deckwright would otherwise count its cards in the deck."""
    return (
        f"{name!r} starts a sideboard, and none of Deckwright's five games has one: its cards "
        "would count as part of the deck. Remove that section (keep those cards in a deck of "
        "their own if you want them)"
    )


def quantity_message(quantity: str) -> str:
    return f"quantity {quantity} is not between 1 and {MAX_QUANTITY}"


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """One problem in a decklist: the line it is on (1-based; 0 for the whole input) and what."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message}


class DecklistParseError(ValueError):
    """A decklist that cannot be read; ``problems`` lists every problem with its line number."""

    def __init__(self, problems: list[ParseProblem]):
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


@dataclass(slots=True)
class DecklistEntry:
    """One card line: a name as written, its quantity, the section it sat in, its line number."""

    name: str
    quantity: int
    section: str = ""
    line: int = 0
    zone: str = ""


@dataclass(slots=True)
class Decklist:
    """A parsed decklist: metadata from its leading ``# key: value`` block and its card lines."""

    entries: list[DecklistEntry] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    headers: list[tuple[int, str]] = field(default_factory=list)
    """Section headers of a text decklist as ``(line, name)``, checked against a game's sections
    by ``decklist_entries``."""
    long_numbers: dict[int, str] = field(default_factory=dict)
    """Text lines whose leading number, above ``MAX_QUANTITY``, was read as part of the card name
    ("1776 Declaration"): ``decklist_entries`` calls it a quantity error if no card has that name."""

    @property
    def card_count(self) -> int:
        return sum(entry.quantity for entry in self.entries)
