"""The card query language: ``t:attack b:eagle ip<=3 -o:draw "stamp act"`` and friends.

``card_search(query, game=None)`` is the selector every caller uses (API, web pages, CLI). The
language is documented in ``docs/query-language.md``.
"""

from __future__ import annotations

from django.db.models import QuerySet

from cards.models import Card, Game
from cards.search.compiler import compile_query, number_aliases
from cards.search.parser import QueryError, QuerySyntaxError, parse_query
from cards.vocabulary import game_get


def card_search(query: str, game: Game | str | None = None) -> QuerySet[Card]:
    """Cards matching ``query``, optionally within one game; raise ``QueryError`` if it is bad.

    ``game`` may be a Game or a slug (an unknown slug raises ``Game.DoesNotExist``). The queryset
    is unordered and unjoined: callers add ``with_related()`` and an ordering.
    """
    if isinstance(game, str):
        game = game_get(game)
    cards = Card.objects.all()
    if game is not None:
        cards = cards.filter(game=game)
    return cards.filter(compile_query(query, game))


__all__ = [
    "QueryError",
    "QuerySyntaxError",
    "card_search",
    "compile_query",
    "number_aliases",
    "parse_query",
]
