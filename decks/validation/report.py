"""What a validation returns: a report of every violation and warning, JSON-serialisable."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


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
