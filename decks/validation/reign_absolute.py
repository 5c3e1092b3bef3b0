"""Reign Absolute: Umbrous Edition: a faction deck is one faction's units, exactly one Liege.

The deck is the whole faction deck: the Liege states its size (``stats.faction_deck_size``) and
each unit appears exactly as often as the faction deck holds it (``copies_in_set``). Reinforcements form the shared
Reinforcement Deck and are never part of a faction deck ("Setup"). Rulings:
docs/rules/reign-absolute.md.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from decks.validation.game_rules import GameRules, register
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck

LIEGE, UNIT = "liege", "unit"
REQUIRED_LIEGES = 1


class ReignAbsolute(GameRules):
    slug = "reign-absolute"
    rulebook = "reign-absolute.txt"
    pool_rule = "Setup"
    hand_size = None
    draws_per_turn = None
    codes: ClassVar[dict[str, str]] = {
        "mixed-factions": "cards of more than one faction (cards: those outside the deck's faction)",
        "liege-count": "not exactly one Liege",
        "faction-size": "the card count differs from the faction's faction_deck_size",
        "unit-copies": "a unit appears a different number of times than its copies_in_set",
        "not-a-unit": "a Combat or Turn Reinforcement is listed in the deck",
    }

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        units = {c: n for c, n in deck.totals.items() if c.type in (LIEGE, UNIT)}
        others = sorted(c.name for c in deck.totals if c.type not in (LIEGE, UNIT))
        if others:
            report.add(
                "not-a-unit",
                f"Faction deck: {', '.join(others)} belong to the shared Reinforcement deck, "
                "not a faction deck (Setup)",
                "Setup",
                others,
            )
        lieges = {c: n for c, n in units.items() if c.type == LIEGE}
        factions: Counter[str | None] = Counter()
        for card, count in units.items():
            factions[card.branch] += count
        if len(lieges) == 1:
            faction = next(iter(lieges)).branch
        elif factions:
            faction = min(factions, key=lambda f: (-factions[f], str(f)))
        else:
            faction = None
        outside = sorted(c.name for c in units if c.branch != faction)
        if outside:
            report.add(
                "mixed-factions",
                f"Factions: {', '.join(outside)} are not {_title(faction)} cards; a player "
                "fields one faction's deck (Setup)",
                "Setup",
                outside,
                faction=faction,
            )
        liege_count = sum(lieges.values())
        if liege_count != REQUIRED_LIEGES:
            report.add(
                "liege-count",
                f"Liege: {liege_count} in the deck, a faction deck has exactly one "
                "(Object of the Game)",
                "Object of the Game",
                sorted(c.name for c in lieges),
                count=liege_count,
                required=REQUIRED_LIEGES,
            )
        liege = next((c for c in deck.index.cards if c.type == LIEGE and c.branch == faction), None)
        size = liege.stats.get("faction_deck_size") if liege is not None else None
        if liege is not None and isinstance(size, int) and deck.card_count != size:
            report.add(
                "faction-size",
                f"Faction deck: {deck.card_count} card{'' if deck.card_count == 1 else 's'}, {liege.name} states {size} for the "
                f"{_title(faction)} faction deck (Setup)",
                "Setup",
                count=deck.card_count,
                required=size,
                faction=faction,
            )
        faction_units = [c for c in deck.index.cards if c.type == UNIT and c.branch == faction]
        for card in sorted(faction_units, key=lambda c: c.name):
            count = units.get(card, 0)
            if card.copies_in_set is not None and count != card.copies_in_set:
                report.add(
                    "unit-copies",
                    f"Unit copies: {count} {card.name}, the {_title(faction)} faction deck "
                    f"holds exactly {card.copies_in_set} (Setup)",
                    "Setup",
                    [card.name],
                    count=count,
                    required=card.copies_in_set,
                )


register(ReignAbsolute)  # a call, not a decorator: the class is compiled


def _title(faction: str | None) -> str:
    return (faction or "no").replace("-", " ").title()
