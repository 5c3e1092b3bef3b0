"""Paging card searches without counting every match.

A page of a big catalogue used to cost a full ``COUNT(*)`` of the matches (most of the request on a
common word) and, for matches clustered late in name order, a walk of the name index past
thousands of rows. ``card_page`` instead:

1. asks for the ids of at most ``exact_up_to + 1`` matches, in no order (the database stops as
   soon as it has them: an early stop of a scan for a common word, an index lookup for a rare one);
2. when there are no more than ``exact_up_to`` of them, the count is exact and the page is sorted
   from those ids alone (``pk IN (...)``: no index walk, whatever the order);
3. otherwise the count is an estimate (PostgreSQL's planner estimate, never below
   ``exact_up_to + 1``; elsewhere ``exact_up_to + 1``, read "more than") and the page is the
   ordered query itself, which finds its rows quickly because matches are dense.

Whether a next page exists is always exact: the page asks for one row more than it shows.
The threshold is the setting ``CARD_COUNT_EXACT_UP_TO`` (default 1,000).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet

DEFAULT_EXACT_UP_TO = 1000


class PageNotFound(LookupError):
    """The page number is not a positive whole number, or lies past the last match."""


def exact_up_to() -> int:
    return int(getattr(settings, "CARD_COUNT_EXACT_UP_TO", DEFAULT_EXACT_UP_TO))


@dataclass
class CardPage:
    """One page of matches and what is known about the rest."""

    object_list: list[Any]
    number: int
    per_page: int
    count: int
    count_exact: bool
    has_next: bool
    start_index: int = field(init=False)

    def __post_init__(self) -> None:
        self.start_index = (self.number - 1) * self.per_page + 1 if self.object_list else 0

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def end_index(self) -> int:
        return self.start_index + len(self.object_list) - 1 if self.object_list else 0

    @property
    def num_pages(self) -> int:
        """Pages the count implies (at least this one; with an estimate, a guess)."""
        pages = max(1, math.ceil(self.count / self.per_page))
        if self.has_next:
            pages = max(pages, self.number + 1)
        return max(pages, self.number)

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1

    def __iter__(self) -> Iterator[Any]:
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)


def page_number(value: Any) -> int:
    """``value`` as a page number (1 for empty); ``PageNotFound`` when it is not one."""
    if value in (None, ""):
        return 1
    try:
        number = int(str(value).strip())
    except ValueError:
        raise PageNotFound(f"{value!r} is not a page number.") from None
    if number < 1:
        raise PageNotFound(f"{value!r} is not a page number.")
    return number


def planner_estimate(queryset: QuerySet[Any]) -> int | None:
    """PostgreSQL's estimate of how many rows ``queryset`` returns (None elsewhere)."""
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    sql, params = queryset.order_by().values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


def card_page(
    queryset: QuerySet[Any],
    ordering: list[Any],
    number: int,
    per_page: int,
    *,
    exact_limit: int | None = None,
) -> CardPage:
    """Page ``number`` (from 1) of ``queryset`` sorted by ``ordering``; see the module docstring.

    ``queryset`` carries the filters and whatever the rows need (``select_related`` ...); its own
    ordering is replaced. Raises ``PageNotFound`` for a page past the last match (page 1 is
    always there, possibly empty).
    """
    limit = exact_up_to() if exact_limit is None else exact_limit
    ids = list(queryset.order_by().values_list("pk", flat=True)[: limit + 1])
    offset = (number - 1) * per_page
    if len(ids) <= limit:
        count = len(ids)
        if offset >= count and number > 1:
            raise PageNotFound("That page is past the last match.")
        rows = list(queryset.filter(pk__in=ids).order_by(*ordering)[offset : offset + per_page])
        return CardPage(rows, number, per_page, count, True, offset + per_page < count)
    rows = list(queryset.order_by(*ordering)[offset : offset + per_page + 1])
    if not rows and number > 1:
        raise PageNotFound("That page is past the last match.")
    has_next = len(rows) > per_page
    rows = rows[:per_page]
    if not has_next:  # the last page: the count is known after all
        return CardPage(rows, number, per_page, offset + len(rows), True, False)
    estimate = planner_estimate(queryset) or 0
    count = max(estimate, limit + 1, offset + len(rows) + 1)
    return CardPage(rows, number, per_page, count, False, True)
