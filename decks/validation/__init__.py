"""Deck validation: ``validate(game, entries, format=None, as_of=None)`` for every game.

Each game's construction rules live in their own module here, registered by the game's slug.
"""

from decks.validation.base import (
    DeckValidator,
    GameRules,
    ResolvedDeck,
    UnknownFormatError,
    UnknownVariantError,
    deck_validator,
    register,
    registered_games,
    resolve_deck,
    rules_for,
    validate,
)
from decks.validation.index import CardIndex, CardInfo, card_index, card_index_invalidate
from decks.validation.report import ValidationReport, Violation

__all__ = [
    "CardIndex",
    "CardInfo",
    "DeckValidator",
    "GameRules",
    "ResolvedDeck",
    "UnknownFormatError",
    "UnknownVariantError",
    "ValidationReport",
    "Violation",
    "card_index",
    "card_index_invalidate",
    "deck_validator",
    "register",
    "registered_games",
    "resolve_deck",
    "rules_for",
    "validate",
]
