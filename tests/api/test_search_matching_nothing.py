"""A card search that can match nothing (a name test of punctuation only) is an empty page.

``name_contains_q`` turns such a test into an empty ``pk__in``, which Django refuses to write as
SQL (``EmptyResultSet``) when the paging code writes its own (``cards.search.paging``). The
sweep that found it ran on PostgreSQL, where the page also asks the planner for an estimate.
The PostgreSQL test needs ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your db>`` and skips
on SQLite, where ``test_search_matching_nothing_sqlite`` runs the same searches.
"""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

NOTHING = ["n:-", "name:...", "n:- AND t:attack", "n:'-'"]


@pytest.fixture
def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "the PostgreSQL run of these searches: run with "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your db>"
        )


def _assert_empty_everywhere(api_client, client, query: str) -> None:
    response = api_client.get("/api/v1/cards/", {"q": query})
    assert response.status_code == 200, response.content
    assert response.json()["count"] == 0 and response.json()["results"] == []
    for path in ("/cards/", "/games/mini/"):
        page = client.get(path, {"q": query})
        assert page.status_code == 200, (path, page.status_code)


@pytest.mark.parametrize("query", NOTHING)
def test_search_matching_nothing_postgresql(postgresql_only, api_client, client, mini_game, query):
    _assert_empty_everywhere(api_client, client, query)


@pytest.mark.parametrize("query", NOTHING)
def test_search_matching_nothing_sqlite(api_client, client, mini_game, query):
    if connection.vendor == "postgresql":
        pytest.skip("the PostgreSQL run is the test above")
    _assert_empty_everywhere(api_client, client, query)


def test_negated_search_matching_nothing_is_every_card(api_client, mini_game):
    every = api_client.get("/api/v1/cards/").json()["count"]
    response = api_client.get("/api/v1/cards/", {"q": "-n:-"})
    assert response.status_code == 200, response.content
    assert response.json()["count"] == every


def test_page_two_of_a_search_matching_nothing_is_a_404(api_client, mini_game):
    response = api_client.get("/api/v1/cards/", {"q": "n:-", "page": "2"})
    assert response.status_code == 404
