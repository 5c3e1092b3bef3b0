"""Simulation jobs: plan one from decks, cut it into chunks, play a chunk, add the chunks up.

A job's games are numbered across the whole job, pairing after pairing. Game ``g`` is played by
``rules.services.play_game`` with the job's seed and ``g``: its seed is ``game_seed(seed, g)``
and its seats rotate ``g`` places (unless its pairing keeps ``fixed_seats``), so within a pairing
the decks alternate seats from game to game. Chunk ``c`` plays games ``c * chunk_size`` up to
``(c + 1) * chunk_size`` (the last one fewer), whatever played it before or after, so the results
of a game never depend on the chunking.

A chunk is played by a Celery task (``simulation_chunk_play``, at the end of this module) when a broker is
configured, one task per chunk, or in-process by the background runner of the process that
created the job (``rules.lab.runner``: one thread a process, one job after another), chunk after
chunk, calling the same ``simulation_chunk_run``. No request plays a game. A chunk's games
are stored once: the row is unique per (job, chunk), so a chunk delivered again after its worker
died, or played twice by two workers, is stored by whoever finishes first and counted once. The
chunk that completes the count adds every chunk's counts up in chunk order (which is game order)
into the job's ``aggregate``; integer counts add up to the same totals however the games were cut.

Whoever plays a chunk holds a lease on it (``SimulationChunkLease``): the games of the chunk
played so far, so that a job's progress rises game by game (``SIMULATION_PROGRESS_MS``), and a
heartbeat that moves every ``SIMULATION_HEARTBEAT_SECONDS`` while the chunk plays, with the
job's own heartbeat (``updated_at``); the lease goes with the chunk's stored row.

The background runner dies with its process; the job's heartbeat then stops. Every serving process (``deckwright/wsgi.py`` and ``asgi.py``
call ``simulation_resumer_start``) sweeps for such stale jobs as it starts and every
``SIMULATION_RESUME_INTERVAL`` seconds after, and plays their missing chunks; so does
``manage.py simulation_resume`` (``simulation_jobs_stale``, ``simulation_job_resume``). A
worker that dies mid-chunk stops its lease's heartbeat: the same sweep, run by the serving
processes and by every command-line Celery worker (``deckwright/celery.py``), queues that chunk
again (``simulation_chunks_requeue_lost``) instead of waiting for the broker's visibility
timeout. A workers' job whose heartbeat stopped with none of its chunks in play, while the
broker's queue is empty, lost its messages (a worker killed as it took one off Redis's queue,
before recording it as unacknowledged): the same sweep queues its missing chunks again
(``simulation_jobs_requeue_stalled``). ``manage.py simulation_resume`` does so for every
workers' job whose heartbeat stopped, queue empty or not (messages lost with the broker's data,
say; ``simulation_job_requeue``).

Cancelling a job marks it cancelled: chunks not started yet are skipped, a chunk being played
still stores its games (the job's partial results count them), and nothing is aggregated.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connections, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from rules.cardstats import counts_add, game_card_counts
from rules.engines.core import SetupError
from rules.lab.plans import JobPlan, SimulationJobError
from rules.lab.runner import background_play, background_wait, beating, held_ids
from rules.metagame import MetagameError, meta_shares_normalised
from rules.models import SimulationChunk, SimulationChunkLease, SimulationJob
from rules.services import chunk_totals, play_game, totals_add

if TYPE_CHECKING:
    from django.contrib.auth.models import User


logger = logging.getLogger(__name__)
#: how often a chunk the database refused (SQLite busy, a dropped connection) is tried again,
#: by a worker's task or in-process
CHUNK_RETRIES = 5
#: the wait before the resumer's next sweep after one the database refused (SQLite's table
#: locked by a reader, a dropped connection), doubled after each further failure up to the
#: sweep interval: a passing refusal must not hold stale jobs back for a whole interval
SWEEP_RETRY_SECONDS = 2.0

#: the kinds a job can be created as today
CREATABLE_KINDS = (
    SimulationJob.Kind.MATCHUP,
    SimulationJob.Kind.GAUNTLET,
    SimulationJob.Kind.METAGAME,
    SimulationJob.Kind.DOCTOR,
)
#: the key of a chunk's totals (and of a job's aggregate) holding its card performance counts
CARDS = "cards"


# -- chunks ---------------------------------------------------------------------------------------


def chunk_bounds(games_total: int, chunk_size: int, chunk: int) -> tuple[int, int]:
    """The first game of ``chunk`` and one past its last."""
    start = chunk * chunk_size
    return start, min(start + chunk_size, games_total)


def job_chunk_bounds(job: SimulationJob, chunk: int) -> tuple[int, int]:
    """The first game of ``chunk`` of ``job`` and one past its last: by the chunk size, or by
    the plan's own chunks (a doctor job's rounds)."""
    rounds = job.doctor.get("chunk_games") if job.doctor else None
    if rounds:
        start = sum(rounds[:chunk])
        return start, start + int(rounds[chunk])
    return chunk_bounds(job.games_total, job.chunk_size, chunk)


def chunk_count_for(games_total: int, chunk_size: int) -> int:
    """How many chunks of ``chunk_size`` games hold ``games_total`` games."""
    return math.ceil(games_total / chunk_size)


def game_pairing(pairings: Sequence[dict[str, Any]], index: int) -> int:
    """The pairing that game ``index`` of a job belongs to."""
    for number, pairing in enumerate(pairings):
        index -= int(pairing["games"])
        if index < 0:
            return number
    raise IndexError("the job has no such game")


def chunk_play(
    job: SimulationJob, chunk: int, on_game: Callable[[int], object] | None = None
) -> tuple[dict[str, Any], list[list[Any]]]:
    """Play the games of ``chunk``: their counts per pairing and one outcome row per game;
    ``on_game`` is told how many of the chunk's games are played after each one."""
    from rules.adapters import engine_for

    if job.kind == SimulationJob.Kind.DOCTOR:
        return _doctor_chunk_play(job, chunk, on_game)
    engine = engine_for(job.game.slug)
    start, stop = chunk_bounds(job.games_total, job.chunk_size, chunk)
    totals: dict[str, Any] = {}
    outcomes: list[list[Any]] = []
    cards: dict[str, int] = {}
    for index in range(start, stop):
        number = game_pairing(job.pairings, index)
        pairing = job.pairings[number]
        report = play_game(
            engine,
            pairing["setup"],
            pairing["agents"],
            job.seed,
            index,
            fixed_seats=bool(pairing.get("fixed_seats")),
            card_sightings=True,
        )
        key = str(number)
        totals[key] = totals_add(totals.get(key, {}), chunk_totals(report))
        game = report.game_summaries[0]
        cards = counts_add(cards, _game_cards(pairing, report))
        outcomes.append(
            [
                number,
                game["winner"],
                game["length"],
                game["turns"],
                game["end_reason"],
                game["first_side"],
            ]
        )
        if on_game is not None:
            on_game(len(outcomes))
    if cards:
        totals[CARDS] = cards
    return totals, outcomes


