"""Rival Realms as the shared code sees it: test hands, card checks, matchups and page words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engines.core import (
    Action,
    Difficulty,
    GamePlugin,
    HandWords,
    PageWords,
    SightingWords,
    State,
)
from rules.engines.core.narration import CardRef, Part
from rules.engines.core.picks import card_pick
from rules.engines.core.playtest import Playtest, PlaytestCounter
from rules.engines.core.table import card_name
from rules.engines.rival_realms.cards import CardDataError, card_spec
from rules.engines.rival_realms.game import HOUSE_RULES, RivalRealmsGame
from rules.engines.rival_realms.state import (
    CARD_REASON,
    DRAW_REASON,
    HAND_SIZE,
    LIFE_REASON,
    LIMIT_REASON,
    STALEMATE_REASON,
    STARTING_LIFE,
)


class RivalRealmsPlugin(GamePlugin):
    """Two 40-card decks, each seat its own deck; the first player is the setup's, or random as
    the rulebook's Setup says."""

    game = RivalRealmsGame
    hands_model = "rules.engines.rival_realms.hands:RivalRealmsHands"
    narrator = "rules.engines.rival_realms.narration:RivalRealmsNarrator"
    table_builder = "rules.engines.rival_realms.table:realms_table"
    #: the rulebook has no draw: a stalemate (the book's own endless game, detected) is counted
    #: with the turn limit as an ending the rulebook does not name
    cutoff_reasons: ClassVar[frozenset[str]] = frozenset({LIMIT_REASON, STALEMATE_REASON})
    #: the game's own policy (``policy.dig_action``: the rulebook's turn by rules of thumb,
    #: trading surplus supply cards in the Redraw); ``plain`` is the policy as it was until
    #: 2026-12-07 (``policy.play_action``, trading one a turn), which the baseline plays and
    #: search playouts follow (docs/agents.md, *Rival Realms: a look before the attack*)
    team_policy = "rules.engines.rival_realms.policy:dig_action"
    team_policies: ClassVar[Mapping[str, str]] = {
        "plain": "rules.engines.rival_realms.policy:play_action",
        "dig": "rules.engines.rival_realms.policy:dig_action",
    }
    matchup_agents: ClassVar[tuple[str, ...]] = ("team", "random", "greedy", "mcts")
    evaluation_weights = "rules.engines.rival_realms.state:WEIGHTS"
    #: greedy takes a win on offer the policy sees (``RealmsState.advice``) without searching:
    #: its 100 positions a move, spent depth-first, can run out before the line that wins
    #: the default (``team``) hands the Attack step's choice of attackers to a one-turn search
    #: of 100 positions a choice (``RealmsState.lookahead_actions``)
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "greedy": {"advice": True},
        "team": {"lookahead": 100},
    }
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {
        # picked from the ladder, weakest first: greedy and MCTS are within each other's
        # intervals there (docs/agents.md, *The ladders*)
        "easy": Difficulty("mcts", "MCTS, 40 playouts a move"),
        "normal": Difficulty("greedy", "greedy, one step ahead"),
        "hard": Difficulty("team", "the Rival Realms policy, looking a turn ahead to attack"),
    }
    agent_labels: ClassVar[Mapping[str, str]] = {
        "team": "Rival Realms policy (builds, digs for cards, looks a turn ahead to choose its "
        "attackers, blocks what hurts; a fraction of a second a game)",
    }
    words: ClassVar[PageWords] = PageWords(
        sightings=SightingWords(
            drawn="it left its side's draw deck by the end of the game, or was played",
            played="its side played it or put it onto its field",
        ),
        hands=HandWords(
            intro="you go first against a rival with the same deck who plays no card and never "
            "blocks (a “goldfish”). Rival Realms has no mulligan."
        ),
        # the rulebook's "Winning"; the stalemate is the rulebook's own endless game (ruling 21);
        # the turn limit is the engine's (docs/rules)
        end_reasons={
            LIFE_REASON: "life down to 0",
            CARD_REASON: "a card's victory condition was met",
            DRAW_REASON: "both players won or fell at once (a draw)",
            LIMIT_REASON: "the turn limit was reached (the engine's cut-off, a draw)",
            STALEMATE_REASON: "stalemate: neither player can ever act again, so by the rulebook "
            "the game cannot end (a draw)",
        },
        house_rules=HOUSE_RULES,
        matchup_rules="Rival Realms: two decks, each played by its own agent.",
        matchup_timing="the policy a fraction of a second a game; greedy about two seconds (it "
        "keeps its units home unless an attack is lethal, so one game in six runs to the turn "
        "limit); MCTS three to four seconds",
        query_examples=(
            ("t:unit attack>=4", "units with an attack of 4 or more"),
            ("t:realm sc<=2", "realms costing 2 supply or less"),
            ("st:archer", "archers"),
            ("r:rare t:reinforce", "rare reinforce cards"),
            ("generation>=2", "cards that give 2 supply or more"),
            ("copies>=4", "cards the set holds 4 or more copies of"),
        ),
    )

    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not use this card (its spec does not compile)."""
        return self.compile_problems(card_spec, CardDataError, record)

    #: the Playing Area's five places, Setup's hand of 7 and 20 life (no mulligan), and the
    #: supply each player counts during a turn
    playtest: ClassVar[Playtest | None] = Playtest(
        zones=(
            ("draw", "Draw Deck"),
            ("hand", "Hand"),
            ("field", "Field"),
            ("discard", "Discard Deck"),
            ("lost", "Lost Deck"),
        ),
        draw="draw",
        hand="hand",
        hidden=frozenset({"draw"}),
        opening_hand=HAND_SIZE,
        counters=(PlaytestCounter("Life", STARTING_LIFE), PlaytestCounter("Supply", 0)),
    )

    def action_words(self, state: State, action: Action) -> tuple[Part, ...]:
        """A Rival Realms action in the rulebook's words: cards by name, a card on the field by
        name and, where a field holds two of it, by its place there ("the 2nd Footman"), never
        the engine's slot numbers."""
        fields = getattr(state, "field", None)
        table = getattr(state, "table", None)
        args = list(action.args)

        def named(key: Any) -> CardRef:
            return CardRef(str(key), card_name(str(key)))

        def on_field(key: Any, slot: Any) -> tuple[Part, ...]:
            """``key`` at ``slot`` of a field: its place among the copies where it has some."""
            if fields is None or table is None or not isinstance(slot, int):
                return (named(key),)
            for field in fields:
                if 0 <= slot < len(field) and table[field[slot]].key == key:
                    copies = [card for card in field if table[card].key == key]
                    if len(copies) > 1:
                        place = copies.index(field[slot]) + 1
                        return (f"the {_ordinal(place)} ", named(key))
                    return (named(key),)
            return (named(key),)

        kind = action.kind
        if kind == "attack" and len(args) == 2:
            return ("Attack with ", *on_field(args[0], args[1]))
        if kind == "block" and len(args) == 4:
            return ("Block ", *on_field(args[2], args[3]), " with ", *on_field(args[0], args[1]))
        if kind == "use" and len(args) == 3:
            return ("Use ", *on_field(args[0], args[1]), " to ", _ability_words(state, args))
        if kind == "target" and len(args) == 2:
            return ("Target ", *on_field(args[0], args[1]))
        if kind == "pay" and len(args) == 2:
            return ("Pay with ", *on_field(args[0], args[1]))
        if kind == "assign" and len(args) == 3:
            return (f"Assign {args[2]} damage to ", *on_field(args[0], args[1]))
        if kind == "supply" and len(args) == 1:
            return ("Play ", named(args[0]), " for supply")
        return super().action_words(state, action)

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """A card from the hand; a unit on a field by its place there (a blocker, then the
        attacker it blocks)."""
        args = list(action.args)
        if action.kind in ("play", "supply") and len(args) == 1:
            return (card_pick("hand", viewer, str(args[0])),)
        units = [
            (unit["pick"], unit["key"])
            for seat in model["seats"]
            for zone in seat["zones"]
            if zone["id"] == "field"
            for unit in zone["cards"]
            if unit.get("pick")
        ]

        def unit(key: Any, slot: Any, *, first: int) -> list[str]:
            seats = [first, 1 - first]
            for seat in seats:
                pick = f"field{seat}:{slot}"
                if (pick, key) in units:
                    return [pick]
            return []

        rival = 1 - viewer
        if action.kind == "block" and len(args) == 4:
            return (*unit(args[0], args[1], first=viewer), *unit(args[2], args[3], first=rival))
        if action.kind == "target" and len(args) == 2:
            return tuple(unit(args[0], args[1], first=rival))
        if action.kind in ("attack", "use", "pay", "assign") and len(args) >= 2:
            return tuple(unit(args[0], args[1], first=viewer))
        return super().action_picks(state, action, model, viewer)


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


