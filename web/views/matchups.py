"""Matchup pages: pick decks and agents, watch the games run, read the results, list the games
and replay any one of them step by step.

A run is a ``rules.models.MatchupRun`` row owned by the signed-in user (or by the anonymous
visitor's session). A Celery worker plays it (a broker is configured) or the process's
background runner (none is); the page's poll only reads the progress, so any number of polls
and reloads plays no game.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.core.cache import cache
from django.core.paginator import InvalidPage, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from decks.selectors import deck_list_visible_to
from deckwright.clientip import client_ip
from deckwright.inputs import MAX_ID, MAX_INT32, ParameterError, bounded_int
from rules.matchups import agent_label, agents_offered, matchup_plan
from rules.models import MatchupRun
from rules.quotas import MatchupQuotaExceeded, matchup_quota_charge
from rules.selectors import matchup_run_for_owner, matchup_runs_owned_by
from rules.services import (
    MatchupRunError,
    matchup_game_record,
    matchup_run_create,
)
from web.charts import bar_chart
from web.forms import MatchupForm
from web.limits import heavy_page
from web.matchups import (
    MatchupSetupError,
    end_reason_text,
    game_rows,
    matchup_agent_choices,
    matchup_games,
    matchup_plugins,
    matchup_summary,
    matchups_available,
    outcome_text,
)
from web.narration import narrated_log
from web.signals import SESSION_RUNS
from web.table import OPEN, parse_viewer, replay_table

SESSION_MARK = "web:matchup-runs"
RECENT_RUNS = 10
GAMES_PER_PAGE = 25
REPLAY_CACHE_SECONDS = 3600


def _session_key(request: HttpRequest, *, create: bool = False) -> str | None:
    """The anonymous visitor's session key (made, and kept by a mark, when ``create``)."""
    if create and not request.user.is_authenticated:
        request.session[SESSION_MARK] = True
        if request.session.session_key is None:
            request.session.save()
    return request.session.session_key


def _message(request: HttpRequest, title: str, text: str, status: int) -> HttpResponse:
    return render(request, "web/message.html", {"title": title, "text": text}, status=status)


def _not_found(request: HttpRequest) -> HttpResponse:
    return _message(
        request,
        "No such matchup",
        "There is no matchup run here that belongs to you. Runs are visible only to whoever "
        "started them (an anonymous visitor's runs stay with their browser session).",
        404,
    )


def matchup_new(request: HttpRequest) -> HttpResponse:
    """Choose decks (of any game with an engine), agents and a number of games; start the run."""
    decks = deck_list_visible_to(request.user, games=matchup_games())
    initial = {"deck_a": request.GET.get("deck")}
    agents, offers = matchup_agent_choices()
    form = MatchupForm(
        request.POST or None, decks=decks, agents=agents, offers=offers, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            decks = data["decks"]
            plan = matchup_plan(
                decks[0],
                decks[1] if len(decks) > 1 else None,
                data["agents"],
                data["players"],
                more=decks[2:],
            )
            matchup_quota_charge(  # anonymous visitors only: rules/quotas.py
                user=request.user,
                address=client_ip(request),
                session_key=_session_key(request, create=True) or "",
                games=data["games"],
            )
        except (MatchupSetupError, MatchupQuotaExceeded) as error:
            form.add_error(None, str(error))
        else:
            run = matchup_run_create(
                game=data["deck_a"].game,
                owner=request.user if request.user.is_authenticated else None,
                session_key=_session_key(request, create=True) or "",
                sides=plan.sides(),
                agents=plan.agents,
                setup=plan.setup,
                cooperative=plan.cooperative,
                games=data["games"],
                seed=data["seed"],
                deck_a=data["deck_a"],
                deck_b=data["deck_b"],
                fixed_seats=data["fixed_seats"],
            )
            if run.owner_id is None:
                # kept in the session data, which logging in carries over to the new key
                request.session[SESSION_RUNS] = [*request.session.get(SESSION_RUNS, []), run.pk]
            return redirect("matchup-detail", pk=run.pk)
    unavailable = ""
    wanted = request.GET.get("deck", "")
    with suppress(ParameterError):  # a link's ?deck= only preselects; a bad one is ignored
        deck_id = bounded_int(wanted, "deck", 1, MAX_ID)
        deck = deck_list_visible_to(request.user, pk=deck_id).first()
        if deck is not None and not matchups_available(deck.game.slug):
            unavailable = f"Matchups are not available for {deck.game.name}."
        elif deck is not None and request.method != "POST":
            # the deck's game's own default agent (Reggae Revolution's team policy ...)
            default = offers[deck.game.slug][0]
            form.initial.update(dict.fromkeys(MatchupForm.AGENTS, default))
            if not _cooperative(deck.game.slug):
                form.initial["deck_b"] = deck.pk  # the deck against itself, to start from
    recent = list(matchup_runs_owned_by(request.user, _session_key(request))[:RECENT_RUNS])
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "unavailable": unavailable,
        "recent": recent,
        "matchup_games": [
            {"plugin": plugin, "agents": [label for _, label in agents_offered(plugin)]}
            for plugin in matchup_plugins()
        ],
        "agent_offers": offers,
        "team_games": " and ".join(p.name for p in matchup_plugins() if p.team_sizes),
        "many_deck_games": " and ".join(
            p.name for p in matchup_plugins() if p.max_decks > 2 and not p.cooperative
        ),
    }
    return render(request, "web/matchup_new.html", context, status=status)


