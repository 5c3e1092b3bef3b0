"""Revolt N Reign as the shared code sees it: test hands, card checks, matchups and page words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engines.core import (
    Action,
    DeckCards,
    Difficulty,
    GamePlugin,
    HandWords,
    PageWords,
    SightingWords,
    State,
)
from rules.engines.core.narration import CardRef, Part
from rules.engines.core.picks import card_pick, control
from rules.engines.core.playtest import Playtest, PlaytestCounter
from rules.engines.core.table import card_name
from rules.engines.revolt_n_reign.cards import card_problems
from rules.engines.revolt_n_reign.game import (
    HOUSE_RULE_BOOK_VALUES,
    HOUSE_RULES,
    RevoltNReignGame,
)
from rules.engines.revolt_n_reign.render import activated_words
from rules.engines.revolt_n_reign.state import (
    ATTACK_VICTORY,
    DECK_OUT,
    LP_VICTORY,
    MAX_MULLIGANS,
    OPENING_HAND,
    PETITION_VICTORY,
    START_LP,
    TURN_LIMIT,
)

#: a Resolve Phase choice in words: (before its source card, between source and pick)
CHOICE_WORDS = {"assign": ("Assign the damage of ", " to "), "discard": ("Discard, for ", ": ")}


class RevoltNReignPlugin(GamePlugin):
    """Two 60-card decks, each seat its own deck; deck A moves first unless the rulebook's
    "Step 4: Determine Turn Order" is asked for."""

    game = RevoltNReignGame
    hands_model = "rules.engines.revolt_n_reign.hands:RevoltNReignHands"
    narrator = "rules.engines.revolt_n_reign.narration:RevoltNReignNarrator"
    table_builder = "rules.engines.revolt_n_reign.table:rnr_table"
    #: turn plans at a quarter of their default budget (100 sampled plans of 100 nodes a turn,
    #: not 400 of 400): measured on a busy two-core machine, 5.0 s of CPU (8.5 s wall) a game
    #: and 18 wins in 20 games against random (docs/engines.md, "Agents"); the game's best
    #: agent, so the form's default (issue 16)
    matchup_agents: ClassVar[tuple[str, ...]] = ("plan", "random", "greedy", "mcts")
    evaluation_weights = "rules.engines.revolt_n_reign.state:WEIGHTS"
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {
        "easy": Difficulty("greedy", "greedy, one turn ahead"),
        "normal": Difficulty("mcts", "MCTS, 40 playouts a move"),
        "hard": Difficulty("plan", "turn plans, 100 sampled a turn"),
    }
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "plan": {"samples": 100, "plan_nodes": 100}
    }
    agent_labels: ClassVar[Mapping[str, str]] = {
        "plan": "Turn plans (100 sampled plans a turn; about 4 s a game)",
    }
    words: ClassVar[PageWords] = PageWords(
        sightings=SightingWords(
            drawn="it left its side's draw pile by the end of the game (the UAs are in play from the "
            "start), or was played",
            played="its side played it: as a card, a Pillar, a Clash or for free in Step 5: "
            "Pre-Game Equalization",
        ),
        hands=HandWords(
            intro="you go first against a rival with the same deck who plays no card "
            "(a “goldfish”)."
        ),
        mulligan_labels={
            "no-pillar": "the hand has no Pillar",
            "two-to-five-pillars": "the hand has fewer than 2 or more than 5 Pillars",
            "never": "never",
        },
        # named as the rulebook's "VICTORY CONDITIONS (4 TOTAL)" names them
        end_reasons={
            LP_VICTORY: "LP Victory (Life Points down to 0)",
            ATTACK_VICTORY: "Attack Victory (all 3 Unconstitutional Acts destroyed)",
            PETITION_VICTORY: "Petition Victory (the Petitions needed in play)",
            DECK_OUT: "Deck-Out Victory (no card left to draw)",
            TURN_LIMIT: "the turn limit was reached (the engine's cut-off, a draw)",
        },
        house_rules=HOUSE_RULES,
        book_values=HOUSE_RULE_BOOK_VALUES,
        matchup_rules="Revolt N Reign: two decks, each played by its own agent.",
        matchup_timing="MCTS under a second a game, turn plans about 4 s",
        query_examples=(
            ("t:attack b:eagle ip<=3", "Eagle Attack cards costing 3 IP or less"),
            ("t:pillar r>=uncommon", "Pillars that are uncommon or rare"),
            ("st:petition", "the Petitions (Rights cards that stay in play)"),
            ("(b:bison OR b:scroll) t:defense", "Defense cards of the Bison or the Scroll branch"),
            ("dp>=25", "cards with 25 Defense points or more"),
            ("o:draw -t:rights", "cards whose rules text says draw, Rights cards left out"),
            ('!"Stamp Act"', "exactly the card named Stamp Act"),
        ),
    )

    #: Setup's Step 3 (an opening hand of 7 and up to two mulligans), the LP and IP trackers of
    #: the components, Pillars turned sideways to pay IP and straightened for the next turn
    playtest: ClassVar[Playtest | None] = Playtest(
        zones=(
            ("draw", "Draw pile"),
            ("hand", "Hand"),
            ("ua", "Unconstitutional Acts"),
            ("pillars", "Pillars"),
            ("defense", "Defense"),
            ("attack", "Attack"),
            ("rights", "Rights, Freedoms and Bills"),
            ("discard", "Discard pile"),
        ),
        draw="draw",
        hand="hand",
        hidden=frozenset({"draw"}),
        opening_hand=OPENING_HAND,
        mulligans=MAX_MULLIGANS,
        tap="Turn sideways",
        tap_zones=frozenset({"pillars"}),
        untap="Turn straight",
        untap_each_turn=True,
        counters=(PlaytestCounter("LP", START_LP), PlaytestCounter("IP", 0)),
    )

    def playtest_deal(self, deck: DeckCards, seed: int) -> dict[str, list[str]]:
        """The deck's Unconstitutional Acts in play (Setup), the rest shuffled into the draw
        pile."""
        zones = super().playtest_deal(deck, seed)
        acts = sorted(
            str(record["name"])
            for record in deck.records
            if record.get("type") == "unconstitutional-act"
        )
        for name in acts:
            zones["draw"].remove(name)
        zones["ua"] = acts
        return zones

    def action_words(self, state: State, action: Action) -> tuple[Part, ...]:
        """A Revolt N Reign action: cards by name, the cards on the table it targets by name
        (their ids looked up), an activated effect by its card and its X where it has one."""
        table = getattr(state, "table", None)

        def on_table(cid: str | int) -> Part | None:
            if isinstance(cid, int) and table is not None and 0 <= cid < len(table):
                key = str(table[cid].key)
                return CardRef(key, card_name(key))
            return None

        args = list(action.args)
        verbs = {
            "pillar": "Play the Pillar",
            "play": "Play",
            "clash": "Play (Clash)",
            "equalize": "Equalize with",
        }
        choice = getattr(state, "choice", None)
        if action.kind == "choose" and args and choice is not None:
            # a choice in the Resolve Phase: a card on the table (a target, where Attack Damage
            # goes) or, for "look at the hand and discard", a card of the rival's hand by key
            source = on_table(int(choice[2]))
            picked = (
                CardRef(str(args[0]), card_name(str(args[0])))
                if choice[1] == "discard"
                else on_table(int(args[0]))
            )
            if picked is None:
                return ("Choose no target",)
            if source is None:
                return ("Choose ", picked)
            lead, link = CHOICE_WORDS.get(choice[1], ("Aim ", " at "))
            return (lead, source, link, picked)
        if action.kind in verbs and args and isinstance(args[0], str):
            parts: list[Part] = [verbs[action.kind], " ", CardRef(args[0], card_name(args[0]))]
            targets = [part for part in map(on_table, args[1:]) if part is not None]
        elif action.kind == "activate" and len(args) >= 3 and on_table(args[0]) is not None:
            source = on_table(args[0])
            assert source is not None
            parts = ["Activate ", source, f" to {_effect_words(state, args[0], args[1])}"]
            if int(args[2]):
                parts.append(f" with X = {args[2]}")
            targets = [part for part in map(on_table, args[3:]) if part is not None]
        else:
            return super().action_words(state, action)
        for number, target in enumerate(targets):
            parts.extend([" targeting " if number == 0 else " and ", target])
        return tuple(parts)

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """A card from the hand, then the cards in play it targets (by id: two copies are two
        targets); an activation is its card, the effect when the card has more than one, X when
        X is paid, then its targets; a choice is the card chosen."""
        args = list(action.args)
        table = getattr(state, "table", ())

        def in_play(cid: Any) -> list[str]:
            return [f"card:{cid}"] if isinstance(cid, int) and 0 <= cid < len(table) else []

        if action.kind in ("pillar", "play", "clash", "equalize", "discard") and args:
            picks = [card_pick("hand", viewer, str(args[0]))]
            return (*picks, *(pick for arg in args[1:] for pick in in_play(arg)))
        if action.kind == "activate" and len(args) >= 3 and in_play(args[0]):
            cid, index, x = int(args[0]), int(args[1]), int(args[2])
            picks = in_play(cid)
            if len(table[cid].by_trigger.get("activated", ())) > 1:
                picks.append(control(f"effect-{cid}-{index}"))
            if table[cid].effects[index].cost_ip == "X":
                picks.append(control(f"x-{cid}-{index}-{x}"))
            return (*picks, *(pick for arg in args[3:] for pick in in_play(arg)))
        if action.kind == "choose":
            choice = getattr(state, "choice", None)
            if args and choice is not None and choice[1] != "discard" and in_play(args[0]):
                return tuple(in_play(args[0]))
            return (control(f"choose-{args[0] if args else 'none'}"),)
        return super().action_picks(state, action, model, viewer)

    def control_words(self, state: State, action: Action, pick: str) -> str:
        """An activation's effect by what it does, X by its value."""
        parts = pick.split("-")
        if parts[0] == "do:effect" and len(parts) == 3:
            return "To " + _effect_words(state, int(parts[1]), int(parts[2]))
        if parts[0] == "do:x" and len(parts) == 5:
            return f"X = {parts[4]}"
        return super().control_words(state, action, pick)

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """The effects the engine could not execute, said as the loader reports them."""
        return [f"the {self.name} engine cannot play this card: {p}" for p in card_problems(record)]


def _effect_words(state: State, cid: Any, index: Any) -> str:
    """What effect ``index`` of card ``cid`` on the table does, in words."""
    table = getattr(state, "table", ())
    try:
        return activated_words(table[int(cid)].effects[int(index)])
    except (IndexError, TypeError, ValueError):
        return f"use its effect {int(index) + 1}"
