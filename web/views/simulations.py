"""Simulation job pages: the form that starts a metagame, gauntlet or matchup job (with the
visitor's recent jobs), a job's progress (polled while it plays), cancel, and its results: for a
matchup (started here or on the matchup form, ``web.views.matchups``) its decks' and seats' win
rates and its games, each replayed on its own page; for a metagame the heat map of its win-rate matrix, the field win rates and the CSV and
JSON downloads (a co-operative game's metagame: each deck's team win rate); for a gauntlet its
deck's win rate against each opponent and overall; per deck its cards' performance, in the
game's words; for a doctor job its best swaps. The deck doctor's form takes any deck the visitor
can see (another's is copied into their decks first). Jobs are also started with
``manage.py metagame`` or over the API (``/api/v1/simulations/``); only
their owner sees them (an anonymous visitor's stay with their browser session)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.users import signed_in
from cards.vocabulary import game_slug_named
from common.clientip import client_ip
from decks.errors import DeckBusyError, DeckError, DeckPermissionError
from decks.models import Deck
from decks.selectors import deck_list_visible_to, deck_owned_by, deck_readable_by
from rules.cardstats import drawn_every_game, sighting_words
from rules.engines.core import find_plugin, plugins
from rules.lab.doctor import (
    DoctorError,
    doctor_deck_for,
    doctor_plan,
    doctor_swap_apply,
    doctor_verdict,
    swap_worse,
)
from rules.lab.jobs import simulation_job_cancel, simulation_job_start
from rules.lab.plans import JobPlan, SimulationJobError, gauntlet_plan, matchup_plan, metagame_plan
from rules.lab.quotas import GamesQuotaExceeded
from rules.lab.selectors import (
    simulation_job_games_played,
    simulation_job_gauntlet,
    simulation_job_matchup,
    simulation_job_metagame,
    simulation_job_report,
    simulation_job_team_field,
    simulation_jobs_listed,
    simulation_jobs_owned_by,
)
from rules.matchups import agents_offered
from rules.metagame import metagame_csv, metagame_json
from rules.models import SimulationJob
from web.charts import HeatFigure, heat_map
from web.forms import DoctorForm, SimulationForm
from web.matchups import matchup_context
from web.signals import SESSION_JOBS
from web.views import HtmxHttpRequest

RECENT_JOBS = 10
SESSION_MARK = "web:simulation-jobs"


def metagame_games() -> list[tuple[str, str]]:
    """(slug, name) of every game with an engine: its decks can be compared in a job (a
    co-operative game's by each deck's team win rate, ``rules.gauntlet``)."""
    return [(plugin.slug, plugin.name) for plugin in plugins()]


def _plan(data: dict[str, Any]) -> JobPlan:
    """The plan of the form's job; ``SimulationJobError`` says why there is none."""
    decks = list(data["decks"])
    plugin = find_plugin(data["game"])
    players = data.get("players") if plugin is not None and plugin.cooperative else None
    games = data["games_per_pairing"]
    if data["kind"] == SimulationJob.Kind.GAUNTLET:
        return gauntlet_plan(decks=decks, agent=data["agent"], games_per_pairing=games)
    if data["kind"] == SimulationJob.Kind.MATCHUP:
        return matchup_plan(
            decks=decks, agents=[data["agent"]] * len(decks), games=games, players=players
        )
    return metagame_plan(decks=decks, agent=data["agent"], games_per_pairing=games, players=players)


def _session_key(request: HtmxHttpRequest, *, create: bool = False) -> str:
    """The anonymous visitor's session key (made, and kept by a mark, when ``create``)."""
    if create and not request.user.is_authenticated:
        request.session[SESSION_MARK] = True
        if request.session.session_key is None:
            request.session.save()
    return request.session.session_key or ""


def _start(request: HtmxHttpRequest, form: SimulationForm) -> SimulationJob | None:
    """Plan the form's job, store it and charge its games, or put why not beside the fields
    (nothing is stored or charged then)."""
    data = form.cleaned_data
    try:
        plan = _plan(data)
    except SimulationJobError as error:
        form.job_error(error)
        return None
    anonymous = not request.user.is_authenticated
    try:
        job = simulation_job_start(  # plan stored and games charged at once, or neither
            kind=data["kind"],
            plan=plan,
            user=request.user,
            address=client_ip(request),
            session_key=_session_key(request, create=True) if anonymous else "",
            seed=data["seed"],
            meta_shares=data["meta_shares"] or None,
        )
    except SimulationJobError as error:
        form.job_error(error)
        return None
    except GamesQuotaExceeded as error:
        form.add_error("games_per_pairing", str(error))
        return None
    return job


