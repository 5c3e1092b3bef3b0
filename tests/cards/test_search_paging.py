"""``card_page`` finds a page in one statement, whichever side of the threshold the matches fall.

A small ``CARD_COUNT_EXACT_UP_TO`` over the sixty generated cards stands in for a catalogue just
past the threshold: the page statement counts the capped matches and then runs one branch only
(the page cut from the capped matches, or the ordered query's page). The pages must be those of
the plain ordered queryset, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.filters import ordering
from cards.models import Card
from cards.search.paging import PageNotFound, card_page
from tests.conftest import GENERATED_GAME

pytestmark = pytest.mark.django_db

CARDS = 60  # the generated_cards fixture
PER_PAGE = 7  # nine pages of sixty: 1 to 8 full, 9 with four cards
JUST_UNDER = CARDS - 5  # a threshold the catalogue is just over


def _statements(captured: CaptureQueriesContext) -> tuple[list[str], list[str], list[str]]:
    """A page request's statements: PostgreSQL's estimate (an EXPLAIN), those that find the
    page, and the read of the page's rows by id (the only one with no LIMIT)."""
    sqls = [query["sql"] for query in captured.captured_queries]
    estimates = [sql for sql in sqls if sql.startswith("EXPLAIN")]
    finding = [sql for sql in sqls if sql not in estimates and " LIMIT " in sql]
    by_id = [sql for sql in sqls if sql not in estimates and " LIMIT " not in sql]
    assert len(estimates) == (1 if connection.vendor == "postgresql" else 0)
    return estimates, finding, by_id


@pytest.mark.parametrize("order", ["name", "set"])  # the card's own columns; a join (fallback)
@pytest.mark.parametrize("number", [1, 5, 9])  # first, middle, last
@pytest.mark.parametrize("threshold", [JUST_UNDER, 0, 10_000])
def test_a_page_is_found_by_one_statement_and_is_the_ordered_slice(
    generated_cards, order, number, threshold
):
    # given a catalogue just over the threshold (or under it, or any threshold at all)
    keys = ordering(order, "asc")
    everything = list(generated_cards.order_by(*keys))
    offset = (number - 1) * PER_PAGE
    # when a page is asked for
    with (
        override_settings(CARD_COUNT_EXACT_UP_TO=threshold),
        CaptureQueriesContext(connection) as captured,
    ):
        page = card_page(generated_cards, keys, number, PER_PAGE)
    # then one statement found it; besides it, only PostgreSQL's estimate and the rows by id
    # (on PostgreSQL a threshold of 0 is far below the estimate of sixty: SURE_MANY, and the
    # ordered query reads the rows itself)
    _estimates, finding, by_id = _statements(captured)
    shortcut = connection.vendor == "postgresql" and threshold == 0
    assert len(finding) == 1 and len(by_id) == (0 if shortcut else 1)
    # and the page is the plain ordered queryset's slice
    assert page.object_list == everything[offset : offset + PER_PAGE]
    assert page.has_next == (offset + PER_PAGE < CARDS)
    if threshold >= CARDS or not page.has_next:
        # the count is exact up to the threshold, and on the last page past it
        assert (page.count, page.count_exact) == (CARDS, True)
    else:
        assert not page.count_exact
        assert page.count > threshold and page.count >= offset + PER_PAGE + 1
        if connection.vendor != "postgresql":  # no estimate: "more than the threshold"
            assert page.count == max(threshold + 1, offset + PER_PAGE + 1)


@pytest.mark.parametrize("order", ["name", "set"])
@pytest.mark.parametrize("threshold", [JUST_UNDER, 0, 10_000])
def test_a_page_past_the_last_is_not_found_by_one_statement(generated_cards, order, threshold):
    keys = ordering(order, "asc")
    with (
        override_settings(CARD_COUNT_EXACT_UP_TO=threshold),
        CaptureQueriesContext(connection) as captured,
        pytest.raises(PageNotFound),
    ):
        card_page(generated_cards, keys, 10, PER_PAGE)
    _estimates, finding, by_id = _statements(captured)
    assert len(finding) == 1 and not by_id