def _game_cards(pairing: dict[str, Any], report: Any) -> dict[str, int]:
    """One game's card counts (``rules.cardstats``) by the job's deck of each side; none where
    the engine does not tell which cards were drawn and played. Sides of one deck with one
    result (a co-operative team all playing the same deck) count as one: a card counts once a
    game, drawn when any of them drew it, played when any of them played it."""
    game = report.game_summaries[0]
    sides = game.get("cards")
    if not sides:
        return {}
    merged: dict[tuple[int, bool], dict[str, set[str]]] = {}
    for side, cards in enumerate(sides):
        won = bool(report.team.wins) if report.team is not None else game["winner"] == side
        seen = merged.setdefault((int(pairing["sides"][side]), won), {})
        for what in ("deck", "drew", "played"):
            seen.setdefault(what, set()).update(cards[what])
    counts: dict[str, int] = {}
    for (deck, won), seen in merged.items():
        lists = {what: sorted(names) for what, names in seen.items()}
        counts = counts_add(counts, game_card_counts(deck, lists, won))
    return counts


def _doctor_chunk_play(
    job: SimulationJob, chunk: int, on_game: Callable[[int], object] | None = None
) -> tuple[dict[str, Any], list[list[Any]]]:
    """A doctor job's round ``chunk``, after its earlier rounds (stored: a round never runs
    before them, see ``simulation_job_dispatch``); ``on_game`` is told, game by game, how many
    of the round's games are played."""
    from rules.lab.doctor import round_play

    earlier = list(
        job.chunks.filter(index__lt=chunk).order_by("index").values_list("outcomes", flat=True)
    )
    if len(earlier) < chunk:
        raise ValueError(f"round {chunk} of the doctor job comes before its earlier rounds")
    return round_play(job, chunk, [row for rows in earlier for row in rows], on_game)


def chunks_add(chunks: Sequence[dict[str, Any]], pairings: int) -> dict[str, Any]:
    """Chunks' per-pairing counts added up in the order given: ``{"pairings": [...]}`` with
    every pairing's totals (empty for a pairing no chunk played), and ``"cards"``: the card
    performance counts of every deck (``rules.cardstats``), where the engine gives them."""
    added: list[dict[str, Any]] = [{} for _ in range(pairings)]
    cards: dict[str, int] = {}
    for totals in chunks:
        numbered = [(key, counts) for key, counts in totals.items() if key != CARDS]
        for key, counts in sorted(numbered, key=lambda item: int(item[0])):
            added[int(key)] = totals_add(added[int(key)], counts)
        cards = counts_add(cards, totals.get(CARDS, {}))
    return {"pairings": added, CARDS: cards}