@require_http_methods(["GET", "HEAD", "POST"])
def simulation_new(request: HtmxHttpRequest) -> HttpResponse:
    """The form that starts a metagame, gauntlet or matchup job, and the visitor's recent
    jobs."""
    games = metagame_games()
    decks = deck_list_visible_to(request.user, games=[slug for slug, _ in games])
    initial: dict[str, Any] = {}
    # slug, short name or name, as the API reads it
    wanted = game_slug_named(request.GET.get("game", ""))
    if wanted in {slug for slug, _ in games}:
        initial["game"] = wanted
    elif request.user.is_authenticated:  # start from the game of the visitor's latest deck
        latest = decks.filter(owner=request.user).order_by("-pk").first()
        if latest is not None:
            initial["game"] = latest.game.slug
    form = SimulationForm(request.POST or None, decks=decks, games=games, initial=initial)
    if request.method == "POST" and form.is_valid():
        job = _start(request, form)
        if job is not None:
            if job.owner_id is None:
                # kept in the session data, which logging in carries over to the new key
                request.session[SESSION_JOBS] = [*request.session.get(SESSION_JOBS, []), job.pk]
            return redirect("simulation-detail", pk=job.pk)
    recent = simulation_jobs_listed(request.user, request.session.session_key)
    context = {
        "form": form,
        "recent": list(recent.order_by("-created_at", "-pk")[:RECENT_JOBS]),
        "agent_offers": form.offers,
        "game_words": [
            {"plugin": plugin, "agents": [label for _, label in agents_offered(plugin)]}
            for plugin in plugins()
        ],
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "web/simulation_new.html", context, status=status)


def _owned(request: HtmxHttpRequest, pk: int) -> SimulationJob | None:
    return simulation_jobs_owned_by(request.user, request.session.session_key).filter(pk=pk).first()


def _not_found(request: HtmxHttpRequest) -> HttpResponse:
    text = (
        "There is no simulation job here that belongs to you. Jobs are visible only to whoever "
        "started them."
    )
    return render(request, "web/message.html", {"title": "No such job", "text": text}, status=404)


def _context(
    job: SimulationJob, request: HtmxHttpRequest | None = None, page: Any = 1
) -> dict[str, Any]:
    context: dict[str, Any] = {
        "job": job,
        "report": simulation_job_report(job),
        "played": simulation_job_games_played(job),
    }
    matchup = simulation_job_matchup(job)
    if matchup is not None:  # one table: by deck, by seat, and its games to replay
        context.update(matchup_context(matchup, page))
    tables: dict[int, dict[str, Any]] = {}
    for row in context["report"].get("cards") or []:
        table = tables.setdefault(row["deck"], {"label": row["label"], "rows": []})
        gap = row["improvement_when_drawn"]
        table["rows"].append({**row, "gap": None if gap is None else f"{100 * gap:+.1f}"})
    for table in tables.values():
        # every card drawn in every game: its rate drawn is the deck's, so those columns go
        table["drawn_every_game"] = drawn_every_game(table["rows"])
        table["deck"] = table["rows"][0]["drawn"]
    context["card_tables"] = [tables[deck] for deck in sorted(tables)]
    if tables:
        context["sighting_words"] = sighting_words(job.game.slug)
    doctor = context["report"].get("doctor")
    if doctor is not None:
        context["doctor"] = doctor
        context["doctor_rows"] = [
            {
                **swap,
                "change": f"{100 * swap['delta']:+.1f}",
                "low": f"{100 * swap['ci_low']:+.1f}",
                "high": f"{100 * swap['ci_high']:+.1f}",
                "worse": swap_worse(swap),
            }
            for swap in doctor["best"]
        ]
        if job.status == SimulationJob.Status.DONE:
            context["doctor_verdict"] = doctor_verdict(doctor)
        deck = Deck.objects.filter(pk=job.decks[0]["deck"]).first()
        context["doctor_applicable"] = (
            job.status == SimulationJob.Status.DONE
            and request is not None
            and deck is not None
            and deck.version == job.decks[0]["version"]
            and deck_owned_by(deck, request.user)
        )
    metagame = simulation_job_metagame(job) if job.kind == SimulationJob.Kind.METAGAME else None
    if job.games_done:
        context["gauntlet"] = simulation_job_gauntlet(job)
        context["team_field"] = simulation_job_team_field(job)
    if metagame is not None and job.games_done:
        figures = [
            [
                None
                if cell is None
                else HeatFigure(cell.win_rate or 0.0, cell.ci_low, cell.ci_high, cell.games)
                for cell in row
            ]
            for row in metagame.cells
        ]
        context["metagame"] = metagame
        context["heat_map"] = heat_map(
            metagame.labels, figures, title="Win rates, row against column"
        )
    return context


