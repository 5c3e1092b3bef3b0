"""Test hands on a deck page: a sample opening hand with mulligans, goldfish turns and figures
over many hands. Games without a test-hands model say so."""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.forms import GoldfishForm, TestHandsForm
from web.selectors import deck_for_viewer
from web.testhands import goldfish_walk, mulligan_policies, test_hands_available, test_hands_summary


@require_GET
def deck_test_hands(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw a hand (mulligan or keep, then step goldfish turns) and run N test hands."""
    deck = deck_for_viewer(request.user, pk)
    if not test_hands_available(deck.game.slug):
        return render(request, "web/test_hands.html", {"deck": deck, "available": False})
    from rules.engines.core import SetupError

    run = "hands" in request.GET
    walk = None
    if not (request.htmx and run):  # htmx asks for the figures alone
        walk_form = GoldfishForm(request.GET)
        walk_data = walk_form.cleaned_data if walk_form.is_valid() else {}
        seed = walk_data.get("seed")
        walk = goldfish_walk(
            deck,
            seed=secrets.randbelow(2**31) if seed is None else seed,
            mulligans=walk_data.get("mulligans") or 0,
            kept=bool(walk_data.get("kept")),
            turns=walk_data.get("turns") or 0,
        )
    summary_form = TestHandsForm(request.GET if run else None, policies=mulligan_policies())
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
    context = {
        "deck": deck,
        "available": True,
        "walk": walk,
        "summary_form": summary_form,
        "summary": summary,
        "summary_error": summary_error,
        "wins": sorted(summary.wins.items(), key=lambda kv: -kv[1]) if summary else [],
    }
    template = "web/_test_hands_summary.html" if request.htmx and run else "web/test_hands.html"
    bad = (run and not summary_form.is_valid()) or summary_error or (walk and walk.error)
    return render(request, template, context, status=400 if bad else 200)
