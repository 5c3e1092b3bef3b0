"""Simulation job pages: the progress bar while a job plays, cancel, a metagame's heat map
(numbers in every cell, colour-blind-safe colours) and field win rates, the downloads; only the
job's owner sees it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.jobs import simulation_chunk_run, simulation_job_play_inline
from rules.models import SimulationJob
from tests.rules.jobs_helpers import faction_decks, metagame_job
from web.charts import heat_colour

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(user):
    return metagame_job(user, faction_decks(user, 3), games=2, chunk_size=2)


def test_a_running_job_shows_its_progress_and_can_be_cancelled(alice, job):
    simulation_chunk_run(job_id=job.pk, chunk=0)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    assert '<progress id="job-progress" max="6" value="2">' in page
    assert "2 of 6 games played (1 of 3 chunks)" in page

    response = alice.post(reverse("simulation-cancel", args=[job.pk]), follow=True)
    assert response.status_code == 200
    assert "Cancelled after 2 of 6 games" in response.content.decode()
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.CANCELLED


def test_a_finished_metagame_shows_a_heat_map_with_a_number_in_every_cell(alice, job):
    simulation_job_play_inline(job_id=job.pk)
    response = alice.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert 'data-testid="progress"' not in page  # nothing left to poll
    svg = re.search(r'<svg[^>]*data-testid="heat-map".*?</svg>', page, re.S).group(0)
    assert len(re.findall(r"<rect ", svg)) == 6  # 3 decks: every cell but the diagonal
    assert "95% interval" in svg  # each cell's tooltip, and the description
    assert "azuma-shogunate against elves-grove" in svg
    assert 'data-testid="field"' in page
    csv_file = alice.get(reverse("simulation-matrix", args=[job.pk, "csv"]))
    assert csv_file["Content-Type"] == "text/csv"
    assert csv_file.content.decode().startswith("deck,")
    assert alice.get(reverse("simulation-matrix", args=[job.pk, "xml"])).status_code == 404


def test_the_heat_scale_runs_orange_white_purple():
    assert heat_colour(0.0) == "#b35806"
    assert heat_colour(0.5) == "#f7f7f7"
    assert heat_colour(1.0) == "#542788"
    assert heat_colour(0.25) != heat_colour(0.75)


def test_another_visitor_gets_a_404(client, other_user, job):
    client.force_login(other_user)
    assert client.get(reverse("simulation-detail", args=[job.pk])).status_code == 404
    assert client.post(reverse("simulation-cancel", args=[job.pk])).status_code == 404
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.QUEUED
