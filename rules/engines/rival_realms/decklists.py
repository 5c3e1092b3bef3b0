"""Decks for Rival Realms games outside the database: the sample decklists and built decks.

This is not rules code. It reads ``fixtures/decks/rival-realms/legal-*.txt`` (the plain decklist
format: ``# comments``, ``[Section]`` headers, ``<count> <name>`` lines) and builds random legal
40-card decks from a card set that can play their cards: each comes with what it needs on the
field, and the supply cards pay for the rest (``build_deck``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rules.engines.core import Rng
from rules.engines.rival_realms.cards import CardSpec

DECK_SIZE = 40
DECK_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "decks" / "rival-realms"
SUPPLY_CARDS = 24
COST_SHARE = 0.7
MAX_REINFORCE = 3
MAX_PREREQUISITES = 1


def parse_decklist(text: str) -> dict[str, int]:
    """Return ``{card name: count}`` from decklist text (comments and section headers skipped)."""
    deck: dict[str, int] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "[")):
            continue
        count, _, name = line.partition(" ")
        if not (count.isascii() and count.isdigit()) or not name.strip():
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
    """Build a random legal 40-card deck from ``specs`` that can pay its way, reproducible by
    ``seed``.

    The sample decks set the shape: ``SUPPLY_CARDS`` of the 40 are supply cards, and the costs
    of the other cards add up to no more than ``COST_SHARE`` of the supply the deck's supply cards
    bring (the set's richest supply cards are taken first where the random ones fall short). Each
    card comes with what it needs to be played: its prerequisites (a prerequisite realm in two
    copies where the set and the room allow, so that it turns up) and a card its additional cost
    takes from the field (an archer for another archer's cost). At most ``MAX_REINFORCE``
    reinforce cards, which leave a hand only in a combat, and at most ``MAX_PREREQUISITES``
    different prerequisite realms, so most units are not waiting in hand for a realm.
    """
    rng = Rng(seed)
    by_name = {spec.name: spec for spec in specs}
    left = {spec.name: spec.copies for spec in specs}
    deck: dict[str, int] = {}

    def take(name: str, count: int = 1) -> None:
        left[name] -= count
        deck[name] = deck.get(name, 0) + count

    supply = sorted((s for s in specs if s.type == "supply"), key=lambda s: -s.supply)
    richest = 0
    room_left = SUPPLY_CARDS
    for spec in supply:
        count = min(spec.copies, room_left)
        richest += count * spec.supply
        room_left -= count
    budget = int(richest * COST_SHARE)
    non_supply = DECK_SIZE - SUPPLY_CARDS

    def needs(name: str, seen: set[str]) -> list[str] | None:
        """The cards ``name`` still lacks to be played (prerequisites, then a card for a cost
        paid from the field), or None when the set has no card left to pay such a cost."""
        result: list[str] = []
        spec = by_name[name]
        for prerequisite in spec.prerequisites:
            if prerequisite in deck or prerequisite in seen:
                continue
            seen.add(prerequisite)
            before = needs(prerequisite, seen)
            if before is None:
                return None
            result += [*before, prerequisite]
        for cost in spec.additional_costs:
            if cost.get("pay") not in ("discard_from_field", "lose_from_field"):
                continue
            wanted = [
                other.name
                for other in specs
                if other.name != name
                and other.type == cost.get("card_type", other.type)
                and (not cost.get("subtype") or cost.get("subtype") in other.subtypes)
                and cost.get("name", other.name) == other.name
            ]
            if any(other in deck or other in seen for other in wanted):
                continue
            wanted = [other for other in wanted if left[other]]
            if not wanted:
                return None  # no card of the set left can pay it
            cheapest = min(wanted, key=lambda other: (by_name[other].cost, other))
            seen.add(cheapest)
            before = needs(cheapest, seen)
            if before is None:
                return None
            result += [*before, cheapest]
        return result

    def cost(names: Sequence[str]) -> int:
        return sum(by_name[name].cost for name in names)

    def realms_needed() -> set[str]:
        return {p for name in deck for p in by_name[name].prerequisites}

    spent = 0
    while True:
        room = non_supply - sum(deck.values())
        if room <= 0:
            break
        reinforce = sum(count for name, count in deck.items() if by_name[name].type == "reinforce")
        weighted: list[str] = []
        for spec in specs:
            name = spec.name
            if spec.type == "supply" or not left[name]:
                continue
            if spec.type == "reinforce" and reinforce >= MAX_REINFORCE:
                continue
            needed = needs(name, set())
            if needed is None or len(needed) + 1 > room or any(left[n] < 1 for n in needed):
                continue
            if spent + cost([*needed, name]) > budget:
                continue
            new_realms = {p for n in [*needed, name] for p in by_name[n].prerequisites}
            if len(realms_needed() | new_realms) > MAX_PREREQUISITES:
                continue
            # Units come up three times as often as realms and reinforce cards (they deal the
            # damage), and cards the deck can already play twice as often as the others.
            weighted += [name] * ((3 if spec.type == "unit" else 1) * (1 if needed else 2))
        if not weighted:
            break
        name = rng.choice(weighted)
        lacking = needs(name, set()) or []
        spent += cost([*lacking, name])
        room -= len(lacking) + 1
        for card in lacking:
            take(card)
            # A second copy of a prerequisite realm, where the set, the room and the budget allow
            if (
                by_name[card].type == "realm"
                and left[card]
                and room >= 1
                and spent + by_name[card].cost <= budget
            ):
                take(card)
                spent += by_name[card].cost
                room -= 1
        take(name)
    # Supply fills the rest, at random, then the poorest are traded for the richest left in the
    # set until the supply covers the costs.
    names = [s.name for s in supply]
    while sum(deck.values()) < DECK_SIZE:
        take(rng.choice([n for n in names if left[n]]))

    def brought() -> int:
        return sum(by_name[n].supply * c for n, c in deck.items() if by_name[n].type == "supply")

    while brought() * COST_SHARE < spent:
        poorest = min((n for n in names if deck.get(n)), key=lambda n: by_name[n].supply)
        richer = [n for n in names if left[n] and by_name[n].supply > by_name[poorest].supply]
        if not richer:
            break
        deck[poorest] -= 1
        left[poorest] += 1
        if not deck[poorest]:
            del deck[poorest]
        take(max(richer, key=lambda n: by_name[n].supply))
    return deck
