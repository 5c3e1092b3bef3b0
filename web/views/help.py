"""Help pages: the repository's guides (``docs/*.md``) rendered on the site."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.docs import help_page


@require_GET
def query_help(request: HttpRequest) -> HttpResponse:
    """The card query language, from ``docs/query-language.md`` as the file stands."""
    return render(request, "web/help_page.html", {"page": help_page("query-language")})


@require_GET
def agents_help(request: HttpRequest) -> HttpResponse:
    """The agents and their strength ladders, from ``docs/agents.md`` as the file stands."""
    return render(request, "web/help_page.html", {"page": help_page("agents")})


@require_GET
def play_help(request: HttpRequest) -> HttpResponse:
    """How to play against the AI by clicking the table, from ``docs/play.md``."""
    return render(request, "web/help_page.html", {"page": help_page("play")})
