"""Benchmark: server CPU per request of a repeated anonymous card page and API search, with and
without the catalogue's HTTP caching (decks/httpcache.py).

    .venv/bin/python bench/http_cache.py [--runs 300] [--redis redis://127.0.0.1:6379/8]

It builds a throw-away in-memory database with the Revolt N Reign data, then one client (Django's
test client: the whole middleware and template stack, no network) asks the same URL ``--runs``
times in each mode and the process's CPU time per request is printed:

- ``no caching``: ``CatalogueCacheMiddleware`` left out (the server before it);
- ``validators only``: the middleware on, the response cache off (every answer drawn);
- ``response cache hit``: answered from the shared response cache;
- ``304 revalidation``: the client sends back its ``ETag`` (a card page's rolls over every
  ``DECK_LISTS_SECONDS``, after which the old one gets 200s: the answers column counts them).

The cache is Redis (the given database is flushed) when it answers, else this process's memory;
Redis's own CPU is not counted (it runs in its own process).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

GAME = "revolt-n-reign"
SEARCH = "/api/v1/cards/?q=t%3Aattack&game=revolt-n-reign"
MIDDLEWARE = "decks.httpcache.CatalogueCacheMiddleware"


def _redis_answers(url: str) -> bool:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except (redis.RedisError, OSError):
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/8")
    args = parser.parse_args()
    use_redis = _redis_answers(args.redis)
    if use_redis:
        os.environ["REDIS_URL"] = args.redis

    import django
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command

    django.setup()
    if use_redis:
        cache.clear()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", game=[GAME], verbosity=0, stdout=io.StringIO())

    from django.test import Client
    from django.test.utils import override_settings

    from cards.models import Card

    card = Card.objects.filter(game__slug=GAME).order_by("name").first()
    assert card is not None
    urls = {"card page": card.get_absolute_url(), "API search": SEARCH}
    without = [name for name in settings.MIDDLEWARE if name != MIDDLEWARE]
    # a generous throttle: the bench measures the work, not the refusals
    configured: dict[str, Any] = settings.REST_FRAMEWORK
    rates = {**configured["DEFAULT_THROTTLE_RATES"], "anon": "1000000/minute"}
    framework = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    def measure(url: str, *, middleware: list[str], seconds: int, etag: bool) -> tuple[float, str]:
        with override_settings(
            MIDDLEWARE=middleware,
            RESPONSE_CACHE_SECONDS=seconds,
            REST_FRAMEWORK=framework,
            CATALOGUE_SETTLE_SECONDS=0,  # one process: nothing to wait for after the load
        ):
            client = Client()
            first = client.get(url)
            assert first.status_code == 200, (url, first.status_code)
            headers: dict[str, Any] = {"HTTP_IF_NONE_MATCH": first["ETag"]} if etag else {}
            client.get(url, **headers)  # warm
            cpu = []
            answers: Counter[str] = Counter()
            for _ in range(args.runs):
                started = time.process_time()
                response = client.get(url, **headers)
                cpu.append(time.process_time() - started)
                answers[f"{response.status_code} {response.get('X-Deckwright-Cache', '-')}"] += 1
            return statistics.mean(cpu) * 1000, ", ".join(f"{n} x {a}" for a, n in answers.items())

    modes = [
        ("no caching", without, 0, False),
        ("validators only", settings.MIDDLEWARE, 0, False),
        ("response cache hit", settings.MIDDLEWARE, 600, False),
        ("304 revalidation", settings.MIDDLEWARE, 600, True),
    ]
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, nproc {os.cpu_count()}, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
        f"cache: {'Redis' if use_redis else 'process memory'}, {args.runs} requests per cell"
    )
    print(f"{'mode':<20} {'URL':<11} {'CPU ms/request':>15}  answers")
    for label, url in urls.items():
        for mode, middleware, seconds, etag in modes:
            cpu_ms, status = measure(url, middleware=middleware, seconds=seconds, etag=etag)
            print(f"{mode:<20} {label:<11} {cpu_ms:>15.3f}  {status}")
    if use_redis:
        cache.clear()


if __name__ == "__main__":
    main()
