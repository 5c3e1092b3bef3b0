"""Reggae Revolution: the 12-card starting deck, and a game-setup check (rulebook "Setup").

Zones: ``starting`` (a player's starting deck, the default), and for a full setup ``main`` (the
shuffled main deck), ``lineup`` (the six face-up cards dealt from it) and ``villain`` (the villain
deck). The setup checks run only when a decklist lists one of the setup zones.
Rulings: docs/rules/reggae-revolution.md.
"""

from __future__ import annotations

from typing import ClassVar

from decks.validation.game_rules import GameRules, register
from decks.validation.records import CardInfo
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck

STARTING, MAIN, LINEUP, VILLAIN = "starting", "main", "lineup", "villain"
STARTER, MAIN_CARD, WILD, VILLAIN_CARD, SCHEME = "starter", "main", "wild", "villain", "scheme"
STARTING_DECK_SIZE = 12
COPIES_PER_STARTER = 3
LINEUP_SIZE = 6
ZONE_TYPES = {
    STARTING: (STARTER,),
    MAIN: (MAIN_CARD, WILD),
    LINEUP: (MAIN_CARD, WILD),
    VILLAIN: (VILLAIN_CARD, SCHEME),
}


class ReggaeRevolution(GameRules):
    slug = "reggae-revolution"
    rulebook = "reggae-revolution.txt"
    pool_rule = "Setup"
    zones = (STARTING, MAIN, LINEUP, VILLAIN)
    zone_labels: ClassVar[dict[str, str]] = {
        STARTING: "Starting deck",
        MAIN: "Main deck",
        LINEUP: "Lineup",
        VILLAIN: "Villain deck",
    }
    hand_size = 6
    draws_per_turn = 6
    codes: ClassVar[dict[str, str]] = {
        "starting-deck-size": "the starting deck does not have exactly 12 cards",
        "starter-count": "a starter card does not appear exactly 3 times in the starting deck",
        "wrong-zone": "a card sits in a zone its type does not belong to",
        "lineup-size": "the lineup does not have exactly 6 cards",
        "copies-in-set": "more copies of a card than the game holds, counting every zone",
        "setup-incomplete": "the main deck and lineup, or the villain deck, miss cards of the game",
    }

    def cards_seen(self, turn: int) -> int | None:
        """The opening hand is the turn-1 hand; each Obtain phase draws a fresh hand of six."""
        return self.hand_size * max(turn, 1)

    def zone_for_section(self, section: str) -> str | None:
        wanted = section.strip().lower()
        aliases = {
            "starting deck": STARTING,
            "starter deck": STARTING,
            "main deck": MAIN,
            "villain deck": VILLAIN,
            "villains": VILLAIN,
        }
        return aliases.get(wanted) or super().zone_for_section(section)

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        self._check_starting_deck(deck, report)
        if any(deck.zones.get(zone) for zone in (MAIN, LINEUP, VILLAIN)):
            self._check_setup(deck, report)

    def _check_starting_deck(self, deck: ResolvedDeck, report: ValidationReport) -> None:
        starting = deck.zones.get(STARTING, {})
        size = deck.zone_count(STARTING)
        if size != STARTING_DECK_SIZE:
            report.add(
                "starting-deck-size",
                f"Starting deck: {size} cards, the rulebook gives each player exactly "
                f"{STARTING_DECK_SIZE} (Setup)",
                "Setup",
                count=size,
                required=STARTING_DECK_SIZE,
            )
        starters = sorted(
            (card for card in deck.index.cards if card.type == STARTER),
            key=lambda card: card.stats.get("symbol", card.name),
        )
        for card in starters:
            count = starting.get(card, 0)
            if count != COPIES_PER_STARTER:
                symbol = card.stats.get("symbol", card.name)
                report.add(
                    "starter-count",
                    f"Starter cards: {count} {card.name} ({symbol}), the starting deck holds "
                    f"exactly {COPIES_PER_STARTER} (Setup)",
                    "Setup",
                    [card.name],
                    count=count,
                    required=COPIES_PER_STARTER,
                )
        self._check_zone_types(STARTING, starting, report)

    def _check_zone_types(
        self, zone: str, cards: dict[CardInfo, int], report: ValidationReport
    ) -> None:
        allowed = ZONE_TYPES[zone]
        wrong = sorted(card.name for card in cards if card.type not in allowed)
        if wrong:
            label = self.zone_labels[zone]
            report.add(
                "wrong-zone",
                f"{label}: {', '.join(wrong)} cannot be in the {label.lower()} (Setup)",
                "Setup",
                wrong,
                zone=zone,
            )

    def _check_setup(self, deck: ResolvedDeck, report: ValidationReport) -> None:
        for zone in (MAIN, LINEUP, VILLAIN):
            self._check_zone_types(zone, deck.zones.get(zone, {}), report)
        lineup = deck.zone_count(LINEUP)
        if lineup != LINEUP_SIZE:
            report.add(
                "lineup-size",
                f"Lineup: {lineup} cards, the rulebook deals exactly {LINEUP_SIZE} (Setup)",
                "Setup",
                sorted(card.name for card in deck.zones.get(LINEUP, {})),
                count=lineup,
                required=LINEUP_SIZE,
            )
        over = []
        for card, count in deck.totals.items():
            if card.type == STARTER:
                continue  # the starter piles hold the rest; one player's deck cannot exhaust them
            if card.copies_in_set is not None and count > card.copies_in_set:
                over.append((card, count))
        for card, count in sorted(over, key=lambda item: item[0].name):
            report.add(
                "copies-in-set",
                f"Copies in set: {count} copies of {card.name}, the game holds "
                f"{card.copies_in_set} (Setup)",
                "Setup",
                [card.name],
                count=count,
                limit=card.copies_in_set,
            )
        shared = {**deck.zones.get(MAIN, {})}
        for card, count in deck.zones.get(LINEUP, {}).items():
            shared[card] = shared.get(card, 0) + count
        for zone_label, held, types in (
            ("main deck and lineup", shared, (MAIN_CARD, WILD)),
            ("villain deck", deck.zones.get(VILLAIN, {}), (VILLAIN_CARD, SCHEME)),
        ):
            missing = sorted(
                card.name
                for card in deck.index.cards
                if card.type in types and held.get(card, 0) < (card.copies_in_set or 1)
            )
            if missing:
                report.add(
                    "setup-incomplete",
                    f"Setup: the {zone_label} miss {len(missing)} card(s) of the game: "
                    f"{', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''} (Setup)",
                    "Setup",
                    missing,
                    zone=zone_label,
                )


register(ReggaeRevolution)  # a call, not a decorator: the class is compiled
