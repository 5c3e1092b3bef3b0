"""Simulation jobs played by real Celery workers through the machine's Redis: a job of three
chunks, and a worker killed mid-job (a metagame's or a matchup's) whose chunks another worker
finishes, with the very games and aggregate an in-process run of the same seed gives (skipped
with a message without Redis)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from celery.signals import task_postrun
from django.db import connection

from rules.lab.jobs import simulation_job_dispatch, simulation_job_play_inline
from rules.models import SimulationChunk, SimulationJob
from tests.rules.jobs_helpers import faction_decks, metagame_job
from tests.rules.test_matchup_tasks import (  # noqa: F401  (fixtures)
    REDIS_URL,
    WORKER_TIMEOUT_SECONDS,
    redis_broker,
    worker_app,
)

ROOT = Path(__file__).resolve().parents[2]
#: the kinds of job the fault tests kill a worker in the middle of
KINDS = ("metagame", "matchup")


#: a worker's settings where only its sweep gives a lost chunk back, within seconds: the
#: broker's visibility timeout is the default hour, a heartbeat every second, stale after three
SWEEP_SOON = {
    "CELERY_VISIBILITY_TIMEOUT": "3600",
    "SIMULATION_HEARTBEAT_SECONDS": "1",
    "SIMULATION_STALE_SECONDS": "3",
    "SIMULATION_RESUME_INTERVAL": "1",
}


def greedy_plan(kind: str, owner):
    """12 games between two Reign Absolute decks played by plain one-turn greedy agents (the
    normal level: a chunk of two games lasts long enough to be killed in the middle, and the
    default's reply lines would make the job outlast the test's timeouts under coverage): a
    metagame's one pair, or a matchup."""
    from rules.lab.plans import matchup_plan, metagame_plan

    decks = faction_decks(owner, 2)
    if kind == "matchup":
        return matchup_plan(decks=decks, agents=["normal", "normal"], games=12)
    return metagame_plan(decks=decks, agent="normal", games_per_pairing=12)


def _outcomes_of(database: Path | None, job_id: int) -> list:
    """Every game's outcome row of a job, in game order, as the workers stored them."""
    if database is None:
        rows = SimulationChunk.objects.filter(job_id=job_id).order_by("index")
        return [game for chunk in rows.values_list("outcomes", flat=True) for game in chunk]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20) as reader:
        query = 'SELECT outcomes FROM rules_simulationchunk WHERE job_id = ? ORDER BY "index"'
        stored = reader.execute(query, (job_id,)).fetchall()
    return [game for (chunk,) in stored for game in json.loads(chunk)]


@pytest.fixture
def owner(django_user_model, transactional_db):
    return django_user_model.objects.create_user("worker", "w@example.com", "x-long-pass-42")


@pytest.mark.redis
def test_a_worker_plays_a_job_of_three_chunks(worker_app, owner, settings):  # noqa: F811
    from celery.contrib.testing.worker import start_worker

    decks = faction_decks(owner, 3)
    chunks_played = []
    all_played = threading.Event()

    def on_task_done(sender=None, **kwargs) -> None:
        if getattr(sender, "name", "") == "rules.simulation_chunk_play":
            chunks_played.append(kwargs.get("retval"))
            if len(chunks_played) == 3:
                all_played.set()

    task_postrun.connect(on_task_done, weak=False)
    settings.CELERY_BROKER_URL = REDIS_URL
    try:
        with start_worker(worker_app, perform_ping_check=False, shutdown_timeout=30):
            # 3 pairings of 4 games, 5 games a chunk: chunks of 5, 5 and 2 games; the job is
            # stored first, then its chunks queued, as creating it with a broker does once
            # committed
            job = metagame_job(owner, decks, games=4, chunk_size=5)
            assert job.worker and job.chunk_count == 3
            simulation_job_dispatch(job_id=job.pk)
            # wait without touching the database (the in-memory test database locks whole
            # tables while the worker writes)
            assert all_played.wait(WORKER_TIMEOUT_SECONDS), "the worker did not play 3 chunks"
    finally:
        task_postrun.disconnect(on_task_done)
    assert sorted(chunks_played) == ["stored"] * 3
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE, job.error
    assert (job.chunks_done, job.games_done) == (3, 12)
    assert list(job.chunks.values_list("index", "start", "stop")) == [
        (0, 0, 5),
        (1, 5, 10),
        (2, 10, 12),
    ]
    settings.CELERY_BROKER_URL = ""
    inline = simulation_job_play_inline(job_id=metagame_job(owner, decks, chunk_size=12).pk)
    assert inline.aggregate == job.aggregate


