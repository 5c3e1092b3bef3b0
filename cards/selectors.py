"""Reads from the card database."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from cards.models import Card, Game
from cards.naming import name_key
from cards.schema import printed_numbers
from cards.search.index import name_contains_q, name_prefix_q


def game_list_with_counts() -> QuerySet[Game]:
    """Every game with ``card_count`` annotated, in display order."""
    return Game.objects.annotate(card_count=Count("cards")).order_by("sort_order", "name")


def game_get(slug: str) -> Game:
    return Game.objects.get(slug=slug)


def card_list_for_game(game: Game) -> QuerySet[Card]:
    return Card.objects.filter(game=game).with_related().order_by("name")


def card_export(game: Game) -> list[dict[str, Any]]:
    """The game's cards as plain JSON-ready objects, sorted by name (the export contract)."""
    cards = []
    for card in card_list_for_game(game):
        numbers = {
            number.name: number.value for number in printed_numbers(game.number_labels, card)
        }
        cards.append(
            {
                "name": card.name,
                "slug": card.slug,
                "set": card.card_set.code,
                "collector_number": card.collector_number,
                "type": card.card_type.slug,
                "subtypes": sorted(s.slug for s in card.subtypes.all()),
                "branch": card.branch.slug if card.branch else None,
                "rarity": card.rarity.slug if card.rarity else None,
                "cost": card.cost,
                "numbers": numbers,
                "copies_in_set": card.copies_in_set,
                "stats": card.stats,
                "effects": card.effects,
                "rules_text": card.rules_text,
                "flavor_text": card.flavor_text,
                "attribution": card.attribution,
            }
        )
    return cards


def card_autocomplete(text: str, *, game: Game | None = None, limit: int = 20) -> list[Card]:
    """Up to ``limit`` cards whose name starts with ``text``, then ones containing it."""
    key = name_key(text)
    if not key:
        return []
    cards = Card.objects.filter(game=game) if game is not None else Card.objects.all()
    cards = cards.select_related("game").only("id", "name", "name_key", "game__slug")
    found = list(cards.filter(name_prefix_q(key)).order_by("name_key", "id")[:limit])
    if len(found) < limit:
        seen = [card.pk for card in found]
        found += list(
            cards.filter(name_contains_q(key))
            .exclude(pk__in=seen)
            .order_by("name_key", "id")[: limit - len(found)]
        )
    return found
