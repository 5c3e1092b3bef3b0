"""Card performance, as 17lands reports it: per card of a deck, its win rate in the games where
its player drew it, played it, and never saw it, each with a Wilson 95% interval and its
number of games.

Pure Python (no Django). A game gives, per side, the cards of its deck, those it drew (held in
hand at any time, or in play from the start) and those it played, and whether the side won
(``rules.engines.core.CardSightings``; a co-operative side wins with its team). The counts are
integers keyed ``"<deck>\\t<card>\\t<what>"`` with ``what`` one of ``drawn``, ``drawn_wins``,
``played``, ``played_wins``, ``unseen``, ``unseen_wins``: they add up key by key, so the
figures of a job are the same however its games were cut into chunks.

A card counts once per game however many copies the deck holds; "drawn" includes the games it
was played (a card is drawn before it is played); "unseen" is the games it stayed in the deck.
The gap between its win rate drawn and unseen is 17lands' "improvement when drawn": a card
that wins more when drawn helps, though a card drawn in long games is drawn more often in any
game, win or lose, so the gap is a hint, not a proof.

What "drawn" and "played" mean differs from game to game (a tile held, a unit deployed); the
pages say it in each game's words (its plugin's ``PageWords.sightings``), and leave out the drawn
columns of a deck whose every card was drawn in every game (``drawn_every_game``): they would
only repeat the deck's own win rate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.engines.core import SightingWords, find_plugin
from rules.engines.core.intervals import wilson_interval

WHATS = ("drawn", "played", "unseen")


#: a game without words of its own (a game being added, the test suite's toy game)
DEFAULT_SIGHTING_WORDS = SightingWords(
    drawn="its player held it in hand at any time, or had it in play from the start",
    played="its player played it",
)


def sighting_words(slug: str) -> SightingWords:
    """What "drawn" and "played" mean in the game ``slug`` (its plugin's words, else the shared)."""
    plugin = find_plugin(slug)
    words = plugin.words.sightings if plugin is not None else None
    return words or DEFAULT_SIGHTING_WORDS


@dataclass(frozen=True)
class Rate:
    """Wins out of games, with its Wilson 95% interval (None without games)."""

    games: int
    wins: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None


@dataclass(frozen=True)
class CardFigures:
    """One card of one deck: its win rate drawn, played and not seen, and their gap."""

    deck: int
    card: str
    drawn: Rate
    played: Rate
    unseen: Rate
    #: win rate drawn minus not seen (percentage points / 100), None unless both have games
    improvement_when_drawn: float | None

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data."""
        return asdict(self)


def game_card_counts(deck: int, cards: Mapping[str, Sequence[str]], won: bool) -> dict[str, int]:
    """One side's counts for one game: ``cards`` holds its ``deck``, ``drew`` and ``played``
    card names; ``deck`` is the job's index of the side's deck."""
    drew, played = set(cards["drew"]), set(cards["played"])
    counts: dict[str, int] = {}
    for card in sorted(set(cards["deck"]) | drew | played):
        what = "drawn" if card in drew or card in played else "unseen"
        counts[f"{deck}\t{card}\t{what}"] = 1
        counts[f"{deck}\t{card}\t{what}_wins"] = int(won)
        if card in played:
            counts[f"{deck}\t{card}\tplayed"] = 1
            counts[f"{deck}\t{card}\tplayed_wins"] = int(won)
    return counts


def counts_add(total: Mapping[str, int], more: Mapping[str, int]) -> dict[str, int]:
    """Two sets of counts added key by key."""
    added = dict(total)
    for key, count in more.items():
        added[key] = added.get(key, 0) + int(count)
    return added


def _rate(games: int, wins: int) -> Rate:
    if not games:
        return Rate(0, 0, None, None, None)
    low, high = wilson_interval(wins, games)
    return Rate(games, wins, round(wins / games, 6), round(low, 6), round(high, 6))


def card_figures(counts: Mapping[str, int]) -> list[CardFigures]:
    """Every card's figures from the counts, by deck and card name."""
    table: dict[tuple[int, str], dict[str, int]] = {}
    for key, count in counts.items():
        number, card, what = key.split("\t")
        table.setdefault((int(number), card), {})[what] = int(count)
    figures = []
    for (deck, card), row in sorted(table.items()):
        rates = {what: _rate(row.get(what, 0), row.get(f"{what}_wins", 0)) for what in WHATS}
        drawn, unseen = rates["drawn"].win_rate, rates["unseen"].win_rate
        gap = None if drawn is None or unseen is None else round(drawn - unseen, 6)
        figures.append(
            CardFigures(deck, card, rates["drawn"], rates["played"], rates["unseen"], gap)
        )
    return figures


def drawn_every_game(rows: Sequence[Mapping[str, Any]]) -> bool:
    """Every card of one deck's rows (``CardFigures.as_dict``) was drawn in every game the deck
    played: none was ever left unseen and all were drawn in the same games, so each card's win
    rate drawn is the deck's own and its drawn, not-seen and gap columns say nothing of it."""
    drawn = {(row["drawn"]["games"], row["drawn"]["wins"]) for row in rows}
    return len(drawn) == 1 and all(row["unseen"]["games"] == 0 for row in rows)
