"""PostgreSQL's plans for card searches: which index serves a fields query, and which branch of
the statement that finds a page runs.

Run with ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your db>``; on SQLite these skip.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from api.filters import ordering
from cards.models import Game
from cards.search import card_search
from cards.search.paging import page_statement

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "plans are PostgreSQL's: run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/"
            "<your db> (SQLite gets the same index from the same migration)"
        )


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _card_scans(query: str, game: Game) -> list[dict[str, Any]]:
    """The plan nodes reading ``cards_card`` for the ids a search page fetches first
    (``cards.search.paging.capped_rows``: no order, sequential scans made dear)."""
    rows = card_search(query, game).order_by().values_list("pk", "name_key")[:2001]
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return [node for node in _nodes(plan[0]["Plan"]) if node.get("Relation Name") == "cards_card"]


def test_type_branch_and_cost_are_one_scan_of_the_fields_index():
    # given a generated game with planner statistics
    call_command("generate_cards", count=400, game="plans", seed=2, stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cards_card")
    game = Game.objects.get(slug="plans")
    # when the ids of `t:attack b:eagle ip<=2` are planned
    scans = _card_scans("t:attack b:eagle ip<=2", game)
    # then one scan of the type/branch/cost index applies all three tests (no card of the type
    # read and filtered row by row, no walk of the name index)
    assert [scan.get("Index Name") for scan in scans] == ["card_game_type_branch_cost_idx"]
    condition = scans[0]["Index Cond"]
    assert "card_type_id" in condition and "branch_id" in condition and "cost <= 2" in condition


def _branch_reads(plan: dict[str, Any], branch: str) -> list[int]:
    """``Actual Loops`` of each node of a page statement's branch that reads matches (the cards
    or the capped matches), from EXPLAIN ANALYZE (0: never executed)."""
    scans = [node for node in _nodes(plan) if node.get("Alias") == branch]
    assert len(scans) == 1, branch
    return [
        node["Actual Loops"]
        for node in _nodes(scans[0])
        if node.get("Relation Name") == "cards_card" or node.get("CTE Name") == "paging_capped"
    ]


@pytest.mark.parametrize("order", ["name", "set"])  # the card's own columns; a join (fallback)
@pytest.mark.parametrize(
    ("limit", "taken", "not_taken"), [(10, "many", "few"), (100, "few", "many")]
)
def test_the_page_statement_never_executes_the_branch_not_taken(
    generated_cards, order, limit, taken, not_taken
):
    # given the one statement that finds page 2 of sixty cards, past or under the threshold
    sql, params = page_statement(generated_cards, ordering(order, "asc"), 7, 7, limit)
    # when PostgreSQL runs it
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    # then the branch the count chose read matches, and the other was never executed
    assert min(_branch_reads(plan[0]["Plan"], f"paging_{taken}")) >= 1
    assert set(_branch_reads(plan[0]["Plan"], f"paging_{not_taken}")) == {0}