def _worker_env(url: str, data_dir: Path, **settings: str) -> dict[str, str]:
    """The environment of a worker on the shared database and Redis, with ``settings`` on top
    (a test's timeouts); the test run's own ``REDIS_URL`` left out."""
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DECKWRIGHT_DATA_DIR": str(data_dir),
        "CELERY_BROKER_URL": REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "deckwright.settings",
        **settings,
    }
    env.pop("REDIS_URL", None)
    return env


def _worker(name: str, env: dict[str, str], log: Path) -> subprocess.Popen:
    """A Celery worker process of the project, one chunk at a time."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "deckwright",
        "worker",
        "--pool=solo",
        "--loglevel=WARNING",
        "--without-heartbeat",
        "--without-gossip",
        "--without-mingle",
        f"--hostname={name}@%h",
    ]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _job_reader(database: Path | None):
    """How the test reads the job's row as the workers leave it: from the SQLite file they
    write, or from the PostgreSQL test database they share with the test."""

    def from_file(job_id: int) -> tuple[str, int, str]:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20) as reader:
            row = reader.execute(
                "SELECT status, chunks_done, aggregate FROM rules_simulationjob WHERE id = ?",
                (job_id,),
            ).fetchone()
        return row[0], int(row[1]), row[2]

    def from_database(job_id: int) -> tuple[str, int, str]:
        job = SimulationJob.objects.get(pk=job_id)
        return job.status, job.chunks_done, json.dumps(job.aggregate)

    return from_file if database is not None else from_database


def _shared_database(tmp_path: Path) -> tuple[str, Path | None]:
    """A database URL the worker processes can open holding the test's data: a file copy of the
    in-memory SQLite test database, or the PostgreSQL test database itself."""
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        database = tmp_path / "jobs.sqlite3"
        with sqlite3.connect(database) as copy:
            connection.connection.backup(copy)
        return f"sqlite:///{database}", database
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    url = f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return url, None


def _wait_for(read, job_id: int, done, what: str, worker) -> tuple:
    deadline = time.monotonic() + WORKER_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        row = read(job_id)
        if done(row):
            return row
        assert worker.poll() is None, f"the worker exited while waiting for {what}"
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _stored_chunks(database: Path | None, job: SimulationJob) -> list[int]:
    """The indexes of the chunks of ``job`` the workers stored, in order."""
    if database is None:
        return list(job.chunks.order_by("index").values_list("index", flat=True))
    with sqlite3.connect(database) as reader:
        query = 'SELECT "index" FROM rules_simulationchunk WHERE job_id = ? ORDER BY 1'
        return [row[0] for row in reader.execute(query, (job.pk,))]


def _as_in_process(
    settings,
    kind: str,
    plan,
    owner,
    chunk_size: int,
    database: Path | None,
    job: SimulationJob,
    aggregate: str,
) -> SimulationJob:
    """Check that the workers' ``job`` (its stored ``aggregate``) came out as an in-process run of
    the same plan and seed cut into chunks of ``chunk_size`` does, game by game; that run."""
    from rules.lab.jobs import simulation_job_create

    settings.CELERY_BROKER_URL = ""
    inline = simulation_job_create(
        kind=kind, plan=plan, owner=owner, seed=21, chunk_size=chunk_size, dispatch=False
    )
    expected = simulation_job_play_inline(job_id=inline.pk)
    assert json.loads(aggregate) == expected.aggregate
    assert _outcomes_of(database, job.pk) == _outcomes_of(None, inline.pk)
    return inline


@pytest.mark.redis
@pytest.mark.parametrize("kind", KINDS)
def test_a_worker_killed_mid_job_leaves_its_chunk_to_the_next_one(
    worker_app,  # noqa: F811
    owner,
    settings,
    tmp_path,
    kind,
):
    """Worker A is killed (SIGKILL) once it has stored a chunk; the chunk it was playing was
    never acknowledged, so Redis hands it to worker B after the visibility timeout. (Killed in
    the instant after taking its next chunk off the queue and before recording it as
    unacknowledged, A takes that chunk out of Redis's reach: B's sweep queues it again once the
    job has stopped beating, the test below.) The job (a metagame or a matchup) ends with every
    chunk stored once and the games and aggregate of an in-process run of the same seed."""
    from rules.lab.jobs import simulation_job_create

    settings.CELERY_BROKER_URL = REDIS_URL
    plan = greedy_plan(kind, owner)
    job = simulation_job_create(
        kind=kind, plan=plan, owner=owner, seed=21, chunk_size=2, dispatch=False
    )
    assert job.chunk_count == 6
    # the workers' database holds the test's data, job and decks included
    url, database = _shared_database(tmp_path)
    read = _job_reader(database)
    env = _worker_env(
        url,
        tmp_path,
        CELERY_VISIBILITY_TIMEOUT="3",
        CELERY_RESTORE_INTERVAL="1",
        # worker A may die holding the restore lock: B must not wait out a long expiry
        CELERY_UNACKED_MUTEX_EXPIRE="2",
        # the broker hands A's chunk back within seconds, long before its lease or the job
        # counts as stale, unless A took it out of the broker's reach (the docstring)
        SIMULATION_STALE_SECONDS="20",
        SIMULATION_RESUME_INTERVAL="1",
    )
    simulation_job_dispatch(job_id=job.pk)  # six tasks in Redis
    first = _worker("sim-a", env, tmp_path / "worker-a.log")
    second = None
    try:
        status, stored, _ = _wait_for(
            read, job.pk, lambda row: row[1] >= 1, "worker A's first chunk", first
        )
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(30)
        killed_at = read(job.pk)[1]
        assert killed_at < job.chunk_count, "worker A finished the job before it was killed"

        second = _worker("sim-b", env, tmp_path / "worker-b.log")
        status, stored, aggregate = _wait_for(
            read, job.pk, lambda row: row[0] != "running", "worker B to end the job", second
        )
    finally:
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(30)
    assert status == "done", (tmp_path / "worker-b.log").read_text()
    assert stored == job.chunk_count
    assert _stored_chunks(database, job) == list(range(job.chunk_count))  # every chunk once

    inline = _as_in_process(settings, kind, plan, owner, 5, database, job, aggregate)
    assert SimulationChunk.objects.filter(job=inline).count() == 3


@pytest.mark.redis
def test_a_chunk_taken_off_the_queue_and_lost_plays_again_once_the_job_stops_beating(
    worker_app,  # noqa: F811
    owner,
    settings,
    tmp_path,
):
    """A worker killed after taking a chunk off Redis's queue and before recording it as
    unacknowledged leaves no trace of it: nothing for the broker to restore, no lease for the
    sweep. Here the chunk is taken off the queue by hand. Worker B plays the other five chunks;
    once the job has stopped beating for SIMULATION_STALE_SECONDS with the queue empty, B's
    sweep queues the missing chunk again, and the job ends with every chunk stored once and the
    games and aggregate of an in-process run of the same seed."""
    import redis

    from rules.lab.jobs import simulation_job_create

    settings.CELERY_BROKER_URL = REDIS_URL
    plan = greedy_plan("metagame", owner)
    job = simulation_job_create(
        kind="metagame", plan=plan, owner=owner, seed=21, chunk_size=2, dispatch=False
    )
    url, database = _shared_database(tmp_path)
    read = _job_reader(database)
    env = _worker_env(url, tmp_path, **SWEEP_SOON)
    simulation_job_dispatch(job_id=job.pk)  # six tasks in Redis
    taken = json.loads(redis.Redis.from_url(REDIS_URL).rpop("celery"))  # the next to go out
    assert taken["headers"]["task"] == "rules.simulation_chunk_play"
    worker = _worker("sim-b", env, tmp_path / "worker-b.log")
    try:
        status, stored, aggregate = _wait_for(
            read,
            job.pk,
            lambda row: row[0] not in ("queued", "running"),
            "the worker to end the job",
            worker,
        )
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(30)
    assert status == "done", (tmp_path / "worker-b.log").read_text()
    assert stored == job.chunk_count == 6
    # every chunk once, the lost one included
    assert _stored_chunks(database, job) == list(range(job.chunk_count))

    _as_in_process(settings, "metagame", plan, owner, 6, database, job, aggregate)


def _chunks_in_play(database: Path | None):
    """How the test sees which chunks are being played (a lease, the chunk not stored yet)."""
    query = (
        'SELECT "index" FROM rules_simulationchunklease WHERE job_id = %s AND "index" NOT IN '
        '(SELECT "index" FROM rules_simulationchunk WHERE job_id = %s)'
    )

    def from_file(job_id: int) -> list[int]:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=20) as reader:
            rows = reader.execute(query.replace("%s", "?"), (job_id, job_id)).fetchall()
        return [row[0] for row in rows]

    def from_database(job_id: int) -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute(query, [job_id, job_id])
            return [row[0] for row in cursor.fetchall()]

    return from_file if database is not None else from_database


@pytest.mark.redis
@pytest.mark.parametrize("kind", KINDS)
def test_a_killed_workers_chunk_plays_again_without_waiting_for_the_broker(
    worker_app,  # noqa: F811
    owner,
    settings,
    tmp_path,
    kind,
):
    """Worker A is killed (SIGKILL) in the middle of a chunk, and the broker would hold that
    chunk's message for an hour (its visibility timeout). The chunk's lease stops beating, so
    worker B's sweep queues the chunk again at once: the job (a metagame or a matchup) ends
    with every chunk stored once and the games and aggregate of an uninterrupted in-process run
    of the same seed."""
    from rules.lab.jobs import simulation_job_create

    settings.CELERY_BROKER_URL = REDIS_URL
    plan = greedy_plan(kind, owner)
    job = simulation_job_create(
        kind=kind, plan=plan, owner=owner, seed=21, chunk_size=2, dispatch=False
    )
    url, database = _shared_database(tmp_path)
    read, in_play = _job_reader(database), _chunks_in_play(database)
    env = _worker_env(url, tmp_path, **SWEEP_SOON)
    simulation_job_dispatch(job_id=job.pk)  # six tasks in Redis
    first = _worker("sim-a", env, tmp_path / "worker-a.log")
    second = None
    try:
        # A has stored a chunk and is playing the next one (holding its lease)
        _wait_for(read, job.pk, lambda row: row[1] >= 1, "worker A's first chunk", first)
        deadline = time.monotonic() + WORKER_TIMEOUT_SECONDS
        while not in_play(job.pk):
            assert time.monotonic() < deadline, "worker A never started a second chunk"
            assert first.poll() is None, "worker A exited"
            time.sleep(0.02)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(30)
        lost = in_play(job.pk)
        assert lost, "worker A stored its chunk before it was killed"
        assert read(job.pk)[1] < job.chunk_count

        killed_at = time.monotonic()
        second = _worker("sim-b", env, tmp_path / "worker-b.log")
        status, stored, aggregate = _wait_for(
            read, job.pk, lambda row: row[0] != "running", "worker B to end the job", second
        )
        took = time.monotonic() - killed_at
    finally:
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(30)
    assert status == "done", (tmp_path / "worker-b.log").read_text()
    assert took < 120  # not the broker's hour
    assert stored == job.chunk_count
    assert in_play(job.pk) == []  # every lease went with its stored chunk
    # every chunk once, the lost one included
    assert _stored_chunks(database, job) == list(range(job.chunk_count))

    _as_in_process(settings, kind, plan, owner, 6, database, job, aggregate)
