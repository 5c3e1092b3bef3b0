"""Test hands on a deck page: the opening (with mulligans where the game has them), goldfish turns
and figures over many hands, for every game with a test-hands model.

The rules engines do the work through ``rules.test_hands`` (each game's model is a
``rules.engines.core.hands.HandsModel`` its plugin makes); this module only turns a deck into engine records and asks the
game's plugin what a page calls things. A walk is stateless: ``(seed, mulligans, kept, turns)``
in the URL replays the same game exactly, because an engine's randomness comes only from its
seed.
"""

from __future__ import annotations

from decks.models import Deck
from rules.engines.core import HandWords, PageWords, find_plugin
from rules.engines.core.hands import HandSummary, HandWalk
from rules.engines.core.hands import walk_seats as engine_walk_seats
from rules.matchups import deck_records

__all__ = [
    "MAX_HANDS",
    "MAX_TURNS",
    "deck_records",
    "goldfish_walk",
    "mulligan_policies",
    "test_hands_available",
    "test_hands_summary",
    "walk_seats",
    "words",
]

MAX_TURNS = 40
MAX_HANDS = 500


def words(game_slug: str) -> HandWords:
    """The page's words for a game (its plugin's; the plain words for a game without one)."""
    plugin = find_plugin(game_slug)
    return plugin.words.hands if plugin is not None else HandWords()


def test_hands_available(game_slug: str) -> bool:
    """Whether the game has a test-hands model (and its engine is installed)."""
    from rules.test_hands import available

    return available(game_slug)


def goldfish_walk(
    deck: Deck, *, seed: int, mulligans: int = 0, kept: bool = False, turns: int = 0
) -> HandWalk:
    """Deal the deck's opening for ``seed``, take ``mulligans``, keep when ``kept``, then play
    ``turns`` of the player's own turns with the game's goldfish line."""
    from rules.test_hands import walk

    return walk(
        deck.game.slug,
        deck_records(deck),
        seed=seed,
        mulligans=mulligans,
        kept=kept,
        turns=min(turns, MAX_TURNS),
    )


def test_hands_summary(deck: Deck, *, hands: int, seed: int, policy: str) -> HandSummary:
    """``rules.test_hands.sample`` over the deck: the game's figures and how the games ended.
    Raises ``SetupError`` for a deck the engine cannot play."""
    from rules.test_hands import sample

    return sample(
        deck_records(deck),
        n=min(hands, MAX_HANDS),
        seed=seed,
        mulligan_policy=policy,
        game=deck.game.slug,
    )


def walk_seats(game_slug: str, seat: int = 0) -> list[str]:
    """What a walk's log calls the seats: "You" in the player's ``seat``; the goldfish rival, or
    the partners of a co-operative game."""
    plugin = find_plugin(game_slug)
    return engine_walk_seats(plugin is not None and plugin.cooperative, seat)


def mulligan_policies(game_slug: str) -> list[tuple[str, str]]:
    """The game's mulligan policies as (name, words), its default first."""
    from rules.test_hands import policies

    plugin = find_plugin(game_slug)
    label = plugin.words.mulligan_label if plugin is not None else PageWords().mulligan_label
    return [(name, label(name)) for name in policies(game_slug)]
