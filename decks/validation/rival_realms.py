"""Rival Realms deck construction (rulebook section "Setup"): 40 cards from the card set.

A deck holds no more copies of a card than the set has (``copies_in_set``); there is no other
limit. Rulings: docs/rules/rival-realms.md.
"""

from __future__ import annotations

from typing import ClassVar

from decks.validation.game_rules import GameRules, register
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck

DECK_SIZE = 40


class RivalRealms(GameRules):
    slug = "rival-realms"
    rulebook = "rival-realms.md"
    pool_rule = "Setup"
    hand_size = 7
    draws_per_turn = None  # the Redraw phase refills the hand to 7: draws depend on play
    codes: ClassVar[dict[str, str]] = {
        "deck-size": "the deck does not have exactly 40 cards",
        "copies-in-set": "a card appears more times than the set holds copies of it",
    }

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        if deck.card_count != DECK_SIZE:
            report.add(
                "deck-size",
                f"Deck size: {deck.card_count} card{'' if deck.card_count == 1 else 's'}, the rulebook requires exactly {DECK_SIZE} "
                "(Setup)",
                "Setup",
                count=deck.card_count,
                required=DECK_SIZE,
            )
        for card, count in sorted(deck.totals.items(), key=lambda item: item[0].name):
            limit = card.copies_in_set
            if limit is not None and count > limit:
                copies = "copy" if limit == 1 else "copies"
                report.add(
                    "copies-in-set",
                    f"Copies in set: {count} copies of {card.name}, the card set holds "
                    f"{limit} {copies} (Setup)",
                    "Setup",
                    [card.name],
                    count=count,
                    limit=limit,
                )


register(RivalRealms)  # a call, not a decorator: the class is compiled