# -- services -------------------------------------------------------------------------------------


def _max_games() -> int:
    return int(settings.SIMULATION_MAX_GAMES)


@transaction.atomic
def simulation_job_create(
    *,
    kind: str,
    plan: JobPlan,
    owner: User | None,
    session_key: str = "",
    seed: int | None = None,
    chunk_size: int | None = None,
    meta_shares: Sequence[float] | None = None,
    dispatch: bool = True,
) -> SimulationJob:
    """Store a job of ``plan``; with ``dispatch``, once committed its chunks go to the workers
    (a broker is configured) or to a background thread of this process (none is)."""
    from cards.models import Game

    if kind not in CREATABLE_KINDS:
        raise SimulationJobError(
            f"{kind!r} jobs cannot be created yet (only matchup, gauntlet, metagame, doctor)."
        )
    if (kind == SimulationJob.Kind.DOCTOR) != (plan.doctor is not None):
        raise SimulationJobError("A doctor job is made of a doctor plan (rules.lab.doctor).")
    total = plan.games_total
    if not 1 <= total <= _max_games():
        raise SimulationJobError(
            f"A job plays 1 to {_max_games()} games (SIMULATION_MAX_GAMES), not {total}.",
            "games_per_pairing",
        )
    size = int(settings.SIMULATION_CHUNK_GAMES if chunk_size is None else chunk_size)
    doctor: dict[str, Any] = {}
    if plan.doctor is not None and plan.chunk_games is not None:
        # a doctor's chunk is a round: its size is the plan's, whatever was asked
        doctor = {**plan.doctor, "chunk_games": list(plan.chunk_games)}
        size = max(plan.chunk_games)
    elif not 1 <= size <= settings.SIMULATION_MAX_CHUNK_GAMES:
        raise SimulationJobError(
            f"A chunk plays 1 to {settings.SIMULATION_MAX_CHUNK_GAMES} games, not {size}.",
            "chunk_size",
        )
    if meta_shares and kind == SimulationJob.Kind.MATCHUP:
        raise SimulationJobError(
            "Meta shares weigh a metagame's field; a matchup has none: leave them out.",
            "meta_shares",
        )
    try:
        # a gauntlet weighs its opponents: one share each, the first deck has none
        weighed = len(plan.decks) - (1 if kind == SimulationJob.Kind.GAUNTLET else 0)
        shares = meta_shares_normalised(meta_shares, weighed) if meta_shares else []
    except MetagameError as error:
        raise SimulationJobError(str(error), "meta_shares") from error
    job = SimulationJob.objects.create(
        kind=kind,
        owner=owner,
        session_key="" if owner is not None else session_key,
        game=Game.objects.get(slug=plan.game_slug),
        decks=plan.decks,
        pairings=plan.pairings,
        meta_shares=[float(share) for share in meta_shares] if shares and meta_shares else [],
        seed=secrets.randbelow(2**31) if seed is None else seed,
        games_total=total,
        chunk_size=size,
        chunk_count=len(plan.chunk_games or ()) if doctor else chunk_count_for(total, size),
        worker=bool(settings.CELERY_BROKER_URL),
        doctor=doctor,
    )
    if dispatch:
        transaction.on_commit(lambda: simulation_job_dispatch(job_id=job.pk))
    return job


def simulation_job_start(
    *,
    kind: str,
    plan: JobPlan,
    user: Any,
    address: str,
    session_key: str = "",
    seed: int | None = None,
    chunk_size: int | None = None,
    meta_shares: Sequence[float] | None = None,
    operator: bool = False,
) -> SimulationJob:
    """Start a job of ``plan`` for ``user`` (anonymous: owned by ``session_key``): store it and
    charge its games to the visitor's hourly quotas (``rules.lab.quotas``) in one transaction, so a
    refused quota leaves no job behind; once committed, its chunks go to the workers or to this
    process's background runner. The one way every surface starts a job (matchups, gauntlets,
    metagames, the doctor; web, API and management commands). Raises ``SimulationJobError`` or
    ``rules.lab.quotas.GamesQuotaExceeded``, nothing stored or charged then.

    ``operator``: the site's operator starts the job from a management command on the server.
    The hourly quotas guard the public surfaces, so none is charged; nobody owns the job; and it
    is not handed off, since the command plays it and shows its progress
    (``rules.management.jobrun``)."""
    from rules.lab.quotas import simulation_quota_charge

    anonymous = operator or not getattr(user, "is_authenticated", False)
    with transaction.atomic():
        job = simulation_job_create(
            kind=kind,
            plan=plan,
            owner=None if anonymous else user,
            session_key=session_key if anonymous and not operator else "",
            seed=seed,
            chunk_size=chunk_size,
            meta_shares=meta_shares,
            dispatch=not operator,
        )
        if operator:
            return job
        simulation_quota_charge(
            user=user,
            address=address,
            session_key=session_key if anonymous else "",
            games=job.games_total,
        )
    return job


