"""Pages of the card database: the games, a game's card list, a card."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from cards.images.links import card_image_links
from cards.models import Card, Game
from cards.selectors import card_list_for_game, game_list_with_counts
from web.selectors import card_format_statuses, card_public_decks


def home(request: HttpRequest) -> HttpResponse:
    """The front page: every game Deckwright serves, with its card count."""
    return render(request, "cards/home.html", {"games": game_list_with_counts()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game, slug=slug)
    cards = card_list_for_game(game)
    by_type = (
        Card.objects.filter(game=game)
        .values("card_type__name")
        .annotate(n=Count("id"))
        .order_by("card_type__sort_order")
    )
    return render(
        request,
        "cards/game_detail.html",
        {"game": game, "cards": cards, "by_type": by_type, "card_count": len(cards)},
    )


def card_detail(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    card = get_object_or_404(
        Card.objects.with_related().prefetch_related("rulings"), game__slug=game, slug=slug
    )
    numbers = [(number.label, number.value) for number in card.printed_numbers()]
    return render(
        request,
        "cards/card_detail.html",
        {
            "card": card,
            "numbers": numbers,
            "image": card_image_links(card),
            "formats": card_format_statuses(card),
            "public_decks": card_public_decks(card),
        },
    )
