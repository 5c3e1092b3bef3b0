"""Test hands for Rival Realms: opening hands and goldfish games against an idle rival.

§`Setup` has each player shuffle, draw seven and start at 20 life; the rulebook has no mulligan, so
the only policy is "never". ``sample(deck, n, seed, mulligan_policy)`` deals ``n`` games of a
40-card deck in which the deck's player goes first against a rival holding the same deck who never
plays a card, blocks or uses an ability (it only redraws, §`Redraw`). The player follows a simple,
deterministic "goldfish" line:

- Deploy (§`Deploy`, §`Playing a card's cost`): deploy the realms and units of the hand that spend
  the most supply the hand can make (supply cards in hand plus supply already counted), in an
  order that meets their prerequisites, paying with the smallest supply card that covers what is
  still due;
- Combat (§`Attack`, §`Reinforce`): every unit on the field attacks (the rival never blocks, so
  each unit's attack reaches the rival; §`Unit Cards` then discards it); in Reinforce, play the
  reinforce cards that raise attack, biggest gain first, while the hand can pay for them, then
  any other reinforce card the supply left over this turn pays for;
- Redraw: where a setup turns on the house rule ``redraw_discard`` (ruling 23 in
  ``docs/rules/rival-realms.md``; test hands play by the rulebook, without it),
  discard the dead cards first: reinforce cards that raise no attack, and realms and units the
  hand's supply cannot pay for or whose prerequisites are neither on the field nor in the hand.
  A full hand with nothing to discard plays its smallest supply card so the hand can change; a
  hand of seven unplayable cards would never change (ruling 21).

Payments asked of the player discard the least useful card (reinforce, then the costliest
permanent, then the smallest supply card); targets and field payments take the first choice.
The report gives the supply in opening hands, how often a realm or unit is deployed on each of the
first three turns, cards played and damage dealt by turns 3, 5 and 10, and how and when games end
(the turn the idle rival's 20 life reaches 0, or the hand locks, ruling 21, and the game runs to
the test's turn limit: the idle rival still holds cards it could play, so it is no stalemate). ``walk`` replays one such game for a page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engines.core import Action
from rules.engines.core.hands import (
    AgentFactory,
    BaseHandReport,
    CardBox,
    HandsModel,
    HandsPlugin,
    HandWalk,
    OutcomeTally,
    deck_counts,
    outcome_label,
    outcome_text,
    per_game,
    turn_events,
)
from rules.engines.rival_realms.cards import CardSpec, fixture_records
from rules.engines.rival_realms.decklists import fixture_decks
from rules.engines.rival_realms.game import RivalRealmsGame
from rules.engines.rival_realms.state import HAND_SIZE, STARTING_LIFE, RealmsState

MulliganPolicy = Callable[[Sequence[CardSpec], int], bool]


SAMPLE_TURNS = 50  # own turns a sampled game may last before it counts as a draw
WALK_TURNS = 40
DEPLOY_TURNS = (1, 2, 3)
BY_TURNS = (3, 5, 10)
OPENING_SUPPLY = 2  # "opening hands with at least this many supply cards"
END = Action("end")
PASS = Action("pass")


@dataclass(frozen=True, kw_only=True)
class RealmsHandReport(BaseHandReport):
    """What ``sample`` found over its goldfish games."""

    supply_in_opening: float  # mean supply cards in the opening hand
    opening_with_supply: float  # share of opening hands with at least OPENING_SUPPLY supply cards
    deployed_on_turn: dict[int, float]  # share of games with a realm or unit deployed that turn
    played_by_turn: dict[int, float]  # mean realms, units and reinforce cards played by then
    damage_by_turn: dict[int, float]  # mean damage dealt to the rival by the end of that turn

    @property
    def figures(self) -> list[tuple[str, str]]:
        """The headline figures as (label, value) rows, in display order."""
        rows = [
            ("Supply cards in the opening hand", f"{self.supply_in_opening:.2f}"),
            (
                f"Opening hands with {OPENING_SUPPLY}+ supply cards",
                f"{self.opening_with_supply:.0%}",
            ),
        ]
        rows += [
            (f"Realm or unit deployed on turn {t}", f"{share:.0%}")
            for t, share in self.deployed_on_turn.items()
        ]
        rows += [
            (f"Cards played by turn {t}", f"{count:.1f}")
            for t, count in self.played_by_turn.items()
        ]
        rows += [
            (f"Damage to the rival by turn {t}", f"{damage:.1f}")
            for t, damage in self.damage_by_turn.items()
        ]
        return rows


# --- decks and the engine ---------------------------------------------------------------------
BOX = CardBox(fixture_records, RivalRealmsGame)


def sample_deck(stem: str) -> list[dict[str, Any]]:
    """One record per card (zone "") of a legal sample deck, ``fixtures/decks/rival-realms``."""
    return BOX.deck(fixture_decks()[stem])


def game_for(deck: Sequence[Mapping[str, Any]]) -> RivalRealmsGame:
    """The engine playing the deck's own card records (the built-in set supplies any others)."""
    return BOX.game_for(deck)


