"""What the help pages show players, game by game, built from the games themselves.

The query help: each game's fields come from the query language itself
(``cards.search.fields``), its examples from the game's plug-in (``PageWords.query_examples``),
each linked to the card browser with the game chosen, so following one shows the cards it finds.
The agents help: each game's levels and agents from its plug-in, rated on its published ladder.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from cards.models import Game
from cards.search.fields import SearchField, query_fields
from rules.agents import parse_entrant
from rules.engines.core import find_plugin
from rules.ladder import ANCHOR, Ladder, published, share_interval, signed
from rules.matchups import agent_label, agents_offered, levels_offered
from rules.services import AGENT_LABELS


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


# the search box's examples when no game is chosen: one of each kind of term
GENERAL_HINTS = ("t:attack b:eagle ip<=3", '"draw 1 card"', "-t:pillar")


def query_hints(game: Game | None) -> tuple[str, ...]:
    """Example queries for the search box: the chosen game's own (its plug-in's first few)."""
    plugin = find_plugin(game.slug) if game is not None else None
    if plugin is None or not plugin.words.query_examples:
        return GENERAL_HINTS
    return tuple(query for query, _ in plugin.words.query_examples[:3])


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


@dataclass(frozen=True)
class LadderRow:
    """An agent's place on its game's ladder, in a page's words."""

    rank: int
    agent: str
    elo: str
    interval: str
    score: str
    thinking: str


@dataclass(frozen=True)
class GameAgentsHelp:
    """One game's section of the agents page."""

    game: Game
    levels: list[tuple[str, str]]
    agents: list[tuple[str, str]]
    ladder: list[LadderRow]
    measured: str
    #: how often whoever moved first won the ladder's games ("" when the ladder does not say)
    first_mover: str = ""


def _entrant_label(entrant: str, slug: str, levels: dict[str, str]) -> str:
    """A ladder entrant by what the pages call it: a level of /play/, or the agent."""
    if entrant in levels:
        return agent_label(levels[entrant], slug)
    if "(" not in entrant:
        return agent_label(entrant, slug)  # an agent, or the game itself in a co-operative one
    name, options = parse_entrant(entrant)
    settings = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in options.items())
    return f"{AGENT_LABELS.get(name, name)}, with {settings}"


def agents_help_games() -> list[GameAgentsHelp]:
    """Every game with an engine, in the site's order: its levels, its agents and its ladder."""
    sections = []
    for game in Game.objects.order_by("sort_order", "name"):
        plugin = find_plugin(game.slug)
        if plugin is None:
            continue
        levels = {level.agent: name for name, level in plugin.difficulty_levels.items()}
        ladder = published(game.slug)
        rows = []
        measured = first_mover = ""
        if ladder is not None:
            first_mover = _first_mover_words(ladder)
            measured = (
                f"{ladder.played_on}, {ladder.games_per_pairing} games a pairing "
                f"over {ladder.setups} sample setups"
            )
            for rank, rating in enumerate(ladder.ratings, 1):
                fixed = rating.entrant == ANCHOR or rating.low == rating.high
                rows.append(
                    LadderRow(
                        rank=rank,
                        agent=_entrant_label(rating.entrant, game.slug, levels),
                        elo=signed(rating.elo),
                        interval="fixed"
                        if fixed
                        else f"{signed(rating.low)} to {signed(rating.high)}",
                        score=f"{rating.points / rating.games:.0%}" if rating.games else "",
                        thinking=f"{rating.cpu_mean_ms:.1f} ms" if rating.decisions else "",
                    )
                )
        sections.append(
            GameAgentsHelp(
                game=game,
                levels=levels_offered(plugin),
                agents=agents_offered(plugin),
                ladder=rows,
                measured=measured,
                first_mover=first_mover,
            )
        )
    return sections


def _first_mover_words(ladder: Ladder) -> str:
    """How often whoever moved first won the ladder's games, with the 95% interval."""
    first = ladder.first_mover()
    if first is None:
        return ""
    won, games = first
    return (
        f"Whoever moved first won {won} of the {games} games above that had a winner "
        f"({share_interval(won, games, digits=0)}); every AI sat in each seat equally often."
    )
