"""Matchup pages: pick decks and agents and start a matchup job; replay any game of a matchup
step by step; and the old links of matchup runs, which lead to the jobs they became.

A matchup is a ``SimulationJob(kind="matchup")`` (``rules.lab.jobs``), started by the same service
as every other job (``simulation_job_start``: planned, stored and charged to the quotas at once)
and shown on the job's page (``web.views.simulations``). A Celery worker plays it (a broker is
configured) or the process's background runner (none is); no page plays a game, except the
replay, which plays the one game it shows again from its seed.
"""

from __future__ import annotations

from contextlib import suppress

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from common.clientip import client_ip
from common.inputs import MAX_ID, MAX_INT32, ParameterError, bounded_int
from decks.selectors import deck_list_visible_to
from rules.lab.jobs import simulation_job_start
from rules.lab.plans import SimulationJobError, matchup_plan
from rules.lab.quotas import GamesQuotaExceeded
from rules.lab.selectors import (
    MatchupGameError,
    matchup_game_record,
    simulation_job_games_played,
    simulation_job_legacy_run,
    simulation_job_matchup,
    simulation_jobs_listed,
    simulation_jobs_owned_by,
)
from rules.matchups import agents_offered
from rules.models import SimulationJob
from web.forms import MatchupForm
from web.limits import heavy_page
from web.matchups import (
    end_reason_text,
    matchup_agent_choices,
    matchup_games,
    matchup_plugins,
    matchups_available,
    outcome_text,
)
from web.narration import narrated_log
from web.signals import SESSION_JOBS
from web.table import OPEN, parse_viewer, replay_table
from web.views import message_page

SESSION_MARK = "web:simulation-jobs"
RECENT_RUNS = 10
REPLAY_CACHE_SECONDS = 3600


def _session_key(request: HttpRequest, *, create: bool = False) -> str:
    """The anonymous visitor's session key (made, and kept by a mark, when ``create``)."""
    if create and not request.user.is_authenticated:
        request.session[SESSION_MARK] = True
        if request.session.session_key is None:
            request.session.save()
    return request.session.session_key or ""


def _not_found(request: HttpRequest) -> HttpResponse:
    return message_page(
        request,
        "No such matchup",
        "There is no matchup here that belongs to you. Matchups are visible only to whoever "
        "started them (an anonymous visitor's stay with their browser session).",
        404,
    )


def _start(request: HttpRequest, form: MatchupForm) -> SimulationJob | None:
    """Plan the form's matchup and start it as a job, or put why not on the form (nothing is
    stored or charged then)."""
    data = form.cleaned_data
    anonymous = not request.user.is_authenticated
    try:
        plan = matchup_plan(
            decks=data["decks"],
            agents=data["agents"],
            games=data["games"],
            players=data.get("players") or None,
            fixed_seats=bool(data.get("fixed_seats")),
        )
        return simulation_job_start(
            kind=SimulationJob.Kind.MATCHUP,
            plan=plan,
            user=request.user,
            address=client_ip(request),
            session_key=_session_key(request, create=True) if anonymous else "",
            seed=data["seed"],
        )
    except (SimulationJobError, GamesQuotaExceeded) as error:
        form.add_error(None, str(error))
        return None


@require_http_methods(["GET", "HEAD", "POST"])
def matchup_new(request: HttpRequest) -> HttpResponse:
    """Choose decks (of any game with an engine), agents and a number of games; start the
    matchup job and show its page."""
    decks = deck_list_visible_to(request.user, games=matchup_games())
    initial = {"deck_a": request.GET.get("deck")}
    agents, offers = matchup_agent_choices()
    form = MatchupForm(
        request.POST or None, decks=decks, agents=agents, offers=offers, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        job = _start(request, form)
        if job is not None:
            if job.owner_id is None:
                # kept in the session data, which logging in carries over to the new key
                request.session[SESSION_JOBS] = [*request.session.get(SESSION_JOBS, []), job.pk]
            return redirect("simulation-detail", pk=job.pk)
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
    owned = simulation_jobs_listed(request.user, request.session.session_key)
    recent = [
        {"job": job, "title": " vs ".join(job.labels), "played": simulation_job_games_played(job)}
        for job in owned.filter(kind=SimulationJob.Kind.MATCHUP).order_by("-created_at", "-pk")[
            :RECENT_RUNS
        ]
    ]
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


# -- the links of matchup runs (before matchups were jobs) ----------------------------------------


@require_safe
def matchup_run_moved(request: HttpRequest, pk: int) -> HttpResponse:
    """An old matchup run's page (or its poll): for good at the page of the job it became."""
    job = simulation_job_legacy_run(pk)
    if job is None:
        return _not_found(request)
    return redirect("simulation-detail", pk=job.pk, permanent=True)


@require_safe
def matchup_run_game_moved(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """An old matchup run's replay: for good at the replay of the same game of its job."""
    job = simulation_job_legacy_run(pk)
    if job is None:
        return _not_found(request)
    response = redirect("simulation-game", pk=job.pk, number=number, permanent=True)
    if request.META.get("QUERY_STRING"):  # the step and the view stay as they were
        response["Location"] += "?" + request.META["QUERY_STRING"]
    return response


# -- replays --------------------------------------------------------------------------------------


@require_safe
@heavy_page("replay")
def matchup_game(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Game ``number`` of a matchup job, played again from its seed, shown step by step."""
    job = simulation_jobs_owned_by(request.user, request.session.session_key).filter(pk=pk).first()
    run = simulation_job_matchup(job) if job is not None else None
    if job is None or run is None:
        return _not_found(request)
    if "game" in request.GET:  # the "go to game" form: that game's replay, from its start
        try:
            wanted = bounded_int(request.GET["game"], "game", 1, max(run.played, 1))
        except ParameterError as error:
            return message_page(request, "Not a game of this matchup", str(error), 400)
        return redirect("simulation-game", pk=run.pk, number=wanted)
    # the creation time tells apart jobs that reuse a deleted job's id
    key = f"web:matchup-game:{run.pk}:{job.created_at.timestamp()}:{number}"
    try:
        record = cache.get_or_set(
            key, lambda: matchup_game_record(run, number), REPLAY_CACHE_SECONDS
        )
        assert record is not None  # a game record is a dict, cached or made
    except MatchupGameError as error:
        status = 409 if run.stored_game(number - 1) is not None else 404
        return message_page(request, f"Game {number} cannot be replayed", str(error), status)
    # events name engine seats; with rotating seats the record says which deck sat where
    seats = [run.seat_label(run.side_in_seat(record, seat)) for seat in range(len(run.sides))]
    steps = narrated_log(run.game.slug, record.get("events", []), seats)
    raw = request.GET.get("step", "1")
    try:
        step = bounded_int(raw, "step", -MAX_INT32, MAX_INT32)  # then clamped to the replay
    except ParameterError:
        return message_page(
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
    stored = run.numbers
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
        "previous_game": next((n + 1 for n in reversed(stored) if n < number - 1), None),
        "next_game": next((n + 1 for n in stored if n > number - 1), None),
    }
    return render(request, "web/matchup_replay.html", context)
