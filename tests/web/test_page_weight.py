"""The deck builder page with a 60-card deck stays light: bytes of HTML and database queries.

Server time is measured by ``bench/pages.py`` (tests never assert on wall-clock time).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

HTML_BUDGET_BYTES = 120_000
QUERY_BUDGET = 40


def test_deck_builder_page_weight_and_queries(alice, legal_deck) -> None:
    url = reverse("deck-detail", args=[legal_deck.pk])
    alice.get(url)  # the first request builds the per-process card index and format snapshots
    with CaptureQueriesContext(connection) as queries:
        response = alice.get(url)

    assert response.status_code == 200
    assert legal_deck.name in response.content.decode()
    assert len(response.content) < HTML_BUDGET_BYTES
    assert len(queries) <= QUERY_BUDGET