def _chunks_to_queue(job: SimulationJob, stored: set[int] | None = None) -> list[int]:
    """The chunks of a workers' job to hand to the workers, given the chunks ``stored``: every
    chunk not stored, but of a doctor's job only its first round not stored. A doctor's rounds
    go one by one, each queueing the next once stored (``_next_round``): a round played before
    the one it follows fails the job (``_doctor_chunk_play``), as it would on a second worker."""
    missing = [chunk for chunk in range(job.chunk_count) if chunk not in (stored or ())]
    return missing[:1] if job.kind == SimulationJob.Kind.DOCTOR else missing


def simulation_job_dispatch(*, job_id: int) -> None:
    """Hand every chunk of the job to the workers, or the job to this process's background
    runner (``rules.lab.runner``: one thread, however many jobs and polls)."""
    job = SimulationJob.objects.get(pk=job_id)
    if not job.worker:
        simulation_job_background(job_id=job_id)
        return
    from celery import group

    try:
        group(
            simulation_chunk_play.si(job_id, chunk) for chunk in _chunks_to_queue(job)
        ).apply_async()
    except Exception as error:  # kombu's connection errors have no common public base
        logger.exception("simulation job %s could not be queued", job_id)
        simulation_job_fail(
            job_id=job_id,
            error=f"The task queue could not be reached ({type(error).__name__}); try again later.",
        )


def simulation_job_background(*, job_id: int) -> bool:
    """Hand an in-process job to this process's background runner; False when the runner
    holds it already (a second hand-over plays nothing)."""
    return background_play(
        ("job", job_id),
        lambda: _play_in_background(job_id),
        beat=lambda: SimulationJob.objects.filter(pk=job_id).update(updated_at=timezone.now()),
    )


def simulation_job_wait(*, job_id: int, timeout: float | None = None) -> bool:
    """Wait for this process's runner to end the job (if it holds it); True once it has."""
    return background_wait(("job", job_id), timeout)


def _play_in_background(job_id: int) -> None:
    try:
        simulation_job_play_inline(job_id=job_id)
    except Exception:  # a thread's exception would vanish: log it and end the job visibly
        logger.exception("simulation job %s stopped in its background thread", job_id)
        simulation_job_fail(job_id=job_id, error="The job stopped with an internal error.")


def simulation_job_play_inline(*, job_id: int) -> SimulationJob:
    """Play every chunk not stored yet, in order, in this process (the same code a worker runs
    per chunk); return the job as it ends (done, failed or cancelled)."""
    job = SimulationJob.objects.get(pk=job_id)
    for chunk in range(job.chunk_count):
        outcome = simulation_chunk_run_retried(job_id, chunk)
        if outcome in ("missing", "skipped", "failed"):
            break
    job.refresh_from_db()
    return job


def simulation_chunk_run_retried(job_id: int, chunk: int) -> str:
    """``simulation_chunk_run`` retried on database errors (SQLite answers "database is locked"
    while another writer holds it), as a worker retries its task: up to CHUNK_RETRIES times,
    waiting 0.5, 1, 2 ... seconds. A chunk is stored once, so a retry never counts it twice."""
    for attempt in range(CHUNK_RETRIES + 1):
        try:
            return simulation_chunk_run(job_id=job_id, chunk=chunk)
        except DatabaseError as error:
            if attempt == CHUNK_RETRIES:
                return simulation_chunk_refused(job_id=job_id, chunk=chunk, error=error)
            time.sleep(0.5 * 2**attempt)
    return "failed"


def simulation_chunk_refused(*, job_id: int, chunk: int, error: Exception) -> str:
    """End the job once the database refused ``chunk`` on every try; ``failed``."""
    simulation_job_fail(
        job_id=job_id,
        error=f"The database refused chunk {chunk} {CHUNK_RETRIES + 1} times "
        f"({type(error).__name__}).",
    )
    return "failed"


def simulation_job_fail(*, job_id: int, error: str) -> None:
    """End an unfinished job as failed, saying why."""
    SimulationJob.objects.filter(
        pk=job_id, status__in=(SimulationJob.Status.QUEUED, SimulationJob.Status.RUNNING)
    ).update(status=SimulationJob.Status.FAILED, error=error, finished_at=timezone.now())


