"""Help pages for players: how to search for cards, the agents a game offers, and how to play
against the AI."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from web.help import agents_help_games, query_help_games


@require_safe
def query_help(request: HttpRequest) -> HttpResponse:
    """How to write a card query, with every game's fields and worked examples."""
    return render(request, "web/query_help.html", {"games": query_help_games()})


@require_safe
def agents_help(request: HttpRequest) -> HttpResponse:
    """The AI players of each game: the levels /play/ offers, the agents of matchups and
    simulations, and how strong each is on the game's ladder."""
    return render(request, "web/agents_help.html", {"games": agents_help_games()})


@require_safe
def play_help(request: HttpRequest) -> HttpResponse:
    """How to play against the AI by clicking the table, and the bar of choices."""
    return render(request, "web/play_help.html")
