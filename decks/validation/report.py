"""What a validation returns: a report of every violation and warning, JSON-serialisable.

Also the one legality CSV of the site (``validate_decks --csv``, the tournament page's download):
a row per violation of each deck, one row for a legal deck, one per reading error.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from common.csvcells import csv_writer

#: the legality CSV's columns after the first, which names the deck (its file or its name)
#: ``judged_on``: the day the deck was judged on (a batch may judge a deck on its own list's date)
LEGALITY_CSV_COLUMNS = (
    "verdict",
    "card_count",
    "code",
    "message",
    "rule",
    "cards",
    "judged_on",
)


@dataclass(slots=True)
class Violation:
    """One broken rule: a stable ``code``, a message a player understands, the rule and the cards."""

    code: str
    message: str
    rule: str
    cards: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "cards": list(self.cards),
            "details": dict(self.details),
        }


@dataclass(slots=True)
class ValidationReport:
    """The verdict on one deck: ``legal`` is true exactly when there is no violation."""

    game: str
    card_count: int = 0
    violations: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)
    format: str | None = None
    as_of: dt.date | None = None
    variant: str | None = None

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def codes(self) -> list[str]:
        """The violation codes in report order (a code repeats when several cards break it)."""
        return [violation.code for violation in self.violations]

    def add(
        self,
        code: str,
        message: str,
        rule: str,
        cards: list[str] | tuple[str, ...] = (),
        **details: Any,
    ) -> None:
        self.violations.append(Violation(code, message, rule, list(cards), details))

    def warn(
        self,
        code: str,
        message: str,
        rule: str,
        cards: list[str] | tuple[str, ...] = (),
        **details: Any,
    ) -> None:
        self.warnings.append(Violation(code, message, rule, list(cards), details))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "format": self.format,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "variant": self.variant,
            "legal": self.legal,
            "card_count": self.card_count,
            "violations": [violation.to_dict() for violation in self.violations],
            "warnings": [warning.to_dict() for warning in self.warnings],
        }


def legality_csv_rows(
    name: str, report: Mapping[str, Any] | None, errors: Sequence[str] = ()
) -> list[tuple[Any, ...]]:
    """Return one deck's legality CSV rows from its ``ValidationReport.to_dict()``.

    A deck that could not be read (``errors``, no report) gets an ``unreadable`` row per error.
    """
    if errors or report is None:
        return [(name, "unreadable", "", "", error, "", "", "") for error in errors]
    verdict = "legal" if report["legal"] else "illegal"
    judged_on = report.get("as_of") or ""
    return [
        (
            name,
            verdict,
            report["card_count"],
            violation["code"] if violation else "",
            violation["message"] if violation else "",
            violation["rule"] if violation else "",
            "; ".join(violation["cards"]) if violation else "",
            judged_on,
        )
        for violation in report["violations"] or [None]
    ]


def legality_csv_write(
    out: TextIO, rows: Iterable[Sequence[Any]], *, name_column: str = "deck"
) -> None:
    """Write the legality CSV (header first) to ``out``, opened with ``newline=""`` if a file."""
    writer = csv_writer(out)
    writer.writerow((name_column, *LEGALITY_CSV_COLUMNS))
    writer.writerows(rows)
