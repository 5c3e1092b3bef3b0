"""What polling costs and what it shows: a job's page rises game by game while a chunk plays,
and any number of clients polling or reloading a running job (a gauntlet, a matchup started on
the matchup form) plays no game (the games are counted where every one of them is played,
``play_game``)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules import services
from rules.lab import jobs
from rules.lab.jobs import simulation_chunk_run, simulation_job_create, simulation_job_play_inline
from rules.lab.plans import gauntlet_plan
from rules.models import SimulationJob
from tests.rules.jobs_helpers import faction_decks
from tests.web.test_matchup_runs import run_id, start, two_decks

pytestmark = pytest.mark.django_db

CLIENTS = 20


def gauntlet_of_twelve(owner) -> SimulationJob:
    """A 12-game gauntlet (a deck against two, 6 games each) in one chunk of 12 games, stored
    and not dispatched: the test plays its chunk where it can watch."""
    decks = faction_decks(owner, 3)
    plan = gauntlet_plan(decks=decks, agent="random", games_per_pairing=6)
    return simulation_job_create(
        kind=SimulationJob.Kind.GAUNTLET,
        plan=plan,
        owner=owner,
        seed=3,
        chunk_size=12,
        dispatch=False,
    )


def count_games(monkeypatch, after_each=None) -> list[int]:
    """Count every game played from now on (by any job), calling
    ``after_each`` once each game is over; the list holds the count."""
    played = [0]
    real = services.play_game

    def counted(*args, **kwargs):
        report = real(*args, **kwargs)
        played[0] += 1
        if after_each is not None:
            after_each()
        return report

    monkeypatch.setattr(jobs, "play_game", counted)
    monkeypatch.setattr(services, "play_game", counted)
    return played


def clients_of(user) -> list[Client]:
    clients = []
    for _ in range(CLIENTS):
        client = Client()
        client.force_login(user)
        clients.append(client)
    return clients


def games_shown(client: Client, job: SimulationJob) -> int:
    """The number the job's progress bar shows, as htmx polls it."""
    page = client.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    found = re.search(r'<progress id="job-progress" max="12" value="(\d+)">', page.content.decode())
    assert found, "no progress bar"
    return int(found.group(1))


def test_progress_rises_game_by_game_while_a_chunk_plays(alice, user, settings, monkeypatch):
    settings.SIMULATION_PROGRESS_MS = 0  # every game's progress is written
    job = gauntlet_of_twelve(user)
    assert games_shown(alice, job) == 0
    shown: list[int] = []
    api: list[int] = []

    def poll() -> None:
        shown.append(games_shown(alice, job))
        api.append(alice.get(f"/api/v1/simulations/{job.pk}/").json()["games_played"])

    count_games(monkeypatch, after_each=poll)

    assert simulation_chunk_run(job_id=job.pk, chunk=0) == "stored"

    # a poll after each game: the games before it (the game just over is written next)
    assert shown == api == list(range(12))
    done = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    assert 'data-testid="progress"' not in done  # finished: nothing left to poll
    job.refresh_from_db()
    assert (job.status, job.games_done) == (SimulationJob.Status.DONE, 12)


def test_a_rare_progress_write_still_counts_the_first_game(alice, user, settings, monkeypatch):
    settings.SIMULATION_PROGRESS_MS = 60_000  # one write a minute: only the first game's
    job = gauntlet_of_twelve(user)
    shown: list[int] = []
    count_games(monkeypatch, after_each=lambda: shown.append(games_shown(alice, job)))
    simulation_chunk_run(job_id=job.pk, chunk=0)
    assert shown == [0] + [1] * 11


def test_twenty_clients_polling_a_running_job_play_no_game(user, settings, monkeypatch):
    settings.SIMULATION_PROGRESS_MS = 0
    job = gauntlet_of_twelve(user)
    clients = clients_of(user)

    def everyone_polls() -> None:
        for client in clients:
            client.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
            client.get(reverse("simulation-detail", args=[job.pk]))

    played = count_games(monkeypatch, after_each=everyone_polls)
    everyone_polls()  # before the job starts: no game
    assert played == [0]
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.QUEUED

    simulation_chunk_run(job_id=job.pk, chunk=0)  # 20 clients poll twice after every game

    assert played == [12]  # the job's games and not one more
    everyone_polls()
    assert played == [12]
    job.refresh_from_db()
    assert (job.status, job.games_done) == (SimulationJob.Status.DONE, 12)


def test_twenty_clients_polling_a_running_matchup_play_no_game(alice, user, settings, monkeypatch):
    settings.CELERY_BROKER_URL = ""  # no broker: the process's background runner plays it
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=6))  # the matchup form's job, as a visitor starts it
    clients = clients_of(user)

    def everyone_polls() -> None:
        for client in clients:
            client.get(reverse("simulation-progress", args=[pk]), HTTP_HX_REQUEST="true")
            client.get(reverse("simulation-detail", args=[pk]))
            client.get(f"/matchups/{pk}/")  # an old link (no run had this id: a 404)

    played = count_games(monkeypatch, after_each=everyone_polls)
    everyone_polls()
    assert played == [0]
    assert SimulationJob.objects.get(pk=pk).games_done == 0
    page = alice.get(reverse("simulation-progress", args=[pk]), HTTP_HX_REQUEST="true")
    assert b"Waiting for the first game to start" in page.content

    simulation_job_play_inline(job_id=pk)  # the runner's work; 20 clients poll after every game

    assert played == [6]
    everyone_polls()
    assert played == [6]
    job = SimulationJob.objects.get(pk=pk)
    assert (job.kind, job.status, job.games_done) == ("matchup", SimulationJob.Status.DONE, 6)
