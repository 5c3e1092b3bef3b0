"""Benchmark: the deck builder page with a 60-card Revolt N Reign deck — bytes and server time.

    .venv/bin/python bench/pages.py [--runs 25]

It builds a throw-away in-memory database, loads the game data, creates a user and a deck from the
sample ``legal-eagle-control`` list, then requests the owner's deck page through Django's test
client (the whole middleware and template stack, no network) and prints the HTML size, the
number of queries and the median/p95 server time.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

GAME = "revolt-n-reign"
SAMPLE = ROOT / "fixtures" / "decks" / GAME / "legal-eagle-control.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=25)
    args = parser.parse_args()

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", game=[GAME], verbosity=0, stdout=io.StringIO())

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from decks.services import deck_create

    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    deck = deck_create(
        owner=user, game=GAME, name="Eagle Control", decklist=SAMPLE.read_text(encoding="utf-8")
    )
    client = Client()
    client.force_login(user)
    url = reverse("deck-detail", args=[deck.pk])
    client.get(url)  # warm the card index and templates, as a running server would be
    timings = []
    size = 0
    for _ in range(args.runs):
        started = time.perf_counter()
        response = client.get(url)
        timings.append(time.perf_counter() - started)
        size = len(response.content)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    timings.sort()
    p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
    print(f"deck builder page, 60-card {GAME} deck, owner view, {args.runs} requests")
    print(f"HTML {size:,} bytes, {len(queries)} queries")
    print(f"server time median {statistics.median(timings) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
