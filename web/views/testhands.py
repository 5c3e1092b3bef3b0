"""Test hands on a deck page: the opening (mulligans where the game has them), goldfish turns and
the game's figures over many hands. Games without a test-hands model say so."""

from __future__ import annotations

import secrets

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from decks.selectors import deck_for_viewer
from web.forms import GoldfishForm, TestHandsForm
from web.limits import heavy_page
from web.narration import narrated_log
from web.table import table_for
from web.testhands import (
    MAX_TURNS,
    goldfish_walk,
    mulligan_policies,
    test_hands_available,
    test_hands_summary,
    walk_seats,
    words,
)
from web.views import HtmxHttpRequest


@require_safe
@heavy_page("test_hands")
def deck_test_hands(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Deal an opening (mulligan or keep, then step goldfish turns) and run N test hands."""
    deck = deck_for_viewer(request.user, pk)
    slug = deck.game.slug
    if not test_hands_available(slug):
        return render(request, "web/test_hands.html", {"deck": deck, "available": False})
    from rules.engines.core import SetupError

    run = "hands" in request.GET
    walk = None
    walk_form = GoldfishForm(request.GET)
    walk_valid = walk_form.is_valid()
    if not (request.htmx and run):  # htmx asks for the figures alone
        walk_data = walk_form.cleaned_data if walk_valid else {}
        seed = walk_data.get("seed")
        walk = goldfish_walk(
            deck,
            seed=secrets.randbelow(2**31) if seed is None else seed,
            mulligans=walk_data.get("mulligans") or 0,
            kept=bool(walk_data.get("kept")),
            turns=walk_data.get("turns") or 0,
        )
    policies = mulligan_policies(slug)
    summary_form = TestHandsForm(request.GET if run else None, policies=policies)
    summary = None
    summary_error = ""
    if run and summary_form.is_valid():
        try:
            summary = test_hands_summary(
                deck,
                hands=summary_form.cleaned_data["hands"],
                seed=summary_form.cleaned_data["deal_seed"],
                policy=summary_form.cleaned_data["policy"],
            )
        except SetupError as error:
            summary_error = str(error)
    log = (
        narrated_log(slug, walk.events, walk_seats(slug, walk.seat)) if walk and walk.events else []
    )
    while log and not log[-1]["lines"]:
        log.pop()  # the walk stops as your next turn begins: nothing of it has happened yet
    table = None
    if walk is not None and walk.state is not None:
        # the player's seat: the goldfish's hidden cards stay hidden, as in a real game
        table = table_for(slug, walk.state, walk.seat, walk_seats(slug, walk.seat))
    context = {
        "table": table,
        "log": log,
        "deck": deck,
        "available": True,
        "words": words(slug),
        "walk": walk,
        "walk_errors": []
        if walk_valid
        else [e for errs in walk_form.errors.values() for e in errs],
        "max_turns": MAX_TURNS,
        "summary_form": summary_form,
        "summary": summary,
        "summary_error": summary_error,
        "wins": sorted(summary.wins.items(), key=lambda kv: (-kv[1], kv[0])) if summary else [],
    }
    template = "web/_test_hands_summary.html" if request.htmx and run else "web/test_hands.html"
    bad = (
        (run and not summary_form.is_valid())
        or summary_error
        or (walk is not None and (walk.error or not walk_valid))
    )
    return render(request, template, context, status=400 if bad else 200)
