"""The Django side of the engine adapter: card rows in, plain engine records out.

Engines (``rules.engines``) never import Django; they take the plain dicts built here, the same
shape ``Card.record()`` and ``export_cards`` produce.
"""

from __future__ import annotations

from typing import Any

from cards.models import Card
from rules.engines.core import Game, get_game


def game_records(game_slug: str) -> list[dict[str, Any]]:
    """Return every card of a game as plain records, ordered by name."""
    cards = Card.objects.for_game(game_slug).with_related().order_by("name")
    return [card.record() for card in cards]


def engine_for(game_slug: str) -> Game:
    """Return the registered engine for a game, playing with the cards in the database."""
    records = game_records(game_slug)
    return get_game(game_slug, records=records or None)
