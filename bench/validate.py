"""Benchmark: validate random Revolt N Reign decks in-process; print decks/s for each build.

    .venv/bin/python bench/validate.py [--decks 10000] [--seed 7] [--format standard]
                                       [--rounds 3] [--builds both|current] [--profile|--steps]

It builds a throw-away in-memory database, loads the game data (fixtures/), then times only the
``validate`` calls: once without a format and once with the format's ban list, restricted list
and legal sets (``--format``, default ``standard``, on 2026-10-01). The card index and the format
snapshot are built once before timing (first use) and reused, as in a long-running server.
Random decks are realistic: about 60 cards, 3 UAs, a mix of types, some doubled names and some
rule breaks, so every check runs.

With ``--builds both`` (the default when a compiled build is there: rules/compiled.py) each
build is measured in its own process, compiled (``DECKWRIGHT_ENGINES=compiled``) and pure Python
(``DECKWRIGHT_ENGINES=python``). Each figure is the best of ``--rounds`` passes over the decks,
in CPU seconds of the process (``time.process_time``: one core, less disturbed by other work on
a shared machine); the wall-clock rate of the same pass is printed beside it. ``--profile``
prints a cProfile of one pass (with the format) of the build this process runs instead;
``--steps`` times each step of ``validate`` in it (finding the deck validator, then its work:
matching, the game's rules, the format).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

GAME = "revolt-n-reign"
AS_OF = dt.date(2026, 10, 1)


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


def timed_pass(decks: list[dict[str, int]], format_slug: str | None) -> dict[str, float]:
    """One pass over the decks: legal count, wall and CPU seconds."""
    from decks.validation import validate

    validate(GAME, decks[0], format=format_slug, as_of=AS_OF)  # build the caches untimed
    start, cpu_start = time.perf_counter(), time.process_time()
    legal = 0
    for deck in decks:
        legal += validate(GAME, deck, format=format_slug, as_of=AS_OF).legal
    return {
        "legal": legal,
        "wall": time.perf_counter() - start,
        "cpu": time.process_time() - cpu_start,
    }


def measure(decks_count: int, seed: int, format_slug: str, rounds: int) -> dict[str, Any]:
    """Every figure of the build this process runs: without a format, then with one."""
    setup()
    from decks.validation import resolved
    from rules import compiled

    decks = random_decks(decks_count, seed)
    runs = {}
    for label, slug in (("no format", None), (f"format {format_slug}", format_slug)):
        passes = [timed_pass(decks, slug) for _ in range(rounds)]
        best = min(passes, key=lambda figures: figures["cpu"])
        runs[label] = {
            "legal": best["legal"],
            "cpu_rate": len(decks) / best["cpu"],
            "wall_rate": len(decks) / best["wall"],
        }
    return {
        "build": compiled.chosen,
        "module": Path(resolved.__file__ or "").name,
        "decks": len(decks),
        "runs": runs,
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
    }


def report(figures: dict[str, Any]) -> None:
    print(f"== validation: {figures['build']} (decks.validation.resolved from {figures['module']})")
    for label, run in figures["runs"].items():
        print(
            f"{label:18s} {run['cpu_rate']:9,.0f} decks/s {1e6 / run['cpu_rate']:6.1f} us/deck "
            f"(CPU, one core)   {run['wall_rate']:9,.0f} decks/s wall   "
            f"{run['legal']:,} of {figures['decks']:,} legal"
        )
    print(f"load average {figures['load']:.2f} on {os.cpu_count()} cores")


def profile(decks_count: int, seed: int, format_slug: str) -> None:
    import cProfile
    import pstats

    setup()
    from rules import compiled

    decks = random_decks(decks_count, seed)
    timed_pass(decks[:10], format_slug)
    print(f"== cProfile of one pass, format {format_slug}: {compiled.chosen}")
    profiler = cProfile.Profile()
    profiler.runcall(timed_pass, decks, format_slug)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def steps(decks_count: int, seed: int, format_slug: str) -> None:
    """Microseconds per deck of each step of ``validate``, in this process's build (best of 7)."""
    setup()
    from decks.validation import card_index, deck_validator, rules_for
    from decks.validation.base import resolve
    from decks.validation.format_check import check_deck_format
    from decks.validation.formats import format_id_for, format_rules
    from decks.validation.report import ValidationReport
    from rules import compiled

    decks = random_decks(decks_count, seed)
    timed_pass(decks[:10], format_slug)
    rules, index = rules_for(GAME), card_index(GAME)
    format_id = format_id_for(GAME, format_slug)
    assert format_id is not None
    snapshot = format_rules(format_id, AS_OF)
    scratch = ValidationReport(game=GAME)
    resolved = [resolve(index, rules.zones, rules.pool_rule, deck, scratch) for deck in decks]
    validator = deck_validator(GAME, format_slug, AS_OF)
    from decks.validation import validate

    def best(run: Any) -> float:
        times = []
        for _ in range(7):
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
        return min(times) / len(decks) * 1e6

    print(f"== steps of one validation (us per deck, CPU, best of 7): {compiled.chosen}")

    def check_rules() -> None:
        for r in resolved:
            rules.check(r, ValidationReport(game=GAME), None)

    def check_formats() -> None:
        for r in resolved:
            check_deck_format(snapshot, r, scratch)

    for label, run in (
        (
            f"validate, format {format_slug}",
            lambda: [validate(GAME, d, format=format_slug, as_of=AS_OF) for d in decks],
        ),
        ("validate, no format", lambda: [validate(GAME, d, as_of=AS_OF) for d in decks]),
        (
            f"  DeckValidator.validate, {format_slug}",
            lambda: [validator.validate(d) for d in decks],
        ),
        (
            "  resolve",
            lambda: [resolve(index, rules.zones, rules.pool_rule, d, scratch) for d in decks],
        ),
        (
            "  the game's rules",
            check_rules,
        ),
        (
            "  check_deck_format",
            check_formats,
        ),
        (
            "  finding the validator",
            lambda: [deck_validator(GAME, format_slug, AS_OF) for _ in decks],
        ),
        ("  the report", lambda: [ValidationReport(game=GAME) for _ in decks]),
    ):
        print(f"{label:34s} {best(run):6.2f}")


def main() -> None:
    from bench.engines import add_builds_option, both_builds_reported

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--format", default="standard", help="the format of the second figure")
    parser.add_argument("--rounds", type=int, default=3, help="passes per figure (best counts)")
    add_builds_option(parser)
    parser.add_argument("--profile", action="store_true", help="cProfile one pass instead")
    parser.add_argument("--steps", action="store_true", help="time each step of validate instead")
    options = parser.parse_args()
    if options.profile:
        profile(options.decks, options.seed, options.format)
        return
    if options.steps:
        steps(options.decks, options.seed, options.format)
        return
    if options.builds == "current":
        figures = measure(options.decks, options.seed, options.format, options.rounds)
        if options.json:
            print(json.dumps(figures))
        else:
            report(figures)
        return
    argv = ["--decks", str(options.decks), "--seed", str(options.seed)]
    argv += ["--format", options.format, "--rounds", str(options.rounds)]
    fast, slow = both_builds_reported(argv, report)
    print("== compiled / Python (decks/s, CPU)")
    for label, run in fast["runs"].items():
        print(f"{label:18s} {run['cpu_rate'] / slow['runs'][label]['cpu_rate']:5.2f}x")


if __name__ == "__main__":
    main()
