"""In-process jobs whose process stopped: ``manage.py simulation_resume`` finds the jobs whose
heartbeat stopped and finishes them with the aggregate an uninterrupted run gives; jobs still
beating, finished jobs and workers' jobs are left alone."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from rules.lab.jobs import simulation_chunk_run, simulation_job_play_inline
from rules.models import SimulationJob
from tests.counter_stores import redis_emptied, redis_test_url
from tests.rules.jobs_helpers import faction_decks, matchup_job, metagame_job, outcomes

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("resumer", "r@example.com", "x-long-pass-42")


def resume(*args: str) -> str:
    out = io.StringIO()
    call_command("simulation_resume", *args, stdout=out)
    return out.getvalue()


def interrupted(user, decks, played=(0,)) -> SimulationJob:
    """A job whose process stopped an hour ago, after playing the chunks ``played``."""
    job = metagame_job(user, decks, games=4, seed=11, chunk_size=3)
    for chunk in played:
        simulation_chunk_run(job_id=job.pk, chunk=chunk)
    SimulationJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    job.refresh_from_db()
    return job


def test_a_job_left_running_is_finished_with_an_uninterrupted_runs_aggregate(user, settings):
    settings.SIMULATION_STALE_SECONDS = 600
    decks = faction_decks(user, 3)
    job = interrupted(user, decks, played=(0, 2))  # 12 games, 4 chunks
    assert job.status == SimulationJob.Status.RUNNING
    assert job.chunks_done == 2

    printed = resume()

    job.refresh_from_db()
    assert f"resuming job {job.pk}" in printed
    assert f"job {job.pk}: done, 12 of 12 games" in printed
    assert job.status == SimulationJob.Status.DONE
    assert job.chunks_done == job.chunk_count == 4
    whole = simulation_job_play_inline(job_id=metagame_job(user, decks, seed=11, chunk_size=3).pk)
    assert job.aggregate == whole.aggregate
    assert outcomes(job) == outcomes(whole)
    assert "No stale simulation jobs." in resume()  # nothing left to do


def test_a_matchup_left_running_is_finished_with_an_uninterrupted_matchups_games(user, settings):
    settings.SIMULATION_STALE_SECONDS = 600
    decks = faction_decks(user, 2)
    job = matchup_job(user, decks, games=8, seed=11, chunk_size=3)
    simulation_chunk_run(job_id=job.pk, chunk=1)  # its process stopped an hour ago
    SimulationJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(hours=1))

    printed = resume()

    job.refresh_from_db()
    assert f"job {job.pk}: done, 8 of 8 games" in printed
    whole = simulation_job_play_inline(
        job_id=matchup_job(user, decks, games=8, seed=11, chunk_size=8).pk
    )
    assert (job.kind, job.status) == ("matchup", SimulationJob.Status.DONE)
    assert outcomes(job) == outcomes(whole)
    assert job.aggregate == whole.aggregate


def test_jobs_still_beating_finished_or_on_workers_are_left_alone(user, settings):
    settings.SIMULATION_STALE_SECONDS = 600
    decks = faction_decks(user, 2)
    beating = metagame_job(user, decks, games=2)
    simulation_chunk_run(job_id=beating.pk, chunk=0)  # its heartbeat is now
    on_workers = interrupted(user, decks)
    SimulationJob.objects.filter(pk=on_workers.pk).update(worker=True)
    cancelled = interrupted(user, decks)
    SimulationJob.objects.filter(pk=cancelled.pk).update(status=SimulationJob.Status.CANCELLED)

    assert "No stale simulation jobs." in resume()

    for job, status in (
        (on_workers, SimulationJob.Status.RUNNING),
        (cancelled, SimulationJob.Status.CANCELLED),
    ):
        job.refresh_from_db()
        assert job.status == status
        assert job.chunks_done == 1


def test_a_dry_run_lists_the_stale_jobs_and_plays_nothing(user):
    job = interrupted(user, faction_decks(user, 2))

    printed = resume("--dry-run", "--older-than", "60")

    assert f"stale: job {job.pk}" in printed
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.RUNNING
    assert job.chunks_done == 1


def test_a_sweep_finishes_the_stale_jobs_a_stopped_server_left(user, settings):
    from rules.lab.jobs import simulation_jobs_resume_stale

    settings.SIMULATION_STALE_SECONDS = 600
    decks = faction_decks(user, 3)
    job = interrupted(user, decks, played=(1,))
    beating = metagame_job(user, decks[:2], games=2)
    simulation_chunk_run(job_id=beating.pk, chunk=0)  # its heartbeat is now

    assert simulation_jobs_resume_stale() == [job.pk]

    job.refresh_from_db()
    whole = simulation_job_play_inline(job_id=metagame_job(user, decks, seed=11, chunk_size=3).pk)
    assert (job.status, job.aggregate) == (SimulationJob.Status.DONE, whole.aggregate)
    assert simulation_jobs_resume_stale() == []


def test_a_sweep_queues_again_a_chunk_whose_worker_stopped_beating(user, settings, monkeypatch):
    from rules.lab import tasks
    from rules.lab.jobs import simulation_chunks_requeue_lost
    from rules.models import SimulationChunkLease

    settings.SIMULATION_STALE_SECONDS = 60
    decks = faction_decks(user, 2)
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(
        tasks.simulation_chunk_play, "delay", lambda job, chunk: queued.append((job, chunk))
    )
    dead, alive, in_process = (metagame_job(user, decks, games=4, chunk_size=2) for _ in "abc")
    SimulationJob.objects.filter(pk__in=(dead.pk, alive.pk)).update(worker=True)
    long_ago = timezone.now() - timedelta(minutes=5)
    for job, beat in ((dead, long_ago), (alive, timezone.now()), (in_process, long_ago)):
        SimulationChunkLease.objects.create(job=job, index=1, games_played=1, beat_at=beat)

    assert simulation_chunks_requeue_lost() == [(dead.pk, 1)]
    assert queued == [(dead.pk, 1)]
    # the claim moved the lease's heartbeat: the next sweep leaves the chunk to its new worker
    assert simulation_chunks_requeue_lost() == []
    assert queued == [(dead.pk, 1)]


@pytest.mark.django_db(transaction=True)
def test_the_server_resumes_stale_jobs_as_it_starts(
    django_user_model,
    settings,
    monkeypatch,
    transactional_db,
):
    import importlib
    import sys

    from rules.lab import jobs

    started = []
    monkeypatch.setattr(jobs, "simulation_resumer_start", lambda **kw: started.append(kw))
    for entry in ("deckwright.wsgi", "deckwright.asgi"):  # what the servers load to serve
        monkeypatch.delitem(sys.modules, entry, raising=False)
        importlib.import_module(entry)
    assert started == [{}, {}]

    monkeypatch.undo()
    owner = django_user_model.objects.create_user("boot", "b@example.com", "x-long-pass-42")
    settings.SIMULATION_STALE_SECONDS = 600
    job = interrupted(owner, faction_decks(owner, 2), played=())
    thread = jobs.simulation_resumer_start(interval=3600)
    try:
        assert thread is not None and jobs.simulation_resumer_start(interval=3600) is thread
        # the first sweep runs at once (a sweep SQLite refuses, its table locked by this
        # thread's reads, is tried again after SWEEP_RETRY_SECONDS)
        for _ in range(600):
            job.refresh_from_db()
            if job.status == SimulationJob.Status.DONE:
                break
            thread.join(0.05)
    finally:
        jobs.simulation_resumer_stop(timeout=30)
    assert job.status == SimulationJob.Status.DONE
    assert job.games_done == job.games_total == 4
    assert jobs.simulation_resumer_start(interval=0) is None  # SIMULATION_RESUME_INTERVAL=0


def test_with_a_broker_a_stale_workers_job_has_its_missing_chunks_queued_again(user, settings):
    settings.SIMULATION_STALE_SECONDS = 600
    decks = faction_decks(user, 3)
    job = interrupted(user, decks, played=(0, 3))
    SimulationJob.objects.filter(pk=job.pk).update(worker=True)
    assert "No stale simulation jobs." in resume()  # no broker here: the workers' own
    settings.CELERY_BROKER_URL = redis_test_url(
        "simulation_resume"
    )  # tasks run eagerly in the tests

    printed = resume()

    assert f"re-queued job {job.pk}" in printed and "chunks 1, 2" in printed
    job.refresh_from_db()
    whole = simulation_job_play_inline(job_id=metagame_job(user, decks, seed=11, chunk_size=3).pk)
    assert (job.status, job.aggregate) == (SimulationJob.Status.DONE, whole.aggregate)
    assert "No stale simulation jobs." in resume()


def test_a_sweep_the_database_refuses_is_tried_again_long_before_the_next_interval(
    monkeypatch, settings
):
    """A refused sweep (SQLite's table locked, a dropped connection) does not leave stale jobs
    waiting a whole interval: the resumer tries again after ``SWEEP_RETRY_SECONDS`` (doubled
    while the refusals go on), and waits the interval again once a sweep gets through."""
    from django.db import OperationalError

    from rules.lab import jobs

    calls: list[int] = []
    through = threading.Event()

    def sweep() -> int:
        calls.append(len(calls))
        if len(calls) <= 3:
            raise OperationalError("database table is locked: rules_simulationjob")
        through.set()
        return 0

    settings.CELERY_BROKER_URL = ""
    monkeypatch.setattr(jobs, "SWEEP_RETRY_SECONDS", 0.01)
    monkeypatch.setattr(jobs, "simulation_jobs_resume_stale", sweep)
    thread = jobs.simulation_resumer_start(interval=3600)
    try:
        # three refusals, then a sweep that got through: all long before the hour
        assert through.wait(60), f"only {len(calls)} sweeps"
        thread.join(0.5)  # had it kept retrying, 0.01 s waits would add sweeps here
        assert len(calls) == 4
    finally:
        jobs.simulation_resumer_stop(timeout=30)


@pytest.fixture
def broker(settings) -> Iterator[str]:
    """This file's own Redis database as the broker (emptied), skipped where Redis is absent;
    the tests' tasks still run eagerly, in the test's process."""
    import redis

    url = redis_emptied("simulation_resume")
    settings.CELERY_BROKER_URL = url
    yield url
    redis.Redis.from_url(url).flushdb()


def test_the_broker_tells_how_many_chunks_wait_in_its_queue(broker, settings):
    import redis

    from rules.lab.jobs import simulation_broker_waiting

    assert simulation_broker_waiting() == 0  # Redis holds no list for an empty queue
    redis.Redis.from_url(broker).lpush("celery", "a", "b", "c")  # the default queue's list
    assert simulation_broker_waiting() == 3
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    assert simulation_broker_waiting() is None


def test_the_broker_tells_how_many_chunks_wait_in_a_rabbitmq_queue(settings):
    """The same count from RabbitMQ (``amqp://``), skipped where it is absent: a queue not
    declared yet waits for nothing, a declared one counts its ready messages."""
    from uuid import uuid4

    from celery import current_app
    from kombu import Connection, Exchange, Producer, Queue

    from rules.lab.jobs import simulation_broker_waiting

    url = "amqp://guest:guest@127.0.0.1:5672//"
    try:
        with Connection(url, connect_timeout=2) as connection:
            connection.ensure_connection(max_retries=1)
    except Exception as error:
        pytest.skip(f"RabbitMQ is not reachable at {url} ({error}); start rabbitmq-server")
    name = f"deckwright-test-{uuid4().hex}"  # no other run's queue
    settings.CELERY_BROKER_URL = url
    default = current_app.conf.task_default_queue
    current_app.conf.task_default_queue = name
    current_app.amqp.__dict__.pop("router", None)  # the router reads the default queue once
    queue = Queue(name, Exchange(name), routing_key=name, auto_delete=False)
    try:
        assert simulation_broker_waiting() == 0  # not declared
        # with publisher confirms, each publish returns once the broker has queued it (without,
        # the count asked for at once could miss the last one: CI saw 1 of 2)
        with Connection(url, transport_options={"confirm_publish": True}) as connection:
            producer = Producer(connection.default_channel)
            for chunk in range(2):
                producer.publish({"chunk": chunk}, exchange=queue.exchange, routing_key=name,
                                 declare=[queue])  # fmt: skip
        assert simulation_broker_waiting() == 2
    finally:
        current_app.conf.task_default_queue = default
        current_app.amqp.__dict__.pop("router", None)
        with Connection(url) as connection:
            queue(connection.default_channel).delete()
            queue.exchange(connection.default_channel).delete()


def stalled(user, decks, *, beat_ago: timedelta) -> SimulationJob:
    """A workers' job that played its first chunk and then stopped beating ``beat_ago`` ago, its
    other chunks' messages gone from the broker (lost with a worker killed as it took one)."""
    job = interrupted(user, decks, played=(0,))
    SimulationJob.objects.filter(pk=job.pk).update(
        worker=True, updated_at=timezone.now() - beat_ago
    )
    job.refresh_from_db()
    return job


def test_a_sweep_queues_a_stalled_workers_job_again_once_the_queue_is_empty(user, settings, broker):
    """Redis's transport loses a chunk whose worker is killed after taking it off the queue and
    before recording it as unacknowledged: no restore brings it back and no lease names it. The
    sweep queues the missing chunks of such a job once the queue is empty (not before: the job
    may be waiting its turn), and the job ends with an uninterrupted run's aggregate."""
    import redis

    from rules.lab.jobs import simulation_jobs_requeue_stalled
    from rules.models import SimulationChunkLease

    settings.SIMULATION_STALE_SECONDS = 60
    decks = faction_decks(user, 3)
    lost = stalled(user, decks, beat_ago=timedelta(minutes=5))
    beating = stalled(user, decks, beat_ago=timedelta(seconds=5))
    playing = stalled(user, decks, beat_ago=timedelta(minutes=5))  # a chunk beats, a long game
    SimulationChunkLease.objects.create(
        job=playing, index=1, games_played=1, beat_at=timezone.now()
    )
    queue = redis.Redis.from_url(broker)
    queue.lpush("celery", "another job's chunk")

    assert simulation_jobs_requeue_stalled() == []  # the job may be behind that message
    queue.delete("celery")
    assert simulation_jobs_requeue_stalled() == [lost.pk]

    whole = simulation_job_play_inline(job_id=metagame_job(user, decks, seed=11, chunk_size=3).pk)
    for job in (lost, beating, playing):
        job.refresh_from_db()
    assert (lost.status, lost.aggregate) == (SimulationJob.Status.DONE, whole.aggregate)
    assert [(job.status, job.chunks_done) for job in (beating, playing)] == [
        (SimulationJob.Status.RUNNING, 1)
    ] * 2
    assert simulation_jobs_requeue_stalled() == []  # done; the others still beat


def test_a_sweep_queues_nothing_when_the_broker_does_not_answer(user, settings):
    from rules.lab.jobs import simulation_jobs_requeue_stalled

    settings.SIMULATION_STALE_SECONDS = 60
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    job = stalled(user, faction_decks(user, 2), beat_ago=timedelta(minutes=5))

    assert simulation_jobs_requeue_stalled() == []
    job.refresh_from_db()
    assert (job.status, job.chunks_done) == (SimulationJob.Status.RUNNING, 1)
    assert job.updated_at < timezone.now() - timedelta(minutes=4)  # not claimed either
