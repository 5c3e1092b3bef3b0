"""Paging card searches without counting every match.

A page of a big catalogue used to cost a full ``COUNT(*)`` of the matches (most of the request on a
common word) and, for matches clustered late in name order, a walk of the name index past
thousands of rows. ``card_page`` instead:

0. on PostgreSQL, asks the planner how many rows match (an EXPLAIN, no execution); far more
   than the threshold (``SURE_MANY`` times) goes straight to step 3;
1. in one query, takes at most ``exact_up_to + 1`` matches in no order (the database stops as
   soon as it has them: an early stop of a scan for a common word, an index lookup for a rare
   one), counts them, and sorts them to cut the page's ids (no index walked in name order,
   whatever the order; no sort key fetched to Python);
2. when it saw no more than ``exact_up_to`` matches, the count is exact and the page's rows are
   read by those ids;
3. otherwise the count is an estimate (PostgreSQL's planner estimate, never below
   ``exact_up_to + 1``; elsewhere ``exact_up_to + 1``, read "more than") and the page is the
   ordered query itself, which finds its rows quickly because matches are dense.

Whether a next page exists is always exact: the page asks for one row more than it shows.
A search that can match nothing (a name test of punctuation only compiles to an empty
``pk__in``, for which Django writes no SQL but raises ``EmptyResultSet``) is an empty page 1,
found without a query, on every database.
The threshold is the setting ``CARD_COUNT_EXACT_UP_TO`` (default 2,000).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import EmptyResultSet, FieldDoesNotExist
from django.db import connections
from django.db.models import Count, F, OrderBy, QuerySet, Window

DEFAULT_EXACT_UP_TO = 2000
# A planner estimate above SURE_MANY x the threshold is trusted to mean "many": the ids are not
# fetched at all (reading the threshold's worth of them would be wasted).
SURE_MANY = 10
# No catalogue has this many pages; beyond it an OFFSET would not fit the databases' integers.
MAX_PAGE = 10**9


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
    if number < 1 or number > MAX_PAGE:
        raise PageNotFound(f"{value!r} is not a page number.")
    return number


def matches_nothing(queryset: QuerySet[Any]) -> bool:
    """Whether Django knows ``queryset`` matches no row (an empty ``pk__in``) and so writes no
    SQL for it: the paging below writes SQL itself, which would raise ``EmptyResultSet``."""
    try:
        queryset.order_by().values("pk").query.sql_with_params()
    except EmptyResultSet:
        return True
    return False


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


def capped_rows(queryset: QuerySet[Any], fields: list[str], cap: int) -> list[tuple[Any, ...]]:
    """``fields`` of at most ``cap`` rows of ``queryset``, in no particular order.

    On PostgreSQL the query runs with ``enable_seqscan`` off: with a LIMIT the planner likes a
    sequential scan that it expects to stop early, which reads most of the table when the
    matches are rarer than it thinks (a word found in 1% of the cards). Without it, a text test
    uses the trigram indexes (a bitmap, then the heap until ``cap`` rows) and a negation, which
    no index serves, still scans (the setting only makes scans look dear).
    """
    return _without_seqscan(queryset.order_by().values_list(*fields)[:cap])


def _without_seqscan(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The tuples of a ``values_list`` query (see ``_without_seqscan_sql``)."""
    if connections[rows.db].vendor != "postgresql":
        return [tuple(row) for row in rows]
    sql, params = rows.query.sql_with_params()
    return _without_seqscan_sql(rows.db, sql, params)


