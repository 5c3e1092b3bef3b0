"""Matchup runs played by Celery: the task gives the same games as the page's polls, and a real
worker fed through a real Redis broker plays a run to the end, saving as it goes."""

from __future__ import annotations

import io
import threading

import pytest
from celery import Celery
from celery.signals import task_postrun
from django.core.management import call_command

from cards.models import Game
from rules.models import MatchupRun
from rules.runner import background_wait
from rules.services import matchup_run_advance
from rules.tasks import matchup_run_play
from tests.web.conftest import make_deck, store_matchup_run

# A database number no other part of the project uses, so a test never eats someone's tasks.
REDIS_URL = "redis://127.0.0.1:6379/13"
WORKER_TIMEOUT_SECONDS = 120


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("runner", "runner@example.com", "x-long-pass-42")


def new_run(owner, *, seed: int = 11, games: int = 6) -> MatchupRun:
    """A Rival Realms run of two sample decks, random agents, stored as the matchup page would."""
    a = make_deck(owner, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    b = make_deck(owner, game="rival-realms", sample_name="legal-knights-and-keeps", name="Keeps")
    return store_matchup_run(owner, a, b, games=games, seed=seed)


def play_by_polls(run: MatchupRun) -> MatchupRun:
    """Advance a run one game per chunk, the smallest chunks the runner can play."""
    for _ in range(run.games + 1):
        run = matchup_run_advance(run_id=run.pk, seconds=0.0)
        if run.finished:
            return run
    raise AssertionError("the run did not finish")


@pytest.mark.django_db
def test_the_task_and_the_polls_play_the_same_games(user, settings):
    settings.CELERY_BROKER_URL = ""  # no broker: the background runner plays the run
    polled = play_by_polls(new_run(user))
    tasked = new_run(user)
    assert not tasked.worker
    # the task run in-process (eagerly), as a worker would run it
    assert matchup_run_play.apply(args=[tasked.pk]).get() == "done"
    tasked.refresh_from_db()
    assert polled.status == tasked.status == MatchupRun.Status.DONE
    assert polled.chunks_done == 6  # one game per poll
    assert tasked.results == polled.results
    assert tasked.totals == polled.totals
    assert tasked.totals["games"] == 6


@pytest.mark.django_db
def test_the_task_of_a_deleted_run_ends_quietly(user):
    run = new_run(user)
    pk = run.pk
    run.delete()
    assert matchup_run_play.apply(args=[pk]).get() == "missing"


def _redis_reason() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except (redis.RedisError, OSError) as error:
        return f"Redis is not reachable at {REDIS_URL} ({error}); start redis-server to run it"
    return None


@pytest.fixture
def redis_broker() -> str:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()  # no stale task from an earlier, aborted run
    return REDIS_URL


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


@pytest.fixture
def game_data(transactional_db) -> None:
    """A transactional test starts from whatever the last one left: the game data is put back
    if an earlier one flushed it."""
    if Game.objects.count() < 5:
        call_command("load_game_data", verbosity=0, stdout=io.StringIO())


@pytest.mark.django_db
def test_a_sweep_takes_the_runs_whose_player_stopped_beating(user, settings, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from rules import tasks
    from rules.services import matchup_runs_resume_stale

    settings.SIMULATION_STALE_SECONDS = 60
    settings.CELERY_BROKER_URL = ""  # the runs are stored without a broker ...
    queued: list[int] = []
    monkeypatch.setattr(tasks.matchup_run_play, "delay", queued.append)
    half_played = new_run(user, games=6)  # its process stopped after three games
    for _ in range(3):
        matchup_run_advance(run_id=half_played.pk, seconds=0.0)
    killed, waiting, beating = (new_run(user) for _ in range(3))
    MatchupRun.objects.filter(pk=killed.pk).update(status=MatchupRun.Status.RUNNING)
    MatchupRun.objects.filter(pk__in=(killed.pk, waiting.pk, beating.pk)).update(worker=True)
    MatchupRun.objects.filter(pk=beating.pk).update(status=MatchupRun.Status.RUNNING)
    long_ago = timezone.now() - timedelta(minutes=5)
    MatchupRun.objects.exclude(pk=beating.pk).update(updated_at=long_ago)
    settings.CELERY_BROKER_URL = REDIS_URL  # ... and the sweep may queue the workers' ones

    # the in-process run is finished here; the workers' run a worker had started is queued
    # again; the queued one may be waiting behind others, the beating one is being played
    assert matchup_runs_resume_stale() == [half_played.pk, killed.pk]
    assert queued == [killed.pk]
    half_played.refresh_from_db()
    whole = play_by_polls(new_run(user, games=6))
    assert (half_played.status, half_played.results) == (MatchupRun.Status.DONE, whole.results)
    assert matchup_runs_resume_stale() == []  # claimed: the heartbeats moved on


@pytest.mark.redis
def test_a_worker_plays_the_run_through_a_real_redis_broker(worker_app, game_data, user, settings):
    from celery.contrib.testing.worker import start_worker

    finished = threading.Event()

    def on_task_done(sender=None, **kwargs) -> None:
        if getattr(sender, "name", "") == "rules.matchup_run_play":
            finished.set()

    task_postrun.connect(on_task_done, weak=False)
    settings.CELERY_BROKER_URL = REDIS_URL
    try:
        with start_worker(worker_app, perform_ping_check=False, shutdown_timeout=30):
            # starting the run enqueues it once the row is committed; the worker plays it
            run = new_run(user, games=8)
            assert run.worker
            # wait without touching the database (SQLite's shared in-memory test database
            # locks whole tables while the worker writes)
            assert finished.wait(WORKER_TIMEOUT_SECONDS), "the worker did not finish the run"
    finally:
        task_postrun.disconnect(on_task_done)
    run.refresh_from_db()
    assert run.status == MatchupRun.Status.DONE, run.error
    assert len(run.results) == 8
    assert run.started_at is not None and run.finished_at is not None
    # the same seed played in-process (committed: the background runner plays it) gives the
    # very same games
    settings.CELERY_BROKER_URL = ""
    again = new_run(user, games=8)
    assert background_wait(("matchup", again.pk), timeout=WORKER_TIMEOUT_SECONDS)
    again.refresh_from_db()
    assert again.results == run.results
    assert again.totals == run.totals


@pytest.mark.django_db
def test_a_broker_that_cannot_be_reached_fails_the_run_with_the_reason(
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
            run = new_run(user)
    finally:
        app.close()
        project_app.set_current()
        project_app.set_default()
    run.refresh_from_db()
    assert run.status == MatchupRun.Status.FAILED
    assert "The task queue could not be reached" in run.error
