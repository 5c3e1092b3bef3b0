"""Toy Duel deck construction: exactly 10 cards, no more copies than the box holds."""

from __future__ import annotations

from typing import ClassVar

from decks.validation.base import GameRules, ResolvedDeck, register
from decks.validation.report import ValidationReport

DECK_SIZE = 10


@register
class ToyDuelRules(GameRules):
    slug = "toy-duel"
    pool_rule = "Toy rules"
    hand_size = 3
    codes: ClassVar[dict[str, str]] = {
        "toy-deck-size": "the deck does not have exactly 10 cards",
        "toy-copies": "more copies of a card than the box holds",
    }

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        if deck.card_count != DECK_SIZE:
            report.add(
                "toy-deck-size",
                f"Deck size: {deck.card_count} cards, a toy deck has {DECK_SIZE}",
                "Toy rules",
                count=deck.card_count,
            )
        for card, count in deck.totals.items():
            if card.copies_in_set is not None and count > card.copies_in_set:
                report.add(
                    "toy-copies",
                    f"{count} copies of {card.name}, the box holds {card.copies_in_set}",
                    "Toy rules",
                    [card.name],
                )
