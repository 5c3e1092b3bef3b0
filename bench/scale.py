"""Simulation jobs on 1 and 2 worker processes: games a second, the speed-up, and projections.

    nice .venv/bin/python bench/scale.py [--games 40] [--chunk-size 10] [--agent random]
                                         [--mode auto|celery|pool] [--redis redis://127.0.0.1:6379/12]

It makes a scratch SQLite database (in a temporary folder: migrated, the game data loaded, the
four Reign Absolute sample faction decks stored), then plays the same metagame job (the four
decks, every pair ``--games`` games, seed 1) twice: on one worker process, then on two. With
``--mode celery`` (the default ``auto`` picks it when Redis answers at ``--redis``) the workers
are real Celery workers of the project (``celery -A deckwright worker --pool=solo``) reading the
job's chunks from their own queue on that Redis, as a deployment's would; otherwise (``pool``)
they are a ``multiprocessing`` pool of processes each running the workers' chunk function
(``rules.jobs.simulation_chunk_run``). It says which it used.

Games a second count from the first chunk's start to the job's end (``started_at`` to
``finished_at``: the workers' start-up is left out; they are started and ready before the job is
queued). Both runs play the very same games (the aggregates are checked equal). It prints each
rate, the speed-up (two workers' rate over one's) and, from the measured rates, the time of a
1,000,000-game metagame and of a 16-deck metagame at 100 games a pairing (120 pairings, 12,000
games) on 1, 2, 16 and 64 workers, assuming each worker beyond two adds what the second did.
Figures only, nothing is asserted; it is meant for a quiet machine, and on a shared one the
second worker competes with everything else for the second core.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "reign-absolute"
FACTIONS = (
    "legal-azuma-shogunate",
    "legal-elves-grove",
    "legal-empire-legion",
    "legal-umbrous-shadows",
)
#: the figures projected from the measured rates
MILLION = 1_000_000
SIXTEEN_DECKS_GAMES = 16 * 15 // 2 * 100
READY_SECONDS = 120
JOB_TIMEOUT_SECONDS = 3600


def redis_answers(url: str) -> bool:
    """Whether a Redis server answers PING at ``url``."""
    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def django_setup(database: Path, broker: str) -> None:
    """Point this process at the scratch database (and broker) and start Django."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    import django

    django.setup()


def scratch_data() -> list[Any]:
    """Migrate, load the game data, store the four sample decks; return them."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from decks.selectors import format_default
    from decks.services import deck_create

    quiet = io.StringIO()
    call_command("migrate", verbosity=0, stdout=quiet)
    call_command("load_game_data", verbosity=0, stdout=quiet)
    owner = get_user_model().objects.create_user("bench", "bench@example.com", "x-long-pass-42")
    samples = ROOT / "fixtures" / "decks" / GAME
    return [
        deck_create(
            owner=owner,
            game=GAME,
            name=name.removeprefix("legal-"),
            decklist=(samples / f"{name}.txt").read_text(encoding="utf-8"),
            format=format_default(GAME),
        )
        for name in FACTIONS
    ]


def new_job(decks: list[Any], games: int, chunk_size: int, agent: str, worker: bool) -> Any:
    """The metagame job both runs play (stored, not dispatched)."""
    from rules.jobs import simulation_job_create
    from rules.models import SimulationJob
    from rules.plans import metagame_plan

    plan = metagame_plan(decks=decks, agent=agent, games_per_pairing=games)
    job = simulation_job_create(
        kind=SimulationJob.Kind.METAGAME,
        plan=plan,
        owner=None,
        seed=1,
        chunk_size=chunk_size,
        dispatch=False,
    )
    SimulationJob.objects.filter(pk=job.pk).update(worker=worker)
    return job


def wait_done(job_id: int) -> Any:
    """The job once it has ended (polling its row)."""
    from rules.models import SimulationJob

    deadline = time.monotonic() + JOB_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        job = SimulationJob.objects.get(pk=job_id)
        if job.finished:
            return job
        time.sleep(0.2)
    raise SystemExit(f"job {job_id} did not end within {JOB_TIMEOUT_SECONDS} s")


# -- Celery workers -------------------------------------------------------------------------------


def celery_workers(count: int, env: dict[str, str], queue: str, logs: Path) -> list[Any]:
    """``count`` Celery worker processes on ``queue``, once each says it is ready."""
    workers = []
    for number in range(count):
        log = logs / f"worker-{count}-{number}.log"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "deckwright",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            f"--queues={queue}",
            f"--hostname=bench{count}-{number}-{os.getpid()}@%h",
        ]
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        workers.append((process, log))
    deadline = time.monotonic() + READY_SECONDS
    for process, log in workers:
        while " ready." not in log.read_text(encoding="utf-8", errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"a worker did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.2)
    return [process for process, _ in workers]


def workers_stop(processes: list[Any]) -> None:
    """Stop the workers this script started (each by its own process group)."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def run_celery(job: Any, count: int, env: dict[str, str], queue: str, logs: Path) -> Any:
    """Play ``job`` on ``count`` fresh Celery workers; the job once done."""
    from celery import group

    from rules.tasks import simulation_chunk_play

    processes = celery_workers(count, env, queue, logs)
    try:
        group(
            simulation_chunk_play.si(job.pk, chunk).set(queue=queue)
            for chunk in range(job.chunk_count)
        ).apply_async()
        return wait_done(job.pk)
    finally:
        workers_stop(processes)


