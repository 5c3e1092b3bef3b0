"""Seeded random decks of every game, legal and illegal, validated; printed as JSON reports.

    python tests/decks/validation_differential.py [--decks N] [--seed S]

``test_compiled_validation.py`` runs it once on the compiled build (``DECKWRIGHT_ENGINES=compiled``)
and once as pure Python and requires the two outputs to be identical byte for byte. It loads
every game's data into a throw-away in-memory database, then for each game validates its sample
decklists (``fixtures/decks/<game>/``) as they are and ``--decks`` mutations of them: copies added
or taken away, cards swapped for other cards of the game, names misspelt or unknown, quantities
that are no whole number, cards moved to other zones or to a zone the game lacks, each with and
without a format on a few dates and, where the game has variants, in a random variant. Decks go
in every shape ``validate`` reads: a ``{name: quantity}`` mapping (the fast path), ``(name,
quantity, zone)`` tuples and decklist entries with line numbers. The first line is a header
naming the build; then one line per deck: game, seed, verdict and the whole report.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

DATES = (
    None,
    dt.date(2025, 6, 1),
    dt.date(2026, 3, 15),
    dt.date(2026, 5, 15),
    dt.date(2026, 10, 1),
)
ODD_QUANTITIES: tuple[Any, ...] = (0, -1, "2", 2.0, True, None)


def setup() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
    call_command("load_game_data", verbosity=0, stdout=io.StringIO())


def samples(game: str) -> list[list[tuple[str, int, str, int]]]:
    """The game's sample decklists as (name, quantity, zone, line) entries."""
    from decks.decklist import decklist_entries, decklist_read

    found = []
    for path in sorted((ROOT / "fixtures" / "decks" / game).glob("*.txt")):
        decklist = decklist_read(path.read_text(encoding="utf-8"))
        entries = decklist_entries(game, decklist)
        found.append([(e.name, e.quantity, e.zone, e.line) for e in entries])
    return found


def mutate(
    rng: random.Random,
    deck: list[tuple[Any, Any, str, int]],
    names: list[str],
    listed: list[str],
    zones: tuple[str, ...],
) -> list[tuple[Any, Any, str, int]]:
    """A few random changes to a deck (a third of them none): most keep it close to a real one.
    ``listed`` are the cards a format bans or restricts."""
    deck = list(deck)
    if listed and rng.random() < 0.1:
        deck.append((rng.choice(listed), rng.choice((1, 2)), "", 0))
    for _ in range(rng.choice((0, 0, 1, 2, 3, 5))):
        roll = rng.random()
        at = rng.randrange(len(deck)) if deck else None
        if roll < 0.2 and at is not None and type(deck[at][1]) is int:
            name, quantity, zone, line = deck[at]
            deck[at] = (name, max(1, quantity + rng.choice((-1, 1, 2))), zone, line)
        elif roll < 0.4 and at is not None:
            name, quantity, zone, line = deck[at]
            deck[at] = (rng.choice(names), quantity, zone, line)
        elif roll < 0.55:
            zone = rng.choice(zones) if zones and rng.random() < 0.8 else ""
            deck.append((rng.choice(names), rng.choice((1, 1, 2, 3)), zone, 0))
        elif roll < 0.65 and at is not None:
            del deck[at]
        elif roll < 0.72:
            name = rng.choice(names)
            spelt = rng.choice(
                (name.upper(), name.lower() + "!", name[:-2] + "zq", "Card Nobody Printed")
            )
            deck.append((spelt, rng.choice((1, 2)), "", 90 + len(deck)))
        elif roll < 0.78 and at is not None:
            name, _, zone, line = deck[at]
            deck[at] = (name, rng.choice(ODD_QUANTITIES), zone, line)
        elif roll < 0.86 and at is not None and zones:
            name, quantity, _, line = deck[at]
            deck[at] = (name, quantity, rng.choice((*zones, "sideboard")), line)
        elif at is not None:
            name, quantity, zone, line = deck[at]
            deck.append((name, quantity, zone, line))  # the same name twice
    return deck


def shaped(
    rng: random.Random, deck: list[tuple[Any, Any, str, int]], zones: tuple[str, ...]
) -> Any:
    """The deck in one of the shapes ``validate`` reads (a mapping only where zones do not matter)."""
    from decks.decklist import DecklistEntry

    roll = rng.random()
    if not zones and roll < 0.5:
        mapping: dict[Any, Any] = {}
        for name, quantity, _, _ in deck:
            if type(quantity) is int and type(mapping.get(name, 0)) is int:
                mapping[name] = mapping.get(name, 0) + quantity
            else:
                mapping[name] = quantity
        return mapping
    if roll < 0.75:
        return [(name, quantity, zone) for name, quantity, zone, _ in deck]
    return [DecklistEntry(str(n), q, "", line, zone) for n, q, zone, line in deck]


def reports(count: int, seed: int) -> list[dict[str, Any]]:
    from decks.models import Format, FormatCardEntry
    from decks.validation import card_index, registered_games, rules_for, validate

    lines = []
    for game in registered_games():
        rules = rules_for(game)
        names = [card.name for card in card_index(game).cards]
        formats = [
            None,
            *Format.objects.filter(game__slug=game).order_by("slug").values_list("slug", flat=True),
        ]
        listed = sorted(
            set(
                FormatCardEntry.objects.filter(format__game__slug=game).values_list(
                    "card__name", flat=True
                )
            )
        )
        bases = samples(game)
        for number in range(len(bases) + count):
            rng = random.Random(f"{seed}-{game}-{number}")
            if number < len(bases):
                deck = bases[number]
                variant = None
            else:
                deck = mutate(rng, rng.choice(bases), names, listed, rules.zones)
                variant = (
                    rng.choice(rules.variants) if rules.variants and rng.random() < 0.7 else None
                )
            format_slug = rng.choice(formats)
            as_of = rng.choice(DATES)
            report = validate(
                game,
                shaped(rng, deck, rules.zones),
                format=format_slug,
                as_of=as_of,
                variant=variant,
            )
            lines.append(
                {"game": game, "deck": number, "legal": report.legal, "report": report.to_dict()}
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=300, help="mutated decks per game")
    parser.add_argument("--seed", type=int, default=29)
    options = parser.parse_args()
    setup()
    from decks.validation import resolved
    from rules import compiled

    print(json.dumps({"build": compiled.chosen, "module": Path(resolved.__file__ or "").name}))
    for line in reports(options.decks, options.seed):
        print(json.dumps(line, sort_keys=True, default=str))


if __name__ == "__main__":
    main()