def _new_game(deck: Sequence[Mapping[str, Any]], seed: int, own_turns: int) -> RealmsState:
    counts = deck_counts(deck)
    setup = {"decks": [counts, counts], "first_player": 0, "turn_limit": 2 * own_turns}
    return game_for(deck).new_initial_state(seed, setup)


def own_turn(state: RealmsState) -> int:
    """The player's own turn number (they go first, so turns 1, 3, 5 ... of the game are theirs)."""
    return (state.turn + 1) // 2


# --- the goldfish line ------------------------------------------------------------------------
def _attack_gain(spec: CardSpec, attackers: int) -> int:
    gain = 0
    for _, ability in spec.of_kind("on_play"):
        for op in ability.do:
            if op["op"] == "modify" and int(op.get("attack", 0)) > 0:
                wide = op.get("target") == "own_combat_units"
                gain += int(op["attack"]) * (attackers if wide else 1)
    return gain


class Goldfish:
    """The player's deterministic line (see the module docstring); one instance per game."""

    def __init__(self) -> None:
        self.turn = 0
        self.skipped: set[str] = set()

    def act(self, state: RealmsState) -> Action:
        """Return the goldfish line's choice for player 0, who is to act."""
        if state.turn != self.turn:
            self.turn, self.skipped = state.turn, set()
        actions = state.legal_actions()
        if state.tasks:
            if state.tasks[0][0] == "pay_hand":
                return min(actions, key=lambda a: self._discard_rank(state, str(a.args[0])))
            return actions[0]
        phase = state.phase
        if phase == "deploy":
            return self._deploy(state)
        if phase == "attack":
            return next((a for a in actions if a.kind == "attack"), END)
        if phase == "reinforce":
            return self._reinforce(state)
        if phase == "redraw":
            return self._redraw(state, actions)
        return PASS if PASS in actions else END

    # hand and supply
    @staticmethod
    def _supply_cards(state: RealmsState) -> list[CardSpec]:
        return [state.table[c] for c in state.hand[0] if state.table[c].type == "supply"]

    def _potential(self, state: RealmsState) -> int:
        return state.supply[0] + sum(spec.supply for spec in self._supply_cards(state))

    def _pay_towards(self, state: RealmsState, cost: int) -> Action | None:
        """The supply card to play next towards ``cost``: the smallest that covers the rest."""
        due = cost - state.supply[0]
        supply = sorted(self._supply_cards(state), key=lambda s: (s.supply, s.key))
        if due <= 0 or not supply:
            return None
        covering = [s for s in supply if s.supply >= due]
        return Action("supply", ((covering[0] if covering else supply[-1]).key,))

    @staticmethod
    def _discard_rank(state: RealmsState, key: str) -> tuple[int, int, str]:
        spec = next(state.table[c] for c in state.hand[0] if state.table[c].key == key)
        if spec.type == "reinforce":
            return (0, -spec.cost, key)
        if spec.is_permanent:
            return (1, -spec.cost, key)
        return (2, spec.supply, key)

    # deploy
    def plan(self, state: RealmsState) -> list[int]:
        """The realms and units to deploy this turn, in order: the most supply spent, then the
        most cards, among the sets whose prerequisites can be met one after another."""
        potential = self._potential(state)
        seen: set[str] = set()
        perms = []
        for card in sorted(state.hand[0], key=lambda c: state.table[c].key):
            spec = state.table[card]
            if spec.is_permanent and spec.key not in self.skipped and spec.cost <= potential:
                perms.append(card)
                seen.add(spec.key)
        on_field = {state.table[c].name for c in state.field[0]}
        best: list[int] = []
        best_score = (0, 0)
        for mask in range(1, 1 << len(perms)):
            subset = [card for bit, card in enumerate(perms) if mask >> bit & 1]
            cost = sum(state.table[c].cost for c in subset)
            if cost > potential or (cost, len(subset)) <= best_score:
                continue
            order = self._prerequisite_order(state, subset, on_field)
            if order is not None:
                best, best_score = order, (cost, len(subset))
        return best

    @staticmethod
    def _prerequisite_order(
        state: RealmsState, subset: list[int], on_field: set[str]
    ) -> list[int] | None:
        names = set(on_field)
        left = list(subset)
        order: list[int] = []
        while left:
            ready = [c for c in left if all(p in names for p in state.table[c].prerequisites)]
            if not ready:
                return None
            order.append(ready[0])
            names.add(state.table[ready[0]].name)
            left.remove(ready[0])
        return order

    def _deploy(self, state: RealmsState) -> Action:
        while True:
            plan = self.plan(state)
            if not plan:
                return END
            spec = state.table[plan[0]]
            if state.playable(0, plan[0]):
                return Action("play", (spec.key,))
            pay = self._pay_towards(state, spec.cost)
            if pay is not None:
                return pay
            self.skipped.add(spec.key)  # payable in supply but not its other costs this turn

    # redraw
    def dead_cards(self, state: RealmsState) -> list[str]:
        """The keys, sorted, of the cards in hand the line has no use for: reinforce cards that
        raise no attack, and realms and units the hand's supply cannot pay for or whose
        prerequisites are neither on the field nor in the hand."""
        potential = self._potential(state)
        names = {state.table[c].name for c in [*state.field[0], *state.hand[0]]}
        dead = []
        for card in state.hand[0]:
            spec = state.table[card]
            if spec.type == "reinforce":
                useless = not _attack_gain(spec, 1)
            elif spec.is_permanent:
                useless = spec.cost > potential or not set(spec.prerequisites) <= names
            else:
                useless = False
            if useless:
                dead.append(spec.key)
        return sorted(dead)

    def _redraw(self, state: RealmsState, actions: list[Action]) -> Action:
        # Ruling 23 (where the engine offers it): discard the dead cards before drawing, in the
        # key order the engine asks for.
        offered = {str(a.args[0]) for a in actions if a.kind == "discard"}
        for key in self.dead_cards(state):
            if key in offered:
                return Action("discard", (key,))
        if getattr(state, "cycling", "") or len(state.hand[0]) < HAND_SIZE:
            return END
        # A full hand draws nothing: play the smallest supply card so that the hand can change.
        supply = self._supply_cards(state)
        if supply:
            return Action("supply", (min(supply, key=lambda s: (s.supply, s.key)).key,))
        return END

    # reinforce
    def _reinforce(self, state: RealmsState) -> Action:
        attackers = len(state.attackers)
        potential = self._potential(state)
        on_field = {state.table[c].name for c in state.field[0]}
        options = []
        for card in state.hand[0]:
            spec = state.table[card]
            gain = _attack_gain(spec, attackers) if spec.type == "reinforce" else 0
            wanted = gain and spec.cost <= potential and spec.key not in self.skipped
            if wanted and all(p in on_field for p in spec.prerequisites):
                options.append((-gain, spec.cost, spec.key, card))
        for _, cost, key, card in sorted(options):
            if state.playable(0, card):
                return Action("play", (key,))
            pay = self._pay_towards(state, cost)
            if pay is not None:
                return pay
            self.skipped.add(key)
        # Supply left over this turn is lost at its end: spend it on any other reinforce card,
        # which also makes room in a hand that would otherwise fill up with them.
        spare = [
            (-state.table[c].cost, state.table[c].key)
            for c in state.hand[0]
            if state.table[c].type == "reinforce" and state.playable(0, c)
        ]
        return Action("play", (min(spare)[1],)) if spare else PASS


