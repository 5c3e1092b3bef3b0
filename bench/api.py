"""Benchmark of the card API on 100,000 generated cards, on SQLite and on PostgreSQL.

    .venv/bin/python bench/api.py                     # both databases, 100,000 cards
    .venv/bin/python bench/api.py --cards 20000 --requests 100 --backend sqlite

For each database: migrate, load Revolt N Reign (for POST /validate/), generate the cards (kept
between runs when the count matches), then time five representative card searches and one
validation through Django's full stack (in-process client, no network). Each figure is compared
with a bare Django view that returns the same JSON bytes from a precomputed list, so the ratio is
what the API's own work costs. Database connections persist between requests, as in production.
PostgreSQL is ``BENCH_PG_URL`` (default postgres://postgres@127.0.0.1:5432/deckwright_bench,
created if missing); it is skipped with a message when unreachable. Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/deckwright_bench")
SQLITE_DIR = Path(
    os.environ.get("BENCH_DATA_DIR", Path(tempfile.gettempdir()) / "deckwright-bench")
)


def searches(example_name: str) -> list[tuple[str, str, dict]]:
    """(label, path, params) of the five representative card searches."""
    return [
        ("fields: t:attack b:eagle ip<=3", "/api/v1/cards/", {"q": "t:attack b:eagle ip<=3"}),
        ("free word: storm", "/api/v1/cards/", {"q": "storm"}),
        ("exact name", "/api/v1/cards/", {"q": f'!"{example_name}"'}),
        (
            "boolean: (b:bison OR b:scroll) r>=uncommon -o:draw",
            "/api/v1/cards/",
            {"q": "(b:bison OR b:scroll) r>=uncommon -o:draw"},
        ),
        ("autocomplete: sto", "/api/v1/cards/autocomplete/", {"q": "sto"}),
    ]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def pg_reachable() -> str | None:
    """None when PostgreSQL answers (creating ``PG_URL``'s database if missing), else why not."""
    from urllib.parse import urlsplit

    import psycopg
    from psycopg import sql

    parts = urlsplit(PG_URL)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    try:
        with psycopg.connect(admin, connect_timeout=3, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as exc:
        return str(exc).strip().splitlines()[0]
    return None


def run_backend(backend: str, cards: int, requests: int) -> None:
    """Set up one database and print its figures (runs in its own process)."""
    if backend == "sqlite":
        SQLITE_DIR.mkdir(parents=True, exist_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{SQLITE_DIR / 'bench.sqlite3'}"
    else:
        os.environ["DATABASE_URL"] = PG_URL
    os.environ["DATABASE_CONN_MAX_AGE"] = "600"  # persistent connections, as in production
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    os.environ["DEBUG"] = "0"
    os.environ["DECKWRIGHT_HTTPS"] = "0"  # plain HTTP in process (else a redirect to https://)
    os.environ.setdefault("SECRET_KEY", "bench-only")
    # Rates no client reaches; the throttles still count every request (two counter writes in the
    # database without REDIS_URL), as a deployment without Redis pays them. bench/search.py
    # measures the same list both ways.
    os.environ["API_THROTTLE_ANON"] = "100000000/minute"
    os.environ["API_THROTTLE_USER"] = "100000000/minute"
    sys.path.insert(0, str(ROOT))

    import io

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.http import HttpResponse
    from django.test import Client
    from django.test.utils import override_settings, setup_test_environment
    from django.urls import include, path

    from cards.models import Card

    setup_test_environment()
    quiet = io.StringIO()
    call_command("migrate", verbosity=0, stdout=quiet)
    try:
        call_command("load_game_data", "--game", "revolt-n-reign", verbosity=0, stdout=quiet)
    except Exception:
        print(quiet.getvalue())
        raise
    if Card.objects.filter(game__slug="bench").count() != cards:
        started = time.perf_counter()
        call_command("generate_cards", count=cards, game="bench", replace=True, stdout=quiet)
        print(f"  generated {cards} cards in {time.perf_counter() - started:.1f} s")
    with connection.cursor() as cursor:  # planner statistics, as after any bulk load
        cursor.execute("ANALYZE")
    example = Card.objects.filter(game__slug="bench").order_by("pk")[cards // 2].name
    legal_deck = (
        Path(settings.FIXTURES_DIR) / "decks" / "revolt-n-reign" / "legal-bison-pressure.txt"
    ).read_text()

    precomputed: dict[str, bytes] = {}

    def bare(request, key: str) -> HttpResponse:
        return HttpResponse(precomputed[key], content_type="application/json")

    urls: Any = types.ModuleType("bench_urls")  # its urlpatterns are set below
    urls.urlpatterns = [
        path("bare/<str:key>/", bare),
        path("", include("deckwright.urls")),
    ]
    client = Client()

    def timed(call, count: int) -> list[float]:
        for _ in range(5):
            call()
        samples = []
        for _ in range(count):
            started = time.perf_counter()
            response = call()
            samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.content[:300]
        return samples

    cases: list[tuple[str, Callable[[], Any]]] = [
        (label, functools.partial(client.get, p, {**q, "game": "bench"}))
        for label, p, q in searches(example)
    ]
    cases.append(
        (
            "POST /validate/ (60-card RNR deck, standard)",
            lambda: client.post(
                "/api/v1/validate/",
                {"game": "revolt-n-reign", "format": "standard", "decklist": legal_deck},
                content_type="application/json",
            ),
        )
    )
    print(f"  {'request':52} {'p50 ms':>8} {'p95 ms':>8} {'bare p50':>9} {'ratio':>7} {'hits':>6}")
    with override_settings(ROOT_URLCONF=urls):
        for index, (label, call) in enumerate(cases):
            first = call()
            assert first.status_code == 200, (first.status_code, first.content[:300])
            precomputed[str(index)] = first.content
            hits = first.json().get("count", len(first.json().get("results", [])) or "-")
            api = timed(call, requests)
            baseline = timed(lambda i=index: client.get(f"/bare/{i}/"), requests)
            p50, p95, b50 = (
                statistics.median(api),
                percentile(api, 0.95),
                statistics.median(baseline),
            )
            print(f"  {label:52} {p50:8.2f} {p95:8.2f} {b50:9.3f} {p50 / b50:7.1f} {hits!s:>6}")
    if connection.vendor == "postgresql":
        rare = Card.objects.filter(game__slug="bench").order_by("pk")[cards // 3].name_key
        for fragment in ("storm", rare):
            with connection.cursor() as cursor:
                cursor.execute(
                    "EXPLAIN SELECT id FROM cards_card WHERE name_key::text LIKE %s",
                    [f"%{fragment}%"],
                )
                plan = " / ".join(row[0].strip() for row in cursor.fetchall()[:3])
            print(f"  plan for name fragment {fragment!r}: {plan}")
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                "EXPLAIN QUERY PLAN SELECT rowid FROM cards_card_search "
                "WHERE cards_card_search MATCH '{name_key} : \"storm\"'"
            )
            plan = " / ".join(str(row[-1]) for row in cursor.fetchall())
        print(f"  plan for a name fragment: {plan}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_backend(args.backend, args.cards, args.requests)
        return
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    print(f"Deckwright API benchmark: {args.cards} generated cards, {args.requests} requests each")
    for backend in backends:
        print(f"\n== {backend} ==")
        if backend == "postgresql":
            problem = pg_reachable()
            if problem:
                print(f"  skipped: PostgreSQL at 127.0.0.1:5432 is not reachable ({problem})")
                continue
        command = [
            sys.executable,
            __file__,
            "--child",
            "--backend",
            backend,
            "--cards",
            str(args.cards),
            "--requests",
            str(args.requests),
        ]
        subprocess.run(command, check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
