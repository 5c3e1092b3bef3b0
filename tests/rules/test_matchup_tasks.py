"""Matchup jobs played by Celery: a real worker fed through a real Redis broker plays a matchup's
chunks to the games an in-process run of the same seed plays, however the games are cut into
chunks; a broker that cannot be reached fails the matchup, saying so. The broker fixtures here
serve every worker test."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from celery import Celery
from celery.signals import task_postrun

from rules.lab.jobs import simulation_job_dispatch, simulation_job_play_inline
from rules.lab.tasks import simulation_chunk_play
from rules.models import SimulationJob
from tests.counter_stores import redis_emptied, redis_test_url
from tests.rules.jobs_helpers import outcomes
from tests.web.conftest import make_deck, store_matchup_job

# This file's own Redis database (tests/counter_stores.py), so a test never eats anyone else's tasks.
REDIS_URL = redis_test_url("matchup_tasks")
WORKER_TIMEOUT_SECONDS = 120


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("runner", "runner@example.com", "x-long-pass-42")


def new_matchup(owner, *, seed: int = 11, games: int = 6, **create) -> SimulationJob:
    """A Rival Realms matchup job of two sample decks, random agents, stored as the matchup page
    stores it (``create``: ``chunk_size``, ``dispatch``)."""
    a = make_deck(owner, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    b = make_deck(owner, game="rival-realms", sample_name="legal-knights-and-keeps", name="Keeps")
    return store_matchup_job(owner, a, b, games=games, seed=seed, **create)


@pytest.mark.django_db
def test_a_matchup_plays_the_same_games_however_its_games_are_chunked(user, settings):
    settings.CELERY_BROKER_URL = ""
    by_one = simulation_job_play_inline(job_id=new_matchup(user, chunk_size=1, dispatch=False).pk)
    whole = new_matchup(user, chunk_size=6, dispatch=False)
    # each chunk as a worker runs its task (eagerly here)
    assert simulation_chunk_play.apply(args=[whole.pk, 0]).get() == "stored"
    whole.refresh_from_db()
    assert by_one.status == whole.status == SimulationJob.Status.DONE
    assert (by_one.chunk_count, whole.chunk_count) == (6, 1)
    assert outcomes(by_one) == outcomes(whole)
    assert by_one.aggregate == whole.aggregate
    assert whole.aggregate["pairings"][0]["games"] == 6


@pytest.mark.django_db
def test_the_task_of_a_deleted_matchup_ends_quietly(user):
    job = new_matchup(user, dispatch=False)
    pk = job.pk
    job.delete()
    assert simulation_chunk_play.apply(args=[pk, 0]).get() == "missing"


@pytest.fixture
def redis_broker() -> str:
    """This file's Redis database as the broker, emptied (skipped where Redis is absent)."""
    return redis_emptied("matchup_tasks")


@pytest.fixture
def worker_app(redis_broker):
    """A Celery app on the real Redis broker, current while the test runs (what a deployment
    with CELERY_BROKER_URL set gets); the project's own app is current again afterwards."""
    from deckwright.celery import app as project_app

    app = Celery("deckwright-test", set_as_current=True)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url=redis_broker,
        result_backend=None,
        task_always_eager=False,
        broker_connection_retry_on_startup=False,
    )
    yield app
    app.close()
    project_app.set_current()
    project_app.set_default()


@pytest.mark.redis
def test_a_worker_plays_a_matchup_through_a_real_redis_broker(
    worker_app, transactional_db, user, settings
):
    from celery.contrib.testing.worker import start_worker

    chunks_played: list[Any] = []
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
            # 8 games in chunks of 3: chunks of 3, 3 and 2 games, queued as the page queues them
            job = new_matchup(user, games=8, chunk_size=3, dispatch=False)
            assert job.worker and job.chunk_count == 3
            simulation_job_dispatch(job_id=job.pk)
            # wait without touching the database (SQLite's shared in-memory test database
            # locks whole tables while the worker writes)
            assert all_played.wait(WORKER_TIMEOUT_SECONDS), "the worker did not play 3 chunks"
    finally:
        task_postrun.disconnect(on_task_done)
    assert sorted(chunks_played) == ["stored"] * 3
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE, job.error
    assert job.games_done == 8
    assert job.started_at is not None and job.finished_at is not None
    # the same seed played in-process, in one chunk, gives the very same games
    settings.CELERY_BROKER_URL = ""
    again = simulation_job_play_inline(
        job_id=new_matchup(user, games=8, chunk_size=8, dispatch=False).pk
    )
    assert outcomes(again) == outcomes(job)
    assert again.aggregate == job.aggregate


@pytest.mark.django_db
def test_a_broker_that_cannot_be_reached_fails_the_matchup_with_the_reason(
    user, settings, django_capture_on_commit_callbacks
):
    from deckwright.celery import app as project_app

    # nothing listens on this port, and publishing is not retried
    app = Celery("deckwright-unreachable", set_as_current=True)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url="redis://127.0.0.1:1/0", task_always_eager=False, task_publish_retry=False
    )
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    try:
        with django_capture_on_commit_callbacks(execute=True):
            job = new_matchup(user)
    finally:
        app.close()
        project_app.set_current()
        project_app.set_default()
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.FAILED
    assert "The task queue could not be reached" in job.error
