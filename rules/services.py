"""Matchup runs: create one, play it chunk by chunk, regenerate any of its games.

Game ``k`` of a run is one ``rules.simulation.run`` call of a single game seeded with
``game_seed(seed, k)``, so a game never depends on how the run was cut into chunks: a chunk is
as many games as fit in about a second (at least one), played by a Celery worker
(``rules.tasks.matchup_run_play``) or, without a broker, by the process's background runner
(``rules.runner``), with the same games either way. A request never plays a game: the page's
polls only read the progress. A run whose process stopped (its heartbeat, ``updated_at``, moved
after every chunk, stopped) is finished by the next sweep (``matchup_runs_resume_stale``). Any game can be played again on its own, with ``log_game`` keeping its
full record for the replay.

Seats rotate unless the run asks for fixed seats: game ``k`` seats side ``(s + k) mod N`` in seat
``s`` (``rules.simulation.seat_order``), so every deck sits in every seat, and moves first, equally
often; the totals count wins by side (deck) and by seat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from rules.agents import web_agent
from rules.engines.core import Game, find_plugin
from rules.models import MatchupRun
from rules.simulation import AgentSpec, SimulationReport

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from cards.models import Game as CardGame
    from decks.models import Deck

logger = logging.getLogger(__name__)

#: the agents a web matchup can offer, with what the page calls them; each game's plugin says
#: which of them its matchups offer (``GamePlugin.matchup_agents``) and may label them its way
AGENT_LABELS = {
    "random": "Random",
    "greedy": "Greedy (one turn ahead, 100 positions a move)",
    "mcts": "MCTS (40 playouts a move)",
    "team": "Team policy (the game's own)",
    "alphabeta": "Alpha-beta (a few moves deep)",
    "plan": "Turn plans (sampled plans a turn)",
}
#: a chunk plays games until this many seconds have passed (one poll, or one worker save)
CHUNK_SECONDS = 1.0
CHUNK_MAX_GAMES = 50
MAX_GAMES = 200
HISTOGRAM_BUCKET = 25


class MatchupRunError(ValueError):
    """A game number the run does not have, or a game that no longer replays as it was played."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run: the same however the run is chunked."""
    return seed * 1_000_003 + index


def agent_spec(name: str, game_slug: str = "") -> AgentSpec:
    """What ``rules.simulation.run`` takes for an agent name: the web's search budget, with the
    game's own budget for that agent on top (``GamePlugin.agent_budgets``). A difficulty level
    of the game (``GamePlugin.difficulty_levels``: "easy", "normal", "hard") is its agent."""
    plugin = find_plugin(game_slug) if game_slug else None
    level = plugin.difficulty_levels.get(name) if plugin is not None else None
    if level is not None:
        return web_agent(level.agent, plugin)
    if name not in AGENT_LABELS:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENT_LABELS)})")
    return web_agent(name, plugin)


def play_game(
    engine: Game,
    setup: dict[str, Any],
    agents: Sequence[str],
    seed: int,
    index: int,
    *,
    log: bool = False,
    fixed_seats: bool = False,
    card_sightings: bool = False,
) -> SimulationReport:
    """Play game ``index`` of a run (a report of one game; with ``log``, its full record), its
    seats rotated ``index`` places unless ``fixed_seats``.

    Raises ``rules.engines.core.SetupError`` (a ``ValueError``) for a setup the engine refuses."""
    from rules.simulation import run

    return run(
        engine,
        setup,
        [agent_spec(name, engine.slug) for name in agents],
        1,
        game_seed(seed, index),
        bucket_width=HISTOGRAM_BUCKET,
        log_game=0 if log else None,
        alternate_seats=not fixed_seats,
        start_index=index,
        card_sightings=card_sightings,
    )


