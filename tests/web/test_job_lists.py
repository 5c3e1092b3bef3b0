"""Lists of simulation jobs (the simulation and matchup forms' recent jobs, the API's list) read
what a list shows, never a job's results (``aggregate``: every deck's card figures), the
doctor's plan or its pairings' setups: a 16-deck metagame holds about 490 KB of them, decoded
again for every job listed. The number of pairings the API lists is counted by the database.

Each list is rendered whole and its queries read: a column selected shows in their SQL, and a
template or serializer that read a field left out would add a query a job."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from rules.lab.jobs import simulation_job_play_inline
from rules.lab.selectors import simulation_jobs_listed
from tests.rules.jobs_helpers import faction_decks, matchup_job, metagame_job

pytestmark = pytest.mark.django_db

#: a column of the job's row that no list reads (the pairings' count is not a read of them)
UNREAD = re.compile(r'"rules_simulationjob"\."(aggregate|doctor|pairings)"')
COUNTED = re.compile(r'JSONB?_ARRAY_LENGTH\("rules_simulationjob"\."pairings"\)', re.IGNORECASE)


def _unread_columns_read(queries: CaptureQueriesContext) -> list[str]:
    return [
        found.group(1)
        for query in queries.captured_queries
        for found in UNREAD.finditer(COUNTED.sub("", query["sql"]))
    ]


def _jobs(user, metagames: int) -> list:
    """A finished matchup and ``metagames`` finished three-deck metagames of ``user``."""
    decks = faction_decks(user, 3)
    jobs = [matchup_job(user, decks[:2], games=2, seed=3, chunk_size=2)]
    jobs += [metagame_job(user, decks, games=2, seed=seed) for seed in range(metagames)]
    return [simulation_job_play_inline(job_id=job.pk) for job in jobs]


@pytest.mark.parametrize("page", ["simulation-new", "matchup-new"])
def test_the_forms_recent_jobs_leave_the_results_unread(client, user, page):
    jobs = _jobs(user, 1)
    assert all(job.status == "done" and job.aggregate for job in jobs)
    client.force_login(user)
    with CaptureQueriesContext(connection) as few:
        response = client.get(reverse(page))
    assert response.status_code == 200
    assert _unread_columns_read(few) == []
    shown = "recent-jobs" if page == "simulation-new" else "recent-runs"
    assert f'data-testid="{shown}"' in response.content.decode()

    _jobs(user, 3)  # more jobs listed, no more queries
    with CaptureQueriesContext(connection) as more:
        assert client.get(reverse(page)).status_code == 200
    assert len(more) == len(few)
    assert _unread_columns_read(more) == []


def test_the_apis_job_list_counts_the_pairings_in_the_database(user):
    jobs = _jobs(user, 2)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/simulations/")
    assert response.status_code == 200
    assert _unread_columns_read(queries) == []
    listed = {row["id"]: row["pairings"] for row in response.json()["results"]}
    assert listed == {job.pk: len(job.pairings) for job in jobs}
    assert sorted(set(listed.values())) == [1, 3]  # the matchup's one, the metagames' three
    # one job's own reply reads it whole, with the same count
    job = jobs[-1]
    assert client.get(f"/api/v1/simulations/{job.pk}/").json()["pairings"] == 3


def test_a_listed_job_still_reads_its_results_when_asked(user):
    """Left in the database, not lost: a listed job's results are read (one query), whole."""
    job = _jobs(user, 1)[-1]
    listed = simulation_jobs_listed(user, None).get(pk=job.pk)
    assert {"aggregate", "doctor", "pairings"} <= listed.get_deferred_fields()
    with CaptureQueriesContext(connection) as queries:
        assert listed.aggregate == job.aggregate
    assert len(queries) == 1
