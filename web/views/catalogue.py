"""Pages of the card database: the games, a game's card list, a card."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from cards.images.links import card_image_links
from cards.models import Card, Game
from cards.selectors import (
    card_for_page,
    card_list_for_game,
    card_type_counts,
    game_get,
    game_list_with_counts,
)
from decks.selectors import card_format_statuses, card_public_decks


def home(request: HttpRequest) -> HttpResponse:
    """The front page: every game Deckwright serves, with its card count."""
    return render(request, "cards/home.html", {"games": game_list_with_counts()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game = game_get(slug)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    cards = card_list_for_game(game)
    by_type = card_type_counts(game)
    return render(
        request,
        "cards/game_detail.html",
        {"game": game, "cards": cards, "by_type": by_type, "card_count": len(cards)},
    )


def card_detail(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    try:
        card = card_for_page(game_slug=game, slug=slug)
    except Card.DoesNotExist:
        raise Http404("No such card") from None
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