def idle_action(state: RealmsState) -> Action:
    """The idle rival: ends every window and passes in Reinforce; a choice takes the first."""
    actions = state.legal_actions()
    if state.tasks:
        return actions[0]
    return PASS if PASS in actions else END


# --- the model --------------------------------------------------------------------------------
def _field_names(state: RealmsState, player: int) -> list[str]:
    names = []
    for card in state.field[player]:
        spec = state.table[card]
        if spec.type == "unit":
            names.append(f"{spec.name} ({state.attack_of(card)}/{state.defense_of(card)})")
        else:
            names.append(spec.name)
    return names


class RivalRealmsHands(HandsModel):
    """Rival Realms' test hands: §Setup deals seven cards and has no mulligan, so keeping the
    hand is the only choice (the base's "never" policy); then the goldfish line. A sampled game
    lasts at most ``sample_turns`` of the player's own turns."""

    def __init__(self, plugin: HandsPlugin, *, sample_turns: int = SAMPLE_TURNS) -> None:
        super().__init__(plugin)
        self.sample_turns = sample_turns

    def deal_games(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        n: int,
        seed: int,
        policy: MulliganPolicy,
        make_agent: AgentFactory | None,
    ) -> RealmsHandReport:
        """Deal ``n`` goldfish games of ``deck`` (one record per card) and report openings and ends.

        Raises ``SetupError`` for a deck the engine cannot play (not 40 cards, too many copies ...).
        """
        supply_total = with_supply = 0
        deployed = dict.fromkeys(DEPLOY_TURNS, 0)
        played = dict.fromkeys(BY_TURNS, 0)
        damage = dict.fromkeys(BY_TURNS, 0)
        outcomes = OutcomeTally()
        hands: list[list[str]] = []
        for index in range(n):
            state = _new_game(deck, seed + index, self.sample_turns)
            state.quiet()
            opening = [state.table[c] for c in state.hand[0]]
            supply = sum(1 for spec in opening if spec.type == "supply")
            supply_total += supply
            with_supply += supply >= OPENING_SUPPLY
            if len(hands) < 5:
                hands.append(sorted(spec.name for spec in opening))
            goldfish = Goldfish()
            deployed_turns: set[int] = set()
            plays: list[int] = []
            life_after: dict[int, int] = {}
            while not state.is_terminal():
                turn = own_turn(state)
                for t in BY_TURNS:
                    if turn > t and t not in life_after:
                        life_after[t] = state.life[1]
                if state.current_player() == 1:
                    state.apply(idle_action(state))
                    continue
                action = goldfish.act(state)
                if action.kind == "play" and not state.tasks:
                    plays.append(turn)
                    spec = next(
                        state.table[c]
                        for c in state.hand[0]
                        if state.table[c].key == action.args[0]
                    )
                    if spec.is_permanent:
                        deployed_turns.add(turn)
                state.apply(action)
            for t in DEPLOY_TURNS:
                deployed[t] += t in deployed_turns
            for t in BY_TURNS:
                played[t] += sum(1 for turn in plays if turn <= t)
                damage[t] += STARTING_LIFE - max(0, life_after.get(t, state.life[1]))
            outcomes.add(
                outcome_label(state.winner(), self.ended(state.end_reason())), own_turn(state)
            )
        return RealmsHandReport(
            games=n,
            supply_in_opening=per_game(supply_total, n),
            opening_with_supply=per_game(with_supply, n),
            deployed_on_turn={t: per_game(c, n) for t, c in deployed.items()},
            played_by_turn={t: per_game(c, n) for t, c in played.items()},
            damage_by_turn={t: per_game(c, n) for t, c in damage.items()},
            wins=outcomes.wins,
            win_turn=outcomes.win_turn,
            opening_hands=hands,
        )

    def replay(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        seed: int,
        mulligans: int,
        kept: bool,
        turns: int,
        make_agent: AgentFactory | None,
    ) -> HandWalk:
        """Deal ``deck``'s opening hand for ``seed`` and, once ``kept``, play ``turns`` of the
        player's own turns with the goldfish line (there is no mulligan: ``mulligans`` is ignored)."""
        state = _new_game(deck, seed, WALK_TURNS)
        goldfish = Goldfish()
        played = 0
        log_from = len(state.event_log())
        while kept and not state.is_terminal():
            if state.current_player() == 1:
                state.apply(idle_action(state))
                continue
            if own_turn(state) > played:
                if played == turns:
                    break
                played = own_turn(state)
                log_from = max(i for i, e in enumerate(state.event_log()) if e.kind == "turn")
            state.apply(goldfish.act(state))
        finished = state.is_terminal()
        outcome = (
            outcome_text(state.winner(), own_turn(state), self.ended(state.end_reason()))
            if finished
            else ""
        )
        return HandWalk(
            state=state,
            seed=seed,
            mulligans=0,
            kept=kept,
            turns=played,
            can_mulligan=False,
            finished=finished,
            outcome=outcome,
            phase=state.phase if kept else "opening hand",
            hand=sorted(state.table[c].name for c in state.hand[0]),
            zones=[
                ("Your field", _field_names(state, 0)),
                ("Your discard deck", sorted(state.table[c].name for c in state.discard[0])),
            ],
            counters=[
                ("Life", str(state.life[0])),
                ("Rival's life", str(state.life[1])),
                ("Supply in hand", str(sum(s.supply for s in Goldfish._supply_cards(state)))),
                ("Draw deck", str(len(state.draw[0]))),
                ("Lost deck", str(len(state.lost[0]))),
            ],
            log=self.log(turn_events(state.event_log(), log_from, ("turn",)), state.table)
            if turns
            else [],
            events=turn_events(state.event_log(), log_from, ("turn",)) if turns else [],
        )