def simulation_chunk_run(*, job_id: int, chunk: int) -> str:
    """Play and store one chunk, once; what happened: ``stored``, ``duplicate`` (already
    stored: nothing changes), ``skipped`` (the job is finished or cancelled), ``failed`` (the
    engine refused; the job now says why) or ``missing`` (no such job).

    Database errors propagate, for the caller to retry the chunk."""
    job = SimulationJob.objects.select_related("game").filter(pk=job_id).first()
    if job is None:
        return "missing"
    if job.finished:
        return "skipped"
    if not 0 <= chunk < job.chunk_count:
        raise ValueError(f"job {job_id} has chunks 0 to {job.chunk_count - 1}, not {chunk}")
    if SimulationChunk.objects.filter(job_id=job_id, index=chunk).exists():
        simulation_job_finish(job_id=job_id)  # its worker may have died before adding up
        _next_round(job, chunk)
        return "duplicate"
    now = timezone.now()
    SimulationJob.objects.filter(pk=job_id, status=SimulationJob.Status.QUEUED).update(
        status=SimulationJob.Status.RUNNING, started_at=now
    )
    # the heartbeat: a job whose heartbeat stops lost its process (simulation_jobs_stale), a
    # lease whose heartbeat stops lost its worker (simulation_chunks_lost)
    SimulationJob.objects.filter(pk=job_id).update(updated_at=now)
    SimulationChunkLease.objects.update_or_create(
        job_id=job_id, index=chunk, defaults={"games_played": 0, "beat_at": now}
    )
    try:
        with _heartbeat(job_id, chunk):
            totals, outcomes = chunk_play(job, chunk, _progress(job_id, chunk))
    except (SetupError, ValueError) as error:
        simulation_job_fail(job_id=job_id, error=f"The engine cannot play these decks: {error}")
        return "failed"
    except DatabaseError:
        raise
    except Exception as error:  # an engine bug must end the job visibly, not hang it
        logger.exception("simulation job %s failed in chunk %s", job_id, chunk)
        simulation_job_fail(
            job_id=job_id,
            error=f"The engine stopped with an internal error ({type(error).__name__}).",
        )
        return "failed"
    start, stop = job_chunk_bounds(job, chunk)
    # The games are played: a database that refuses the write for a while (SQLite's "database
    # is locked") gets the same write again, never the games played again.
    for attempt in range(CHUNK_RETRIES + 1):
        try:
            if not _chunk_store(job_id, chunk, start, stop, totals, outcomes):
                return "duplicate"  # another worker stored it first
            break
        except DatabaseError:
            if attempt == CHUNK_RETRIES:
                raise
            time.sleep(0.5 * 2**attempt)
    simulation_job_finish(job_id=job_id)
    _next_round(job, chunk)
    return "stored"