def _without_seqscan_sql(using: str, sql: str, params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``sql``; on PostgreSQL run with ``enable_seqscan`` off, reset in the same
    round trip (if the query fails, PostgreSQL rolls the batch back, setting and all)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute(sql, params)
        else:
            cursor.execute(f"SET enable_seqscan = off; {sql}; RESET enable_seqscan", params)
            cursor.nextset()
        return [tuple(row) for row in cursor.fetchall()]


@dataclass(frozen=True)
class CardCount:
    count: int
    exact: bool


def card_count(queryset: QuerySet[Any], *, exact_limit: int | None = None) -> CardCount:
    """How many rows ``queryset`` has, counted up to the threshold and estimated beyond it."""
    limit = exact_up_to() if exact_limit is None else exact_limit
    if matches_nothing(queryset):
        return CardCount(0, True)
    estimate = planner_estimate(queryset)
    if estimate is None or estimate <= SURE_MANY * limit:
        found = len(capped_rows(queryset, ["pk"], limit + 1))
        if found <= limit:
            return CardCount(found, True)
    return CardCount(max(estimate or 0, limit + 1), False)


def _pk(row: Any) -> Any:
    return row["id"] if isinstance(row, dict) else row.pk


def _local_sort(queryset: QuerySet[Any], ordering: list[Any]) -> list[tuple[str, str]] | None:
    """``(field, "ASC"/"DESC" [NULLS LAST])`` of an ordering made of the model's own columns
    only (the usual: name, a printed number, then id); None for anything else."""
    opts = queryset.model._meta
    keys = []
    for item in ordering:
        if isinstance(item, str):
            name, descending, nulls_last = item.lstrip("-"), item.startswith("-"), False
        elif isinstance(item, OrderBy) and isinstance(item.expression, F):
            # F keeps the field's name; django-stubs leave the attribute out
            name, descending = item.expression.name, item.descending  # type: ignore[attr-defined]
            nulls_last = bool(item.nulls_last)
        else:
            return None
        name = opts.pk.name if name == "pk" else name
        try:
            column = opts.get_field(name)
        except FieldDoesNotExist:
            return None
        if not column.concrete or column.is_relation:
            return None
        if column.null and not nulls_last:
            return None  # where NULLs go without NULLS LAST differs between databases
        direction = "DESC" if descending else "ASC"
        keys.append((name, f"{direction} NULLS LAST" if nulls_last else direction))
    return keys


def _page_ids(
    queryset: QuerySet[Any], ordering: list[Any], offset: int, per_page: int, cap: int
) -> list[tuple[Any, int]]:
    """``(id, matches seen)`` of the page's rows, in one query: the database takes at most
    ``cap`` matches in no order (``capped_rows``'s plan), counts them, and sorts them to cut
    the page. No index is walked in name order and no sort key crosses to Python. Empty when
    the page lies past the matches seen.

    With an ordering of the card's own columns the matches carry their sort keys, so they are
    sorted as found; any other ordering reads each match again by id, joined to what it sorts
    by."""
    model = queryset.model
    sort = _local_sort(queryset, ordering)
    if sort is None:
        page = (
            model._default_manager.using(queryset.db)
            .filter(pk__in=queryset.order_by().values("pk")[:cap])
            .annotate(matches_seen=Window(Count("pk")))
            .order_by(*ordering)
            .values_list("pk", "matches_seen")[offset : offset + per_page]
        )
        return [(row[0], int(row[1])) for row in _without_seqscan(page)]
    pk_name = model._meta.pk.name
    columns = list(dict.fromkeys(name for name, _ in sort if name != pk_name))
    capped = queryset.order_by().values_list("pk", *columns)[:cap]
    sql, params = capped.query.sql_with_params()
    # The CTE names its columns itself (k0 the id, k1... the sort keys): whatever aliases the
    # ORM gave the inner query's columns. Used once, PostgreSQL plans it inline.
    names = {pk_name: "k0", **{name: f"k{i}" for i, name in enumerate(columns, start=1)}}
    order = ", ".join(f"m.{names[name]} {direction}" for name, direction in sort)
    page_sql = (
        f"WITH m({', '.join(['k0', *(names[c] for c in columns)])}) AS ({sql}) "
        f"SELECT m.k0, COUNT(*) OVER () FROM m "
        f"ORDER BY {order} LIMIT {int(per_page)} OFFSET {int(offset)}"
    )
    rows = _without_seqscan_sql(queryset.db, page_sql, params)
    return [(row[0], int(row[1])) for row in rows]


def card_page(
    queryset: QuerySet[Any],
    ordering: list[Any],
    number: int,
    per_page: int,
    *,
    exact_limit: int | None = None,
    ids_only: bool = False,
) -> CardPage:
    """Page ``number`` (from 1) of ``queryset`` sorted by ``ordering``; see the module docstring.

    ``queryset`` carries the filters and whatever the rows need (``select_related`` ...); its own
    ordering is replaced. Raises ``PageNotFound`` for a page past the last match (page 1 is
    always there, possibly empty). With ``ids_only`` the page holds the rows' ids, in order, and
    no row is read (for a caller that keeps what it shows of each row).
    """
    limit = exact_up_to() if exact_limit is None else exact_limit
    offset = (number - 1) * per_page
    if matches_nothing(queryset):
        if number > 1:
            raise PageNotFound("That page is past the last match.")
        return CardPage([], number, per_page, 0, True, False)
    estimate = planner_estimate(queryset)
    if estimate is not None and estimate > SURE_MANY * limit:
        return _walked_page(queryset, ordering, number, per_page, limit, estimate, ids_only)
    page_ids = _page_ids(queryset, ordering, offset, per_page, limit + 1)
    if not page_ids and number == 1:  # no match at all
        return CardPage([], number, per_page, 0, True, False)
    if page_ids and page_ids[0][1] <= limit:  # every match seen: the count is exact
        count = page_ids[0][1]
        wanted = [pk for pk, _ in page_ids]
        if ids_only:
            return CardPage(wanted, number, per_page, count, True, offset + per_page < count)
        by_id = {_pk(row): row for row in queryset.order_by().filter(pk__in=wanted)}
        rows = [by_id[pk] for pk in wanted]
        return CardPage(rows, number, per_page, count, True, offset + per_page < count)
    # More matches than the threshold, or a page past the matches seen: the ordered query
    # finds the page (and says whether it is past the last match).
    return _walked_page(queryset, ordering, number, per_page, limit, estimate, ids_only)


def _walked_page(
    queryset: QuerySet[Any],
    ordering: list[Any],
    number: int,
    per_page: int,
    limit: int,
    estimate: int | None,
    ids_only: bool = False,
) -> CardPage:
    """The page straight from the ordered query (dense matches: found early in any order)."""
    offset = (number - 1) * per_page
    ordered = queryset.order_by(*ordering)
    if ids_only:
        ordered = ordered.prefetch_related(None).values_list("pk", flat=True)
    rows = list(ordered[offset : offset + per_page + 1])
    if not rows and number > 1:
        raise PageNotFound("That page is past the last match.")
    has_next = len(rows) > per_page
    rows = rows[:per_page]
    if not has_next:  # the last page: the count is known after all
        return CardPage(rows, number, per_page, offset + len(rows), True, False)
    count = max(estimate or 0, limit + 1, offset + len(rows) + 1)
    return CardPage(rows, number, per_page, count, False, True)
