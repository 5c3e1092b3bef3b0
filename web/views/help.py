"""Help pages for players: how to search for cards, and the agents a game offers."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.docs import help_page
from web.queryhelp import query_help_games


@require_GET
def query_help(request: HttpRequest) -> HttpResponse:
    """How to write a card query, with every game's fields and worked examples."""
    return render(request, "web/query_help.html", {"games": query_help_games()})


@require_GET
def agents_help(request: HttpRequest) -> HttpResponse:
    """The agents and their strength ladders, from ``docs/agents.md`` as the file stands."""
    return render(request, "web/help_page.html", {"page": help_page("agents")})
