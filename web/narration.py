"""A game's events as a page shows them: the game's plug-in says them in words, grouped by turn
(``GamePlugin.narrate``), and each card named links to its card page. Replays and test hands
both show their logs through here, so no page names a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from cards.caching import GenerationMemo
from cards.models import Card
from decks.validation.index import GENERATION_KEY
from rules.engines.core import card_key, find_plugin
from rules.engines.core.narration import CardRef, Narrator, TurnGroup


def _pages_build(game_slug: str) -> Mapping[str, Card]:
    cards = (
        Card.objects.filter(game__slug=game_slug)
        .select_related("game")
        .only("name", "slug", "game__slug")
    )
    return MappingProxyType({card_key(card.name): card for card in cards})


#: kept per game until its cards change (the card index's counter: a card saved or deleted
#: anywhere drops it in every process), for every log and choice a play page or table narrates
_pages: GenerationMemo[str, Mapping[str, Card]] = GenerationMemo(GENERATION_KEY, _pages_build)


def card_pages(game_slug: str) -> Mapping[str, Card]:
    """The game's cards by engine key (``card_key`` of the name), for names and links; read
    from the database once per process until the game data changes."""
    return _pages.get(game_slug)


class CardLinks(NamedTuple):
    """A game's card names and card-page addresses by engine key, as every log shows them."""

    names: Mapping[str, str]
    urls: Mapping[str, str]


def _links_build(game_slug: str) -> CardLinks:
    pages = _pages.get(game_slug, recheck=True)
    return CardLinks(
        MappingProxyType({key: card.name for key, card in pages.items()}),
        MappingProxyType({key: card.get_absolute_url() for key, card in pages.items()}),
    )


#: kept beside the cards themselves, on the same counter: a log line naming a card no longer
#: looks up its page's address each time (a quarter of narrating a long game's log)
_links: GenerationMemo[str, CardLinks] = GenerationMemo(GENERATION_KEY, _links_build)


def card_links(game_slug: str) -> CardLinks:
    """The game's card names and card-page addresses, kept as ``card_pages`` is."""
    return _links.get(game_slug)


def _group(group: TurnGroup, links: CardLinks) -> dict[str, Any]:
    lines = []
    for line in group.lines:
        parts = []
        for part in line.parts:
            if isinstance(part, CardRef):
                name = links.names.get(part.key, part.name)
                parts.append({"text": name, "url": links.urls.get(part.key, "")})
            else:
                parts.append({"text": part, "url": ""})
        lines.append({"player": line.player, "parts": parts, "text": line.text})
    return {
        "heading": group.heading,
        "turn": group.turn,
        "player": group.player,
        "lines": lines,
    }


def narrated_log(
    game_slug: str, events: Sequence[Mapping[str, Any]], seats: Sequence[str]
) -> list[dict[str, Any]]:
    """``events`` (``Event.as_dict()`` records) in words, grouped by turn: per group its
    ``heading``, ``turn``, ``player`` and ``lines``; a line's ``parts`` are text with a ``url``
    for every card (empty for plain words)."""
    plugin = find_plugin(game_slug)
    links = card_links(game_slug)
    if plugin is None:
        groups = Narrator(seats, links.names).narrate(events)
    else:
        groups = plugin.narrate(events, seats, links.names)
    return [_group(group, links) for group in groups]
