"""What the query help page shows for each game: its fields and its worked examples.

The fields come from the query language itself (``cards.search.fields``), the examples from the
game's plug-in (``PageWords.query_examples``), each linked to the card browser with the game
chosen, so following one shows the cards it finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from cards.models import Game
from cards.search.fields import SearchField, query_fields
from rules.engines.core import find_plugin


@dataclass(frozen=True)
class QueryExample:
    """A worked query of one game, what it finds, and the card browser showing its cards."""

    query: str
    finds: str
    url: str


@dataclass(frozen=True)
class GameQueryHelp:
    """One game's section of the help page."""

    game: Game
    fields: list[SearchField]
    examples: list[QueryExample]


def browser_url(game: Game, query: str) -> str:
    """The card browser with ``game`` chosen and ``query`` in the search box."""
    return f"{reverse('card-browser')}?{urlencode({'game': game.slug, 'q': query})}"


def query_help_games() -> list[GameQueryHelp]:
    """Every game with cards, in the site's order, with its fields and examples."""
    sections = []
    for game in Game.objects.order_by("sort_order", "name"):
        plugin = find_plugin(game.slug)
        examples = plugin.words.query_examples if plugin is not None else ()
        sections.append(
            GameQueryHelp(
                game=game,
                fields=query_fields(game),
                examples=[
                    QueryExample(query=query, finds=finds, url=browser_url(game, query))
                    for query, finds in examples
                ],
            )
        )
    return sections