#: an ability's target in words (any other target: its code with spaces)
TARGET_WORDS = {
    "this_unit": "this unit",
    "enemy_unit": "an enemy unit",
    "own_unit": "a unit of yours",
}


def _op_words(op: Mapping[str, Any]) -> str:
    """One step of an ability (an ``op`` of its ``do`` list) in words."""
    name = str(op.get("op", ""))
    amount = op.get("amount", 1)
    target = str(op.get("target", ""))
    aimed = TARGET_WORDS.get(target, target.replace("_", " "))
    if name == "gain_supply":
        return f"gain {amount} supply"
    if name == "draw":
        return f"draw {amount} card{'s' if amount != 1 else ''}"
    if name == "gain_life":
        return f"gain {amount} life"
    if name == "damage_rival":
        return f"deal {amount} damage to the rival"
    if name == "damage_unit":
        return f"deal {amount} damage to {aimed}"
    if name == "prevent_damage":
        return f"prevent {amount} damage to {aimed}"
    if name == "modify":
        changes = [f"{op[part]:+d} {part}" for part in ("attack", "defense") if op.get(part)]
        return f"give {aimed} {' and '.join(changes) or 'a change'}"
    if name == "rival_discards":
        return f"make the rival discard {amount}"
    if name == "return_to_hand":
        return f"return {aimed} to its owner's hand"
    return name.replace("_", " ") + (f" {aimed}" if aimed else "")


def _ability_words(state: State, args: list[Any]) -> str:
    """What ability ``args[2]`` of the card ``args[0]`` does, from its effect data."""
    table = getattr(state, "table", ())
    spec = next((card for card in table if card.key == args[0]), None)
    try:
        ability = spec.abilities[int(args[2])] if spec is not None else None
    except (IndexError, ValueError):
        ability = None
    if ability is None:
        return f"use its ability {int(args[2]) + 1}"
    steps = [_op_words(op) for op in ability.do]
    return " and ".join(steps) or "use its ability"
