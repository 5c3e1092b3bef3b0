"""Reign Absolute as the shared code sees it: test hands, card checks, matchups, agent budgets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import DeckCards, GamePlugin, HandWords, PageWords, SeatPlan, SetupError
from rules.engines.reign_absolute.cards import CardDataError, card_spec
from rules.engines.reign_absolute.game import ReignAbsoluteGame
from rules.engines.reign_absolute.state import DRAW_REASON, LIMIT_REASON, WIN_REASON


class ReignAbsolutePlugin(GamePlugin):
    """Two to four decks, one faction each (the engine plays the faction, so decks must be
    legal); deck A is the 1st Player unless the rulebook's draw decides."""

    game = ReignAbsoluteGame
    hands_module = "rules.engines.reign_absolute.hands"
    max_decks = 4
    seat_keys: ClassVar[tuple[str, ...]] = ("factions",)
    needs_legal_decks = True
    #: the engine has no rollout policy: random rollouts stop after four turn changes and score
    #: the position (measured on a busy two-core machine: about 19 s a game, where rollouts to
    #: the end took minutes)
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {"mcts": {"rollout_turns": 4}}
    words: ClassVar[PageWords] = PageWords(
        hands=HandWords(
            opening="The deal",
            kept="Units placed",
            hand="",
            keep="Place the units",
            again="New deal",
            intro="you are the 1st Player against an idle rival of another faction who never "
            "takes an Action (a “goldfish”). There is no hand and no mulligan: the deal is the "
            "order your units come up for placement.",
        ),
        # the rulebook's "Victory" (and "Doom Action"); the turn limit is the engine's
        end_reasons={
            WIN_REASON: "the last Liege Unit in play",
            DRAW_REASON: "the last Lieges fell together (a draw)",
            LIMIT_REASON: "the turn limit was reached (the engine's cut-off, a draw)",
        },
        matchup_rules="Reign Absolute: two decks of two different factions, each played by its "
        "own agent; deck A moves first.",
        matchup_timing="MCTS 15-20 s a game",
    )

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not use this card (its spec does not compile)."""
        return self.compile_problems(card_spec, CardDataError, record)

    def matchup_setup(
        self, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
    ) -> SeatPlan:
        """Seat each deck's faction; no two decks may be of the same faction."""
        self.check_deck_count(decks, players)
        factions: list[str] = []
        for deck in decks:
            found = deck.branches()
            if len(found) != 1:
                raise SetupError(f"{deck.label} must hold the units of exactly one faction.")
            faction = next(iter(found))
            if faction in factions:
                which, how_many = ("Both", "two ") if len(decks) == 2 else ("Two", "")
                raise SetupError(
                    f"{which} decks are {faction.title()}: {self.name} has one deck of each "
                    f"faction, so pick decks of {how_many}different factions."
                )
            factions.append(faction)
        setup: dict[str, Any] = {"factions": factions}
        if first is not None:
            setup["first_player"] = first
        return SeatPlan(setup, tuple(range(len(decks))))

    def swap_seats(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The two factions change seats."""
        swapped = dict(setup)
        if swapped.get("factions"):
            swapped["factions"] = list(reversed(list(swapped["factions"])))
        return swapped
