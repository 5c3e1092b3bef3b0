"""The shape every decklist reader produces and every writer consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_QUANTITY = 999
MAX_NAME_LENGTH = 120
MAX_LINES = 5000
METADATA_KEYS = ("game", "name", "format", "variant", "description", "author", "event")


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

    @property
    def card_count(self) -> int:
        return sum(entry.quantity for entry in self.entries)
