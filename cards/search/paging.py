"""Paging card searches without counting every match.

A page of a big catalogue used to cost a full ``COUNT(*)`` of the matches (most of the request on a
common word) and, for matches clustered late in name order, a walk of the name index past
thousands of rows. ``card_page`` instead:

0. on PostgreSQL, asks the planner how many rows match (an EXPLAIN, no execution); far more
   than the threshold (``SURE_MANY`` times) goes straight to the ordered query, rows and all
   (step 2's second branch, on its own);
1. finds the page's ids in one statement (``page_statement``): it takes at most
   ``exact_up_to + 1`` matches in no order (the database stops as soon as it has them: an early
   stop of a scan for a common word, an index lookup for a rare one) and counts them once;
2. that count alone chooses which of the statement's two branches reads any row (the other is
   never executed, on PostgreSQL and on SQLite):
   - no more than ``exact_up_to`` matches: the count is exact and the page is cut from the
     capped matches, sorted by the database (no index walked in name order, whatever the
     order; no sort key fetched to Python);
   - the cap reached: the count is an estimate (PostgreSQL's planner estimate, never below
     ``exact_up_to + 1``; elsewhere ``exact_up_to + 1``, read "more than") and the page comes
     from the ordered query itself, which finds its rows quickly because matches are dense
     (on the last page, the count is known after all);
3. the page's rows are read by those ids (not with ``ids_only``).

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
from django.db.models import BooleanField, F, OrderBy, QuerySet
from django.db.models.expressions import RawSQL

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


# CTE names of the page statement (``page_statement``), unlike any table or alias the ORM writes.
_CAPPED, _SEEN, _FEW, _MANY = "paging_capped", "paging_seen", "paging_few", "paging_many"


def _gated(vendor: str, rows: QuerySet[Any], gate: str, offset: int, count: int) -> tuple[str, Any]:
    """SQL for ``count`` rows of ``rows`` from ``offset`` when ``gate`` (a condition on the
    count of the capped matches alone) holds, and for none otherwise, written so that the
    database reads no row of a branch whose gate is false:

    * PostgreSQL: the gate in the WHERE clause. It refers to no row, so the planner runs it as an
      InitPlan under a One-Time Filter: EXPLAIN ANALYZE shows the branch not taken as "never
      executed" (tests/cards/test_search_plans.py). The LIMIT stays a constant, which the
      planner costs as it did when this was a query of its own (a walk of an index in order
      is chosen for the first rows of dense matches);
    * SQLite: a gate in the WHERE clause would be tested row by row (SQLite does not hoist a
      term holding a subquery out of its loop), scanning the branch not taken to its end. Its
      LIMIT, though, is worked out once before the loop, and a LIMIT of 0 skips the loop: the
      gate chooses the LIMIT (tests/cards/test_search_paging.py counts the rows read).
    """
    if vendor == "sqlite":
        sql, params = rows.query.sql_with_params()
        return f"{sql} {_sqlite_gated_limit(gate, offset, count)}", params
    gated = rows.filter(RawSQL(gate, (), output_field=BooleanField()))
    return gated[offset : offset + count].query.sql_with_params()


def _sqlite_gated_limit(gate: str, offset: int, count: int) -> str:
    """SQLite's LIMIT/OFFSET clause for ``count`` rows from ``offset`` when ``gate`` holds and
    none otherwise (see ``_gated``: SQLite works the LIMIT out once, before its loop)."""
    return f"LIMIT CASE WHEN {gate} THEN {int(count)} ELSE 0 END OFFSET {int(offset)}"


def page_statement(
    queryset: QuerySet[Any], ordering: list[Any], offset: int, per_page: int, limit: int
) -> tuple[str, list[Any]]:
    """The one statement that finds a page's ids: rows of ``(id, matches seen)``.

    Its CTEs take at most ``limit + 1`` matches in no order (``capped_rows``'s plan) and count
    them once; then exactly one of two branches reads rows, chosen by that count alone
    (``_gated``):

    * few (the count is at most ``limit``, hence exact): the page cut from the capped matches,
      sorted by the database. With an ordering of the card's own columns the capped matches
      carry their sort keys; any other ordering (``_local_sort`` is None) reads each capped
      match again by id, joined to what it sorts by;
    * many (the cap was reached): ``per_page + 1`` rows of the ordered query itself, from
      ``offset`` (the extra row says whether a next page exists).

    Each branch keeps its ORDER BY and LIMIT inside a CTE used once, which both databases read
    in that order (PostgreSQL plans it inline as a subquery scan; SQLite runs it as a
    co-routine); the capped matches, used twice, are kept once by both.
    """
    model = queryset.model
    vendor = connections[queryset.db].vendor
    pk_name = model._meta.pk.name
    sort = _local_sort(queryset, ordering)
    columns = [] if sort is None else list(dict.fromkeys(n for n, _ in sort if n != pk_name))
    capped = queryset.order_by().values_list("pk", *columns)[: limit + 1]
    capped_sql, capped_params = capped.query.sql_with_params()
    few_gate = f"(SELECT seen FROM {_SEEN}) <= {int(limit)}"
    many_gate = f"(SELECT seen FROM {_SEEN}) > {int(limit)}"
    # The CTE names its columns itself (k0 the id, k1... the sort keys): whatever aliases the
    # ORM gave the inner query's columns.
    keys = {pk_name: "k0", **{name: f"k{i}" for i, name in enumerate(columns, start=1)}}
    if sort is None:
        few = (
            model._default_manager.using(queryset.db)
            .filter(pk__in=RawSQL(f"SELECT k0 FROM {_CAPPED}", ()))
            .order_by(*ordering)
            .values_list("pk")
        )
        few_sql, few_params = _gated(vendor, few, few_gate, offset, per_page)
    else:
        order = ", ".join(f"{keys[name]} {direction}" for name, direction in sort)
        if vendor == "sqlite":  # the gate as the LIMIT, as in _gated
            tail = _sqlite_gated_limit(few_gate, offset, per_page)
            few_sql = f"SELECT k0 FROM {_CAPPED} ORDER BY {order} {tail}"
        else:
            few_sql = (
                f"SELECT k0 FROM {_CAPPED} WHERE {few_gate} "
                f"ORDER BY {order} LIMIT {int(per_page)} OFFSET {int(offset)}"
            )
        few_params = ()
    many = queryset.order_by(*ordering).prefetch_related(None).values_list("pk")
    many_sql, many_params = _gated(vendor, many, many_gate, offset, per_page + 1)
    sql = (
        f"WITH {_CAPPED}({', '.join(['k0', *(keys[c] for c in columns)])}) AS ({capped_sql}), "
        f"{_SEEN}(seen) AS (SELECT COUNT(*) FROM {_CAPPED}), "
        f"{_FEW}(k0) AS ({few_sql}), "
        f"{_MANY}(k0) AS ({many_sql}) "
        f"SELECT k0, (SELECT seen FROM {_SEEN}) FROM {_FEW} "
        f"UNION ALL SELECT k0, (SELECT seen FROM {_SEEN}) FROM {_MANY}"
    )
    return sql, [*capped_params, *few_params, *many_params]


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
    ids, seen = _found_page(queryset, ordering, offset, per_page, limit)
    if not ids:
        # Either branch finds nothing only past the last match (or on an empty page 1).
        if number > 1:
            raise PageNotFound("That page is past the last match.")
        return CardPage([], number, per_page, 0, True, False)
    if seen <= limit:  # every match seen: the count is exact
        count, count_exact, has_next = seen, True, offset + per_page < seen
    else:  # the ordered query's page, one row more than it shows
        has_next = len(ids) > per_page
        ids = ids[:per_page]
        count_exact = not has_next  # the last page: the count is known after all
        count = (
            offset + len(ids)
            if count_exact
            else max(estimate or 0, limit + 1, offset + len(ids) + 1)
        )
    if ids_only:
        return CardPage(ids, number, per_page, count, count_exact, has_next)
    by_id = {_pk(row): row for row in queryset.order_by().filter(pk__in=ids)}
    rows = [by_id[pk] for pk in ids]
    return CardPage(rows, number, per_page, count, count_exact, has_next)


def _found_page(
    queryset: QuerySet[Any], ordering: list[Any], offset: int, per_page: int, limit: int
) -> tuple[list[Any], int]:
    """The page's ids, in order, and how many capped matches were seen (``limit + 1`` when the
    cap was reached), from the one statement ``page_statement`` writes."""
    sql, params = page_statement(queryset, ordering, offset, per_page, limit)
    rows = _without_seqscan_sql(queryset.db, sql, params)
    return [row[0] for row in rows], int(rows[0][1]) if rows else 0


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
