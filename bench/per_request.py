"""The work of one request, endpoint by endpoint: CPU ms, SQL statements and Redis round trips.

    .venv/bin/python bench/per_request.py [--cards 20000] [--runs 200]

A single client, in process (Django's test client: the whole middleware, view and template stack,
no network), so the figures are repeatable on a busy machine: the CPU time of this process per
request (``time.process_time``, median of ``--runs`` requests after a warm-up; the test client's
own work is included, PostgreSQL's and Redis's is not), the wall time (which includes the round
trips to PostgreSQL and Redis, and any wait for a core on a busy machine), the SQL statements and the Redis round
trips of one request. It runs against PostgreSQL (``BENCH_PG_URL``, default
postgres://postgres@127.0.0.1:5432/deckwright_per_request, created if missing, with Revolt N
Reign's cards and ``--cards`` generated ones) and Redis (``BENCH_REDIS_URL``, default database
12, emptied first) as the cache and the limit counters, with throttle rates that count but never
refuse (``1000000/second``), as ``bench/load.py`` runs its servers. Every answer is drawn:
the shared response cache of anonymous catalogue pages (``decks/httpcache.py``) is off, or a
repeated request would measure a cache hit; ``--response-cache`` leaves it on. Prints a
Markdown table; asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/deckwright_per_request")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
NO_THROTTLE = "1000000/second"
SAMPLE = ROOT / "fixtures/decks/revolt-n-reign/legal-eagle-control.txt"


def ensure_database() -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(PG_URL)
    admin_url = PG_URL.rsplit("/", 1)[0] + "/postgres"
    name = parts.path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not found:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20_000, help="generated cards (20,000)")
    parser.add_argument("--runs", type=int, default=200, help="requests per endpoint (200)")
    parser.add_argument(
        "--response-cache",
        action="store_true",
        help="keep the shared response cache on (repeated anonymous pages are then cache hits)",
    )
    args = parser.parse_args()

    ensure_database()
    os.environ.update(
        DJANGO_SETTINGS_MODULE="deckwright.settings",
        DATABASE_URL=PG_URL,
        REDIS_URL=REDIS_URL,
        DEBUG="0",
        SECRET_KEY=os.environ.get("SECRET_KEY", "per-request-bench-" + "x" * 40),
        DECKWRIGHT_HTTPS="0",
        API_THROTTLE_ANON=NO_THROTTLE,
        API_THROTTLE_USER=NO_THROTTLE,
        RESPONSE_CACHE_SECONDS=os.environ.get("RESPONSE_CACHE_SECONDS", "600")
        if args.response_cache
        else "0",
    )
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from cards.models import Card

    settings.ALLOWED_HOSTS = ["*"]
    # no collectstatic for an in-process bench: static URLs unhashed (the same work per page)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    redis.Redis.from_url(REDIS_URL).flushdb()
    call_command("migrate", verbosity=0, interactive=False)
    quiet = io.StringIO()
    if not Card.objects.filter(game__slug="revolt-n-reign").exists():
        call_command("load_game_data", game=["revolt-n-reign"], verbosity=0, stdout=quiet)
    if Card.objects.filter(game__slug="bench").count() != args.cards:
        call_command("generate_cards", count=args.cards, replace=True, stdout=quiet, stderr=quiet)
    card = Card.objects.filter(game__slug="revolt-n-reign").order_by("name").first()
    assert card is not None
    decklist = SAMPLE.read_text(encoding="utf-8")
    body = {"game": "revolt-n-reign", "format": "standard", "decklist": decklist}
    endpoints: list[tuple[str, str, str, dict[str, Any]]] = [
        ("api search q=storm", "get", "/api/v1/cards/", {"data": {"q": "storm"}}),
        ("card browser q=storm", "get", "/cards/", {"data": {"q": "storm"}}),
        (
            "card browser q=t:attack b:eagle ip<=3",
            "get",
            "/cards/",
            {"data": {"q": "t:attack b:eagle ip<=3"}},
        ),
        ("card page", "get", f"/games/revolt-n-reign/cards/{card.slug}/", {}),
        ("api card detail", "get", f"/api/v1/cards/{card.pk}/", {}),
        (
            "validate",
            "post",
            "/api/v1/validate/",
            {"data": body, "content_type": "application/json"},
        ),
    ]

    round_trips = [0]
    original = redis.connection.Connection.send_packed_command

    def counted(self, command, check_health=True):
        round_trips[0] += 1
        return original(self, command, check_health)

    # counting, not changing
    setattr(redis.connection.Connection, "send_packed_command", counted)  # noqa: B010
    client = Client()
    cached = "response cache on" if args.response_cache else "every answer drawn"
    print(
        f"{args.cards:,} generated cards + Revolt N Reign, PostgreSQL, Redis; {args.runs} runs;"
        f" {cached}"
    )
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}, {os.cpu_count()} CPUs\n")
    print("| request | CPU ms (median) | wall ms (median) | SQL statements | Redis round trips |")
    print("|---|---|---|---|---|")
    for label, method, path, options in endpoints:
        call = getattr(client, method)
        for _ in range(5):
            answer = call(path, **options)
            assert answer.status_code == 200, (label, answer.status_code)
        time.sleep(1.1)  # past the caches' recheck interval: one request pays it, as in a run
        call(path, **options)
        cpu, wall = [], []
        for _ in range(args.runs):
            started, clock = time.process_time(), time.perf_counter()
            call(path, **options)
            cpu.append(time.process_time() - started)
            wall.append(time.perf_counter() - clock)
        round_trips[0] = 0
        with CaptureQueriesContext(connection) as queries:
            call(path, **options)
        print(
            f"| {label} | {statistics.median(cpu) * 1000:.2f} | {statistics.median(wall) * 1000:.2f}"
            f" | {len(queries)} | {round_trips[0]} |"
        )


if __name__ == "__main__":
    main()