def _chunk_store(
    job_id: int,
    chunk: int,
    start: int,
    stop: int,
    totals: dict[str, Any],
    outcomes: list[list[Any]],
) -> bool:
    """Store a played chunk and count it in its job, in one transaction; False when the chunk
    was stored already (nothing changes)."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                SimulationChunk.objects.create(
                    job_id=job_id,
                    index=chunk,
                    start=start,
                    stop=stop,
                    totals=totals,
                    outcomes=outcomes,
                )
        except IntegrityError:
            return False
        SimulationChunkLease.objects.filter(job_id=job_id, index=chunk).delete()
        SimulationJob.objects.filter(pk=job_id).update(
            chunks_done=F("chunks_done") + 1,
            games_done=F("games_done") + (stop - start),
            updated_at=timezone.now(),
        )
    return True


def _progress(job_id: int, chunk: int) -> Callable[[int], None]:
    """What ``chunk_play`` tells of its games: the lease's count of games played (and its
    heartbeat) moves at most every ``SIMULATION_PROGRESS_MS``, so the pages rise game by game
    without a write for every millisecond game."""
    every = settings.SIMULATION_PROGRESS_MS / 1000
    last = [-math.inf]

    def played(games: int) -> None:
        now = time.monotonic()
        if now - last[0] < every:
            return
        last[0] = now
        try:
            SimulationChunkLease.objects.filter(job_id=job_id, index=chunk).update(
                games_played=games, beat_at=timezone.now()
            )
        except DatabaseError:  # a count for the pages only: the next one is written instead
            logger.info("simulation job %s chunk %s: progress not written", job_id, chunk)

    return played


def _heartbeat(job_id: int, chunk: int) -> AbstractContextManager[None]:
    """Move the chunk's lease and the job's heartbeat every ``SIMULATION_HEARTBEAT_SECONDS``
    while the chunk plays, however long its games last (a search agent's game may take a
    minute); a worker that dies stops beating, and the sweep plays its chunk again."""

    def beat() -> None:
        now = timezone.now()
        SimulationChunkLease.objects.filter(job_id=job_id, index=chunk).update(beat_at=now)
        SimulationJob.objects.filter(pk=job_id).update(updated_at=now)

    return beating(beat, f"job {job_id} chunk {chunk}")


def _next_round(job: SimulationJob, chunk: int) -> None:
    """Queue a worker's doctor job's next round, once round ``chunk`` is stored (in-process
    jobs play their chunks in order anyway)."""
    if job.kind != SimulationJob.Kind.DOCTOR or not job.worker or chunk + 1 >= job.chunk_count:
        return
    if SimulationChunk.objects.filter(job_id=job.pk, index=chunk + 1).exists():
        return

    transaction.on_commit(lambda: simulation_chunk_play.delay(job.pk, chunk + 1))


def simulation_job_finish(*, job_id: int) -> SimulationJob | None:
    """Once every chunk is stored, add them up in chunk order into the job's aggregate and mark
    it done (again and again gives the same); before that, or for a finished job, do nothing."""
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished:
            return job
        chunks = list(job.chunks.order_by("index").values_list("totals", flat=True))
        if len(chunks) < job.chunk_count:
            return job
        job.aggregate = chunks_add(chunks, len(job.pairings))
        if job.kind == SimulationJob.Kind.DOCTOR:
            job.aggregate["doctor"] = doctor_report_of_rounds(job)
        job.status = SimulationJob.Status.DONE
        job.finished_at = timezone.now()
        job.save(update_fields=["aggregate", "status", "finished_at", "updated_at"])
    return job


def doctor_report_of_rounds(job: SimulationJob) -> dict[str, Any]:
    """A doctor job's report (``rules.lab.doctor.doctor_report``) from the rounds stored so far."""
    from rules.lab.doctor import doctor_report

    rows = job.chunks.order_by("index").values_list("outcomes", flat=True)
    return doctor_report(job.doctor, [row for chunk in rows for row in chunk])


_UNFINISHED = (SimulationJob.Status.QUEUED, SimulationJob.Status.RUNNING)


def _stale(*, worker: bool, older_than: float | None) -> QuerySet[SimulationJob]:
    """Unfinished jobs played in-process (``worker=False``) or by workers whose heartbeat is
    older than ``older_than`` seconds (``SIMULATION_STALE_SECONDS`` by default), oldest first."""
    seconds = settings.SIMULATION_STALE_SECONDS if older_than is None else older_than
    cutoff = timezone.now() - timedelta(seconds=seconds)
    return SimulationJob.objects.filter(
        worker=worker, status__in=_UNFINISHED, updated_at__lt=cutoff
    ).order_by("created_at", "pk")


def _claim(job: SimulationJob, *, worker: bool) -> bool:
    """Move a stale job's heartbeat on if nobody has since ``job`` was read: True for the one
    caller that did (another resumer finds the heartbeat moved and leaves the job alone)."""
    return bool(
        SimulationJob.objects.filter(
            pk=job.pk, worker=worker, status__in=_UNFINISHED, updated_at=job.updated_at
        ).update(updated_at=timezone.now())
    )


def simulation_jobs_stale(*, older_than: float | None = None) -> list[SimulationJob]:
    """Unfinished in-process jobs (no broker) whose heartbeat is older than ``older_than``
    seconds (``SIMULATION_STALE_SECONDS`` by default) and that no thread of this process plays:
    the process playing them stopped. Workers' jobs are left to the broker, which delivers a
    dead worker's chunks again."""
    mine = held_ids("job")
    return [job for job in _stale(worker=False, older_than=older_than) if job.pk not in mine]


def simulation_job_resume(*, job: SimulationJob) -> SimulationJob | None:
    """Finish a stale in-process job here: claim it (its heartbeat moves on, so another resumer
    leaves it alone), then play its chunks not stored yet, exactly as the lost thread would
    have; the stored chunks count as they are, so the aggregate is an uninterrupted run's.
    None when someone else claimed it first."""
    if not _claim(job, worker=False):
        return None
    logger.info("simulation job %s resumed after its process stopped", job.pk)
    return simulation_job_play_inline(job_id=job.pk)


def simulation_jobs_stale_on_workers(*, older_than: float | None = None) -> list[SimulationJob]:
    """Unfinished workers' jobs whose heartbeat is older than ``older_than`` seconds
    (``SIMULATION_STALE_SECONDS`` by default): no worker has started or ended one of their chunks
    for that long, so their messages may be lost."""
    return list(_stale(worker=True, older_than=older_than))


