"""The Django side of the engine adapter: card rows in, plain engine records out.

Engines (``rules.engines``) never import Django; they take the plain dicts built here, the same
shape ``Card.record()`` and ``export_cards`` produce.

Building a game's engine reads every card of the game and checks it (20-65 ms on the sample
data), and a move at a table asks for it several times (the move, then each seat's view), so
each process keeps one engine a game. It is built again when the game data it was read from
changes: the counter deck validation's card index follows (a card, its subtypes, a set, type,
branch, rarity or game saved or deleted), so a deck's check and its games read the same cards,
here at once and in other processes within ``cards.caching.RECHECK_SECONDS``.
"""

from __future__ import annotations

from typing import Any

from cards.caching import GenerationMemo
from cards.models import Card
from decks.validation.index import GENERATION_KEY
from rules.engines.core import Game, get_game


def game_records(game_slug: str) -> list[dict[str, Any]]:
    """Return every card of a game as plain records, ordered by name."""
    cards = Card.objects.for_game(game_slug).with_related().order_by("name")
    return [card.record() for card in cards]


def _build(game_slug: str) -> Game:
    return get_game(game_slug, records=game_records(game_slug) or None)


_engines: GenerationMemo[str, Game] = GenerationMemo(GENERATION_KEY, _build)


def engine_for(game_slug: str) -> Game:
    """Return the registered engine for a game, playing with the cards in the database (the
    same object while the game data stays as it is)."""
    return _engines.get(game_slug)
