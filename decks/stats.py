"""Deck statistics: counts by type, branch and rarity, the cost curve, exact draw probabilities.

Draw odds are hypergeometric over the game's draw pile (``GameRules.in_draw_pile``: a game may
set cards aside before the first draw) and the game's opening hand and draws per turn
(``GameRules.cards_seen``). Mulligans are not modelled: the odds are for the first seven cards
and the draws after them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from decks.validation import CardInfo, resolve_deck, rules_for

CardTest = Callable[[CardInfo], bool]


def hypergeometric_at_least(population: int, successes: int, draws: int, at_least: int) -> Fraction:
    """Exact P(X >= at_least) drawing ``draws`` cards without replacement from ``population``
    cards of which ``successes`` are hits."""
    if not 0 <= successes <= population or draws < 0:
        raise ValueError("need 0 <= successes <= population and draws >= 0")
    draws = min(draws, population)
    if at_least <= 0:
        return Fraction(1)
    total = comb(population, draws)
    hits = sum(
        comb(successes, k) * comb(population - successes, draws - k)
        for k in range(at_least, min(successes, draws) + 1)
    )
    return Fraction(hits, total)


def card_matches(
    *, type: str | None = None, branch: str | None = None, name: str | None = None
) -> CardTest:
    """A card test by type slug, branch slug and/or exact card name (all given must hold)."""

    def test(card: CardInfo) -> bool:
        return (
            (type is None or card.type == type)
            and (branch is None or card.branch == branch)
            and (name is None or card.name == name)
        )

    return test


@dataclass
class DeckStats:
    """What a deck is made of, and the pile its hands are drawn from."""

    game: str
    card_count: int
    by_type: dict[str, int] = field(default_factory=dict)
    by_branch: dict[str, int] = field(default_factory=dict)
    by_rarity: dict[str, int] = field(default_factory=dict)
    cost_curve: dict[int, int] = field(default_factory=dict)
    draw_pile: list[tuple[CardInfo, int]] = field(default_factory=list)
    unknown: int = 0

    @property
    def draw_pile_size(self) -> int:
        return sum(n for _, n in self.draw_pile)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "card_count": self.card_count,
            "draw_pile_size": self.draw_pile_size,
            "by_type": self.by_type,
            "by_branch": self.by_branch,
            "by_rarity": self.by_rarity,
            "cost_curve": {str(cost): n for cost, n in self.cost_curve.items()},
            "unknown": self.unknown,
        }

    def draw_probability(self, test: CardTest, *, at_least: int = 1, turn: int = 0) -> Fraction:
        """Exact chance of at least ``at_least`` cards passing ``test`` among the cards drawn by
        the player's ``turn`` (0: the opening hand). Raises ValueError where the game has no
        fixed number of draws for that turn."""
        seen = rules_for(self.game).cards_seen(turn)
        if seen is None:
            raise ValueError(f"{self.game} has no fixed hand or draws for turn {turn}")
        hits = sum(n for card, n in self.draw_pile if test(card))
        return hypergeometric_at_least(self.draw_pile_size, hits, seen, at_least)


def deck_stats(game: str, entries: Mapping[str, int] | Iterable[Any]) -> DeckStats:
    """Counts by type, branch and rarity, the cost curve and the draw pile of a deck."""
    rules = rules_for(game)
    deck, _ = resolve_deck(game, entries)
    stats = DeckStats(game=game, card_count=deck.card_count, unknown=sum(deck.unknown.values()))
    for card, count in sorted(
        deck.totals.items(),
        key=lambda item: (deck.index.type_order.get(item[0].type, 99), item[0].name),
    ):
        stats.by_type[card.type] = stats.by_type.get(card.type, 0) + count
        branch = card.branch or "none"
        stats.by_branch[branch] = stats.by_branch.get(branch, 0) + count
        rarity = card.rarity or "none"
        stats.by_rarity[rarity] = stats.by_rarity.get(rarity, 0) + count
        if card.cost is not None:
            stats.cost_curve[card.cost] = stats.cost_curve.get(card.cost, 0) + count
    stats.cost_curve = dict(sorted(stats.cost_curve.items()))
    if rules.zones:
        for zone, cards in deck.zones.items():
            stats.draw_pile.extend((c, n) for c, n in cards.items() if rules.in_draw_pile(c, zone))
    else:
        stats.draw_pile = [(c, n) for c, n in deck.totals.items() if rules.in_draw_pile(c, "")]
    return stats