def _cooperative(slug: str) -> bool:
    from rules.engines.core import find_plugin

    plugin = find_plugin(slug)
    return plugin is not None and plugin.cooperative


def _context(run: MatchupRun, page_number: Any = 1) -> dict[str, Any]:
    done = run.played
    context: dict[str, Any] = {
        "run": run,
        "done": done,
        "agents": [agent_label(name, run.game.slug) for name in run.agents],
        "seats": list(
            zip(run.labels, [agent_label(n, run.game.slug) for n in run.agents], strict=True)
        ),
        "decks": list({side["deck"]: side for side in run.sides}.values()),
        "poll_delay": "1s",
    }
    if done:
        summary = matchup_summary(run)
        context["summary"] = summary
        context["length_chart"] = bar_chart(
            summary["length_points"],
            title="Game length",
            x_label="Actions",
            y_label="Games",
            numeric=True,
        )
        # a tick has room for the words before their explanation ("LP Victory"); the list of
        # games says them in full
        short = [(words.split(" (")[0], count) for words, count in summary["reason_points"]]
        context["reason_chart"] = bar_chart(
            short, title="How games ended", x_label="End", y_label="Games"
        )
    if run.finished and done:
        paginator = Paginator(range(done), GAMES_PER_PAGE)
        page = paginator.page(page_number)
        context["games_page"] = page
        context["game_rows"] = game_rows(run, page.start_index() - 1, page.end_index())
        # engines with a ``first_player`` hook say who moved first in each game
        context["show_first"] = any(row.first for row in context["game_rows"])
    return context


def _owned(request: HttpRequest, pk: int) -> MatchupRun | None:
    return matchup_run_for_owner(request.user, _session_key(request), pk)


@require_GET
def matchup_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The run: its progress while it plays, then its results and the list of its games."""
    run = _owned(request, pk)
    if run is None:
        return _not_found(request)
    page = request.GET.get("page", "1")
    try:
        context = _context(run, page)
    except InvalidPage:
        return _message(
            request,
            "No such page of games",
            f"The list of games has no page {page!r}; it starts at page 1.",
            404,
        )
    return render(request, "web/matchup_detail.html", context)


@require_GET
def matchup_step(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll: the progress (or the results); it reads, it never plays a game."""
    run = _owned(request, pk)
    if run is None:
        return _not_found(request)
    template = "web/_matchup_progress.html" if request.htmx else "web/matchup_detail.html"
    status = 400 if run.status == MatchupRun.Status.FAILED else 200
    return render(request, template, _context(run), status=status)


@require_GET
@heavy_page("replay")
def matchup_game(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Game ``number`` of the run, played again from its seed, shown step by step."""
    run = _owned(request, pk)
    if run is None:
        return _not_found(request)
    if "game" in request.GET:  # the "go to game" form: that game's replay, from its start
        try:
            wanted = bounded_int(request.GET["game"], "game", 1, max(run.played, 1))
        except ParameterError as error:
            return _message(request, "Not a game of this run", str(error), 400)
        return redirect("matchup-game", pk=run.pk, number=wanted)
    # the creation time tells apart runs that reuse a deleted run's id
    key = f"web:matchup-game:{run.pk}:{run.created_at.timestamp()}:{number}"
    try:
        record = cache.get_or_set(
            key, lambda: matchup_game_record(run, number), REPLAY_CACHE_SECONDS
        )
    except MatchupRunError as error:
        status = 409 if 1 <= number <= run.played else 404
        return _message(request, f"Game {number} cannot be replayed", str(error), status)
    # events name engine seats; with rotating seats the record says which deck sat where
    seats = [run.seat_label(run.side_in_seat(record, seat)) for seat in range(len(run.sides))]
    steps = narrated_log(run.game.slug, record.get("events", []), seats)
    raw = request.GET.get("step", "1")
    try:
        step = bounded_int(raw, "step", -MAX_INT32, MAX_INT32)  # then clamped to the replay
    except ParameterError:
        return _message(
            request,
            "Not a step number",
            f"{raw[:40]!r} is not a step number: give a whole number from 1 to {len(steps)}.",
            400,
        )
    total = len(steps)
    step = max(1, min(step, total)) if total else 0
    current = steps[step - 1] if step else {"heading": "", "player": None, "lines": []}
    summary = record["summary"]
    players = len(seats)
    viewer = parse_viewer(request.GET.get("view", OPEN), players)
    context = {
        "table": replay_table(run.game.slug, record, step, seats, viewer),
        "view": OPEN if viewer is None else str(viewer + 1),
        "views": [
            (OPEN, "Open: every hand"),
            *((str(s + 1), f"As {n} sees it") for s, n in enumerate(seats)),
        ],
        "run": run,
        "number": number,
        "outcome": outcome_text(run, summary.get("winner")),
        "summary": summary,
        "end_reason": end_reason_text(run.game.slug, str(summary.get("end_reason", ""))),
        "step": step,
        "total": total,
        "current": current,
        "who": current["heading"],
        "headings": [group["heading"] for group in steps],
        "previous_step": max(step - 1, 1),
        "next_step": min(step + 1, total),
        "played_before": sum(len(s["lines"]) for s in steps[: max(step - 1, 0)]),
        "previous_game": number - 1 if number > 1 else None,
        "next_game": number + 1 if number < run.played else None,
    }
    return render(request, "web/matchup_replay.html", context)
