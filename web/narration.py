"""A game's events as a page shows them: the game's plug-in says them in words, grouped by turn
(``GamePlugin.narrate``), and each card named links to its card page. Replays and test hands
both show their logs through here, so no page names a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

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


def _group(group: TurnGroup, pages: Mapping[str, Card]) -> dict[str, Any]:
    lines = []
    for line in group.lines:
        parts = []
        for part in line.parts:
            if isinstance(part, CardRef):
                card = pages.get(part.key)
                name = card.name if card is not None else part.name
                parts.append({"text": name, "url": card.get_absolute_url() if card else ""})
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
    pages = card_pages(game_slug)
    names = {key: card.name for key, card in pages.items()}
    if plugin is None:
        groups = Narrator(seats, names).narrate(events)
    else:
        groups = plugin.narrate(events, seats, names)
    return [_group(group, pages) for group in groups]