def play_chunk(
    game_slug: str,
    setup: dict[str, Any],
    agents: Sequence[str],
    seed: int,
    start: int,
    stop: int,
    seconds: float = CHUNK_SECONDS,
    *,
    fixed_seats: bool = False,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play games ``start`` up to ``stop`` (excluded) until ``seconds`` have passed (at least
    one game); return their per-game results and their added-up counts."""
    from rules.adapters import engine_for

    engine = engine_for(game_slug)
    began = time.monotonic()
    results: list[dict[str, Any]] = []
    totals: dict[str, Any] = {}
    for index in range(start, min(stop, start + CHUNK_MAX_GAMES)):
        report = play_game(engine, setup, agents, seed, index, fixed_seats=fixed_seats)
        results.extend(report.game_summaries)
        totals = totals_add(totals, chunk_totals(report))
        if time.monotonic() - began >= seconds:
            break
    return results, totals


def chunk_totals(report: SimulationReport) -> dict[str, Any]:
    """A chunk's counts as plain data, to add to a run's totals."""
    totals: dict[str, Any] = {
        "games": report.games,
        "wins": [side.wins for side in report.sides],
        "seat_wins": [seat.wins for seat in report.seats],
        "moved_first": [side.moved_first for side in report.sides],
        "first_side_wins": [side.first_wins for side in report.sides],
        "draws": report.draws,
        "length_total": sum(game["length"] for game in report.game_summaries),
        "histogram": dict(report.length_histogram),
        "end_reasons": dict(report.end_reasons),
        "first_games": report.first_player.games if report.first_player else 0,
        "first_wins": report.first_player.wins if report.first_player else 0,
    }
    if report.team is not None:
        totals["team_wins"] = report.team.wins
        totals["team_losses"] = report.team.losses
    return totals


def totals_add(totals: dict[str, Any], chunk: dict[str, Any]) -> dict[str, Any]:
    """Add a chunk's counts to a run's totals: numbers add, lists add by seat, dicts by key."""
    merged: dict[str, Any] = {}
    for key in sorted(set(totals) | set(chunk)):
        if key not in totals or key not in chunk:
            value = totals.get(key, chunk.get(key))
            merged[key] = dict(value) if isinstance(value, dict) else value
            continue
        old, new = totals[key], chunk[key]
        if isinstance(old, dict):
            merged[key] = dict(old)
            for name, count in new.items():
                merged[key][name] = merged[key].get(name, 0) + count
        elif isinstance(old, list):
            merged[key] = [x + y for x, y in zip(old, new, strict=True)]
        else:
            merged[key] = old + new
    return merged


# -- services -------------------------------------------------------------------------------------


@transaction.atomic
def matchup_run_create(
    *,
    game: CardGame,
    owner: AbstractBaseUser | None,
    session_key: str,
    sides: list[dict[str, Any]],
    agents: list[str],
    setup: dict[str, Any],
    cooperative: bool,
    games: int,
    seed: int,
    deck_a: Deck | None,
    deck_b: Deck | None,
    fixed_seats: bool = False,
) -> MatchupRun:
    """Store a new run; with a broker configured, hand it to a Celery worker once committed."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"a run plays 1 to {MAX_GAMES} games, not {games}")
    for name in agents:
        agent_spec(name)
    worker = bool(settings.CELERY_BROKER_URL)
    run = MatchupRun.objects.create(
        owner=owner,
        session_key="" if owner is not None else session_key,
        game=game,
        deck_a=deck_a,
        deck_b=deck_b,
        sides=sides,
        agents=agents,
        setup=setup,
        cooperative=cooperative,
        games=games,
        seed=seed,
        worker=worker,
        fixed_seats=fixed_seats,
    )
    if worker:
        transaction.on_commit(lambda: _enqueue(run.pk))
    else:
        transaction.on_commit(lambda: matchup_run_dispatch(run_id=run.pk))
    return run


def matchup_run_dispatch(*, run_id: int) -> bool:
    """Hand an in-process run to this process's background runner; False when the runner holds
    it already (a second hand-over plays nothing)."""
    from rules.runner import background_play

    return background_play(
        ("matchup", run_id),
        lambda: matchup_run_play_all(run_id=run_id),
        beat=lambda: MatchupRun.objects.filter(pk=run_id).update(updated_at=timezone.now()),
    )


def matchup_runs_resume_stale(*, older_than: float | None = None) -> list[int]:
    """One sweep: every unfinished run whose heartbeat (moved after every chunk, and every
    ``SIMULATION_HEARTBEAT_SECONDS`` while one plays) is older than ``older_than`` seconds
    (``SIMULATION_STALE_SECONDS``) lost whoever played it. An in-process run that no runner of
    this process holds is finished here, in this thread; a workers' run (a worker killed, its
    task lost with it) is queued again, where a broker is configured. A run is claimed first
    (its heartbeat moves on only if nobody moved it since it was read), so two sweepers never
    both take it; its games so far stay, and the rest are the games an uninterrupted run plays.
    The ids of the runs taken."""
    from datetime import timedelta

    from rules.runner import held_ids

    seconds = settings.SIMULATION_STALE_SECONDS if older_than is None else older_than
    # a workers' run is lost once a worker started it (a queued one may wait behind others)
    stale = MatchupRun.objects.filter(
        Q(worker=False, status=MatchupRun.Status.QUEUED) | Q(status=MatchupRun.Status.RUNNING),
        updated_at__lt=timezone.now() - timedelta(seconds=seconds),
    ).exclude(worker=False, pk__in=held_ids("matchup"))
    if not settings.CELERY_BROKER_URL:
        stale = stale.filter(worker=False)
    taken = []
    for run in stale.order_by("created_at", "pk"):
        claimed = MatchupRun.objects.filter(pk=run.pk, updated_at=run.updated_at).update(
            updated_at=timezone.now()
        )
        if not claimed:
            continue
        taken.append(run.pk)
        if run.worker:
            logger.info("matchup run %s lost its worker: queued again", run.pk)
            _enqueue(run.pk)
        else:
            logger.info("matchup run %s resumed after its process stopped", run.pk)
            matchup_run_play_all(run_id=run.pk)
    return taken


def matchup_runs_claim(*, user: AbstractBaseUser, run_ids: Sequence[int]) -> int:
    """Give an anonymous visitor's runs to the account they just signed in to; return how many.

    Only runs still without an owner are claimed, so a list replayed from another session
    cannot take someone else's. The caller vouches that ``run_ids`` came from this visitor's
    own session data (which survives the new session key ``login`` makes).
    """
    ids = [int(pk) for pk in run_ids]
    if not ids:
        return 0
    return MatchupRun.objects.filter(pk__in=ids, owner__isnull=True).update(
        owner=user, session_key=""
    )


def _enqueue(run_id: int) -> None:
    """Hand the run to a worker; a broker that cannot be reached fails the run, saying so."""
    from rules.tasks import matchup_run_play

    try:
        matchup_run_play.delay(run_id)
    except Exception as error:  # kombu's connection errors have no common public base
        logger.exception("matchup run %s could not be queued", run_id)
        MatchupRun.objects.filter(pk=run_id).update(
            status=MatchupRun.Status.FAILED,
            error=f"The task queue could not be reached ({type(error).__name__}); try again later.",
            finished_at=timezone.now(),
        )


def matchup_run_advance(*, run_id: int, seconds: float | None = None) -> MatchupRun:
    """Play the run's next chunk (about ``seconds`` of games) and save its games; a finished
    run is returned unchanged.

    Two callers racing for the same chunk (two polls, a poll and a worker) cannot both count
    it: the save only applies while ``chunks_done`` is still what it was when the chunk began.
    The runner and the workers call it; no request does."""
    from rules.engines.core import SetupError

    run = MatchupRun.objects.select_related("game").get(pk=run_id)
    if run.finished:
        return run
    chunk = run.chunks_done
    current = MatchupRun.objects.filter(pk=run.pk, chunks_done=chunk)
    started = run.started_at or timezone.now()
    # started: a workers' run that stops beating from now on lost its worker
    MatchupRun.objects.filter(pk=run.pk, status=MatchupRun.Status.QUEUED).update(
        status=MatchupRun.Status.RUNNING, started_at=started
    )
    from rules.runner import beating

    def beat() -> None:  # a search agent's game may last a minute: the run is still alive
        MatchupRun.objects.filter(pk=run.pk).update(updated_at=timezone.now())

    try:
        with beating(beat, f"matchup run {run.pk}"):
            results, totals = play_chunk(
                run.game.slug,
                run.setup,
                run.agents,
                run.seed,
                run.played,
                run.games,
                CHUNK_SECONDS if seconds is None else seconds,
                fixed_seats=run.fixed_seats,
            )
    except (SetupError, ValueError) as error:
        now = timezone.now()
        current.update(
            status=MatchupRun.Status.FAILED,
            error=f"The engine cannot play these decks: {error}",
            finished_at=now,
        )
    except Exception as error:  # an engine bug must end the run visibly, not hang its page
        logger.exception("matchup run %s failed after %s games", run.pk, run.played)
        current.update(
            status=MatchupRun.Status.FAILED,
            error=f"The engine stopped with an internal error ({type(error).__name__}).",
            finished_at=timezone.now(),
        )
    else:
        now = timezone.now()
        results = list(run.results) + results
        done = len(results) >= run.games
        current.update(
            chunks_done=chunk + 1,
            results=results,
            totals=totals_add(run.totals, totals),
            status=MatchupRun.Status.DONE if done else MatchupRun.Status.RUNNING,
            started_at=started,
            finished_at=now if done else None,
            updated_at=now,
        )
    run.refresh_from_db()
    return run


def matchup_run_play_all(*, run_id: int) -> MatchupRun:
    """Play every remaining chunk (what the worker does), saving after each one."""
    run = matchup_run_advance(run_id=run_id)
    while not run.finished:
        run = matchup_run_advance(run_id=run_id)
    return run


def matchup_game_record(run: MatchupRun, number: int) -> dict[str, Any]:
    """Play game ``number`` (1-based) of a run again, from its seed, and return its full record
    (``rules.simulation.game_record``) with the game's ``summary``.

    The result must equal the one stored when the run played it, or ``MatchupRunError`` says
    so (the engine or the card data changed since)."""
    from rules.adapters import engine_for

    if number < 1 or number > run.games:
        raise MatchupRunError(f"This run has no game {number}: it plays games 1 to {run.games}.")
    if number > run.played:
        raise MatchupRunError(f"Game {number} has not been played yet ({run.played} so far).")
    index = number - 1
    report = play_game(
        engine_for(run.game.slug),
        run.setup,
        run.agents,
        run.seed,
        index,
        log=True,
        fixed_seats=run.fixed_seats,
    )
    replayed = report.game_summaries[0]
    stored = run.results[index]
    keys = ("winner", "length", "end_reason")
    if any(replayed.get(key) != stored.get(key) for key in keys):
        raise MatchupRunError(
            f"Game {number} no longer plays out as it did (the engine or the card data changed "
            "since the run); start the matchup again to replay its games."
        )
    record = dict(report.game_log or {})
    record["summary"] = replayed
    return record
