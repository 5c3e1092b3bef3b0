"""Rival Realms as the shared code sees it: test hands, card checks, matchups and page words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engines.core import GamePlugin, HandWords, PageWords
from rules.engines.rival_realms.cards import CardDataError, card_spec
from rules.engines.rival_realms.game import RivalRealmsGame
from rules.engines.rival_realms.state import (
    CARD_REASON,
    DRAW_REASON,
    LIFE_REASON,
    LIMIT_REASON,
    REPEAT_REASON,
)


class RivalRealmsPlugin(GamePlugin):
    """Two 40-card decks, each seat its own deck; deck A moves first (random by the rulebook
    when no first player is given)."""

    game = RivalRealmsGame
    hands_module = "rules.engines.rival_realms.hands"
    cutoff_reasons: ClassVar[frozenset[str]] = frozenset({LIMIT_REASON, REPEAT_REASON})
    words: ClassVar[PageWords] = PageWords(
        hands=HandWords(
            intro="you go first against a rival with the same deck who plays no card and never "
            "blocks (a “goldfish”). Rival Realms has no mulligan."
        ),
        # the rulebook's "Winning"; the turn limit and repetition are the engine's (docs/rules)
        end_reasons={
            LIFE_REASON: "life down to 0",
            CARD_REASON: "a card's victory condition was met",
            DRAW_REASON: "both players won or fell at once (a draw)",
            LIMIT_REASON: "the turn limit was reached (the engine's cut-off, a draw)",
            REPEAT_REASON: "the same position came back three times (a draw)",
        },
        matchup_rules="Rival Realms: two decks, each played by its own agent.",
        matchup_timing="greedy and MCTS games often run to the turn limit: half a minute or more",
    )

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not use this card (its spec does not compile)."""
        return self.compile_problems(card_spec, CardDataError, record)