def simulation_job_requeue(*, job: SimulationJob) -> list[int] | None:
    """Queue again the chunks of a stale workers' job that are not stored yet (of a doctor's
    job, its first round not stored: ``_chunks_to_queue``); return them. A chunk stored
    meanwhile by a late worker is counted once all the same (``duplicate``). None when someone
    else claimed the job first (its heartbeat moved)."""
    if not _claim(job, worker=True):
        return None
    missing = _chunks_to_queue(job, set(job.chunks.values_list("index", flat=True)))
    from celery import group

    logger.info("simulation job %s: chunks %s queued again", job.pk, missing)
    if missing:
        group(simulation_chunk_play.si(job.pk, chunk) for chunk in missing).apply_async()
    else:  # every chunk is stored: the worker died before adding them up
        simulation_job_finish(job_id=job.pk)
    return missing


def simulation_chunks_lost(*, older_than: float | None = None) -> list[SimulationChunkLease]:
    """Leases on chunks of unfinished workers' jobs whose heartbeat is older than
    ``older_than`` seconds (``SIMULATION_STALE_SECONDS`` by default): the worker playing each
    died (a worker beats every ``SIMULATION_HEARTBEAT_SECONDS`` while it plays), and its
    message waits for the broker's visibility timeout, an hour by default."""
    seconds = settings.SIMULATION_STALE_SECONDS if older_than is None else older_than
    return list(
        SimulationChunkLease.objects.filter(
            job__worker=True,
            job__status__in=_UNFINISHED,
            beat_at__lt=timezone.now() - timedelta(seconds=seconds),
        ).order_by("beat_at", "pk")
    )


def simulation_chunk_requeue(*, lease: SimulationChunkLease) -> bool:
    """Queue a lost chunk again, once: the caller whose heartbeat move finds the lease as it
    was read queues it (True); another sweeper, or a worker that was only slow, moved it first
    (False). Played twice, a chunk is still stored once, with the same games."""
    claimed = SimulationChunkLease.objects.filter(pk=lease.pk, beat_at=lease.beat_at).update(
        beat_at=timezone.now()
    )
    if not claimed:
        return False

    logger.info(
        "simulation job %s: chunk %s lost its worker, queued again", lease.job_id, lease.index
    )
    simulation_chunk_play.delay(lease.job_id, lease.index)
    return True


def simulation_chunks_requeue_lost() -> list[tuple[int, int]]:
    """One sweep of the workers' jobs: queue again every lost chunk no one else claims first;
    the (job, chunk) pairs this sweep queued."""
    return [
        (lease.job_id, lease.index)
        for lease in simulation_chunks_lost()
        if simulation_chunk_requeue(lease=lease)
    ]


def simulation_broker_waiting() -> int | None:
    """How many chunk messages wait in the broker's queue (``CELERY_BROKER_URL``), not counting
    those a worker has taken; None when the broker does not answer."""
    from amqp.exceptions import ChannelError

    app = simulation_chunk_play.app
    queue = app.amqp.router.route({}, simulation_chunk_play.name)["queue"].name
    try:
        with app.connection_for_read(settings.CELERY_BROKER_URL) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0)  # the next sweep waits
            channel: Any = connection.default_channel  # kombu's stubs omit queue_declare
            try:
                declared = channel.queue_declare(queue=queue, passive=True)
            except ChannelError as error:
                # Redis drops an emptied queue's list; RabbitMQ, a queue never declared
                if str(getattr(error, "reply_code", "")) == "404":
                    return 0
                raise
            return int(declared.message_count)
    except Exception as error:  # kombu's connection errors have no common public base
        logger.warning("the broker's queue %r could not be read: %s", queue, error)
        return None


def simulation_jobs_requeue_stalled() -> list[int]:
    """One sweep of the workers' jobs that stopped beating with none of their chunks in play
    (no lease beating): once the broker's queue is empty, none of their missing chunks waits
    there, so the messages are lost, and their missing chunks are queued again
    (``simulation_job_requeue``). Redis's transport loses a message whose worker is killed after
    taking it off the queue and before recording it as unacknowledged; a doctor's next round is
    lost with a worker killed between storing a round and queueing the next. While the queue
    holds anything, such a job may be waiting its turn behind it, and is left alone. The ids of
    the jobs this sweep queued."""
    stalled = simulation_jobs_stale_on_workers()
    if not stalled:
        return []
    cutoff = timezone.now() - timedelta(seconds=settings.SIMULATION_STALE_SECONDS)
    playing = set(
        SimulationChunkLease.objects.filter(job__in=stalled, beat_at__gte=cutoff).values_list(
            "job_id", flat=True
        )
    )
    stalled = [job for job in stalled if job.pk not in playing]
    if not stalled or simulation_broker_waiting() != 0:
        return []
    return [job.pk for job in stalled if simulation_job_requeue(job=job) is not None]


