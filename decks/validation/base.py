"""The validation entry point, and (re-exported) what every game module plugs into.

A game registers a ``GameRules`` subclass (``decks.validation.game_rules``) with ``register`` in
``decks/validation/<module>.py``; ``validate`` finds it by the game's slug (the rules app imports
every game's module once, from the one loop that finds games: ``rules.plugins``; adding a game
adds a file and edits nothing here). A game without a module still gets the common checks:
unknown cards, impossible quantities and the format's lists. This module holds what touches the
database (the cached card index and format snapshots); the per-deck work is in the pure modules
it calls (``resolved``, the game's module, ``format_check``), which mypyc compiles.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from decks.validation.format_check import check_deck_format
from decks.validation.formats import format_id_for, format_rules
from decks.validation.game_rules import (
    GameRules,
    register,
    registered_games,
    rules_for,
    unregister,
)
from decks.validation.index import card_index
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck, resolve

if TYPE_CHECKING:
    from cards.models import Game
    from decks.models import Format

__all__ = [
    "GameRules",
    "ResolvedDeck",
    "UnknownFormatError",
    "UnknownVariantError",
    "register",
    "registered_games",
    "resolve",
    "resolve_deck",
    "rules_for",
    "unregister",
    "validate",
]


def _format_id(game_slug: str, format: Format | str | int | None) -> int | None:
    if format is None:
        return None
    if isinstance(format, int):
        return format
    if isinstance(format, str):
        found = format_id_for(game_slug, format)
        if found is None:
            raise UnknownFormatError(game_slug, format)
        return found
    return format.pk


class UnknownFormatError(LookupError):
    """A format slug that the game does not have."""

    def __init__(self, game_slug: str, format_slug: str):
        self.game_slug = game_slug
        self.format_slug = format_slug
        super().__init__(f"{game_slug} has no format {format_slug!r}")


class UnknownVariantError(LookupError):
    """A variant name that the game does not have."""

    def __init__(self, game_slug: str, variant: str, known: tuple[str, ...]):
        self.game_slug = game_slug
        self.variant = variant
        self.known = known
        names = ", ".join(known) or "none"
        super().__init__(f"{game_slug} has no variant {variant!r} (variants: {names})")


def validate(
    game: Game | str,
    entries: Mapping[str, int] | Iterable[Any],
    format: Format | str | int | None = None,
    as_of: dt.date | None = None,
    *,
    variant: str | None = None,
) -> ValidationReport:
    """Check a deck against its game's construction rules and, if given, a format on a date.

    ``entries`` is a ``{name: quantity}`` mapping or an iterable of ``(name, quantity[, zone])``
    tuples or objects with ``name``, ``quantity`` and ``zone``. Names match case- and
    punctuation-insensitively. Every violation that applies is reported.
    Raises ``UnknownFormatError`` / ``UnknownVariantError`` for a format or variant the game lacks.
    """
    slug = game if isinstance(game, str) else game.slug
    rules = rules_for(slug)
    if variant is not None and variant != "" and variant not in rules.variants:
        raise UnknownVariantError(slug, variant, rules.variants)
    variant = variant or rules.default_variant
    format_id = _format_id(slug, format)
    index = card_index(slug)
    report = ValidationReport(game=slug, variant=variant)
    deck = resolve(index, rules.zones, rules.pool_rule, entries, report)
    report.card_count = deck.card_count
    rules.check(deck, report, variant)
    if format_id is not None:
        day = as_of or timezone.localdate()
        snapshot = format_rules(format_id, day)
        report.format = snapshot.slug
        report.as_of = day
        check_deck_format(snapshot, deck, report)
    elif as_of is not None:
        report.as_of = as_of
    return report


def resolve_deck(
    game: Game | str, entries: Mapping[str, int] | Iterable[Any]
) -> tuple[ResolvedDeck, ValidationReport]:
    """Match a deck's entries to cards without judging it (statistics and exports use this)."""
    slug = game if isinstance(game, str) else game.slug
    rules = rules_for(slug)
    report = ValidationReport(game=slug)
    deck = resolve(card_index(slug), rules.zones, rules.pool_rule, entries, report)
    report.card_count = deck.card_count
    return deck, report
