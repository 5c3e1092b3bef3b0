"""The process's one background runner (no broker): a job (a matchup as much as a metagame)
handed to it any number of times, from any number of threads, plays its games once, one item
after another."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connections

from rules import services
from rules.lab import jobs
from rules.lab.jobs import simulation_job_background, simulation_job_create, simulation_job_dispatch
from rules.lab.plans import metagame_plan
from rules.lab.runner import background_wait
from rules.models import SimulationChunk, SimulationJob
from tests.rules.jobs_helpers import faction_decks
from tests.rules.test_matchup_tasks import new_matchup
from tests.sqlite_reads import readers_not_blocked

pytestmark = pytest.mark.django_db(transaction=True)

HANDOVERS = 20


@pytest.fixture
def owner(django_user_model, transactional_db):
    return django_user_model.objects.create_user("bg", "bg@example.com", "x-long-pass-42")


@pytest.fixture
def played(monkeypatch) -> list[int]:
    """Every game played from now on, in any thread, counted."""
    count = [0]
    lock = threading.Lock()
    real = services.play_game

    def counted(*args, **kwargs):
        with lock:
            count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs, "play_game", counted)
    monkeypatch.setattr(services, "play_game", counted)
    return count


def from_many_threads(hand_over) -> None:
    """``hand_over`` from 20 threads at once. A hand-over reads the job while the runner's
    thread writes it: on the in-memory SQLite test database a writer locks the table against
    other connections' reads ("database table is locked", which once failed this test), so
    those reads go without table locks, as a database file in WAL mode would let them."""
    errors: list[BaseException] = []

    def each() -> None:
        try:
            hand_over()
        except BaseException as error:  # a thread's exception would only be a warning
            errors.append(error)
        finally:
            connections.close_all()  # this thread's connection: nothing else closes it

    with readers_not_blocked():
        threads = [threading.Thread(target=each) for _ in range(HANDOVERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []


def test_a_job_handed_over_twenty_times_plays_its_games_once(owner, settings, played):
    settings.CELERY_BROKER_URL = ""
    plan = metagame_plan(decks=faction_decks(owner, 2), agent="random", games_per_pairing=8)
    job = simulation_job_create(
        kind="metagame", plan=plan, owner=owner, seed=5, chunk_size=3, dispatch=False
    )

    from_many_threads(lambda: simulation_job_background(job_id=job.pk))

    assert background_wait(("job", job.pk), timeout=120)
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE, job.error
    assert played == [8]
    simulation_job_dispatch(job_id=job.pk)  # once more, after the end: nothing to play
    assert background_wait(("job", job.pk), timeout=120)
    assert played == [8]


def test_a_matchup_handed_over_twenty_times_plays_its_games_once(owner, settings, played):
    settings.CELERY_BROKER_URL = ""
    job = new_matchup(owner, games=6, chunk_size=2, dispatch=False)

    from_many_threads(lambda: simulation_job_dispatch(job_id=job.pk))

    assert background_wait(("job", job.pk), timeout=120)
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE, job.error
    assert job.games_done == 6
    assert played == [6]


def test_a_chunk_the_database_refuses_to_store_for_a_while_is_not_played_again(
    owner, settings, played, monkeypatch
):
    """SQLite answers "database is locked" while another writer holds it: the chunk's games,
    played already, are stored by the next try, not played again."""
    settings.CELERY_BROKER_URL = ""
    job = new_matchup(owner, games=6, chunk_size=2, dispatch=False)
    real = SimulationChunk.objects.create
    refusals = [2]  # the first chunk's store is refused twice

    def refused_for_a_while(**fields):
        if refusals[0]:
            refusals[0] -= 1
            raise OperationalError("database is locked")
        return real(**fields)

    monkeypatch.setattr(SimulationChunk.objects, "create", refused_for_a_while)

    finished = jobs.simulation_job_play_inline(job_id=job.pk)

    assert refusals == [0]
    assert finished.status == SimulationJob.Status.DONE, finished.error
    assert (finished.games_done, finished.chunks_done) == (6, 3)
    assert played == [6]
