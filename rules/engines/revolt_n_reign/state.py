"""The Revolt N Reign game state: zones, the five phases, the Resolve Phase steps and victories.

Every physical card is an integer id into the state's ``table`` of ``CardSpec`` (ids ``60*p`` to
``60*p + 59`` belong to player ``p``); zones are lists of ids, so a state copies cheaply. Cards
played in the Play Phase are declared (with their targets) into ``pending`` and resolve in the
Resolve Phase, step by step, each action at its op's step. The rulings these rules follow are
written once, in ``docs/rules/revolt-n-reign.md`` (Rulings); comments cite their numbers.

Actions (card keys are name slugs, targets are card ids of the rival's cards in play, -1 none):

- ``keep`` / ``mulligan``: Step 3 of Setup, seat 0 then seat 1.
- ``pass`` / ``equalize KEY [TARGET ...]``: Player 2's Pre-Game Equalization (a 0-IP card).
- ``pillar KEY``: play a Pillar from hand (one a turn).
- ``play KEY [TARGET ...]``: pay and play a card; an Attack card's first target is where its own
  damage goes, then one target per card-target action of its On play effects.
- ``clash KEY ATTACK [TARGET ...]``: play an Attack card as Attack on Attack (IP + 1).
- ``activate CARD EFFECT X [TARGET ...]``: use an activated effect (X is 0 unless it costs X).
- ``end``: end the Play Phase; the inactive player may then respond (``activate``, then ``end``)
  before the Resolve and End Phases run.
- ``choose TARGET`` / ``choose KEY``: a choice a card gives its controller while the Resolve Phase
  runs (a triggered effect's target, a card to discard from the looked-at hand); that player decides.
- ``discard KEY``: discard down to 7 in the End Phase.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from rules.engines.core import TERMINAL, Action, CardSightings, Rng, State
from rules.engines.core.weights import weights_beside
from rules.engines.revolt_n_reign.cards import (
    ATTACK,
    BILL,
    CARD_TARGETS,
    DEFENSE,
    FREEDOM,
    PETITION,
    PILLAR,
    UA,
    Act,
    Amount,
    CardSpec,
    Effect,
)

DECK_SIZE = 60
HAND_LIMIT = 7
OPENING_HAND = 7
START_LP = 100
MAX_MULLIGANS = 2
PETITION_LP = 20
SCROLL_PILLARS = 3
FOREVER = 1 << 30

LP_VICTORY = "lp-victory"
ATTACK_VICTORY = "attack-victory"
PETITION_VICTORY = "petition-victory"
DECK_OUT = "deck-out"
TURN_LIMIT = "turn-limit"
#: every end reason a game can have (``end_reason()``); the plugin gives each one words
END_REASONS = (LP_VICTORY, ATTACK_VICTORY, PETITION_VICTORY, DECK_OUT, TURN_LIMIT)

END = Action("end")
#: rollout policy: chance of ending the turn while plays remain; turn changes before the cut-off
#: the evaluation's feature weights (``_strength``, ``_search_strength``), tuned by self-play
#: (``bench/tune.py``) and loaded from ``weights.json``
WEIGHTS = weights_beside(__file__)
ROLLOUT_END = 0.15
ROLLOUT_TURNS = 2
#: rollout_value: how sharply strength differences count; a draw pile this thin is a threat
ROLLOUT_SCALE = 3.0
ROLLOUT_THIN_DECK = 20
#: action_priors: positions the one-turn look-ahead may visit per decision (as the greedy agent)
PRIOR_NODES = 400
KEEP = Action("keep")
MULLIGAN = Action("mulligan")
PASS = Action("pass")
NO_TARGET = -1

#: an effect waiting to resolve: (controller, source card, effect, declared targets or None, X)
Item = tuple[int, int, Effect, "tuple[int, ...] | None", int]


def _shuffle(items: list[int], rng: Rng) -> None:
    """Fisher-Yates with two indices per 64-bit draw (multiply-shift; bias below 2**-25).

    Determinisations shuffle about a hundred cards each, a tenth of an MCTS decision's time
    with ``Rng.shuffle``; the game itself keeps ``Rng.shuffle``.
    """
    i = len(items) - 1
    while i > 0:
        bits = rng.next_u64()
        j = ((bits & 0xFFFFFFFF) * (i + 1)) >> 32
        items[i], items[j] = items[j], items[i]
        i -= 1
        if i > 0:
            j = ((bits >> 32) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1


class RevoltState(State):
    """A Revolt N Reign position: both players' zones, LP, IP, declarations and lasting effects."""

    __slots__ = (
        "active",
        "bill_uses",
        "board",
        "choice",
        "chosen",
        "discard",
        "dp",
        "draw",
        "exile",
        "first",
        "hand",
        "house_once",
        "ip",
        "lasting",
        "locks",
        "lp",
        "mulligans",
        "pending",
        "petitions_needed",
        "phase",
        "pillar_played",
        "pillars",
        "queue",
        "r_at",
        "r_gains",
        "r_items",
        "r_next",
        "r_order",
        "r_stage",
        "reason",
        "resolving",
        "result",
        "seat",
        "serial",
        "shield_used",
        "spent",
        "table",
        "turn",
        "turn_limit",
        "uas",
        "used",
    )

    def __init__(
        self, game: Any, seed: int, table: tuple[CardSpec, ...], blank: bool = False
    ) -> None:
        super().__init__(game, seed)
        self.table = table
        if blank:  # clone() fills every field
            return
        self.lp = [START_LP, START_LP]
        self.ip = [0, 0]
        self.spent = [0, 0]
        self.draw: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.exile: list[list[int]] = [[], []]
        self.uas: list[list[int]] = [[], []]
        self.pillars: list[list[int]] = [[], []]
        self.board: list[list[int]] = [[], []]
        self.resolving: list[list[int]] = [[], []]
        self.dp: dict[int, int] = {}
        self.locks: dict[int, int] = {}
        self.used: set[tuple[int, int]] = set()
        self.pending: list[tuple[Any, ...]] = []
        self.lasting: list[tuple[int, int, Act, int, int]] = []
        self.shield_used: dict[Hashable, int] = {}
        #: triggered effects waiting to resolve (When attacked, When destroyed, Forced Resolution)
        self.queue: list[Item] = []
        #: the Resolve Phase, resumable after a player's choice: the stage ("4" or "5C"), Step
        #: 4's damage sources and the next one, Step 5C's items and the next one, LP gains
        self.r_stage = "4"
        self.r_order: list[tuple[str, Any]] = []
        self.r_at = 0
        self.r_items: list[Item] = []
        self.r_next = 0
        self.r_gains: list[tuple[Item, int, Act]] = []
        #: a pending choice: (chooser, what, source card, options); ``chosen`` holds the answers
        self.choice: tuple[int, str, int, tuple] | None = None
        self.chosen: list[int] = []
        #: house rule "activated_once_per_turn" (named opt-in setup option, off by default)
        self.house_once = False
        self.serial = 0
        self.bill_uses: list[dict[str, int]] = [{}, {}]
        self.mulligans = [0, 0]
        self.seat = 0
        self.first = 0
        self.active = 0
        self.turn = 0
        self.turn_limit = 200
        self.petitions_needed = 4
        self.pillar_played = False
        self.phase = "mulligan"
        self.result: list[float] | None = None
        self.reason = ""

    # --- the core API ---------------------------------------------------------------------------
    def current_player(self) -> int:
        """Return the player to decide: a mulligan seat, Player 2 equalizing, or the active player."""
        if self.result is not None:
            return TERMINAL
        if self.phase == "mulligan":
            return self.seat
        if self.phase == "equalize":
            return 1 - self.first
        if self.phase == "respond":
            return 1 - self.active
        if self.phase == "choose" and self.choice is not None:
            return self.choice[0]
        return self.active

    def legal_actions(self) -> list[Action]:
        """Return the decisions open to the player to act, in a stable order."""
        if self.result is not None:
            return []
        phase = self.phase
        if phase == "play":
            return self._play_actions()
        if phase == "discard":
            return [Action("discard", (key,)) for key in self._hand_keys(self.active)]
        if phase == "mulligan":
            return [KEEP, MULLIGAN] if self.mulligans[self.seat] < MAX_MULLIGANS else [KEEP]
        if phase == "respond":
            return [*self._activation_actions(1 - self.active, {}, response=True), END]
        if phase == "choose" and self.choice is not None:
            return [Action("choose", (option,)) for option in self.choice[3]]
        return [PASS, *self._equalize_actions()]

    def _apply(self, action: Action) -> None:
        """Carry out one decision, then run the game until someone must decide again."""
        kind = action.kind
        if kind == "end":
            if self.phase == "play" and self._activation_actions(
                1 - self.active, {}, response=True
            ):
                self.phase = "respond"  # "2. WHO MAY INTERACT": the inactive player may respond
                return
            self.phase = "resolve"
            self._resolve_phase()
        elif kind == "choose":
            self._answer(action.args[0])
        elif kind == "play" or kind == "clash":
            self._play(self.active, action, kind == "clash")
        elif kind == "pillar":
            self._play_pillar(self.active, str(action.args[0]))
        elif kind == "activate":
            self._activate(self.current_player(), action.args)
        elif kind == "discard":
            player = self.active
            self.discard[player].append(self._take(self.hand[player], str(action.args[0])))
            if len(self.hand[player]) <= HAND_LIMIT:
                self._finish_turn()
        elif kind in ("keep", "mulligan"):
            self._mulligan_decision(kind == "mulligan")
        elif kind == "equalize":
            self._play(1 - self.first, action, False, free=True)
            self._begin_game()
        elif kind == "pass":
            self._begin_game()
        else:
            raise ValueError(f"unknown action {action}")

    def returns(self) -> list[float]:
        """Return +1 for the winner and -1 for the loser, 0 each after a draw or while playing."""
        return list(self.result) if self.result is not None else [0.0, 0.0]

    def end_reason(self) -> str:
        """Return how the game ended: lp-victory, attack-victory, petition-victory, deck-out, turn-limit."""
        return self.reason

    def clone(self) -> RevoltState:
        """Return an independent copy (zone lists copied, specs and effects shared)."""
        new = RevoltState(self.game, 0, self.table, blank=True)
        self._copy_base(new)
        new.table = self.table
        new.lp = self.lp.copy()
        new.ip = self.ip.copy()
        new.spent = self.spent.copy()
        new.draw = [self.draw[0].copy(), self.draw[1].copy()]
        new.hand = [self.hand[0].copy(), self.hand[1].copy()]
        new.discard = [self.discard[0].copy(), self.discard[1].copy()]
        new.exile = [self.exile[0].copy(), self.exile[1].copy()]
        new.uas = [self.uas[0].copy(), self.uas[1].copy()]
        new.pillars = [self.pillars[0].copy(), self.pillars[1].copy()]
        new.board = [self.board[0].copy(), self.board[1].copy()]
        new.resolving = [self.resolving[0].copy(), self.resolving[1].copy()]
        new.dp = self.dp.copy()
        new.locks = self.locks.copy()
        new.used = self.used.copy()
        new.pending = self.pending.copy()
        new.lasting = self.lasting.copy()
        new.shield_used = self.shield_used.copy()
        new.queue = self.queue.copy()
        new.r_stage = self.r_stage
        new.r_order = self.r_order
        new.r_at = self.r_at
        new.r_items = self.r_items.copy()
        new.r_next = self.r_next
        new.r_gains = self.r_gains.copy()
        new.choice = self.choice
        new.chosen = self.chosen.copy()
        new.house_once = self.house_once
        new.serial = self.serial
        new.bill_uses = [self.bill_uses[0].copy(), self.bill_uses[1].copy()]
        new.mulligans = self.mulligans.copy()
        new.seat = self.seat
        new.first = self.first
        new.active = self.active
        new.turn = self.turn
        new.turn_limit = self.turn_limit
        new.petitions_needed = self.petitions_needed
        new.pillar_played = self.pillar_played
        new.phase = self.phase
        new.result = self.result
        new.reason = self.reason
        return new

    def determinise(self, player: int, rng: Rng) -> RevoltState:
        """Return a copy with what ``player`` cannot see resampled: draw-pile order, rival's hand.

        The rival's hand and draw pile are pooled and dealt again with the same sizes (the
        rival's decklist is taken as known, as with open decklists); ``player``'s own draw pile is
        reshuffled. Everything in play, in discard and exile piles is public and kept.
        """
        new = self.clone()
        rival = 1 - player
        # each pile sorted first, so the sample depends only on what ``player`` sees and on
        # ``rng``, never on how the hidden cards lie (agents decide alike on any re-deal)
        new.draw[player].sort()
        _shuffle(new.draw[player], rng)
        choice = self.choice
        if choice is not None and choice[0] == player and choice[1] == "discard":
            new.draw[rival].sort()
            _shuffle(new.draw[rival], rng)  # the chooser is looking at the rival's hand now
        else:
            pool = sorted(new.hand[rival] + new.draw[rival])
            _shuffle(pool, rng)
            size = len(new.hand[rival])
            new.hand[rival] = pool[:size]
            new.draw[rival] = pool[size:]
        new.rng = rng.spawn()
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """Return the table as ``player`` sees it: own hand open, the rival's hand and piles counted."""
        names = self._names
        return {
            "player": player,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "active_player": self.active,
            "first_player": None if self.phase == "mulligan" else self.first,
            "phase": self.phase,
            "petitions_needed": self.petitions_needed,
            "pillar_played": self.pillar_played,
            "players": [
                {
                    "lp": self.lp[p],
                    "ip": self.ip[p],
                    "pillars_turned": min(self.spent[p], len(self.pillars[p])),
                    "hand": names(self.hand[p]) if p == player else len(self.hand[p]),
                    "draw_pile": len(self.draw[p]),
                    "discard_pile": names(self.discard[p]),
                    "exile": names(self.exile[p]),
                    "uas": self._in_play_view(self.uas[p]),
                    "pillars": self._in_play_view(self.pillars[p]),
                    "board": self._in_play_view(self.board[p]),
                    "resolving": names(self.resolving[p]),
                    "bill_costs": self._bill_costs(p),
                    "mulligans": self.mulligans[p],
                }
                for p in (0, 1)
            ],
            "declared": [
                {
                    "player": decl[0],
                    "kind": decl[1],
                    "card": self.table[decl[2]].name,
                    "effect": decl[3],
                    "targets": list(decl[4] or ()),
                    "x": decl[5],
                }
                for decl in self.pending
            ],
            "lasting": [
                {"player": c, "op": act.op, "amount": amount, "last_turn": last}
                for _, c, act, amount, last in self.lasting
            ],
            "choosing": (
                None
                if self.choice is None
                else {
                    "player": self.choice[0],
                    "what": self.choice[1],
                    "card": self.table[self.choice[2]].name,
                }
            ),
            "legal_actions": (
                [str(a) for a in self.legal_actions()] if self.current_player() == player else []
            ),
            "result": list(self.result) if self.result is not None else None,
            "end_reason": self.reason,
        }

    def zone_counts(self) -> dict[str, int]:
        """Return how many cards each zone holds; the total is both players' 60 cards, always."""
        return {
            zone: len(piles[0]) + len(piles[1])
            for zone, piles in (
                ("draw_piles", self.draw),
                ("hands", self.hand),
                ("discard_piles", self.discard),
                ("exile", self.exile),
                ("ua_areas", self.uas),
                ("pillars", self.pillars),
                ("in_play", self.board),
                ("resolving", self.resolving),
            )
        }

    def key(self) -> Hashable:
        """Return a hashable summary of the position (history left out)."""
        piles = (
            self.draw,
            self.hand,
            self.discard,
            self.exile,
            self.uas,
            self.pillars,
            self.board,
            self.resolving,
        )
        return (
            tuple(tuple(pile[p]) for pile in piles for p in (0, 1)),
            tuple(self.lp),
            tuple(self.ip),
            tuple(sorted(self.dp.items())),
            tuple(sorted(self.locks.items())),
            tuple(sorted(self.used)),
            tuple(self.pending),
            tuple(self.lasting),
            tuple(sorted(self.bill_uses[0].items())),
            tuple(sorted(self.bill_uses[1].items())),
            (self.phase, self.turn, self.active, self.seat, self.pillar_played),
            tuple(self.mulligans),
            (self.choice, tuple(self.chosen), self.r_stage, self.r_at, self.r_next),
        )

    def evaluate(self, player: int) -> float:
        """Return ``player``'s prospects in [-1, 1]: LP, UA Defense left, board and petitions.

        While the rival must respond or choose before the Resolve Phase ends, the position is
        scored as ``settled`` (the rival passing and taking each first option)."""
        if self.result is not None:
            return self.result[player]
        if self._unsettled(player):
            return self.settled(player).evaluate(player)
        return max(-0.95, min(0.95, self._strength(player) - self._strength(1 - player)))

    def _unsettled(self, player: int) -> bool:
        return self.phase in ("respond", "choose") and self.current_player() != player

    def settled(self, player: int) -> RevoltState:
        """A copy where the rival's pending responses and choices take their defaults (pass, the
        first option), until ``player`` decides again or the turn has resolved."""
        state = self.clone()
        state.quiet()
        while state.result is None and state._unsettled(player):
            state.apply_unchecked(END if state.phase == "respond" else state.legal_actions()[0])
        return state

    # --- search hooks (rules/agents/mcts.py) ---------------------------------------------------
    has_rollout_policy = True

    def rollout_action(self, rng: Rng) -> Action:
        """A quick playout policy: lay a Pillar when one may be laid, otherwise mostly play on.

        Uniform random play ends turns early (one ``end`` among many plays still comes up often
        after a few cards) and plays the same card with every target list; this policy always
        lays a Pillar first, then picks a card (or activation) uniformly, and ends the turn with
        probability ``ROLLOUT_END`` while plays remain.
        """
        actions = self.legal_actions()
        if self.phase == "respond" and rng.random() < 1 - ROLLOUT_END:
            return END  # a response is the exception, not the rule
        if self.phase != "play" or len(actions) == 1:
            return rng.choice(actions)
        plays = actions[:-1]  # ``end`` is always last
        for action in plays:
            if action.kind == "pillar":
                return action
        if rng.random() < ROLLOUT_END:
            return END
        by_card: dict[tuple, list[Action]] = {}
        for action in plays:
            card = (action.kind, action.args[:2]) if action.kind == "activate" else action.args[:1]
            by_card.setdefault(card, []).append(action)
        group = rng.choice(list(by_card.values()))
        return rng.choice(group)

    def search_actions(self) -> list[Action]:
        """The legal actions less a dominated one: ending the Play Phase while a Pillar may be laid.

        A Pillar costs nothing, only adds IP and Branch count, and the chance is gone once the
        turn ends ("Phase 3: Play Phase": one Pillar a turn), so a turn that ends with one in
        hand is never better than the same turn with it laid. Search agents choose among these.
        """
        actions = self.legal_actions()
        if (
            self.phase == "play"
            and not self.pillar_played
            and any(action.kind == "pillar" for action in actions)
        ):
            actions.pop()  # ``end`` is always last, and a Pillar action keeps the list non-empty
        return actions

    def pass_action(self) -> Action | None:
        """The action that ends the turn now: ``end`` in the Play Phase (``rules/agents/plan.py``)."""
        return END if self.phase in ("play", "respond") and self.result is None else None

    def rollout_value(self, player: int) -> float:
        """Score a rollout's last position for ``player`` in (-1, 1), more sharply than evaluate.

        ``evaluate`` plus the two slow threats a short rollout cannot see finish: a rival close
        to Petition Victory (Petitions and Scroll Pillars together) and a thin draw pile
        (Deck-Out), stretched with ``tanh`` so UCT's exploration does not drown the differences.
        """
        if self.result is not None:
            return self.result[player]
        if self._unsettled(player):
            return self.settled(player).rollout_value(player)
        diff = self._search_strength(player) - self._search_strength(1 - player)
        return math.tanh(ROLLOUT_SCALE * diff)

    def _search_strength(self, player: int) -> float:
        petitions = min(self.petition_count(player), self.petitions_needed) / self.petitions_needed
        scrolls = min(self.scroll_pillars(player), SCROLL_PILLARS) / SCROLL_PILLARS
        closeness = petitions * scrolls * (1.0 if self.lp[player] >= PETITION_LP else 0.5)
        thin = max(0, ROLLOUT_THIN_DECK - len(self.draw[player])) / ROLLOUT_THIN_DECK
        w = WEIGHTS
        return (
            self._strength(player)
            + w["closeness"] * closeness
            + w["search_petitions"] * petitions
            + w["thin"] * thin
        )

    def action_priors(self, player: int) -> list[float]:
        """A prior for each legal action: the best ``rollout_value`` at the end of this turn.

        The greedy agent's look-ahead: after the action, the rest of the turn is searched
        depth-first (``PRIOR_NODES`` positions in all, shared evenly by the actions); each line is
        scored once the turn has passed (its cards resolved); where the budget runs out the turn
        is ended there. MCTS seeds its root with these (progressive bias), so it starts from the
        greedy plan and its rollouts only overrule it with evidence.
        """
        actions = self.search_actions()
        share = max(1, PRIOR_NODES // len(actions))
        priors = []
        for action in actions:
            child = self.clone()
            child.apply_unchecked(action)
            priors.append(child._turn_value(player, [share]))
        return priors

    def _turn_value(self, player: int, budget: list[int]) -> float:
        budget[0] -= 1
        if self.result is not None or self.current_player() != player:
            return self.rollout_value(player)
        if budget[0] <= 0:
            if self.phase in ("play", "respond"):
                self.apply_unchecked(END)
            return self.rollout_value(player)
        best = -1.0
        for action in self.legal_actions():
            child = self.clone()
            child.apply_unchecked(action)
            best = max(best, child._turn_value(player, budget))
        return best

    def advice(self) -> Action | None:
        """A rule of thumb for a decision search cannot judge: keep or mulligan (Setup, Step 3).

        A mulligan's effect shows only after several turns, beyond where MCTS rollouts stop, so
        search alone keeps or redraws nearly at random. The advice keeps a hand whose Pillar count
        is within one of what a fresh seven from the player's own cards (hand and draw pile: only
        what that player knows) holds on average, within two after a mulligan, and always keeps
        the last hand allowed. Only the deciding player's own cards are read.
        """
        if self.phase != "mulligan" or self.result is not None:
            return None
        seat = self.seat
        if self.mulligans[seat] >= MAX_MULLIGANS:
            return KEEP
        table = self.table
        hand = self.hand[seat]
        pool = len(hand) + len(self.draw[seat])
        pillars = sum(1 for cid in hand if table[cid].type == PILLAR)
        total = pillars + sum(1 for cid in self.draw[seat] if table[cid].type == PILLAR)
        expected = round(OPENING_HAND * total / pool) if pool else 0
        slack = 1 + self.mulligans[seat]
        return KEEP if abs(pillars - expected) <= slack else MULLIGAN

    def rollout_turns(self) -> int:
        """How many turn changes an MCTS rollout plays before ``evaluate`` scores it."""
        return ROLLOUT_TURNS

    def turn_count(self) -> int:
        """Report hook: turns begun so far (0 while mulligans and equalization run)."""
        return self.turn

    def first_player(self) -> int:
        """Report hook: the player who takes the first turn ("Step 4: Determine Turn Order")."""
        return self.first

    def card_sightings(self) -> list[CardSightings] | None:
        """Per seat: its cards (every zone of its side), those it drew (all but its draw pile
        at the end; the UAs are in play from the start) and those it played (the ``play``,
        ``clash``, ``equalize`` and ``pillar`` events)."""
        if self.events is None:
            return None
        result = []
        for player in (0, 1):
            zones = (
                self.hand, self.discard, self.exile, self.uas,
                self.pillars, self.board, self.resolving,
            )  # fmt: skip
            seen = {self.table[cid].name for zone in zones for cid in zone[player]}
            played = frozenset(
                str(event.detail["card"])
                for event in self.events
                if event.player == player
                and event.kind in ("play", "clash", "equalize", "pillar")
                and "card" in event.detail
            )
            drew = frozenset(seen) | played
            deck = drew | {self.table[cid].name for cid in self.draw[player]}
            result.append(CardSightings(frozenset(deck), drew, played))
        return result

    # --- setup --------------------------------------------------------------------------------
    def deal(self, decks: Sequence[Sequence[int]], mulligans: bool) -> None:
        """Setup: UAs to the UA area, shuffle the 57, draw 7, then mulligans (or straight on)."""
        for player, deck in enumerate(decks):
            for cid in deck:
                if self.table[cid].type == UA:
                    self.uas[player].append(cid)
                    self.dp[cid] = self.table[cid].defense
                else:
                    self.draw[player].append(cid)
            self.rng.shuffle(self.draw[player])
            self._draw_cards(player, OPENING_HAND)
        self.phase = "mulligan"
        self.seat = 0
        if not mulligans:
            self.mulligans = [MAX_MULLIGANS, MAX_MULLIGANS]
            self._mulligans_done()

    def _mulligan_decision(self, again: bool) -> None:
        seat = self.seat
        if again:
            self.draw[seat].extend(self.hand[seat])
            self.hand[seat].clear()
            self.rng.shuffle(self.draw[seat])
            self._draw_cards(seat, OPENING_HAND)
            self.mulligans[seat] += 1
            self.log("mulligan", seat, count=self.mulligans[seat])
            if self.mulligans[seat] < MAX_MULLIGANS:
                return
        if seat == 0:
            self.seat = 1
            if self.mulligans[1] < MAX_MULLIGANS:
                return
        self._mulligans_done()

    def _mulligans_done(self) -> None:
        """Step 4 (turn order) is decided by the Game before dealing; go on to equalization."""
        self.log("turn_order", self.first, second=1 - self.first)
        if self._equalize_actions():
            self.phase = "equalize"
        else:
            self._begin_game()

    def _begin_game(self) -> None:
        self.active = self.first
        self.turn = 1
        self._start_turn()

    def _equalize_actions(self) -> list[Action]:
        player = 1 - self.first
        actions: list[Action] = []
        for key in self._hand_keys(player):
            spec = self._spec_in_hand(player, key)
            if spec.type != PILLAR and spec.cost == 0:
                actions.extend(
                    Action("equalize", (key, *targets))
                    for targets in self._declare_options(player, spec, clash=False)
                )
        return actions

    # --- queries ------------------------------------------------------------------------------
    def _names(self, cards: Iterable[int]) -> list[str]:
        return [self.table[c].name for c in cards]

    def _in_play_view(self, cards: Iterable[int]) -> list[dict[str, Any]]:
        view = []
        for cid in cards:
            entry: dict[str, Any] = {"id": cid, "name": self.table[cid].name}
            if cid in self.dp:
                entry["remaining"] = self.dp[cid]
            if cid in self.locks:
                entry["locked_until_turn"] = self.locks[cid]
            view.append(entry)
        return view

    def owner(self, cid: int) -> int:
        """Return the player who owns card ``cid``."""
        return cid // DECK_SIZE

    def spec(self, cid: int) -> CardSpec:
        """Return the definition of card ``cid``."""
        return self.table[cid]

    def in_play(self, player: int) -> list[int]:
        """Return every card ``player`` controls in play: UAs, Pillars, then the rest."""
        return [*self.uas[player], *self.pillars[player], *self.board[player]]

    def cards_of(self, player: int, kind: str) -> list[int]:
        """Return ``player``'s cards in play of a kind (UA, attack, defense, freedom, petition)."""
        if kind == UA:
            return self.uas[player]
        if kind == PILLAR:
            return self.pillars[player]
        table = self.table
        return [c for c in self.board[player] if table[c].kind == kind]

    def is_locked(self, cid: int) -> bool:
        """Return True while card ``cid`` is locked."""
        return cid in self.locks

    def petition_count(self, player: int) -> int:
        """Return the Petitions ``player`` controls that count (in play and not locked)."""
        return sum(1 for c in self.cards_of(player, PETITION) if c not in self.locks)

    def scroll_pillars(self, player: int) -> int:
        """Return how many Scroll Pillars ``player`` controls."""
        return sum(1 for c in self.pillars[player] if self.table[c].branch == "scroll")

    def drain_total(self, player: int) -> int:
        """Return the LP ``player``'s UAs drain this turn, after every modifier (never below 0)."""
        if not self.uas[player]:
            return 0
        total = sum(self.table[c].drain for c in self.uas[player])
        for act, _ in self._lasting_acts(player, "modify_ua_drain"):
            if act.whose == "yours":
                total += act.delta
        for act, _ in self._lasting_acts(1 - player, "modify_ua_drain"):
            if act.whose == "opponent":
                total += act.delta
        return max(0, total)

    def card_cost(self, player: int, cid: int) -> int:
        """Return the IP ``player`` pays to play card ``cid`` now (Bills double after each use)."""
        spec = self.table[cid]
        if spec.type == BILL:
            return self._bill_cost(player, spec)
        return spec.cost

    def _bill_cost(self, player: int, spec: CardSpec) -> int:
        return spec.cost << self.bill_uses[player].get(spec.key, 0)

    def _bill_costs(self, player: int) -> dict[str, int]:
        uses = self.bill_uses[player]
        specs = {
            self.table[c].key: self.table[c]
            for c in range(DECK_SIZE * player, DECK_SIZE * (player + 1))
        }
        return {key: self._bill_cost(player, specs[key]) for key in sorted(uses) if key in specs}

    def _hand_keys(self, player: int) -> list[str]:
        return sorted({self.table[c].key for c in self.hand[player]})

    def _spec_in_hand(self, player: int, key: str) -> CardSpec:
        for cid in self.hand[player]:
            if self.table[cid].key == key:
                return self.table[cid]
        raise KeyError(key)

    def _strength(self, player: int) -> float:
        table, dp = self.table, self.dp
        lp = max(-20, min(self.lp[player], 140)) / 100
        uas = self.uas[player]
        ua = len(uas) / 3 + sum(dp.get(c, 0) for c in uas) / 90
        defense = sum(dp.get(c, 0) for c in self.board[player] if table[c].type == DEFENSE)
        petitions = min(self.petition_count(player), self.petitions_needed)
        scrolls = min(self.scroll_pillars(player), SCROLL_PILLARS)
        progress = petitions / self.petitions_needed + scrolls / SCROLL_PILLARS
        w = WEIGHTS
        return (
            w["lp"] * lp
            + w["ua"] * ua
            + w["defense"] * defense
            + w["progress"] * progress
            + w["pillars"] * len(self.pillars[player])
            + w["ip"] * min(self.ip[player], 10)
            + w["draw"] * len(self.draw[player]) / 10
        )

    # --- the Play Phase -----------------------------------------------------------------------
    def _target_options(self, player: int, act: Act) -> list[int]:
        """Cards an action may be declared against (NO_TARGET when there is none)."""
        rival = 1 - player
        cards = self.cards_of(rival, CARD_TARGETS[act.target or ""])
        if act.op == "damage":
            # "Attack Damage Resolution": damage printed against a Defense names its target, so
            # it never falls to a UA (that default is the Attack card's own damage only).
            dp = self.dp
            cards = [c for c in cards if dp.get(c, 0) > 0]
        return list(cards) or [NO_TARGET]

    def _core_attack_options(self, player: int) -> list[int]:
        """Where an Attack card's own damage may be assigned ("Attack Targeting (Default Rule)")."""
        rival = 1 - player
        defenses = self._guards(rival)
        return defenses or list(self.uas[rival]) or [NO_TARGET]

    def _guards(self, player: int) -> list[int]:
        """Defense cards protecting ``player``'s UAs: in play, unlocked, with DP left (Ruling 22)."""
        table, dp, locks = self.table, self.dp, self.locks
        return [
            c
            for c in self.board[player]
            if table[c].type == DEFENSE and c not in locks and dp.get(c, 0) > 0
        ]

    def _declare_options(
        self, player: int, spec: CardSpec, clash: bool, cache: dict | None = None
    ) -> list[tuple]:
        """Target tuples a card may be played with: its Attack target first, then On play ones."""
        cache = {} if cache is None else cache
        effect_targets = self._target_product(player, spec.play_targets, cache)
        if spec.type != ATTACK:
            return effect_targets
        heads: list[int] | None
        if clash:
            heads = [c for c in self.cards_of(1 - player, ATTACK) if self.dp.get(c, 0) > 0]
        else:
            heads = cache.get("core")
            if heads is None:
                heads = cache["core"] = self._core_attack_options(player)
        return [(head, *rest) for head in heads for rest in effect_targets]

    def _target_product(self, player: int, acts: tuple[Act, ...], cache: dict) -> list[tuple]:
        if not acts:
            return [()]
        lists = []
        for act in acts:
            slot = (act.op == "damage", act.target)
            options = cache.get(slot)
            if options is None:
                options = cache[slot] = self._target_options(player, act)
            lists.append(options)
        if len(lists) == 1:
            return [(option,) for option in lists[0]]
        return list(itertools.product(*lists))

    def _play_actions(self) -> list[Action]:
        player = self.active
        ip = self.ip[player]
        actions: list[Action] = []
        table = self.table
        cache: dict = {}
        distinct = {table[c].key: table[c] for c in self.hand[player]}
        for key in sorted(distinct):
            spec = distinct[key]
            kind = spec.type
            if kind == PILLAR:
                if not self.pillar_played:
                    actions.append(Action("pillar", (key,)))
                continue
            cost = self._bill_cost(player, spec) if kind == BILL else spec.cost
            if cost > ip:
                continue
            if kind != ATTACK and not spec.play_targets:
                actions.append(Action("play", (key,)))
                continue
            actions.extend(
                Action("play", (key, *targets))
                for targets in self._declare_options(player, spec, False, cache)
            )
            if kind == ATTACK and cost + 1 <= ip:
                actions.extend(
                    Action("clash", (key, *targets))
                    for targets in self._declare_options(player, spec, True, cache)
                )
        actions.extend(self._activation_actions(player, cache))
        actions.append(END)
        return actions

    def _activation_actions(self, player: int, cache: dict, response: bool = False) -> list[Action]:
        """``player``'s activated effects they can pay for and have not used on that card yet.

        "Phase 3: Play Phase" lets the active player activate; with ``response`` these are the
        inactive player's, limited to effects that lock, block, prevent or modify what the
        Resolve Phase does ("2. WHO MAY INTERACT", Ruling 19). An effect happens once while its
        card stays in play ("TURN STRUCTURE (5 PHASES)", "One-Time Effects", Ruling 40), and one
        whose every action needs a card target is not offered while none of them has one.
        """
        ip = self.ip[player]
        table = self.table
        actions: list[Action] = []
        used, locks = self.used, self.locks
        for cid in itertools.chain(self.pillars[player], self.board[player]):
            activated = table[cid].by_trigger.get("activated")
            if not activated or cid in locks:
                continue
            for index, effect in activated:
                if (cid, index) in used or (response and not effect.response):
                    continue
                cost_ip = effect.cost_ip
                if cost_ip is None:
                    xs: Iterable[int] = (0,)
                elif cost_ip == "X":
                    xs = range(1, min(ip, effect.x_top) + 1)
                else:
                    xs = (0,) if int(cost_ip) <= ip else ()
                if not xs:
                    continue
                options = self._target_product(player, effect.targets, cache)
                if (
                    len(effect.targets) == len(effect.acts)
                    and len(options) == 1
                    and all(t == NO_TARGET for t in options[0])
                ):
                    continue  # nothing to aim any of its actions at: it would do nothing
                for x in xs:
                    actions.extend(
                        Action("activate", (cid, index, x, *targets)) for targets in options
                    )
        return actions

    def _take(self, zone: list[int], key: str) -> int:
        for index, cid in enumerate(zone):
            if self.table[cid].key == key:
                return zone.pop(index)
        raise ValueError(f"{key} is not there")

    def _play_pillar(self, player: int, key: str) -> None:
        cid = self._take(self.hand[player], key)
        self.pillars[player].append(cid)
        self.pillar_played = True
        self.log("pillar", player, card=self.table[cid].name)

    def _enter_play(self, player: int, cid: int) -> None:
        spec = self.table[cid]
        if spec.type in (ATTACK, DEFENSE, FREEDOM) or spec.petition:
            self.board[player].append(cid)
            if spec.type == ATTACK:
                self.dp[cid] = spec.attack
            elif spec.type == DEFENSE:
                self.dp[cid] = spec.defense
        else:
            self.resolving[player].append(cid)

    def _play(self, player: int, action: Action, clash: bool, free: bool = False) -> None:
        key, *targets = action.args
        cid = self._take(self.hand[player], str(key))
        spec = self.table[cid]
        if not free:
            cost = self.card_cost(player, cid) + (1 if clash else 0)
            self.ip[player] -= cost
            self.spent[player] += cost
        self._enter_play(player, cid)
        if spec.type == ATTACK:
            head = int(targets.pop(0))
            if clash:
                self.pending.append((player, "clash", cid, -1, (head,), 0))
                head = NO_TARGET
            self.pending.append((player, "attack", cid, -1, (head,), 0))
        for index, effect in spec.effects_with("on_play"):
            count = len(effect.targets)
            mine = tuple(int(t) for t in targets[:count])
            del targets[:count]
            self.pending.append((player, "effect", cid, index, mine, 0))
        self.log(
            "equalize" if free else ("clash" if clash else "play"),
            player,
            card=spec.name,
            targets=[self.table[int(t)].name for t in action.args[1:] if int(t) != NO_TARGET],
        )

    def _activate(self, player: int, args: tuple) -> None:
        cid, index, x, *targets = (int(a) for a in args)
        effect = self.table[cid].effects[index]
        cost = x if effect.pay_x else int(effect.cost_ip or 0)
        self.ip[player] -= cost
        self.spent[player] += cost
        self.used.add((cid, index))
        if effect.discard_self:
            self._leave_play(cid)
            self.discard[self.owner(cid)].append(cid)
        self.pending.append((player, "effect", cid, index, tuple(targets), x))
        self.log("activate", player, card=self.table[cid].name, effect=index, x=x)

    # --- turn flow ----------------------------------------------------------------------------
    def _draw_cards(self, player: int, count: int) -> int:
        pile, hand = self.draw[player], self.hand[player]
        drawn = 0
        while drawn < count and pile:
            hand.append(pile.pop())
            drawn += 1
        return drawn

    def _start_turn(self) -> None:
        """Phase 1 (Draw) and Phase 2 (Independence), then the Play Phase decisions."""
        player = self.active
        if self.house_once:
            self.used.clear()  # house rule: once per turn instead of once while in play
        # Ruling 28: a static prevention's allowance is per turn; a lasting one ("up to N ... until
        # your next turn") is spent once over its whole duration, so its use is kept.
        self.shield_used = {
            k: v for k, v in self.shield_used.items() if isinstance(k, tuple) and k[0] == "l"
        }
        self.pillar_played = False
        self.phase = "play"
        self.log("turn-start", player, turn=self.turn)
        if not self.draw[player]:
            self._win(1 - player, DECK_OUT)
            return
        self._draw_cards(player, 1)
        gained = sum(self.table[c].generation for c in self.pillars[player])
        self.ip[player] += gained
        if gained > 0:
            for cid in self.in_play(player):
                if cid in self.locks:
                    continue
                for _, effect in self.table[cid].by_trigger.get("when_gain_ip", ()):
                    self._run_now((player, cid, effect, None, 0))

    def _end_phase(self) -> None:
        """Phase 5 starts with discarding to 7 (the active player chooses)."""
        if len(self.hand[self.active]) > HAND_LIMIT:
            self.phase = "discard"
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        """Phase 5: temporary effects expire, LP victory is checked, Pillars straighten."""
        turn = self.turn
        self.lasting = [entry for entry in self.lasting if entry[4] > turn]
        self.locks = {cid: last for cid, last in self.locks.items() if last > turn}
        active = self.active
        if self.lp[1 - active] <= 0:
            self._win(active, LP_VICTORY)
            return
        if self.lp[active] <= 0:
            self._win(1 - active, LP_VICTORY)
            return
        self.spent = [0, 0]
        if turn >= self.turn_limit:
            self.result = [0.0, 0.0]
            self.reason = TURN_LIMIT
            self.phase = "over"
            self.log("game_over", active, reason=TURN_LIMIT)
            return
        self.turn = turn + 1
        self.active = 1 - active
        self._start_turn()

    def _win(self, player: int, reason: str) -> None:
        self.result = [-1.0, -1.0]
        self.result[player] = 1.0
        self.reason = reason
        self.phase = "over"
        self.log("game_over", player, reason=reason)

    # --- the Resolve Phase --------------------------------------------------------------------
    def _resolve_phase(self) -> None:
        """Phase 4: the seven steps in order; no decisions are asked for."""
        active = self.active
        rival = 1 - active
        ordered: list[tuple[str, Any]] = []
        if not self._blocked(rival, "opponent_each_turn"):
            for cid in self.in_play(active):
                if cid in self.locks:
                    continue
                for _, effect in self.table[cid].by_trigger.get("each_turn", ()):
                    ordered.append(("effect", (active, cid, effect, None, 0)))
        clashes = []
        for controller, kind, cid, index, targets, x in self.pending:
            if kind == "effect":
                effect = self.table[cid].effects[index]
                ordered.append(("effect", (controller, cid, effect, targets, x)))
            elif kind == "attack":
                ordered.append(("attack", (controller, cid, targets[0])))
            else:
                clashes.append((controller, cid, targets[0]))
        self.pending = []
        items: list[Item] = [entry for kind, entry in ordered if kind == "effect"]
        self.queue = []
        gains: list[tuple[Item, int, Act]] = []

        # Step 1: locks, blocks, prevention and drain modifiers take hold.
        for item in items:
            self._run_step(item, "1")
        # Step 2: Attack on Attack.
        for controller, cid, target in clashes:
            self._clash(controller, cid, target)
        self._destroy_dead()
        if self._ua_check():
            return
        # Step 3: UA LP drain (a core rule effect; a locked UA still drains).
        drain = self.drain_total(active)
        if drain:
            self._lose_lp(rival, drain, from_drain=True)
            self.log("drain", active, amount=drain)
        # Step 4: attack damage, the active player's first; Attack cards in play that were not
        # declared this turn (an AoA survivor, one locked when it would have attacked) deal what
        # they retain too ("STEP 4 — ATTACK DAMAGE", Rulings 14 and 26).
        declared = {entry[1] for kind, entry in ordered if kind == "attack"}
        for player in (active, rival):
            for cid in self.cards_of(player, ATTACK):
                if cid not in declared:
                    ordered.append(("attack", (player, cid, NO_TARGET)))
        ordered.sort(key=lambda entry: entry[1][0] != active)
        self.r_order = [
            entry for entry in ordered if entry[0] == "attack" or "4" in entry[1][2].steps
        ]
        self.r_at, self.r_stage = 0, "4"
        self.r_items, self.r_next, self.r_gains = items, 0, gains
        self._resume()

    def _resume(self) -> None:
        """Carry the Resolve Phase on from where it stands: Step 4, 5A/5B, then 5C to the end.

        Each part stops where a player must choose (the target of an Attack card's damage that
        has none, a triggered effect's target) and is resumed by ``_answer``."""
        if self.r_stage == "4":
            if self._step_four():
                return
            # Step 5A/5B: destruction, then destroy actions and Forced Resolution.
            self._destroy_dead()
            for item in self.r_items:
                self._run_step(item, "5B")
            self._destroy_dead()
            if self._ua_check():
                return
            self.r_stage = "5C"
        self._resolve_rest()

    def _step_four(self) -> bool:
        """Step 4: each source's Attack Damage in turn, each followed by the When attacked
        effects it triggered (Ruling 25). True when it stopped for a choice or the game ended."""
        order = self.r_order
        while True:
            if self._when_attacked():
                return True
            if self.r_at >= len(order):
                return False
            kind, entry = order[self.r_at]
            if kind == "attack":
                if self._attack(*entry):
                    return True
            else:
                self._run_step(entry, "4")
            self.chosen = []
            self.r_at += 1

    def _when_attacked(self) -> bool:
        """Resolve the waiting When attacked effects at once, in the order they were triggered
        (their LP gain waits for Step 7). True when one stopped for a choice or the game ended."""
        queue = self.queue
        while True:
            slot = next(
                (i for i, item in enumerate(queue) if item[2].trigger == "when_attacked"),
                -1,
            )
            if slot < 0:
                return False
            item = queue[slot]
            if self._condition_ok(item):
                if self._ask(item, None, slot):
                    return True
                item = queue[slot]
                for index, act in enumerate(item[2].acts):
                    if act.op == "gain_lp":
                        self.r_gains.append((item, index, act))
                    else:
                        self._run_act(item, index, act)
            queue.pop(slot)
            self.chosen = []
            if self._ua_check():
                return True

    def _resolve_rest(self) -> None:
        """Steps 5C to 7, then the End Phase; stops where a card's controller must choose."""
        active = self.active
        items, gains = self.r_items, self.r_gains
        # Step 5C: every other action, then the effects triggered so far, in order.
        while self.r_next < len(items):
            item = items[self.r_next]
            if self._ask(item, "5C"):
                return
            self._run_step(item, "5C")
            self.chosen = []
            self.r_next += 1
            if self._ua_check():
                return
        while self.queue:
            item = self.queue[0]
            if not self._condition_ok(item):
                self.queue.pop(0)
                continue
            if self._ask(item, None):
                return
            item = self.queue.pop(0)
            for index, act in enumerate(item[2].acts):
                if act.op == "gain_lp":
                    gains.append((item, index, act))
                else:
                    self._run_act(item, index, act)
            self.chosen = []
            self._destroy_dead()
            if self._ua_check():
                return
        self.phase = "resolve"
        # Step 6: Petition check (the active player only).
        if self._petition_victory(active):
            self._win(active, PETITION_VICTORY)
            return
        # Step 7: LP gain.
        for item in items:
            self._run_step(item, "7")
        for item, index, act in gains:
            self._run_act(item, index, act)
        self._after_resolving()
        self.r_items, self.r_gains, self.r_order = [], [], []
        self._end_phase()

    def _ask(self, item: Item, step: str | None, slot: int = 0) -> bool:
        """Ask the effect's controller for the next choice its text gives them; True if asked.

        Choices printed for a player are that player's decisions, made when the effect resolves:
        the target of a triggered effect's card-target action (When attacked, When destroyed,
        Forced Resolution), and the cards taken by "look at the opponent's hand and discard".
        A choice with a single option is made without asking. Answers go to ``chosen``.
        """
        if not self._condition_ok(item):
            return False
        controller, source, effect, targets, _ = item
        acts = effect.acts if step is None else [act for _, act in effect.steps.get(step, ())]
        if targets is None and effect.targets:
            chosen = self.chosen
            while len(chosen) < len(effect.targets):
                options = self._choice_targets(controller, effect.targets[len(chosen)])
                if len(options) > 1:
                    self.choice = (controller, "target", source, tuple(options))
                    self.phase = "choose"
                    return True
                chosen.append(options[0])
            item = (controller, source, effect, tuple(chosen), item[4])
            self.chosen = []
            if step is None:
                self.queue[slot] = item
            else:
                self.r_items[self.r_next] = item
        rival = 1 - controller
        wanted = sum(
            min(self._value(item, act.amount), len(self.hand[rival]))
            for act in acts
            if act.op == "discard" and act.choice == "chosen"
        )
        if wanted and not self._blocked(rival, "opponent_discard"):
            while len(self.chosen) < wanted:
                keys = self._choice_discards(rival)
                if len(keys) > 1:
                    self.choice = (controller, "discard", source, tuple(keys))
                    self.phase = "choose"
                    return True
                self.chosen.append(self._pick_from(rival, keys[0]))
        self.choice = None
        return False

    def _choice_targets(self, controller: int, act: Act) -> list[int]:
        """A triggered action's targets, best first by the old engine rule (least DP for damage,
        most DP for removal), which agents and settled positions use as the default."""
        options = [c for c in self._target_options(controller, act) if c != NO_TARGET]
        if not options:
            return [NO_TARGET]
        dp = self.dp
        if act.op == "damage":
            return sorted(options, key=lambda c: dp.get(c, 0))
        return sorted(options, key=lambda c: (-dp.get(c, 0), -self.table[c].drain))

    def _choice_discards(self, rival: int) -> list[str]:
        """Keys of the rival's cards not yet picked, costliest first and Pillars last."""
        table, picked = self.table, set(self.chosen)
        best: dict[str, tuple] = {}
        for cid in self.hand[rival]:
            if cid in picked:
                continue
            spec = table[cid]
            best[spec.key] = (spec.type == PILLAR, -spec.cost, spec.key)
        return sorted(best, key=lambda k: best[k])

    def _pick_from(self, rival: int, key: str) -> int:
        picked = set(self.chosen)
        return next(c for c in self.hand[rival] if c not in picked and self.table[c].key == key)

    def _answer(self, option: Any) -> None:
        """Record the chooser's answer, then carry the Resolve Phase on."""
        choice = self.choice
        assert choice is not None
        if choice[1] == "discard":
            self.chosen.append(self._pick_from(1 - choice[0], str(option)))
        else:
            self.chosen.append(int(option))
        self.choice = None
        self.log("choose", choice[0], card=self.table[choice[2]].name, what=choice[1])
        self._resume()

    def _after_resolving(self) -> None:
        """Rights are discarded; Bills return to hand and double their cost ("Bills")."""
        for player in (0, 1):
            for cid in self.resolving[player]:
                spec = self.table[cid]
                owner = self.owner(cid)
                if spec.type == BILL:
                    self.hand[owner].append(cid)
                    uses = self.bill_uses[owner]
                    uses[spec.key] = uses.get(spec.key, 0) + 1
                else:
                    self.discard[owner].append(cid)
            self.resolving[player] = []

    def _petition_victory(self, player: int) -> bool:
        return (
            self.petition_count(player) >= self.petitions_needed
            and self.scroll_pillars(player) >= SCROLL_PILLARS
            and self.lp[player] >= PETITION_LP
        )

    def _ua_check(self) -> bool:
        """Attack Victory is instant: a player without UAs loses (the active player wins ties)."""
        if self.result is not None:
            return True
        gone = [p for p in (0, 1) if not self.uas[p]]
        if not gone:
            return False
        winner = self.active if len(gone) == 2 else 1 - gone[0]
        self._win(winner, ATTACK_VICTORY)
        return True

    def _condition_ok(self, item: Item) -> bool:
        controller, source, effect, _, _ = item
        if effect.lp_at_most is not None and self.lp[controller] > effect.lp_at_most:
            return False
        if effect.branch is not None:
            return self._branch_count(controller, source, effect.branch) >= effect.at_least
        return True

    def _branch_count(self, player: int, source: int, branch: str) -> int:
        table = self.table
        count = sum(
            1
            for c in itertools.chain(self.pillars[player], self.board[player])
            if table[c].branch == branch
        )
        if source in self.resolving[player] and table[source].branch == branch:
            count += 1
        return count

    def _run_step(self, item: Item, step: str) -> None:
        acts = item[2].steps.get(step)
        if acts and self._condition_ok(item):
            for index, act in acts:
                self._run_act(item, index, act)

    def _run_now(self, item: Item) -> None:
        """Resolve every action of an effect at once (Independence Phase triggers, Ruling 13)."""
        if self._condition_ok(item):
            for index, act in enumerate(item[2].acts):
                self._run_act(item, index, act)

    def _value(self, item: Item, amount: int | Amount | None) -> int:
        if amount is None:
            return 0
        if isinstance(amount, int):
            return amount
        controller, source, _, _, x = item
        if amount.per == "x":
            count = x
        elif amount.per == "pillar":
            count = sum(
                1
                for c in self.pillars[controller]
                if amount.branch is None or self.table[c].branch == amount.branch
            )
        elif amount.per == "petition":
            count = len(self.cards_of(controller, PETITION))
        else:
            count = self._branch_count(controller, source, amount.branch or "")
        value = amount.each * count
        return min(value, amount.cap) if amount.cap is not None else value

    def _declared_target(self, item: Item, index: int) -> int:
        targets = item[3]
        if targets is None:
            return NO_TARGET
        position = sum(1 for act in item[2].acts[:index] if act.card_target)
        return int(targets[position]) if position < len(targets) else NO_TARGET

    def _valid_target(self, controller: int, act: Act, cid: int) -> bool:
        if cid == NO_TARGET:
            return False
        rival = 1 - controller
        kind = CARD_TARGETS[act.target or ""]
        if cid not in self.cards_of(rival, kind):
            return False
        return act.op != "damage" or self.dp.get(cid, 0) > 0

    def _run_act(self, item: Item, index: int, act: Act) -> None:
        controller, source = item[0], item[1]
        rival = 1 - controller
        op = act.op
        target = NO_TARGET
        if act.card_target:
            # A declared target is never re-aimed: if it has become illegal the action does nothing.
            target = self._declared_target(item, index)
            if not self._valid_target(controller, act, target):
                return
        if op == "damage":
            amount = self._value(item, act.amount)
            if act.target == "opponent_lp":
                self._lose_lp(rival, amount, from_drain=False)
                self.log(
                    "damage", controller, card=self.table[source].name, target="lp", amount=amount
                )
            else:
                self._damage(controller, source, target, amount)
        elif op == "lose_lp":
            self._lose_lp(rival, self._value(item, act.amount), from_drain=False)
        elif op == "gain_lp":
            self.lp[controller] += self._value(item, act.amount)
        elif op == "gain_ip":
            self.ip[controller] += self._value(item, act.amount)
        elif op == "draw":
            self._draw_cards(controller, self._value(item, act.amount))
        elif op == "mill":
            if not self._blocked(rival, "opponent_mill"):
                count = self._value(item, act.amount)
                pile = self.draw[rival]
                for _ in range(min(count, len(pile))):
                    self.discard[rival].append(pile.pop())
        elif op == "discard":
            if not self._blocked(rival, "opponent_discard"):
                self._discard_from(rival, self._value(item, act.amount), act.choice == "random")
        elif op == "lock":
            if not self._blocked(rival, "opponent_lock"):
                self._lock(target)
        elif op in ("block", "prevent_lp_loss", "modify_ua_drain"):
            self._add_lasting(controller, act, self._value(item, act.amount), item[2].duration)
        elif op == "destroy":
            self._destroy(target)
        elif op == "exile":
            self._leave_play(target)
            self.exile[self.owner(target)].append(target)
            self.log("exile", controller, card=self.table[target].name)
        elif op == "return_to_hand":
            self._leave_play(target)
            self.hand[self.owner(target)].append(target)
            self.log("return", controller, card=self.table[target].name)

    def _discard_from(self, player: int, count: int, at_random: bool) -> None:
        hand = self.hand[player]
        for _ in range(min(count, len(hand))):
            if at_random:
                index = self.rng.randrange(len(hand))
            else:
                # the looker's own picks, made when the effect resolved (``_ask``)
                picked = self.chosen.pop(0) if self.chosen else hand[0]
                index = hand.index(picked) if picked in hand else 0
            self.discard[player].append(hand.pop(index))

    def _lock(self, cid: int) -> None:
        """Until the end of the locked card's controller's next turn ("Lock — Effect Scope")."""
        controller = self._controller(cid)
        last = self.turn + (2 if controller == self.active else 1)
        self.locks[cid] = max(self.locks.get(cid, 0), last)
        self.log("lock", 1 - controller, card=self.table[cid].name, until_turn=last)

    def _controller(self, cid: int) -> int:
        for player in (0, 1):
            if cid in self.board[player] or cid in self.uas[player] or cid in self.pillars[player]:
                return player
        return self.owner(cid)

    def _add_lasting(self, controller: int, act: Act, amount: int, duration: str | None) -> None:
        if duration == "this_turn":
            last = self.turn
        elif duration == "until_your_next_turn":
            # Until the controller's next turn begins, i.e. through the turn before it.
            last = self.turn + 1 if controller == self.active else self.turn
        else:
            last = FOREVER
        self.serial += 1
        self.lasting.append((self.serial, controller, act, amount, last))

    def _lasting_acts(self, player: int, op: str) -> list[tuple[Act, tuple]]:
        """Lasting actions ``player`` benefits from: static effects of unlocked cards, then others."""
        found: list[tuple[Act, tuple]] = []
        table, locks = self.table, self.locks
        for cid in self.in_play(player):
            statics = table[cid].static_acts
            if not statics or cid in locks:
                continue
            for index, number, act in statics:
                if act.op == op:
                    found.append((act, ("s", cid, index, number)))
        for serial, controller, act, amount, _ in self.lasting:
            if controller == player and act.op == op:
                found.append((act, ("l", serial, amount)))
        return found

    def _blocked(self, victim: int, kind: str) -> bool:
        """Return True when ``victim`` holds a block against the rival's ``kind`` effects."""
        return any(act.target == kind for act, _ in self._lasting_acts(victim, "block"))

    def _lose_lp(self, player: int, amount: int, from_drain: bool) -> None:
        """LP loss after prevention ("Resolve Phase — Step 3", Ruling 12)."""
        if amount <= 0:
            return
        shields = self._lasting_acts(player, "prevent_lp_loss")
        shields.sort(key=lambda entry: entry[0].source != "ua_drain")
        for act, key in shields:
            if act.source == "ua_drain" and not from_drain:
                continue
            if key[0] == "s" and player == self.active:
                continue  # static prevention is printed "on each opponent's turn" (Ruling 28)
            cap = key[2] if key[0] == "l" else self._static_amount(player, key, act)
            left = cap - self.shield_used.get(key, 0)
            if left <= 0:
                continue
            used = min(left, amount)
            self.shield_used[key] = self.shield_used.get(key, 0) + used
            amount -= used
            if amount == 0:
                break
        self.lp[player] -= amount

    def _static_amount(self, player: int, key: tuple, act: Act) -> int:
        effect = self.table[key[1]].effects[key[2]]
        return self._value((player, key[1], effect, None, 0), act.amount)

    def _clash(self, controller: int, cid: int, target: int) -> None:
        """Step 2: both Attack cards damage each other at once; survivors keep what is left."""
        rival = 1 - controller
        if cid not in self.board[controller] or target not in self.board[rival]:
            return
        dp, locks = self.dp, self.locks
        mine = dp.get(cid, 0) if cid not in locks else 0
        theirs = dp.get(target, 0) if target not in locks else 0
        dp[cid] = dp.get(cid, 0) - theirs
        dp[target] = dp.get(target, 0) - mine
        self.log("clash", controller, card=self.table[cid].name, against=self.table[target].name)

    def _attack(self, controller: int, cid: int, target: int) -> bool:
        """Step 4 for one Attack card: all its remaining damage to one target (excess lost).

        The declared target keeps it while it is still a legal one, even at 0 DP: a Defense is
        destroyed in Step 5A and a UA in 5B, and a declared target is never swapped ("Damage
        Rules", Rulings 23 and 38). A card with no declared target (an AoA survivor, one held
        back by a lock) or whose target is no longer legal (locked, or gone) has its damage
        assigned by its controller ("Attack Damage Resolution": the attacking player assigns),
        a choice; True when it stopped for it. Dealing its damage spends the card, which Step
        5B then destroys (Ruling 14).
        """
        if cid not in self.board[controller] or cid in self.locks:
            return False
        dp = self.dp
        amount = dp.get(cid, 0)
        if amount <= 0:
            return False
        pool = self._recipients(1 - controller)
        if target not in pool:
            if self.chosen:
                target = self.chosen[0]
            else:
                # a card already at 0 takes nothing more: offered only when every one is
                options = sorted((c for c in pool if dp.get(c, 0) > 0), key=lambda c: dp[c])
                options = options or pool[:1]
                if not options:
                    return False  # no target: the card keeps its damage (Ruling 14)
                if len(options) > 1:
                    self.choice = (controller, "assign", cid, tuple(options))
                    self.phase = "choose"
                    return True
                target = options[0]
        self._damage(controller, cid, target, amount)
        dp[cid] = 0
        return False

    def _recipients(self, player: int) -> list[int]:
        """Where Attack Damage may go: ``player``'s unlocked Defense cards in play (one at 0 DP
        stands until Step 5A, Ruling 38), or their UAs when they have none (Ruling 22)."""
        table, locks = self.table, self.locks
        defenses = [c for c in self.board[player] if table[c].type == DEFENSE and c not in locks]
        return defenses or list(self.uas[player])

    def _damage(self, controller: int, source: int, target: int, amount: int) -> None:
        """Assign attack damage to one card; an unlocked Defense is now "attacked" (Ruling 9)."""
        if amount <= 0:
            return
        self.dp[target] = self.dp.get(target, 0) - amount
        spec = self.table[target]
        self.log(
            "damage", controller, card=self.table[source].name, target=spec.name, amount=amount
        )
        if spec.type == DEFENSE and target not in self.locks:
            for _, effect in spec.effects_with("when_attacked"):
                self.queue.append((1 - controller, target, effect, None, 0))

    def _destroy_dead(self) -> None:
        """Steps 5A/5B: Defense, Attack cards and UAs at 0 or less are destroyed (active first)."""
        for player in (self.active, 1 - self.active):
            dead = [
                c
                for c in itertools.chain(self.uas[player], self.board[player])
                if c in self.dp and self.dp[c] <= 0
            ]
            for cid in dead:
                self._destroy(cid)

    def _destroy(self, cid: int) -> None:
        """Destroy a card: discard it, then queue its When destroyed and Forced Resolution effects."""
        controller = self._controller(cid)
        spec = self.table[cid]
        locked = cid in self.locks
        self._leave_play(cid)
        self.discard[self.owner(cid)].append(cid)
        self.log("destroyed", controller, card=spec.name)
        if locked:
            return
        for _, effect in spec.effects_with("on_destroyed"):
            self.queue.append((controller, cid, effect, None, 0))
        if spec.type != DEFENSE:
            for _, effect in spec.effects_with("activated"):
                if effect.discard_self and effect.cost_ip is None:
                    self.queue.append((controller, cid, effect, None, 0))

    def _leave_play(self, cid: int) -> None:
        for zones in (self.board, self.uas, self.pillars):
            for zone in zones:
                if cid in zone:
                    zone.remove(cid)
        self.dp.pop(cid, None)
        self.locks.pop(cid, None)
        if self.used:
            # a card that leaves play and comes back is a new card: its effects may happen again
            self.used = {entry for entry in self.used if entry[0] != cid}

    # --- helpers for tests and tutorials ------------------------------------------------------
    def place(self, player: int, key: str, zone: str) -> int:
        """Move one of ``player``'s cards named by key into a zone (for hand-built situations)."""
        for pile in (
            self.draw[player],
            self.hand[player],
            self.discard[player],
            self.resolving[player],
            self.exile[player],
        ):
            for cid in pile:
                if self.table[cid].key == key:
                    pile.remove(cid)
                    return self._put(player, cid, zone)
        raise ValueError(f"player {player} has no {key} outside play")

    def _put(self, player: int, cid: int, zone: str) -> int:
        spec = self.table[cid]
        if zone == "play":
            if spec.type == PILLAR:
                self.pillars[player].append(cid)
            elif spec.type == UA:
                self.uas[player].append(cid)
                self.dp[cid] = spec.defense
            else:
                self._enter_play(player, cid)
        else:
            getattr(self, zone)[player].append(cid)
        return cid