def simulation_jobs_resume_stale() -> list[int]:
    """One sweep: finish, in this thread, every stale in-process job no one else claims first;
    the ids of the jobs this sweep played."""
    played = []
    for job in simulation_jobs_stale():
        if simulation_job_resume(job=job) is not None:
            played.append(job.pk)
    return played


_RESUMER: dict[str, Any] = {}
_RESUMER_LOCK = threading.Lock()


def simulation_resumer_start(*, interval: float | None = None) -> threading.Thread | None:
    """Start this process's resumer thread (once; a second call returns the same thread): it
    sweeps for stale in-process jobs now and every ``interval`` seconds
    (``SIMULATION_RESUME_INTERVAL``; 0 starts nothing). The serving entry points call it, so
    jobs a stopped server left unfinished are finished by the next one."""
    every = float(settings.SIMULATION_RESUME_INTERVAL if interval is None else interval)
    if every <= 0:
        return None
    with _RESUMER_LOCK:
        thread = _RESUMER.get("thread")
        if isinstance(thread, threading.Thread) and thread.is_alive():
            return thread
        stop = threading.Event()
        thread = threading.Thread(
            target=_resume_forever, args=(every, stop), name="simulation-resumer", daemon=True
        )
        _RESUMER.update(thread=thread, stop=stop)
        thread.start()
        return thread


def simulation_resumer_stop(*, timeout: float | None = None) -> None:
    """Stop this process's resumer thread after its current sweep (tests, shutdown)."""
    with _RESUMER_LOCK:
        thread, stop = _RESUMER.pop("thread", None), _RESUMER.pop("stop", None)
    if isinstance(stop, threading.Event):
        stop.set()
    if isinstance(thread, threading.Thread):
        thread.join(timeout)


def _resume_forever(every: float, stop: threading.Event) -> None:
    failures = 0
    while not stop.is_set():
        try:
            simulation_jobs_resume_stale()
            if settings.CELERY_BROKER_URL:
                simulation_chunks_requeue_lost()
                simulation_jobs_requeue_stalled()
            failures = 0
        except Exception:  # a database not migrated yet, a dropped connection: try again soon
            logger.exception("the sweep for stale simulation jobs failed")
            failures += 1
        finally:
            connections.close_all()
        if failures:  # 2 s, 4 s, 8 s ... (the exponent capped: the wait is capped anyway)
            stop.wait(min(every, SWEEP_RETRY_SECONDS * 2 ** min(failures - 1, 16)))
        else:
            stop.wait(every)


def simulation_jobs_claim(
    *, user: User, job_ids: Sequence[int], legacy_run_ids: Sequence[int] = ()
) -> int:
    """Give an anonymous visitor's jobs to the account they just signed in to; return how many.
    Only jobs still without an owner are claimed; the caller vouches that ``job_ids`` (and
    ``legacy_run_ids``: ids of matchup runs started before matchups were jobs, which their jobs
    remember) came from this visitor's own session data."""
    ids = [int(pk) for pk in job_ids]
    runs = [int(pk) for pk in legacy_run_ids]
    if not ids and not runs:
        return 0
    return (
        SimulationJob.objects.filter(owner__isnull=True)
        .filter(Q(pk__in=ids) | Q(legacy_run__in=runs))
        .update(owner=user, session_key="")
    )


def simulation_job_cancel(*, job: SimulationJob) -> bool:
    """Cancel an unfinished job: its chunks not started yet are skipped. False when it had
    already finished (done, failed or cancelled)."""
    cancelled = SimulationJob.objects.filter(
        pk=job.pk, status__in=(SimulationJob.Status.QUEUED, SimulationJob.Status.RUNNING)
    ).update(status=SimulationJob.Status.CANCELLED, finished_at=timezone.now())
    job.refresh_from_db()
    return bool(cancelled)


# -- the workers' task ----------------------------------------------------------------------------


@shared_task(
    name="rules.simulation_chunk_play",
    bind=True,
    ignore_result=True,
    # acknowledged once stored, and handed out again when the worker process dies mid-chunk
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=CHUNK_RETRIES,
)
def simulation_chunk_play(self: Any, job_id: int, chunk: int) -> str:
    """The Celery task a worker runs: play chunk ``chunk`` of a simulation job and store it
    (``simulation_chunk_run``: ``stored``, ``duplicate``, ``skipped``, ``failed`` or
    ``missing``); a chunk the database refused is tried again, then recorded as refused."""
    try:
        return simulation_chunk_run(job_id=job_id, chunk=chunk)
    except DatabaseError as error:
        if self.request.retries >= CHUNK_RETRIES:
            return simulation_chunk_refused(job_id=job_id, chunk=chunk, error=error)
        raise self.retry(exc=error, countdown=2**self.request.retries) from error
