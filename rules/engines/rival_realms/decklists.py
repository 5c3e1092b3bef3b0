"""Decks for Rival Realms games outside the database: the sample decklists and built decks.

This is not rules code. It reads ``fixtures/decks/rival-realms/legal-*.txt`` (the plain decklist
format: ``# comments``, ``[Section]`` headers, ``<count> <name>`` lines) and builds random legal
40-card decks from a card set, adding each chosen card's prerequisites so the deck can play them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rules.engines.core import Rng
from rules.engines.rival_realms.cards import CardSpec

DECK_SIZE = 40
DECK_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "decks" / "rival-realms"
SUPPLY_TARGET = 16


def parse_decklist(text: str) -> dict[str, int]:
    """Return ``{card name: count}`` from decklist text (comments and section headers skipped)."""
    deck: dict[str, int] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "[")):
            continue
        count, _, name = line.partition(" ")
        if not count.isdigit() or not name.strip():
            raise ValueError(f"not a decklist line: {line!r}")
        deck[name.strip()] = deck.get(name.strip(), 0) + int(count)
    return deck


def fixture_decks(folder: Path = DECK_DIR) -> dict[str, dict[str, int]]:
    """Return the legal sample decks by file stem (empty when the folder is absent)."""
    if not folder.is_dir():
        return {}
    return {
        path.stem: parse_decklist(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("legal-*.txt"))
    }


def deck_problems(deck: Mapping[str, int], specs: Sequence[CardSpec]) -> list[str]:
    """Return why ``deck`` is not a legal 40-card deck of this set (empty when it is)."""
    by_name = {spec.name: spec for spec in specs}
    problems = []
    total = sum(deck.values())
    if total != DECK_SIZE:
        problems.append(f"a deck has {DECK_SIZE} cards, not {total}")
    for name, count in sorted(deck.items()):
        spec = by_name.get(name)
        if spec is None:
            problems.append(f"{name!r} is not a card of the set")
        elif count > spec.copies:
            problems.append(f"{name}: {count} copies, the set has {spec.copies}")
    return problems


def build_deck(specs: Sequence[CardSpec], seed: int) -> dict[str, int]:
    """Build a random legal 40-card deck from ``specs``, reproducible by ``seed``.

    About 16 supply cards come first, then permanents and reinforce cards drawn at random, each
    together with the prerequisites it still lacks.
    """
    rng = Rng(seed)
    by_name = {spec.name: spec for spec in specs}
    left = {spec.name: spec.copies for spec in specs}
    deck: dict[str, int] = {}

    def take(name: str) -> None:
        left[name] -= 1
        deck[name] = deck.get(name, 0) + 1

    supply = [s.name for s in specs if s.type == "supply"]
    while sum(deck.values()) < SUPPLY_TARGET and any(left[n] for n in supply):
        take(rng.choice([n for n in supply if left[n]]))
    others = [s.name for s in specs if s.type != "supply"]

    def missing(name: str, seen: set[str]) -> list[str]:
        result: list[str] = []
        for prerequisite in by_name[name].prerequisites:
            if prerequisite in deck or prerequisite in seen:
                continue
            seen.add(prerequisite)
            result += [*missing(prerequisite, seen), prerequisite]
        return result

    while sum(deck.values()) < DECK_SIZE:
        room = DECK_SIZE - sum(deck.values())
        fits = []
        for name in others:
            if left[name]:
                needed = missing(name, set())
                if len(needed) < room and all(left[p] for p in needed):
                    fits.append(name)
        fits = fits or [n for n in left if left[n] and not by_name[n].prerequisites]
        name = rng.choice(fits)
        for prerequisite in missing(name, set()):
            take(prerequisite)
        take(name)
    return deck
