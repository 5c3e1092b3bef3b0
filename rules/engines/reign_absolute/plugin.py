"""Reign Absolute as the shared code sees it: test hands, card checks, matchups, agent budgets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import (
    Action,
    DeckCards,
    Difficulty,
    GamePlugin,
    HandWords,
    PageWords,
    SeatPlan,
    SetupError,
    SightingWords,
)
from rules.engines.core.api import State
from rules.engines.core.narration import CardRef, Part
from rules.engines.core.picks import control, find_key
from rules.engines.core.playtest import Playtest, PlaytestCounter
from rules.engines.core.table import card_name
from rules.engines.reign_absolute.cards import CardDataError, CardSpec, card_spec
from rules.engines.reign_absolute.game import ReignAbsoluteGame
from rules.engines.reign_absolute.narration import space
from rules.engines.reign_absolute.state import DRAW_REASON, LIMIT_REASON, WIN_REASON

#: the word before an action's first square and before its second, where "on" and "to" do not fit
FROM = {"move": " from ", "march": " from ", "attack": " from ", "swap": " ", "recall": " to "}
TO = {"swap": " with "}
#: an action that puts down the card its decision holds -> that decision (its task's kind)
PLACING_TASKS = {"place": "place", "reinforce": "place_reinforcement"}


class ReignAbsolutePlugin(GamePlugin):
    """Two to four decks, one faction each (the engine plays the faction, so decks must be
    legal); the rulebook's draw (§Setup) always decides the 1st Player."""

    game = ReignAbsoluteGame
    hands_model = "rules.engines.reign_absolute.hands:ReignAbsoluteHands"
    narrator = "rules.engines.reign_absolute.narration:ReignAbsoluteNarrator"
    table_builder = "rules.engines.reign_absolute.table:reign_table"
    max_decks = 4
    seat_keys: ClassVar[tuple[str, ...]] = ("factions",)
    needs_legal_decks = True
    #: MCTS rollouts (uniform among ``ReignState.search_actions``) stop after four turn changes
    #: and score the position (about 1 s a game with the pruned moves and priors of issue 28; rollouts to the end took
    #: minutes). Greedy scores each action on six deals of the hidden
    #: units and draws, 20 positions each: on one deal it staked its Liege on a face-down unit
    #: it guessed weak (issue 28; tests/rules/blunders_reign_absolute.py). Its 8 best actions are
    #: then played on through 4 of the rivals' turns and scored by the mean of the positions it
    #: comes back to (docs/agents.md, *Reign Absolute: looking past the rival's reply*)
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "mcts": {"rollout_turns": 4},
        "greedy": {"samples": 6, "max_nodes": 20, "replies": 8, "reply_turns": 4},
    }
    #: greedy first (the form's default): its games end by the last Liege with 2, 3 or 4 armies
    #: (docs/rules/reign-absolute.md, *Measured*); its cost is in its label below
    matchup_agents: ClassVar[tuple[str, ...]] = ("greedy", "random", "mcts")
    agent_labels: ClassVar[Mapping[str, str]] = {
        "greedy": "Greedy (6 guesses at the hidden units, its 8 best moves played on through 4 "
        "of the rival's turns; about 80 ms a decision, 6 s a game of two armies, 45 s of four)",
    }
    evaluation_weights = "rules.engines.reign_absolute.state:WEIGHTS"
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {
        "easy": Difficulty("mcts(iterations=10)", "MCTS, 10 playouts a move"),
        "normal": Difficulty(
            "greedy(replies=0)", "greedy over 6 guesses at the hidden units, one turn ahead"
        ),
        "hard": Difficulty(
            "greedy",
            "greedy over 6 guesses, its 8 best moves played on through 4 of your turns",
        ),
    }
    words: ClassVar[PageWords] = PageWords(
        sightings=SightingWords(
            drawn="it was deployed on the battlefield",
            played="it moved to another square, attacked or was attacked, or was revealed to lend "
            "its strength to a combat",
            always_drawn="§Setup deploys every Unit of the faction",
        ),
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
        matchup_rules="Reign Absolute: two to four decks of different factions, each played by "
        "its own agent; as the rulebook's Setup says, each player draws a Reinforcement and the "
        "highest number moves first.",
        matchup_timing="MCTS about 1 s a game",
        play_pairing="The AI plays another faction than yours; a Reinforcement draw decides "
        "who moves first (Setup).",
        query_examples=(
            ("faction:elves t:unit", "the Elves' units"),
            ("t:liege", "every faction's Liege"),
            ("strength>=5", "cards with a strength of 5 or more"),
            ("db>=2", "cards with a defence bonus of 2 or more"),
            ("o:move", "cards whose rules text says move"),
        ),
    )

    #: Setup: no hand, the faction deck shuffled face down and its units placed one at a time
    #: (a draw takes the next one), revealed in combat; the one Reinforcement a turn draws
    playtest: ClassVar[Playtest | None] = Playtest(
        zones=(
            ("draw", "Faction deck"),
            ("hand", "Unit to place"),
            ("battlefield", "Battlefield"),
            ("discard", "Unit discard pile"),
        ),
        draw="draw",
        hand="hand",
        hidden=frozenset({"draw"}),
        tap="Reveal",
        tap_zones=frozenset({"battlefield"}),
        untap="Turn face down",
        tap_look="revealed",
        counters=(PlaytestCounter("Reinforcements drawn"),),
    )

    def action_words(self, state: State, action: Action) -> tuple[Part, ...]:
        """A Reign Absolute action: squares (pairs of numbers) as where they lie from the middle
        of the Battlefield, units and Reinforcements by name."""
        parts: list[Part] = [action.kind.replace("_", " ").capitalize()]
        placing = _placing(state, action)
        if placing is not None:
            # the chooser may look at the card it places (§Setup), and only it reads these words
            parts.extend([" ", CardRef(placing.key, placing.name)])
        numbers: list[int] = []
        squares = 0
        for arg in action.args:
            if isinstance(arg, int):
                numbers.append(arg)
                if len(numbers) == 2:
                    squares += 1
                    first = FROM.get(action.kind, " on ") if squares == 1 else " "
                    word = first if squares == 1 else TO.get(action.kind, " to ")
                    parts.append(f"{word}{space(numbers)}")
                    numbers = []
            else:
                parts.extend([" ", CardRef(arg, card_name(arg))])
        return tuple(parts)

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """Each square an action names, in order (``sq:x,y``), after the unit card it brings
        back from the discard; an action naming none is a control."""
        picks: list[str] = []
        numbers: list[int] = []
        for arg in action.args:
            if isinstance(arg, int):
                numbers.append(arg)
                if len(numbers) == 2:
                    picks.append(f"sq:{numbers[0]},{numbers[1]}")
                    numbers = []
            else:
                found = find_key(model, str(arg), viewer)
                picks.append(found if found is not None else control(str(action)))
        return tuple(picks) if picks else (control(str(action)),)

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not use this card (its spec does not compile)."""
        return self.compile_problems(card_spec, CardDataError, record)

    def matchup_setup(
        self, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
    ) -> SeatPlan:
        """Seat each deck's faction; no two decks may be of the same faction.

        ``first`` is not used: §Setup decides the 1st Player by a Reinforcement draw, whose cards
        then start the Reinforcement Discard pile, so the setup never names one.
        """
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
        return SeatPlan(setup, tuple(range(len(decks))))

    def swap_seats(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The two factions change seats."""
        swapped = dict(setup)
        if swapped.get("factions"):
            swapped["factions"] = list(reversed(list(swapped["factions"])))
        return swapped


def _placing(state: State, action: Action) -> CardSpec | None:
    """The unit (or Reinforcement) a ``place`` (``reinforce``) action puts down."""
    tasks = getattr(state, "tasks", None)
    if not tasks or action.kind not in PLACING_TASKS:
        return None
    task = tasks[0]
    if task[0] != PLACING_TASKS[action.kind] or len(task) < 3 or not isinstance(task[2], int):
        return None
    table: tuple[CardSpec, ...] = state.table  # type: ignore[attr-defined]
    return table[task[2]]
