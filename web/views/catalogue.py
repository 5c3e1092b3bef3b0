"""Pages of the card database: the games, a game's card list, a card."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from cards.images.links import card_image_links_many
from cards.links import card_page_urls
from cards.models import Card, Game
from cards.selectors import (
    card_browse,
    card_for_page,
    card_type_counts,
    game_card_total,
    game_list_with_counts,
)
from cards.vocabulary import game_get
from decks.demo import demo_deck_list
from decks.selectors import card_format_statuses, card_public_decks
from web.cardrows import card_section_html

QUERY_MAX_LENGTH = 1000  # as the card browser's search box


def home(request: HttpRequest) -> HttpResponse:
    """The front page: every game Deckwright serves, with its card count, and the sample decks a
    new visitor can open (the demo set, ``decks.demo``)."""
    return render(
        request,
        "cards/home.html",
        {"games": game_list_with_counts(), "sample_decks": list(demo_deck_list())},
    )


GAME_CARDS_PER_PAGE = 50


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A game and its cards: a page of them at a time, filtered by the query language box."""
    try:
        game = game_get(slug)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    query = request.GET.get("q", "")[:QUERY_MAX_LENGTH]
    browse = card_browse(
        query=query, game=game, page=request.GET.get("page", 1), per_page=GAME_CARDS_PER_PAGE
    )
    total = game_card_total(game)
    # Counting by type reads every card of the game: only where the total is exact (small).
    by_type = list(card_type_counts(game)) if total.exact else []
    cards = []
    if browse.page is not None:
        rows = browse.page.object_list
        cards = list(zip(rows, card_image_links_many(rows), card_page_urls(rows), strict=True))
    error = browse.error
    context = {
        "game": game,
        "by_type": by_type,
        "card_count": total.count,
        "card_count_exact": total.exact,
        "browse": browse,
        "cards": cards,
        "query": query,
        "error": error,
        "error_before": query[: error.position] if error else "",
        "error_at": query[error.position : error.position + error.length] if error else "",
        "error_after": query[error.position + error.length :] if error else "",
    }
    return render(request, "cards/game_detail.html", context, status=400 if error else 200)


def card_detail(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    try:
        card = card_for_page(game_slug=game, slug=slug)
        # the card itself drawn once per catalogue generation (web.cardrows)
        section = card_section_html(game_slug=game, slug=slug)
    except Card.DoesNotExist:
        raise Http404("No such card") from None
    return render(
        request,
        "cards/card_detail.html",
        {
            "card": card,
            "card_section": section,
            "formats": card_format_statuses(card),
            "public_decks": card_public_decks(card),
        },
    )
