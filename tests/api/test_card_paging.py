"""Card lists at scale: no full count past CARD_COUNT_EXACT_UP_TO, the same pages either way.

A tiny threshold stands in for a big catalogue: the counts become estimates (said by the
``Count-Estimated`` header), while the cards, their order and the next/previous links stay those
of an exact count.
"""

from __future__ import annotations

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.filters import ORDERINGS, ordering
from cards.search import card_search
from cards.search.paging import PageNotFound, card_page
from cards.vocabulary import vocabularies
from tests.conftest import GENERATED_GAME

pytestmark = pytest.mark.django_db

GAME = GENERATED_GAME


def every_page(api_client, params: dict[str, str]) -> tuple[list[int], list[dict]]:
    """Ids of every card on every page, following ``next``; and each page's body."""
    ids, bodies = [], []
    response = api_client.get("/api/v1/cards/", params)
    while True:
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        bodies.append(body | {"estimated": response.get("Count-Estimated") == "true"})
        ids += [card["id"] for card in body["results"]]
        if body["next"] is None:
            return ids, bodies
        response = api_client.get(body["next"])


ORDERS = [
    {},
    {"order": "name", "dir": "desc"},
    {"order": "cost", "dir": "desc"},
    {"order": "attack"},
    {"order": "rarity"},
    {"order": "set", "dir": "desc"},
]
QUERIES = ["", "opponent", "-o:draw", "t:attack", "ip<=2 -t:pillar", "lp"]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("query", QUERIES)
def test_pages_are_the_same_whether_the_count_is_exact_or_estimated(
    api_client, generated_cards, order, query
):
    params = {"game": GAME, "page_size": "7", **order} | ({"q": query} if query else {})
    with override_settings(CARD_COUNT_EXACT_UP_TO=10_000):
        exact_ids, exact_pages = every_page(api_client, params)
    for threshold in (0, 3, 20):
        with override_settings(CARD_COUNT_EXACT_UP_TO=threshold):
            ids, _pages = every_page(api_client, params)
        assert ids == exact_ids, threshold
    assert all(not page["estimated"] for page in exact_pages)
    assert exact_pages[0]["count"] == len(exact_ids) == len(set(exact_ids))


def test_past_the_threshold_the_count_is_an_estimate_and_says_so(api_client, generated_cards):
    with override_settings(CARD_COUNT_EXACT_UP_TO=10):
        response = api_client.get("/api/v1/cards/", {"game": GAME, "page_size": "5"})
    body = response.json()
    assert response["Count-Estimated"] == "true"
    assert body["count"] > 10  # "more than the threshold", whatever the estimate
    assert len(body["results"]) == 5 and "page=2" in body["next"]


def test_the_last_page_knows_the_exact_count_even_past_the_threshold(api_client, generated_cards):
    with override_settings(CARD_COUNT_EXACT_UP_TO=10):
        response = api_client.get("/api/v1/cards/", {"game": GAME, "page_size": "25", "page": 3})
    assert response.status_code == 200
    assert response.json()["count"] == 60 and response.json()["next"] is None
    assert "Count-Estimated" not in response


def test_up_to_the_threshold_the_count_is_exact(api_client, generated_cards):
    with override_settings(CARD_COUNT_EXACT_UP_TO=60):
        response = api_client.get("/api/v1/cards/", {"game": GAME, "page_size": "5"})
    assert response.json()["count"] == 60
    assert "Count-Estimated" not in response


@pytest.mark.parametrize("threshold", [0, 10, 1000])
def test_a_page_past_the_last_is_a_404_either_way(api_client, generated_cards, threshold):
    with override_settings(CARD_COUNT_EXACT_UP_TO=threshold):
        response = api_client.get("/api/v1/cards/", {"game": GAME, "page": "9"})
        assert response.status_code == 404
        assert response.json()["code"] == "not-found"
        for page in ("x", "0", "-1", str(10**30)):
            response = api_client.get("/api/v1/cards/", {"game": GAME, "page": page})
            assert response.status_code == 404, page


@pytest.mark.parametrize("threshold", [0, 10, 1000])
def test_list_queries_stay_bounded_past_the_threshold(
    api_client, generated_cards, django_assert_max_num_queries, threshold
):
    # the planner's estimate (PostgreSQL); the page's ids in one statement, either side of the
    # threshold; the page's rows by those ids (subtypes in them); the game comes from memory
    vocabularies()
    with override_settings(CARD_COUNT_EXACT_UP_TO=threshold), django_assert_max_num_queries(3):
        response = api_client.get("/api/v1/cards/", {"game": GAME, "page_size": "50"})
    assert response.status_code == 200 and len(response.json()["results"]) == 50


def test_list_etag_still_answers_304(api_client, generated_cards):
    with override_settings(CARD_COUNT_EXACT_UP_TO=5):
        first = api_client.get("/api/v1/cards/", {"game": GAME, "q": "opponent"})
        again = api_client.get(
            "/api/v1/cards/", {"game": GAME, "q": "opponent"}, HTTP_IF_NONE_MATCH=first["ETag"]
        )
    assert again.status_code == 304 and again.content == b""


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    order=st.sampled_from(sorted(ORDERINGS)),
    direction=st.sampled_from(["asc", "desc"]),
    query=st.sampled_from(QUERIES),
    per_page=st.integers(min_value=1, max_value=25),
    number=st.integers(min_value=1, max_value=8),
    threshold=st.sampled_from([0, 5, 30, 10_000]),
)
def test_any_page_is_that_slice_of_the_sorted_matches(
    generated_cards, order, direction, query, per_page, number, threshold
):
    # given any sort, a query, a page size and a threshold (exact counts, estimates, or the
    # matches sorted by the database from the capped ids)
    matches = card_search(query, GAME)
    keys = ordering(order, direction)
    everything = list(matches.order_by(*keys).values_list("pk", flat=True))
    offset = (number - 1) * per_page
    # when the page is asked for
    try:
        page = card_page(matches, keys, number, per_page, exact_limit=threshold)
    except PageNotFound:
        # then only a page past the last match is missing (page 1 never is)
        assert number > 1 and offset >= len(everything)
        return
    # then it holds exactly that slice of every match in order, and knows whether more follow
    assert [card.pk for card in page.object_list] == everything[offset : offset + per_page]
    assert page.has_next == (offset + per_page < len(everything))
    if page.count_exact:
        assert page.count == len(everything)
    else:
        assert page.count > threshold
