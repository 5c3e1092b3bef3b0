"""Matchup pages: pick two decks and two agents, watch the games run, read the results and
replay a game from its event log. A run lives in the browser session, advanced chunk by chunk."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from web.charts import bar_chart
from web.forms import MatchupForm
from web.matchups import (
    AGENTS,
    SETUPS,
    chunk_size,
    matchup_chunk,
    matchup_setup,
    matchup_summary,
    matchups_available,
    sample_game,
    totals_add,
)
from web.selectors import deck_for_viewer, deck_list_visible_to

SESSION_RUNS = "web:matchups"
KEPT_RUNS = 3


def _runs(request: HttpRequest) -> dict[str, Any]:
    return request.session.get(SESSION_RUNS, {})


def _run(request: HttpRequest, token: str) -> dict[str, Any]:
    run = _runs(request).get(token)
    if run is None:
        raise Http404("That matchup has expired; start it again.")
    return run


def _save(request: HttpRequest, token: str, run: dict[str, Any]) -> None:
    runs = _runs(request)
    runs[token] = run
    request.session[SESSION_RUNS] = dict(list(runs.items())[-KEPT_RUNS:])


def matchup_new(request: HttpRequest) -> HttpResponse:
    """Choose two decks (of a game with an engine) and two agents, then start the run."""
    decks = deck_list_visible_to(request.user).filter(game__slug__in=list(SETUPS))
    initial = {"deck_a": request.GET.get("deck"), "deck_b": request.GET.get("deck")}
    form = MatchupForm(request.POST or None, decks=decks, agents=AGENTS, initial=initial)
    if request.method == "POST" and form.is_valid():
        a, b = form.cleaned_data["deck_a"], form.cleaned_data["deck_b"]
        if not matchups_available(a.game.slug):
            form.add_error(None, f"Matchups are not available for {a.game.name} yet.")
        else:
            token = secrets.token_urlsafe(9)
            _save(
                request,
                token,
                {
                    "decks": [a.pk, b.pk],
                    "labels": [a.name, b.name],
                    "game": a.game.slug,
                    "agents": [form.cleaned_data["agent_a"], form.cleaned_data["agent_b"]],
                    "games": form.cleaned_data["games"],
                    "seed": form.cleaned_data["seed"],
                    "chunks": 0,
                    "totals": {},
                    "error": "",
                },
            )
            return redirect("matchup-detail", token=token)
    unavailable = ""
    wanted = request.GET.get("deck", "")
    if wanted.isdigit():
        deck = deck_list_visible_to(request.user).filter(pk=int(wanted)).first()
        if deck is not None and not matchups_available(deck.game.slug):
            unavailable = f"Matchups are not available for {deck.game.name} yet."
    status = 400 if request.method == "POST" else 200
    return render(
        request, "web/matchup_new.html", {"form": form, "unavailable": unavailable}, status=status
    )


def _context(token: str, run: dict[str, Any]) -> dict[str, Any]:
    done = run["totals"].get("games", 0)
    context: dict[str, Any] = {"token": token, "run": run, "done": done}
    if done:
        summary = matchup_summary(run["totals"], run["labels"], run["agents"])
        context["summary"] = summary
        context["length_chart"] = bar_chart(
            summary["length_points"], title="Game length", x_label="Actions", y_label="Games"
        )
        context["reason_chart"] = bar_chart(
            summary["reason_points"], title="How games ended", x_label="End", y_label="Games"
        )
    return context


@require_GET
def matchup_detail(request: HttpRequest, token: str) -> HttpResponse:
    run = _run(request, token)
    return render(request, "web/matchup_detail.html", _context(token, run))


@require_GET
def matchup_step(request: HttpRequest, token: str) -> HttpResponse:
    """Play the next chunk of games and answer the progress (or, at the end, the results)."""
    from rules.engines.core import SetupError

    run = _run(request, token)
    done = run["totals"].get("games", 0)
    if done < run["games"] and not run["error"]:
        decks = [deck_for_viewer(request.user, pk) for pk in run["decks"]]
        size = min(chunk_size(run["agents"]), run["games"] - done)
        try:
            chunk = matchup_chunk(
                run["game"],
                matchup_setup(*decks),
                run["agents"],
                size,
                run["seed"] * 1_000_003 + run["chunks"],
            )
        except (SetupError, ValueError) as error:
            run["error"] = str(error)
        else:
            run["totals"] = totals_add(run["totals"], chunk)
            run["chunks"] += 1
        _save(request, token, run)
    template = "web/_matchup_progress.html" if request.htmx else "web/matchup_detail.html"
    return render(request, template, _context(token, run), status=400 if run["error"] else 200)


@require_GET
def matchup_replay(request: HttpRequest, token: str) -> HttpResponse:
    """One game of the matchup (the run's seed), stepped through event by event."""
    from rules.engines.core import SetupError

    run = _run(request, token)
    if "replay" not in run:
        decks = [deck_for_viewer(request.user, pk) for pk in run["decks"]]
        try:
            run["replay"] = sample_game(
                run["game"], matchup_setup(*decks), run["agents"], run["seed"]
            )
        except SetupError as error:
            run["replay"] = {"error": str(error), "events": []}
        _save(request, token, run)
    replay = run["replay"]
    events = replay.get("events", [])
    try:
        step = int(request.GET.get("step", min(len(events), 20)))
    except ValueError:
        step = 0
    step = max(0, min(step, len(events)))
    context = {
        "token": token,
        "run": run,
        "replay": replay,
        "shown": events[:step],
        "step": step,
        "total": len(events),
        "next_step": min(step + 1, len(events)),
        "prev_step": max(step - 1, 0),
        "jump": min(step + 20, len(events)),
    }
    return render(
        request, "web/matchup_replay.html", context, status=400 if replay.get("error") else 200
    )