@pytest.mark.parametrize("threshold", [JUST_UNDER, 10_000])
def test_ids_only_is_the_one_statement_alone(generated_cards, threshold):
    keys = ordering("name", "desc")
    expected = list(generated_cards.order_by(*keys).values_list("pk", flat=True))
    with (
        override_settings(CARD_COUNT_EXACT_UP_TO=threshold),
        CaptureQueriesContext(connection) as captured,
    ):
        page = card_page(generated_cards, keys, 2, PER_PAGE, ids_only=True)
    assert page.object_list == expected[PER_PAGE : 2 * PER_PAGE]
    _estimates, finding, by_id = _statements(captured)
    assert len(finding) == 1 and not by_id


@pytest.mark.parametrize("order", ["name", "cost", "set"])
@pytest.mark.parametrize("threshold", [10_000, JUST_UNDER])
def test_sqlite_reads_no_row_of_the_branch_not_taken(generated_cards, order, threshold):
    """Counted by a function every row read from the matches passes through: the statement
    reads the capped matches, plus the ordered query's rows only when the cap was reached."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's branches: tests/cards/test_search_plans.py reads its plan")
    reads: list[int] = []

    def probe(pk: int) -> bool:
        reads.append(pk)
        return True

    connection.ensure_connection()
    connection.connection.create_function("paging_probe", 1, probe)
    game = generated_cards.first().game
    probed = Card.objects.filter(game=game).filter(
        RawSQL('paging_probe("cards_card"."id")', (), output_field=BooleanField())
    )
    keys = ordering(order, "asc")
    list(probed.order_by(*keys).values_list("pk")[PER_PAGE : 2 * PER_PAGE + 1])
    ordered_alone = len(reads)  # what the ordered query reads for page 2, run by itself
    reads.clear()
    # ids only: the rows are not read again by id (through the probe) afterwards
    card_page(probed, keys, 2, PER_PAGE, exact_limit=threshold, ids_only=True)
    capped = min(threshold + 1, CARDS)  # the scan for the capped matches stops at the cap
    assert len(reads) == capped + (ordered_alone if threshold < CARDS else 0)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    size=st.integers(min_value=0, max_value=CARDS),
    order=st.sampled_from(["name", "cost", "set", "rarity"]),  # own columns; joins (fallback)
    direction=st.sampled_from(["asc", "desc"]),
    threshold=st.integers(min_value=0, max_value=CARDS + 5),
    per_page=st.integers(min_value=1, max_value=12),
    number=st.integers(min_value=1, max_value=12),
    ids_only=st.booleans(),
)
def test_any_page_is_the_naive_slice(
    generated_cards, size, order, direction, threshold, per_page, number, ids_only
):
    # given a catalogue of `size` cards
    wanted = list(generated_cards.order_by("pk").values_list("pk", flat=True)[:size])
    catalogue = Card.objects.filter(game__slug=GENERATED_GAME, pk__in=wanted)
    keys = ordering(order, direction)
    everything = list(catalogue.order_by(*keys))
    offset = (number - 1) * per_page
    naive = everything[offset : offset + per_page]
    # when a page is asked for
    try:
        page = card_page(
            catalogue, keys, number, per_page, exact_limit=threshold, ids_only=ids_only
        )
    except PageNotFound:
        # then only a page past the last match is missing (page 1 never is)
        assert number > 1 and not naive
        return
    # then it is that slice of the plain ordered queryset, and knows whether more follow
    assert page.object_list == ([card.pk for card in naive] if ids_only else naive)
    assert page.has_next == (offset + per_page < len(everything))
    if page.count_exact:
        assert page.count == len(everything)
        assert len(everything) <= threshold or not page.has_next
    else:
        assert len(everything) > threshold and page.has_next
        assert page.count >= max(threshold + 1, offset + per_page + 1)
