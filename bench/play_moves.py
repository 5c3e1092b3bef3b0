"""Benchmark: a move against the AI in the browser (``/play/``) — server time per request.

    .venv/bin/python bench/play_moves.py [--moves 30]

It builds a throw-away in-memory database, loads the game data, creates two sample decks of each
game measured and plays ``--moves`` moves through Django's test client (the whole middleware
and template stack, no network): each move is a POST of a seeded random legal action, which
replays the stored game, applies the move and the agent's whole reply (the agent each game's
form offers first, with the web's budget) and redirects; a new game starts when one ends. It
prints the median and p95 time of the POST and of the GET of the page that follows.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"
# one client makes every move as fast as it is answered: the per-client limit of the move and
# new-game pages (PLAY_MOVE_RATE, web/limits.py) would turn it away after 120 a minute
os.environ.setdefault("PLAY_MOVE_RATE", "100000/minute")

RELIGION = (
    "[Side]\n"
    + "".join(
        f"1 {name}\n" for name in ("Bishop", "Cardinal", "Hierophant", "Monk", "Paladin", "Saint")
    )
    + "1 Temple\n[Neutral]\n1 Fairy\n1 Pirate\n1 Witch\n1 Dragon\n1 Sage\n"
)
#: game -> (its two decklists: a sample's name or the text itself, the agent)
GAMES = {
    "revolt-n-reign": ("legal-eagle-control", "legal-bison-pressure", "greedy"),
    "regality-vs-religion": ("legal-regality-standard", RELIGION, "alphabeta"),
    "reign-absolute": ("legal-elves-grove", "legal-empire-legion", "greedy"),
    "rival-realms": ("legal-arcane-court", "legal-knights-and-keeps", "team"),
}


def _p95(timings: list[float]) -> float:
    ordered = sorted(timings)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", game=list(GAMES), verbosity=0, stdout=io.StringIO())

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from decks.selectors import format_default
    from decks.services import deck_create

    setup_test_environment()  # responses carry their template context (the choices)
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    client = Client()
    client.force_login(user)
    rng = random.Random(1)
    for game, (first, second, agent) in GAMES.items():
        decks = []
        for name in (first, second):
            path = ROOT / "fixtures" / "decks" / game / f"{name}.txt"
            text = path.read_text("utf-8") if "\n" not in name else name
            decks.append(
                deck_create(
                    owner=user,
                    game=game,
                    name=name.splitlines()[0][:40],
                    decklist=text,
                    format=format_default(game),
                    variant="standard" if game == "regality-vs-religion" else "",
                )
            )
        posts: list[float] = []
        pages: list[float] = []
        url = ""
        while len(posts) < args.moves:
            page = client.get(url) if url else None
            if page is None or not page.context["choices"]:
                data = {"deck": decks[0].pk, "opponent": decks[1].pk, "agent": agent}
                url = client.post(reverse("play-new"), data)["Location"]
                continue
            choices = page.context["choices"]
            data = {"action": rng.randrange(len(choices)), "version": page.context["game"].version}
            started = time.perf_counter()
            answer = client.post(f"{url}move/", data)
            posts.append(time.perf_counter() - started)
            assert answer.status_code == 302, answer.status_code
            started = time.perf_counter()
            client.get(url)
            pages.append(time.perf_counter() - started)
        print(
            f"{game} against {agent}, {len(posts)} moves: POST median "
            f"{statistics.median(posts) * 1000:.0f} ms, p95 {_p95(posts) * 1000:.0f} ms; "
            f"page median {statistics.median(pages) * 1000:.0f} ms, p95 {_p95(pages) * 1000:.0f} ms"
        )
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