# -- a pool of chunk runners ----------------------------------------------------------------------


def _pool_start(database: str) -> None:
    django_setup(Path(database), "")


def _pool_ready(seconds: float) -> None:
    time.sleep(seconds)  # one a process: each has started Django by the time all return


def _pool_chunk(args: tuple[int, int]) -> str:
    from rules.jobs import _chunk_run_retried

    return _chunk_run_retried(*args)


def run_pool(job: Any, count: int, database: Path) -> Any:
    """Play ``job`` on a pool of ``count`` processes, a chunk a task; the job once done."""
    from django.db import connections

    connections.close_all()  # the children open their own
    with get_context("spawn").Pool(count, _pool_start, (str(database),)) as pool:
        pool.map(_pool_ready, [0.5] * count, chunksize=1)
        outcomes = pool.map(
            _pool_chunk, [(job.pk, chunk) for chunk in range(job.chunk_count)], chunksize=1
        )
    if any(outcome not in ("stored", "duplicate") for outcome in outcomes):
        raise SystemExit(f"a chunk was not stored: {outcomes}")
    return wait_done(job.pk)


# -- figures --------------------------------------------------------------------------------------


def rate(job: Any) -> tuple[float, float]:
    """Games a second of a finished job, and its seconds (first chunk's start to its end)."""
    seconds = (job.finished_at - job.started_at).total_seconds()
    return job.games_total / seconds, seconds


def duration(seconds: float) -> str:
    """Seconds as the largest sensible unit."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="Games a pairing (even; 6 pairs).")
    parser.add_argument("--chunk-size", type=int, default=10)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--mode", choices=("auto", "celery", "pool"), default="auto")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--keep", action="store_true", help="Keep the scratch folder.")
    options = parser.parse_args()

    mode = options.mode
    if mode == "auto":
        mode = "celery" if redis_answers(options.redis) else "pool"
    elif mode == "celery" and not redis_answers(options.redis):
        raise SystemExit(f"no Redis answers at {options.redis}")
    scratch = Path(tempfile.mkdtemp(prefix="deckwright-scale-"))
    database = scratch / "bench.sqlite3"
    broker = options.redis if mode == "celery" else ""
    django_setup(database, broker)
    print(f"scratch database {database}; setting up ...", file=sys.stderr)
    decks = scratch_data()
    queue = f"bench-scale-{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "CELERY_BROKER_URL": broker}
    env["LOG_LEVEL"] = "WARNING"

    results = {}
    aggregates = []
    try:
        for count in (1, 2):
            job = new_job(decks, options.games, options.chunk_size, options.agent, mode == "celery")
            print(f"{count} worker(s): job {job.pk}, {job.games_total} games ...", file=sys.stderr)
            if mode == "celery":
                done = run_celery(job, count, env, queue, scratch)
            else:
                done = run_pool(job, count, database)
            if done.status != "done":
                raise SystemExit(f"job {done.pk} ended {done.status}: {done.error}")
            results[count] = rate(done)
            aggregates.append(done.aggregate)
    finally:
        if not options.keep:
            shutil.rmtree(scratch, ignore_errors=True)

    how = (
        f"real Celery workers (--pool=solo) on Redis {options.redis}, queue {queue}"
        if mode == "celery"
        else "a multiprocessing pool of chunk runners"
        + (" (no Redis answered)" if options.mode == "auto" else "")
    )
    one, two = results[1][0], results[2][0]
    speedup = two / one
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"workers: {how}; database: SQLite (scratch file)")
    print(
        f"job: metagame of 4 {GAME} decks, {options.agent} agents, {options.games} games a "
        f"pairing = {6 * options.games} games, chunks of {options.chunk_size}; "
        f"same aggregate on both runs: {aggregates[0] == aggregates[1]}"
    )
    for count, (games_per_second, seconds) in results.items():
        print(f"{count} worker(s): {games_per_second:7.1f} games/s ({seconds:.1f} s)")
    print(f"speed-up, 2 workers over 1: {speedup:.2f}x")
    added = two - one  # what the second worker added; assumed for every further worker
    print(f"projections from these rates (each worker beyond the first adds {added:.1f} games/s):")
    counts = (1, 2, 16, 64) if added > 0 else (1,)
    if added <= 0:
        print("  (the second worker added nothing here: more workers are not projected)")
    for workers in counts:
        speed = one + added * (workers - 1)
        print(
            f"  {workers:>2} worker(s): 1,000,000-game metagame {duration(MILLION / speed):>9}; "
            f"16 decks x 100 games a pairing ({SIXTEEN_DECKS_GAMES:,} games) "
            f"{duration(SIXTEEN_DECKS_GAMES / speed):>7}"
        )


if __name__ == "__main__":
    main()
