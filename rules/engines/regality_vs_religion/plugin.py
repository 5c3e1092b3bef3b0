"""Regality vs Religion as the shared code sees it: test hands (played by agents), tile checks,
matchups seated by alignment, page words and the perfect-play solver as a game tool."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import (
    Action,
    CardSightings,
    DeckCards,
    Difficulty,
    Game,
    GamePlugin,
    PageWords,
    SeatPlan,
    SetupError,
    SightingWords,
    State,
)
from rules.engines.core.picks import cell_pick, control, find_key
from rules.engines.core.playtest import Playtest, PlaytestCounter
from rules.engines.regality_vs_religion.board import CELL_NAMES
from rules.engines.regality_vs_religion.game import (
    BOARD_FULL,
    DEATH,
    NO_PLACEMENT,
    NO_TILE,
    SIDE_NAMES,
    TURN_LIMIT,
    RvRGame,
)
from rules.engines.regality_vs_religion.powers import power_problems

DEFAULT_VARIANT = "standard"


class RegalityVsReligionPlugin(GamePlugin):
    """One Regality deck and one Religion deck of the same variant. The engine's seat 0 is
    Regality, so a Religion deck A sits in seat 1 (and still moves first); the neutral tiles come
    from the decks, the first mover's first."""

    game = RvRGame
    hands_model = "rules.engines.regality_vs_religion.hands:RegalityVsReligionHands"
    narrator = "rules.engines.regality_vs_religion.narration:RegalityVsReligionNarrator"
    table_builder = "rules.engines.regality_vs_religion.table:rvr_table"
    needs_legal_decks = True
    #: alpha-beta 4 placements deep (perfect information: not the secret variants), playing the
    #: solver's move in small endgames (``RvRState.solved_action``). Measured on a busy two-core
    #: machine, 200 games against greedy over the example setups
    #: (docs/rules/regality-vs-religion.md, Measured): 0.16 s of CPU a game in old-style, about
    #: 0.9 s in standard, every game ended by the rulebook;
    #: the game's best agent, so the form's default
    matchup_agents: ClassVar[tuple[str, ...]] = ("alphabeta", "random", "greedy", "mcts")
    evaluation_weights = "rules.engines.regality_vs_religion.game:WEIGHTS"
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {
        "easy": Difficulty("greedy", "greedy, one move ahead"),
        "normal": Difficulty("alphabeta(depth=2)", "alpha-beta, two moves deep"),
        "hard": Difficulty("alphabeta", "alpha-beta, four moves deep"),
    }
    #: the solver takes on endgames one space larger than by default (``reach``: 5 spaces of
    #: old-style, 3 of the others, within about a second): 75% of 64 games against the
    #: default of 2026-12-01 (docs/agents.md, "Default agents against their targets")
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "alphabeta": {"depth": 4, "reach": 1}
    }
    agent_labels: ClassVar[Mapping[str, str]] = {
        "alphabeta": "Alpha-beta (4 placements deep, perfect play from 5 spaces left in "
        "old-style and 3 in the other variants where the solver answers within its budget; "
        "55 ms a decision on average, standard about 1 s a game; not the secret variants)",
    }
    tools: ClassVar[Mapping[str, str]] = {
        "solve": "rules.engines.regality_vs_religion.solve_tool:solve"
    }
    words: ClassVar[PageWords] = PageWords(
        sightings=SightingWords(
            drawn="its side held it: the side's own tiles from the start, and any tile it picked, "
            "recalled, lost to an Assassin, placed or had in its area at the end (in the standard "
            "variant also the neutral area's tiles, which both sides take from)",
            played="its side placed it on the board",
        ),
        # the rulebook's "Game end" (its Death tile and no tile to place); the placement limit is
        # the engine's
        end_reasons={
            BOARD_FULL: "the board was full (most allies won)",
            DEATH: "Death was kept as an ally",
            NO_TILE: "no tile left to place",
            NO_PLACEMENT: "no tile could be placed (a Tower with no ally to cover)",
            TURN_LIMIT: "the placement limit was reached (the engine's cut-off, a draw)",
        },
        matchup_rules="Regality vs Religion: one Regality and one Religion deck of the same "
        "variant; deck A's neutral tiles come first.",
        matchup_timing="greedy, MCTS and alpha-beta a fraction of a second a game",
        play_pairing="The AI plays the other alignment (a Regality deck faces a Religion deck) "
        "in your deck's variant: both decks must name the same one. You move first.",
        query_examples=(
            ("alignment:regality", "the Regality side's tiles"),
            ("b:religion", "the Religion side's tiles"),
            ("alignment:neutral o:banish", "neutral tiles whose rules text says banish"),
            ("o:destroy", "tiles whose rules text says destroy"),
        ),
    )

    #: Preparations: no draw and no hand, the side's tiles open in its area beside the neutral
    #: area; a placed tile is turned to change sides (Game overview), allies counted at the end
    #: and victories towards the best of three (Game end)
    playtest: ClassVar[Playtest | None] = Playtest(
        zones=(
            ("area", "Your area"),
            ("neutral", "Neutral area"),
            ("board", "The board"),
            ("removed", "Removed from the board"),
        ),
        tap="Turn",
        tap_zones=frozenset({"board"}),
        untap="Turn back",
        tap_look="reversed",
        counters=(PlaytestCounter("Allies"), PlaytestCounter("Victories")),
    )

    def playtest_deal(self, deck: DeckCards, seed: int) -> dict[str, list[str]]:
        """The side's tiles in the player's area, the deck's neutral tiles in the neutral area."""
        zones = super().playtest_deal(deck, seed)
        side, neutral = deck.names("side"), deck.names("neutral")
        zones["area"] = side if side or neutral else deck.names()  # a list without its zones
        zones["neutral"] = neutral
        return zones

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not play this tile (its powers are not all understood)."""
        return power_problems(record)

    def matchup_setup(
        self, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
    ) -> SeatPlan:
        """Seat the decks by alignment, check their variants agree, pool their neutral tiles.

        With ``first`` None the starting side is drawn at random (the rulebook's Preparations:
        "decide starting player in any suitable fashion")."""
        self.check_deck_count(decks, players)
        sides = [_alignment(deck) for deck in decks]
        if sides[0] == sides[1]:
            raise SetupError(
                f"Both decks play {sides[0].title()}: pick one Regality deck and one Religion deck."
            )
        variants = [deck.variant or DEFAULT_VARIANT for deck in decks]
        if variants[0] != variants[1]:
            raise SetupError(
                f"The decks use different variants ({variants[0]} and {variants[1]}): "
                "both players must play the same variant."
            )
        # Neutral tiles are drawn in this order: the first mover's, then the other deck's others.
        order = [first, 1 - first] if first is not None else [0, 1]
        neutral: list[str] = []
        for index in order:
            for name in decks[index].names("neutral"):
                if name not in neutral:
                    neutral.append(name)
        setup: dict[str, Any] = {
            "variant": variants[0],
            "first": sides[first] if first is not None else "random",
        }
        if neutral:
            setup["neutral"] = neutral
        seats = (0, 1) if sides[0] == SIDE_NAMES[0] else (1, 0)
        return SeatPlan(setup, seats)

    def seat_sightings(
        self, engine: Game, sightings: CardSightings, seat: int, side: int
    ) -> CardSightings:
        """A side in the other alignment's seat played that alignment's tiles (``swap_seats``):
        its sightings name each by its counterpart (the tile of the same power on the side's own
        set, the ``counterpart`` stat), so a deck's card table keeps its own tiles' names."""
        if seat == side:
            return sightings
        other: dict[str, str] = {}
        for record in engine.records:
            counterpart = (record.get("stats") or {}).get("counterpart")
            if counterpart:
                other[str(record["name"])] = str(counterpart)

        def named(cards: frozenset[str]) -> frozenset[str]:
            return frozenset(other.get(card, card) for card in cards)

        return CardSightings(named(sightings.deck), named(sightings.drew), named(sightings.played))

    #: a side's tiles in its area are its hand
    hand_zones: ClassVar[tuple[str, ...]] = ("area",)

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """A tile where it lies (the side's area, the neutral area, the offer, the board),
        then each square by its cell; what the table does not show is a control."""
        picks = []
        for arg in action.args:
            if arg in CELL_NAMES:
                picks.append(cell_pick(str(arg)))
                continue
            found = find_key(model, str(arg), viewer)
            if found is None:
                return (*picks, control(str(action)))
            picks.append(found)
        return tuple(picks) if picks else (control(str(action)),)

    def swap_seats(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The setup unchanged: the agents change alignments and so who moves first (both tile
        sets have identical powers, and the decks' neutral tiles are shared)."""
        return dict(setup)


def _alignment(deck: DeckCards) -> str:
    found = deck.branches("side")
    found.pop("neutral", None)
    if len(found) != 1:
        raise SetupError(f"{deck.label} must hold the side tiles of one alignment.")
    return next(iter(found))
