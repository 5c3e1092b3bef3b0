"""A deck validator: one game and variant, against one format on one date (or none), gathered once.

Everything a validation reads (the game's rules, its card index, the format snapshot) is held by
one ``DeckValidator``, so judging a deck is one call from Python into this module and then only
compiled code: matching (``resolved``), the game's rules and the format (``format_check``).
Pure Python over plain data, no Django, so mypyc compiles it with the engines
(``rules/compiled.py``). ``decks.validation.base`` builds the validators from the cached index and
snapshots, keeps them, and looks at most once a second whether what one holds is still current.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from decks.validation.format_check import FormatRules, check_deck_format
from decks.validation.game_rules import GameRules
from decks.validation.records import CardIndex
from decks.validation.report import ValidationReport
from decks.validation.resolved import resolve


class DeckValidator:
    """Judges decks of one game and variant, against one format on one date (or none)."""

    def __init__(
        self,
        game: str,
        rules: GameRules,
        index: CardIndex,
        variant: str | None,
        snapshot: FormatRules | None,
        as_of: dt.date | None,
        checked_at: float,
    ) -> None:
        self.game = game
        self.rules = rules
        self.index = index
        self.variant = variant
        self.snapshot = snapshot
        """The format on ``as_of``, or None to judge the construction rules only."""
        self.as_of = as_of
        self.checked_at = checked_at
        """When (``time.monotonic()``) what it holds was last found current."""
        self._zones = rules.zones
        self._pool_rule = rules.pool_rule

    def validate(self, entries: Mapping[str, int] | Iterable[Any]) -> ValidationReport:
        """The report on one deck (``decks.validation.validate`` says what ``entries`` may be)."""
        report = ValidationReport(game=self.game, variant=self.variant)
        deck = resolve(self.index, self._zones, self._pool_rule, entries, report)
        report.card_count = deck.card_count
        self.rules.check(deck, report, self.variant)
        snapshot = self.snapshot
        if snapshot is not None:
            report.format = snapshot.slug
            report.as_of = self.as_of
            check_deck_format(snapshot, deck, report)
        elif self.as_of is not None:
            report.as_of = self.as_of
        return report