@require_safe
def simulation_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The job: its progress while it plays, then its results."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    page = request.GET.get("page", "1")
    try:
        context = _context(job, request, page)
    except InvalidPage:
        text = f"The list of games has no page {page[:40]!r}; it starts at page 1."
        context = {"title": "No such page of games", "text": text}
        return render(request, "web/message.html", context, status=404)
    return render(request, "web/simulation_detail.html", context)


@require_safe
def simulation_progress(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The poll of the job's page: the progress bar, or the results once it has ended."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    template = "web/_simulation_progress.html" if request.htmx else "web/simulation_detail.html"
    return render(request, template, _context(job, request))


@require_POST
def simulation_cancel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Cancel the job (its chunks not started are skipped) and show it again."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    simulation_job_cancel(job=job)
    return redirect("simulation-detail", pk=job.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deck_doctor(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The form that starts a deck doctor job for a deck the visitor can see: one of theirs, or
    another's public or unlisted deck, which is copied into their decks when the job starts (a
    message says so), so the job's swaps can become versions of a deck they own."""
    deck = deck_readable_by(request.user).select_related("game", "owner").filter(pk=pk).first()
    if deck is None:
        text = (
            "There is no deck here that you can see. The deck doctor works on your own decks "
            "and on other players' public ones."
        )
        context: dict[str, Any] = {"title": "No such deck", "text": text}
        return render(request, "web/message.html", context, status=404)
    plugin = find_plugin(deck.game.slug)
    agents = agents_offered(plugin) if plugin is not None else []
    gauntlet = (
        deck_list_visible_to(request.user, games=[deck.game.slug])
        .exclude(pk=deck.pk)
        .order_by("name", "pk")
    )
    form = DoctorForm(request.POST or None, gauntlet=gauntlet, agents=agents)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():  # a refused plan or quota leaves no copy and no job behind
                subject = doctor_deck_for(deck=deck, user=signed_in(request.user))
                plan = doctor_plan(
                    deck=subject,
                    gauntlet=list(data["gauntlet"]),
                    agent=data["agent"],
                    games=data["games"],
                    max_swaps=data["swaps"],
                    seed=data["seed"] or 0,
                )
                job = simulation_job_start(
                    kind=SimulationJob.Kind.DOCTOR,
                    plan=plan,
                    user=request.user,
                    address=client_ip(request),
                    seed=data["seed"],
                )
        except (
            SimulationJobError,
            GamesQuotaExceeded,
            DeckError,
            DeckBusyError,
            DeckPermissionError,
        ) as error:
            form.add_error(None, str(error))
        else:
            if subject.pk != deck.pk:
                messages.info(
                    request,
                    f"{deck.name} is {deck.owner.get_username()}'s deck, so it was copied into "
                    f"your decks first: the doctor works on your copy, {subject.name} (private "
                    "until you share it).",
                )
            return redirect("simulation-detail", pk=job.pk)
    status = 400 if request.method == "POST" else 200
    context = {"deck": deck, "form": form, "owned": deck_owned_by(deck, request.user)}
    return render(request, "web/deck_doctor.html", context, status=status)


@require_POST
def simulation_apply_swap(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Make one of a finished doctor job's swaps a new version of its deck (the deck's owner
    only), then show the deck; a refusal is shown on the job's page."""
    job = _owned(request, pk)
    if job is None or job.kind != SimulationJob.Kind.DOCTOR:
        return _not_found(request)
    try:
        swap = int(request.POST.get("swap", ""))
    except ValueError:
        swap = -1
    try:
        deck = doctor_swap_apply(job=job, swap=swap, actor=signed_in(request.user))
    except (DoctorError, DeckError, PermissionError) as error:
        context = _context(job, request)
        context["apply_error"] = str(error)
        return render(request, "web/simulation_detail.html", context, status=409)
    messages.success(request, f"{deck.name} is now at version {deck.version}.")
    return redirect("deck-detail", pk=deck.pk)


@require_safe
def simulation_matrix(request: HtmxHttpRequest, pk: int, kind: str) -> HttpResponse:
    """A metagame's matrix and field win rates as a CSV or JSON file."""
    job = _owned(request, pk)
    metagame = None
    if job is not None and job.kind == SimulationJob.Kind.METAGAME:
        metagame = simulation_job_metagame(job)
    if job is None or metagame is None or kind not in ("csv", "json"):
        return _not_found(request)
    if kind == "csv":
        response = HttpResponse(metagame_csv(metagame), content_type="text/csv")
    else:
        response = HttpResponse(metagame_json(metagame), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="metagame-{job.pk}.{kind}"'
    return response
