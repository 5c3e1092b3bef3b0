"""Benchmark: validate 10,000 random Revolt N Reign decks in-process; print decks/s and us/deck.

    .venv/bin/python bench/validate.py [--decks 10000] [--seed 7] [--format standard]

It builds a throw-away in-memory database, loads the game data (fixtures/), then times only the
``validate`` calls. The card index is built once before timing (first use) and reused, as in a
long-running server. Random decks are realistic: about 60 cards, 3 UAs, a mix of types, some
doubled names and some rule breaks, so every check runs.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

GAME = "revolt-n-reign"


def setup() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", game=[GAME], verbosity=0, stdout=io.StringIO())


def random_decks(count: int, seed: int) -> list[dict[str, int]]:
    """``count`` random decks: shaped like real ones, about one in four breaking some rule."""
    from decks.validation import card_index

    rng = random.Random(seed)
    by_type: dict[str, list[str]] = {}
    for card in card_index(GAME).cards:
        by_type.setdefault(card.type, []).append(card.name)
    decks = []
    for _ in range(count):
        deck: dict[str, int] = {}
        for name in rng.sample(by_type["unconstitutional-act"], 3 + (rng.random() < 0.05)):
            deck[name] = 1
        for kind, low, high in (
            ("attack", 8, 14),
            ("defense", 6, 10),
            ("rights", 6, 12 + (rng.random() < 0.1)),
            ("freedom", 1, 3 + (rng.random() < 0.1)),
            ("bill", 1, 3 + (rng.random() < 0.1)),
        ):
            for name in rng.sample(by_type[kind], rng.randint(low, high)):
                deck[name] = 1
        for name in rng.sample(by_type["attack"] + by_type["defense"], rng.randint(0, 5)):
            deck[name] = 2
        pillars = by_type["pillar"]
        while sum(deck.values()) < 60 - (rng.random() < 0.05):
            name = rng.choice(pillars)
            deck[name] = deck.get(name, 0) + 1
        decks.append(deck)
    return decks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--format", default=None, help="also apply a format, e.g. standard")
    args = parser.parse_args()
    setup()
    import datetime as dt

    from decks.validation import validate

    decks = random_decks(args.decks, args.seed)
    as_of = dt.date(2026, 10, 1)
    validate(GAME, decks[0], format=args.format, as_of=as_of)  # build the caches untimed
    start, cpu_start = time.perf_counter(), time.process_time()
    legal = 0
    for deck in decks:
        legal += validate(GAME, deck, format=args.format, as_of=as_of).legal
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    count = len(decks)
    print(f"validated {count} random {GAME} decks ({legal} legal) in {elapsed:.3f} s")
    print(f"{count / elapsed:,.0f} decks/s, {elapsed / count * 1e6:.1f} us/deck (wall clock)")
    # On a shared machine the process does not get a whole core; CPU time shows what one core does.
    print(f"{count / cpu:,.0f} decks/s, {cpu / count * 1e6:.1f} us/deck (CPU time, one core)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
