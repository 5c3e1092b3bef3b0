"""The validation entry point, and (re-exported) what every game module plugs into.

A game registers a ``GameRules`` subclass (``decks.validation.game_rules``) with ``register`` in
``decks/validation/<module>.py``; ``validate`` finds it by the game's slug (the rules app imports
every game's module once, from the one loop that finds games: ``rules.plugins``; adding a game
adds a file and edits nothing here). A game without a module still gets the common checks:
unknown cards, impossible quantities and the format's lists. This module holds what touches the
database and the clock: the ``DeckValidator`` of each (game, format, date, variant), built from
the cached card index and format snapshot, kept, and checked against them at most once a second;
the per-deck work is the validator's (``decks.validation.validator``) and the pure modules it
calls (``resolved``, the game's module, ``format_check``), which mypyc compiles.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from cards.caching import RECHECK_SECONDS
from decks.validation.formats import format_id_for, format_rules, format_rules_on_forget
from decks.validation.game_rules import GameRules, registered_games, rules_for
from decks.validation.game_rules import register as rules_register
from decks.validation.game_rules import unregister as rules_unregister
from decks.validation.index import card_index, card_index_on_forget
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck, resolve
from decks.validation.validator import DeckValidator

if TYPE_CHECKING:
    from cards.models import Game
    from decks.models import Format

__all__ = [
    "DeckValidator",
    "GameRules",
    "ResolvedDeck",
    "UnknownFormatError",
    "UnknownVariantError",
    "deck_validator",
    "deck_validators_forget",
    "register",
    "registered_games",
    "resolve",
    "resolve_deck",
    "rules_for",
    "unregister",
    "validate",
]

#: validators kept at most (a key per game, format, date and variant asked for); then start over
MAX_VALIDATORS = 1024

ValidatorKey = tuple[str, int | str | None, dt.date | None, str | None]
_validators: dict[ValidatorKey, DeckValidator] = {}


def deck_validators_forget() -> None:
    """Drop every validator of this process (the next validation builds its own)."""
    _validators.clear()


# A change of cards, sets or formats made in this process (or a test's rollback) drops every
# validator at once, as it drops the index and snapshots they hold.
card_index_on_forget(deck_validators_forget)
format_rules_on_forget(deck_validators_forget)


def register(cls: type[GameRules]) -> type[GameRules]:
    """Make ``cls`` the rules of the game whose slug it names (``game_rules.register``)."""
    rules_register(cls)
    deck_validators_forget()
    return cls


def unregister(game_slug: str) -> None:
    """Forget a game's rules (tests that plug a game in for a while)."""
    rules_unregister(game_slug)
    deck_validators_forget()


def _format_id(
    game_slug: str, format: Format | str | int | None, *, recheck: bool = False
) -> int | None:
    if format is None:
        return None
    if isinstance(format, int):
        return format
    if isinstance(format, str):
        found = format_id_for(game_slug, format, recheck=recheck)
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


def _validator_key(
    game: Game | str, format: Format | str | int | None, as_of: dt.date | None, variant: str | None
) -> ValidatorKey:
    slug = game if isinstance(game, str) else game.slug
    if format is not None and not isinstance(format, str | int):
        format = format.pk
    if format is not None and as_of is None:
        as_of = timezone.localdate()  # a format is judged on a day: today's, read per call
    return slug, format, as_of, variant


def _build_validator(key: ValidatorKey, recheck: bool) -> DeckValidator:
    """A validator from what the caches hold now; ``recheck`` has them look at the shared
    generation counters now (a validator kept a second is being renewed)."""
    slug, format, day, variant = key
    rules = rules_for(slug)
    if variant is not None and variant != "" and variant not in rules.variants:
        raise UnknownVariantError(slug, variant, rules.variants)
    format_id = _format_id(slug, format, recheck=recheck)
    index = card_index(slug, recheck=recheck)
    snapshot = None
    if format_id is not None:
        assert day is not None  # _validator_key dated it
        snapshot = format_rules(format_id, day, recheck=recheck)
    return DeckValidator(
        slug,
        rules,
        index,
        variant or rules.default_variant,
        snapshot,
        day,
        time.monotonic(),
    )


def _renewed(key: ValidatorKey, old: DeckValidator | None) -> DeckValidator:
    """A validator for ``key`` built now (``old``, if any, was checked a second ago or more)."""
    validator = _build_validator(key, recheck=old is not None)
    if len(_validators) >= MAX_VALIDATORS:
        _validators.clear()
    _validators[key] = validator
    return validator


def _validator(key: ValidatorKey) -> DeckValidator:
    validator = _validators.get(key)
    if validator is None or time.monotonic() - validator.checked_at >= RECHECK_SECONDS:
        validator = _renewed(key, validator)
    return validator


def deck_validator(
    game: Game | str,
    format: Format | str | int | None = None,
    as_of: dt.date | None = None,
    *,
    variant: str | None = None,
) -> DeckValidator:
    """The current validator of a game and variant, against a format on a date (today's when
    ``as_of`` is None) or none. ``validate`` finds it per deck; code judging a batch of decks at
    once may hold it for the batch (not longer: a validator held is not renewed)."""
    return _validator(_validator_key(game, format, as_of, variant))


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
    if type(game) is str and (format is None or (as_of is not None and type(format) is str)):
        key: ValidatorKey = (game, format, as_of, variant)  # the key as given: no work to do
    else:
        key = _validator_key(game, format, as_of, variant)
    validator = _validators.get(key)
    if validator is None or time.monotonic() - validator.checked_at >= RECHECK_SECONDS:
        validator = _renewed(key, validator)
    return validator.validate(entries)


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
