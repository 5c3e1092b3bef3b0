"""Benchmark: pages' bytes and server time — the deck builder page with a 60-card Revolt N Reign
deck, the forms with long selects (a new event, a matchup, a simulation: it lists the user's ten
recent jobs), two API lists whose rows join their game, the API's job list, and the OpenAPI
document.

    .venv/bin/python bench/pages.py [--runs 25]

It builds a throw-away in-memory database, loads every game's data and the demo set (23 public
decks, which the matchup and simulation forms list), creates a user (an organiser) and a deck
from the sample ``legal-eagle-control`` list and ten finished 16-deck metagame jobs of random
agents (one job played, two games a pairing, and stored nine times more: each holds 120
pairings' setups and every deck's card figures), then requests each page through Django's test
client (the whole middleware and template stack, no network) and prints, a page a line, the
size, the number of queries, the first request's time (a process's first: the OpenAPI document
is built then, and kept) and the median/p95 server time of the rest. The document is also
requested as the docs pages' browsers do on a later visit, with the ``ETag`` of the last answer.
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
    call_command("load_game_data", verbosity=0, stdout=io.StringIO())
    call_command("load_demo", verbosity=0, stdout=io.StringIO())

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from decks.services import deck_create, organiser_grant

    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    organiser_grant(user=user)
    deck = deck_create(
        owner=user, game=GAME, name="Eagle Control", decklist=SAMPLE.read_text(encoding="utf-8")
    )
    metagames_store(user, 10)
    client = Client()
    client.force_login(user)
    schema = reverse("api:schema")
    json_schema = {"Accept": "application/vnd.oai.openapi+json"}
    pages: list[tuple[str, str, dict[str, str]]] = [
        (
            f"deck builder page, 60-card {GAME} deck, owner view",
            reverse("deck-detail", args=[deck.pk]),
            {},
        ),
        ("new event form (599 time zones)", reverse("event-new"), {}),
        ("matchup form (four deck selects)", reverse("matchup-new"), {}),
        ("simulation form (deck select and boxes)", reverse("simulation-new"), {}),
        (
            "API deck list (the demo set's 23 public decks and the bench's own)",
            "/api/v1/decks/",
            {},
        ),
        ("API card types of every game, signed in", "/api/v1/card-types/", {}),
        ("API job list (ten 16-deck metagames)", "/api/v1/simulations/", {}),
        ("OpenAPI document, YAML", schema, {}),
        ("OpenAPI document, JSON", schema, json_schema),
    ]
    print(
        f"{args.runs} requests a page; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )
    etag = ""
    for label, url, headers in pages:
        started = time.perf_counter()
        response = client.get(url, headers=headers)  # warms the card index and templates too
        first = time.perf_counter() - started
        etag = response.get("ETag", "")
        measure(client, label, url, headers, args.runs, first)
    measure(
        client,
        "OpenAPI document, JSON, If-None-Match",
        schema,
        {**json_schema, "If-None-Match": etag},
        args.runs,
    )


def metagames_store(user: Any, count: int) -> None:
    """``count`` finished metagame jobs of ``user`` between 16 Revolt N Reign decks (the demo
    set's, the user's and private copies of them), of random agents: one played, the others
    stored as copies."""
    from django.contrib.auth import get_user_model

    from decks.models import Deck
    from decks.selectors import deck_export
    from decks.services import deck_create
    from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
    from rules.lab.plans import metagame_plan

    # the copies are another user's private decks: no deck list or select of the user grows
    copier = get_user_model().objects.create_user("bench-copies")
    decks = list(Deck.objects.filter(game__slug=GAME))
    for n in range(16 - len(decks)):
        text = deck_export(decks[n % 3])
        decks.append(deck_create(owner=copier, game=GAME, name=f"Copy {n}", decklist=text))
    plan = metagame_plan(decks=decks, agent="random", games_per_pairing=2)
    job = simulation_job_create(kind="metagame", plan=plan, owner=user, seed=1, dispatch=False)
    job = simulation_job_play_inline(job_id=job.pk)
    assert job.status == "done", job.error
    for _ in range(count - 1):
        job.pk = None
        job.save()


def measure(
    client: Any, label: str, url: str, headers: dict[str, str], runs: int, first: float = 0.0
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    timings = []
    response = None
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url, headers=headers)
        timings.append(time.perf_counter() - started)
    assert response is not None
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    timings.sort()
    p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
    opening = f"first {first * 1000:.1f} ms, " if first else ""
    print(
        f"{label}: {response.status_code}, {len(response.content):,} bytes, {len(queries)} queries,"
        f" {opening}server time median {statistics.median(timings) * 1000:.1f} ms,"
        f" p95 {p95 * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
