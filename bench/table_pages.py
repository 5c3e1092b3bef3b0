"""Benchmark: a replay step with its table — server time per game.

    .venv/bin/python bench/table_pages.py [--runs 50]

It builds a throw-away database (a file in a temporary folder, so that the process's background
runner, which plays the matchup in its own thread and connection, sees the same tables), loads
the game data, creates two sample decks of each game measured, has a one-game matchup with
random agents played as a running server plays it (posted through the page, played by the
runner) and then requests the middle step of that game's replay through Django's test
client (the whole middleware and template stack, no network), printing the median and p95
server time and the queries of one request.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
FOLDER = tempfile.TemporaryDirectory(prefix="deckwright-table-pages-")
os.environ["DATABASE_URL"] = f"sqlite:///{Path(FOLDER.name) / 'bench.sqlite3'}"

#: game -> its two sample decklists (fixtures/decks/<game>/<name>.txt)
GAMES = {
    "revolt-n-reign": ("legal-eagle-control", "legal-bison-pressure"),
    "rival-realms": ("legal-arcane-court", "legal-knights-and-keeps"),
    "reign-absolute": ("legal-elves-grove", "legal-empire-legion"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", game=list(GAMES), verbosity=0, stdout=io.StringIO())

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from decks.selectors import format_default
    from decks.services import deck_create
    from rules.lab.jobs import simulation_job_wait

    setup_test_environment()  # responses carry their template context (the step count)
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    client = Client()
    client.force_login(user)
    for game, names in GAMES.items():
        decks = [
            deck_create(
                owner=user,
                game=game,
                name=name,
                decklist=(ROOT / "fixtures" / "decks" / game / f"{name}.txt").read_text("utf-8"),
                format=format_default(game),
            )
            for name in names
        ]
        data = {"deck_a": decks[0].pk, "deck_b": decks[1].pk, "agent_a": "random"}
        data |= {"agent_b": "random", "games": 1, "seed": 5}
        response = client.post(reverse("matchup-new"), data)
        pk = int(response["Location"].rstrip("/").split("/")[-1])
        if not simulation_job_wait(job_id=pk, timeout=600):
            raise SystemExit(f"{game}: the background runner did not finish the matchup")
        url = reverse("simulation-game", args=[pk, 1])
        total = client.get(url).context["total"]  # plays the game again once, then cached
        query = {"step": total // 2 + 1}
        client.get(url, query)  # warm the engine and the card links, as a running server would
        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            client.get(url, query)
            timings.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as queries:
            client.get(url, query)
        timings.sort()
        p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
        print(
            f"{game}: replay step {query['step']} of {total} with its table, {args.runs} "
            f"requests: median {statistics.median(timings) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, {len(queries)} queries"
        )
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
