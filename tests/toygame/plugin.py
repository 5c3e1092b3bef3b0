"""Toy Duel's plugin: everything the shared code needs, declared in one place."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from rules.engines.core import GamePlugin, HandWords, PageWords
from tests.toygame.engine import ToyGame, points_problem

HERE = Path(__file__).resolve().parent


class ToyDuelPlugin(GamePlugin):
    """Two decks, deck A first; every piece lives under ``tests/toygame``."""

    game = ToyGame
    hands_module = "tests.toygame.hands"
    validation_module = "tests.toygame.validation"
    style_module = "tests.toygame.style"
    fixtures_dir = str(HERE / "fixtures")
    matchup_agents: ClassVar[tuple[str, ...]] = ("random", "greedy")
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {"greedy": {"max_nodes": 7}}
    words: ClassVar[PageWords] = PageWords(
        hands=HandWords(
            opening="First three",
            again="Shuffle again",
            intro="you race an idle rival to 15 points (a toy “goldfish”).",
        ),
        mulligan_labels={"never": "never (toy rule)"},
        end_reasons={"target": "someone reached 15 points", "cards-out": "the cards ran out"},
        matchup_rules="Toy Duel: two numbered decks race to 15 points; deck A moves first.",
        matchup_timing="a blink a game",
        query_examples=(("suit:sun points>=3", "Sun cards worth 3 points or more"),),
    )

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """A card must score 1 to 5 points."""
        problem = points_problem(record)
        return [f"the {self.name} engine cannot play this card: {problem}"] if problem else []
