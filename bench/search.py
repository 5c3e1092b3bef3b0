"""Card search and the card API at catalogue scale: 100,000 generated cards on PostgreSQL.

    .venv/bin/python bench/search.py                        # 100,000 cards, 200 requests each
    nice -n 10 .venv/bin/python bench/search.py --requests 50

Loads ``generate_cards`` into its own database (``BENCH_SEARCH_PG_URL``, default
``postgres://postgres@127.0.0.1:5432/deckwright_search_bench``; the cards are kept between runs
when the count matches), then times a fixed mix of requests through Django's full stack with an
in-process loopback client (``django.test.Client``, as ``bench/api.py``) and persistent database
connections (``DATABASE_CONN_MAX_AGE``). Beside each figure it measures, in the same run, floors:

* a search or a game's first page, two floors, each a bare Django view returning the same 50
  cards as JSON with the columns ``FLOOR_VALUES`` names (the game, set, type, branch and rarity
  joined):
  - the *filter floor*, the floor issue 20 defines: the search's filter written by hand with the
    ORM (``filter_floor_of``: the indexed columns, ``contains``/``icontains`` for words, which the
    trigram indexes serve), ordered by name and sliced, as plain Django would. Its cards are
    checked to be the API's;
  - the *rows floor*, stricter: the ids the API answered, read by primary key. It finds nothing,
    so it is a floor for returning the cards, not for searching.
* card detail: a bare Django view returning the same JSON bytes from memory (no database).

It prints the queries one request makes (the process's memos warm), p50/p95/p99 (ms) of the
request and of its floors, and the ratios (request / floor, at p50 and at p95). The goals of
issue 20: every query p95 < 30 ms and <= 2x its floor; detail <= 3x; a 50-card page <= 3x.
Prints figures; asserts nothing about time (tests never check wall-clock time).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import percentile  # noqa: E402
from bench.load import load_average, machine  # noqa: E402

PG_URL = os.environ.get(
    "BENCH_SEARCH_PG_URL", "postgres://postgres@127.0.0.1:5432/deckwright_search_bench"
)
GAME = "bench"
QUERIES = ["t:attack b:eagle ip<=2", "opponent", "-o:draw", "wild"]
# The floor's columns: what a card of the list shows, the names of its vocabulary joined in SQL
# (the plain way to read them; the API names them from memory since 2026-11-29). Fixed here so
# that the floor stays the same from run to run whatever the API does.
FLOOR_VALUES = (
    "id",
    "name",
    "slug",
    "game__slug",
    "game__number_labels",
    "card_set__code",
    "collector_number",
    "card_type__slug",
    "branch__slug",
    "rarity__slug",
    "rules_text",
    "cost",
    "attack",
    "defense",
    "drain",
    "generation",
    "strength",
)


def ensure_database(url: str) -> None:
    """Create the bench database if it is missing (PostgreSQL at the URL's server)."""
    from urllib.parse import urlsplit

    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200, help="timed requests per case")
    args = parser.parse_args()

    ensure_database(PG_URL)
    os.environ["DATABASE_URL"] = PG_URL
    os.environ["DATABASE_CONN_MAX_AGE"] = "600"  # persistent connections, as in production
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    os.environ["DEBUG"] = "0"
    os.environ["DECKWRIGHT_HTTPS"] = "0"  # plain HTTP on loopback, as bench/load.py
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ["API_THROTTLE_ANON"] = "100000000/minute"
    os.environ["API_THROTTLE_USER"] = "100000000/minute"

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Q
    from django.http import HttpRequest, HttpResponse, JsonResponse
    from django.test import Client
    from django.test.utils import (
        CaptureQueriesContext,
        override_settings,
        setup_test_environment,
    )
    from django.urls import include, path
    from rest_framework.views import APIView

    from cards.models import Card

    setup_test_environment()
    quiet = io.StringIO()
    call_command("migrate", verbosity=0, stdout=quiet)
    if Card.objects.filter(game__slug=GAME).count() != args.cards:
        started = time.perf_counter()
        call_command("generate_cards", count=args.cards, game=GAME, replace=True, stdout=quiet)
        print(f"generated {args.cards} cards in {time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:
        # Planner statistics, and the trigram indexes' pending lists merged (a bulk load leaves
        # them to be read linearly by every search until a vacuum), as autovacuum would.
        cursor.execute("VACUUM ANALYZE cards_card")
    cards = Card.objects.filter(game__slug=GAME).order_by("pk")
    rare = cards[args.cards // 3].name_key  # one card's whole name key: a rare fragment
    detail_id = cards[args.cards // 2].pk

    def words(text: str) -> Q:
        """A bare word or phrase: in the name or, in any case, in the rules text."""
        return Q(name_key__contains=text) | Q(rules_text__icontains=text)

    # Each search's filter by hand (not through the query language), for the filter floor.
    filter_floor_of: dict[str, Q] = {
        "t:attack b:eagle ip<=2": Q(card_type__slug="attack", branch__slug="eagle", cost__lte=2),
        "opponent": words("opponent"),
        "-o:draw": ~Q(rules_text__icontains="draw"),
        "wild": words("wild"),
        f'"{rare}"': words(rare),
        "": Q(),
    }
    row_ids: dict[str, list[int]] = {}
    floor_filters: dict[str, Q] = {}
    precomputed: dict[str, bytes] = {}

    def bare_rows(request: HttpRequest, key: str) -> HttpResponse:
        ids = row_ids[key]
        rows = {row["id"]: row for row in Card.objects.filter(pk__in=ids).values(*FLOOR_VALUES)}
        return JsonResponse({"results": [rows[pk] for pk in ids]})

    def bare_filter(request: HttpRequest, key: str) -> HttpResponse:
        found = (
            Card.objects.filter(game__slug=GAME)
            .filter(floor_filters[key])
            .order_by("name_key", "id")
            .values(*FLOOR_VALUES)[:50]
        )
        return JsonResponse({"results": list(found)})

    def bare_json(request: HttpRequest, key: str) -> HttpResponse:
        return HttpResponse(precomputed[key], content_type="application/json")

    urls: Any = types.ModuleType("bench_search_urls")  # its urlpatterns are set below
    urls.urlpatterns = [
        path("bare/rows/<str:key>/", bare_rows),
        path("bare/filter/<str:key>/", bare_filter),
        path("bare/json/<str:key>/", bare_json),
        path("", include("deckwright.urls")),
    ]
    client = Client()

    def timed(url: str, params: dict[str, str], count: int) -> list[float]:
        for _ in range(5):
            client.get(url, params)
        samples = []
        for _ in range(count):
            started = time.perf_counter()
            response = client.get(url, params)
            samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.content[:300]
        return samples

    cases: list[tuple[str, str, dict[str, str], str]] = [
        (f"q={query}", "/api/v1/cards/", {"q": query, "game": GAME}, query) for query in QUERIES
    ]
    cases += [
        (
            f'q="{rare}" (rare phrase)',
            "/api/v1/cards/",
            {"q": f'"{rare}"', "game": GAME},
            f'"{rare}"',
        ),
        ("card detail", f"/api/v1/cards/{detail_id}/", {}, "json"),
        ("first page of a game", "/api/v1/cards/", {"game": GAME}, ""),
    ]
    print(f"## Card search at scale: {args.cards:,} cards, {args.requests} requests per case")
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}; PostgreSQL")
    print(f"load average before: {load_average()}\n")
    print(
        "| request | hits | queries | p50 | p95 | p99 | filter floor p50 / p95 | ratio p50 / p95"
        " | rows floor p50 / p95 | ratio p50 / p95 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    storages = {**settings.STORAGES}  # no collectstatic here: plain static URLs
    storages["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    # Throttling off for the mix: without REDIS_URL its counters are two database writes per
    # request (common/counters.py), a cost of the limits, not of search; measured apart below.
    # The views took DRF's default throttle classes when they were defined, so the setting alone
    # would not turn them off (figures before 2026-11-29 had the counters on in every row).
    throttles = APIView.throttle_classes
    APIView.throttle_classes = []
    with override_settings(ROOT_URLCONF=urls, STORAGES=storages):
        for index, (label, url, params, floor_kind) in enumerate(cases):
            key = str(index)
            client.get(url, params)  # the process's memos (vocabularies, detail rows) warm
            with CaptureQueriesContext(connection) as captured:
                first = client.get(url, params)
            queries = len(captured)  # now: the next request clears the log
            assert first.status_code == 200, first.content[:300]
            body = first.json()
            floor_urls = []
            if floor_kind in filter_floor_of:
                row_ids[key] = [row["id"] for row in body["results"]]
                estimated = " (est.)" if first.get("Count-Estimated") else ""
                hits = f"{body['count']:,}{estimated}"
                floor_filters[key] = filter_floor_of[floor_kind]
                same = [row["id"] for row in client.get(f"/bare/filter/{key}/").json()["results"]]
                assert same == row_ids[key], f"the filter floor of {label} finds other cards"
                floor_urls = [f"/bare/filter/{key}/", f"/bare/rows/{key}/"]
            else:
                precomputed[key] = first.content
                hits = "1"
                floor_urls = ["", f"/bare/json/{key}/"]
            api = timed(url, params, args.requests)
            p50, p95, p99 = (statistics.median(api), percentile(api, 0.95), percentile(api, 0.99))
            columns = []
            for floor_url in floor_urls:
                if not floor_url:
                    columns += ["-", "-"]
                    continue
                floor = timed(floor_url, {}, args.requests)
                f50, f95 = statistics.median(floor), percentile(floor, 0.95)
                columns += [f"{f50:.2f} / {f95:.2f}", f"{p50 / f50:.1f}x / {p95 / f95:.1f}x"]
            print(
                f"| {label} | {hits} | {queries} | {p50:.1f} | {p95:.1f} | {p99:.1f} | "
                + " | ".join(columns)
                + " |"
            )
        web = timed(f"/games/{GAME}/", {}, max(10, args.requests // 4))
        print(
            f"| web page /games/{GAME}/ (50 cards with thumbnails) | - | - | "
            f"{statistics.median(web):.1f} | {percentile(web, 0.95):.1f} | "
            f"{percentile(web, 0.99):.1f} | - | - | - | - |"
        )
        size = len(client.get(f"/games/{GAME}/").content)
    APIView.throttle_classes = throttles
    with override_settings(ROOT_URLCONF=urls, STORAGES=storages):
        throttled = timed("/api/v1/cards/", {"game": GAME}, max(10, args.requests // 4))
    print(
        f"| first page of a game, throttle counters on | - | - | {statistics.median(throttled):.1f}"
        f" | {percentile(throttled, 0.95):.1f} | {percentile(throttled, 0.99):.1f}"
        " | - | - | - | - |"
    )
    print(f"\n/games/{GAME}/ is {size / 1024:.0f} KiB. Load average after: {load_average()}.")
    # Serialising a 50-card page alone (rows already read): the JSON the list builds per card.
    from api.serializers.cards import card_row_json
    from cards.selectors import card_rows_for_api

    rows = list(card_rows_for_api().filter(game__slug=GAME).order_by("name_key")[:50])
    timings = []
    for _ in range(200):
        started = time.perf_counter()
        json.dumps([card_row_json(r, r["subtype_slugs"], "/c/") for r in rows])
        timings.append((time.perf_counter() - started) * 1000)
    print(
        f"Serialising a 50-card page to JSON (no database): p50 {statistics.median(timings):.2f} ms,"
        f" p95 {percentile(timings, 0.95):.2f} ms."
    )
    print(json.dumps({"rare": rare, "detail_id": detail_id}))


if __name__ == "__main__":
    main()
