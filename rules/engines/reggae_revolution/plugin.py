"""Reggae Revolution as the shared code sees it: a co-operative team of one to four players
dealt one starting deck, test hands, card checks and page words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import (
    Action,
    DeckCards,
    Difficulty,
    GamePlugin,
    PageWords,
    SeatPlan,
    SetupError,
    SightingWords,
    State,
)
from rules.engines.core.picks import card_pick
from rules.engines.core.playtest import Playtest, PlaytestCounter
from rules.engines.core.rng import Rng
from rules.engines.reggae_revolution.effects import SYMBOLS, effect_problems
from rules.engines.reggae_revolution.game import ReggaeRevolutionGame
from rules.engines.reggae_revolution.state import (
    HAND_SIZE,
    LIMIT_REASON,
    LINEUP_SIZE,
    LOSS_REASON,
    MAX_REDRAWS,
    WIN_REASON,
)


class ReggaeRevolutionPlugin(GamePlugin):
    """One starting deck for the whole team: every legal starting deck is the rulebook's twelve
    starters, which the engine deals; a full setup's lineup is dealt face up first."""

    game = ReggaeRevolutionGame
    hands_model = "rules.engines.reggae_revolution.hands:ReggaeRevolutionHands"
    narrator = "rules.engines.reggae_revolution.narration:ReggaeRevolutionNarrator"
    table_builder = "rules.engines.reggae_revolution.table:reggae_table"
    min_decks = 1
    max_decks = 4
    team_sizes = (1, 2, 3, 4)
    needs_legal_decks = True
    #: the greedy team policy (``policy.greedy_action``) first: it wins 45-70% (by team size) of
    #: team games in a fraction of a second; random and greedy won none of 20 (docs/engines.md,
    #: docs/rules/reggae-revolution.md "Measured")
    team_policy = "rules.engines.reggae_revolution.policy:greedy_action"
    #: the policy as issue 28 found it (2026-12-01), before it kept the last card of a pair,
    #: stopped persuading in a deal no card can win and bought towards the colours its cards
    #: lack: the baseline of ``bench/defaults.py``
    team_policies: ClassVar[Mapping[str, str]] = {
        "plain": "rules.engines.reggae_revolution.policy:plain_action",
    }
    matchup_agents: ClassVar[tuple[str, ...]] = ("team", "random", "greedy", "mcts")
    evaluation_weights = "rules.engines.reggae_revolution.evaluation:WEIGHTS"
    #: MCTS at the web's 40 playouts: each playout's villain reveal moves the team's value more
    #: than a scored pair does, so the root's priors (the team policy's turn values compared on
    #: the same deals, ``ReggaeState.action_priors``) weigh as much as 300 playouts; playouts
    #: stop when the turn passes on (``rollout_turns``), or alone after 10 actions
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "mcts": {"prior_visits": 300, "rollout_limit": 10},
    }
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {
        "easy": Difficulty("team", "your partners play the team policy"),
        "normal": Difficulty("mcts", "your partners search 40 playouts a move"),
        "hard": Difficulty("greedy", "your partners look one step ahead"),
    }
    agent_labels: ClassVar[Mapping[str, str]] = {
        "team": "Team policy (scores missing pairs, sways the threatening villains; "
        "a fraction of a second a game)",
    }
    words: ClassVar[PageWords] = PageWords(
        sightings=SightingWords(
            drawn="it was in the player's hand at any time (the Setup hand or its redraw, an Obtain, "
            "a draw effect, a recovered card); with one deck for the whole team, in any player's",
            played="it was used from the hand in the Main Phase: played, given to a villain (Sway) "
            "or put into the score area (Yay)",
        ),
        # the rulebook's "Object" (and "Villain Phase" for the loss); the turn limit is the engine's
        end_reasons={
            WIN_REASON: "all pairs scored (every symbol in every colour)",
            LOSS_REASON: "all symbols suppressed by the villains",
            LIMIT_REASON: "the turn limit was reached (the engine's cut-off, a loss)",
        },
        matchup_rules="Reggae Revolution is co-operative: one starting deck (deck A) and a team "
        "size, the whole team played by deck A's agent; or one to four decks, one player each, "
        "each played by its deck's agent. The result is how often the team wins.",
        matchup_timing="MCTS 5-8 s a game",
        query_examples=(
            ("colour:red t:main", "red main-deck cards"),
            ("t:villain persuasion>=2", "villains that take 2 or more cards to persuade"),
            ("sc>=3 -t:villain", "cards costing 3 symbols or more, villains left out"),
            ("t:scheme", "the schemes"),
            ("o:draw", "cards whose rules text says draw"),
        ),
    )

    #: Setup's hand of 6 from the starting deck and its one new hand, the places Setup makes room
    #: for, and the symbol pool a played card raises (§Play), one counter per symbol
    playtest: ClassVar[Playtest | None] = Playtest(
        zones=(
            ("draw", "Draw pile"),
            ("hand", "Hand"),
            ("discard", "Discard pile"),
            ("scored", "Scored area"),
            ("lineup", "Lineup"),
            ("villains", "Villains in play"),
            ("main", "Main deck"),
            ("villain", "Villain deck"),
            ("destroyed", "Destroyed pile"),
        ),
        draw="draw",
        hand="hand",
        hidden=frozenset({"draw", "main", "villain"}),
        opening_hand=HAND_SIZE,
        mulligans=MAX_REDRAWS,
        mulligan_word="New hand",
        counters=tuple(PlaytestCounter(symbol.title()) for symbol in SYMBOLS),
    )

    def playtest_deal(self, deck: DeckCards, seed: int) -> dict[str, list[str]]:
        """The starting deck shuffled into the draw pile; a full setup's main and villain decks
        shuffled face down, its lineup face up (dealt from the main deck when it lists none)."""
        zones = super().playtest_deal(deck, seed)
        if deck.names(""):  # a list without its zones: every card in the draw pile
            return zones
        rng = Rng(seed)
        for zone_id, deck_zone in (("draw", "starting"), ("main", "main"), ("villain", "villain")):
            zones[zone_id] = deck.names(deck_zone)
            rng.shuffle(zones[zone_id])
        zones["lineup"] = deck.names("lineup")
        while len(zones["lineup"]) < LINEUP_SIZE and zones["main"]:
            zones["lineup"].append(zones["main"].pop(0))
        return zones

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """The effects the engine could not execute, said as the loader reports them."""
        problems = effect_problems(record.get("type", ""), record.get("effects", []))
        return [f"the {self.name} engine cannot play this card: {p}" for p in problems]

    def matchup_setup(
        self, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
    ) -> SeatPlan:
        """Seat a team of ``players``: each with the one deck given, or one player per deck (the
        engine deals every player the rulebook's starting deck, so a deck brings its player's
        agent and, deck A's first, a full setup's lineup); the engine's first player leads."""
        if len(decks) > 1 and players != len(decks):
            raise SetupError(
                f"A team of {players} takes one deck or {players} decks, not {len(decks)}."
            )
        self.check_deck_count(decks, players)
        setup: dict[str, Any] = {"players": players}
        lineup = next((deck.names("lineup") for deck in decks if deck.names("lineup")), [])
        if lineup:
            setup["lineup"] = lineup
        seats = (0,) * players if len(decks) == 1 else tuple(range(players))
        return SeatPlan(setup, seats)

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """A card of the hand (played, yayed, discarded, given), a card of the lineup (bought),
        then the villain a gift goes to."""
        args = [str(arg) for arg in action.args]
        if action.kind in ("play", "yay", "discard") and len(args) == 1:
            return (card_pick("hand", viewer, args[0]),)
        if action.kind == "buy" and len(args) == 1:
            lineup = {
                entry["key"] for z in model["shared"] if z["id"] == "lineup" for entry in z["cards"]
            }
            return (card_pick("lineup" if args[0] in lineup else "starters", None, args[0]),)
        if action.kind == "give" and len(args) == 2:
            return (card_pick("hand", viewer, args[0]), card_pick("villains", None, args[1]))
        return super().action_picks(state, action, model, viewer)
