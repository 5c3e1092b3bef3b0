"""The Reggae Revolution game state: zones, the turn (villain, main, obtain) and effect resolution.

Every physical card of the game box is an integer id into the game's ``table`` of ``CardSpec``;
zones are lists of ids, so a state is cheap to copy and cards are easy to count. Work the engine
does by itself (revealing villain cards, resolving effects, refilling the lineup) sits in a task
queue; a task that needs a player's choice stops the queue and becomes that player's decision.
The rulings these rules follow are written once, in ``docs/rules/reggae-revolution.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any, cast

from rules.engines.core import TERMINAL, Action, CardSightings, Rng, State
from rules.engines.reggae_revolution.cards import CardSpec, symbol_counts
from rules.engines.reggae_revolution.effects import ANY, COLOURS, SYMBOLS
from rules.engines.reggae_revolution.evaluation import PAIRS, WEIGHTS, danger

#: the team policy, which playouts follow and whose turn values seed the search: "play"
#: (``policy.greedy_action``) and "turn_value" (``policy.turn_value``). The policy reads this
#: module, so it fills these in as it loads (the package loads it) instead of being imported here
POLICY: dict[str, Callable[..., Any]] = {}

HAND_SIZE = 6
MAX_REDRAWS = 1  # §Setup: a new hand "once" (the setup's one "mulligan" task per player)
LINEUP_SIZE = 6
POOL_KINDS: tuple[str, ...] = (*SYMBOLS, ANY)
ALL_PAIRS = frozenset((symbol, colour) for symbol in SYMBOLS for colour in COLOURS)

WIN_REASON = "all-pairs-scored"
LOSS_REASON = "all-symbols-suppressed"
LIMIT_REASON = "turn-limit"
#: every end reason a game can have (``end_reason()``); the plugin gives each one words
END_REASONS = (WIN_REASON, LOSS_REASON, LIMIT_REASON)

#: tasks that wait for a player's decision; the others the engine resolves by itself
DECISIONS = frozenset({"mulligan", "discard", "destroy", "recover", "gain_free"})
#: how many deals of the face-down piles the search priors average over (``action_priors``)
PRIOR_DEALS = 4
#: boons that only add, or whose choice ``stop`` declines: using them is never worse than not
FREE_BOONS = frozenset(
    {"gain_symbols", "extra_yay", "open_gift", "destroy", "recover", "gain_free"}
)

END = Action("end")
STOP = Action("stop")
KEEP = Action("keep")
REDRAW = Action("redraw")


#: the card actions met so far, by kind, card key and second key ("" for none): one object per
#: distinct action, looked up rather than built at every decision
_CARD_ACTIONS: dict[str, dict[str, dict[str, Action]]] = {}


def card_action(kind: str, key: str, second: str = "") -> Action:
    """The action ``kind`` naming the card ``key`` (and ``second``, a villain or "effect")."""
    by_key = _CARD_ACTIONS.get(kind)
    if by_key is None:
        by_key = _CARD_ACTIONS[kind] = {}
    by_second = by_key.get(key)
    if by_second is None:
        by_second = by_key[key] = {}
    found = by_second.get(second)
    if found is None:
        found = by_second[second] = Action(kind, (key, second) if second else (key,))
    return found


class ReggaeState(State):
    """A Reggae Revolution position: every zone of every player and of the table."""

    __slots__ = (
        "active",
        "destroyed",
        "discard",
        "draw",
        "drawn",
        "gifts",
        "hand",
        "lineup",
        "main_deck",
        "n",
        "open_gifts",
        "oppression",
        "phase",
        "played",
        "pool",
        "reason",
        "resolving",
        "result",
        "revealing",
        "scored",
        "starter_piles",
        "table",
        "tasks",
        "turn",
        "turn_limit",
        "villain_deck",
        "villains",
        "yays_left",
    )

    def __init__(
        self, game: Any, seed: int, table: tuple[CardSpec, ...], players: int, blank: bool = False
    ) -> None:
        super().__init__(game, seed)
        self.table = table
        self.n = players
        if blank:  # clone() fills every field
            return
        self.draw: list[list[int]] = [[] for _ in range(players)]
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.discard: list[list[int]] = [[] for _ in range(players)]
        #: per player, every card that came into its hand (kept only while events are recorded:
        #: a reshuffled draw pile hides which cards were drawn, so the end zones cannot tell)
        self.drawn: list[set[int]] = [set() for _ in range(players)]
        self.resolving: list[int] = []
        self.revealing: list[int] = []
        self.starter_piles: dict[str, list[int]] = {symbol: [] for symbol in SYMBOLS}
        self.main_deck: list[int] = []
        self.lineup: list[int | None] = [None] * LINEUP_SIZE
        self.villain_deck: list[int] = []
        self.villains: list[int] = []
        self.gifts: dict[int, list[int]] = {}
        self.oppression: list[int] = []
        self.destroyed: list[int] = []
        self.scored: list[int] = []
        self.pool = [0] * len(POOL_KINDS)
        self.active = 0
        self.phase = "setup"
        self.turn = 1
        self.turn_limit = 0
        self.yays_left = 1
        self.open_gifts = 0
        self.played: set[int] = set()
        self.tasks: list[tuple[Any, ...]] = []
        self.result = 0
        self.reason = ""

    # --- the core API -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Return the player to decide: the active player, or whoever an effect asks."""
        if self.result:
            return TERMINAL
        if self.tasks:
            return self.tasks[0][1]
        return self.active

    def legal_actions(self) -> list[Action]:
        """Return the decisions open to the player to act, in a stable order."""
        if self.result:
            return []
        if self.tasks:
            return self._decision_actions(self.tasks[0])
        return self._main_actions()

    def _apply(self, action: Action) -> None:
        """Carry out one decision, then let the engine run until someone must decide again."""
        if self.tasks:
            self._decide(self.tasks[0], action)
        else:
            self._main_step(action)
        self._settle()

    def returns(self) -> list[float]:
        """Return +1 for every player when the team won, -1 when it lost, 0 while playing."""
        return [float(self.result)] * self.n

    def winner(self) -> int | None:
        """Return seat 0 standing for the whole team when it won; None otherwise (co-operative)."""
        return 0 if self.result == 1 else None

    def end_reason(self) -> str:
        """Return how the game ended: all-pairs-scored, all-symbols-suppressed or turn-limit."""
        return self.reason

    def card_sightings(self) -> list[CardSightings] | None:
        """Per player: its cards (the starting deck's four starters and every card of the team's
        main deck, wilds included, which the lineup is dealt from), those it drew (in its hand
        at any time: the Setup hand, a redraw, Obtain, a draw effect or a recovery) and those
        it played (used from its hand in a Main Phase step: the ``play``, ``give`` (sway) and
        ``yay`` events). Oppression cards are not the team's cards and do not count."""
        if self.events is None:
            return None
        names = {spec.key: spec.name for spec in self.table}
        team = frozenset(
            spec.name for spec in self.table if spec.type in ("starter", "main", "wild")
        )
        result = []
        for player in range(self.n):
            played = frozenset(
                names[str(event.detail["card"])]
                for event in self.events
                if event.player == player
                and event.kind in ("play", "give", "yay")
                and names.get(str(event.detail.get("card"))) in team
            )
            drew = frozenset(self.table[card].name for card in self.drawn[player]) & team
            result.append(CardSightings(team, drew | played, played))
        return result

    def clone(self) -> ReggaeState:
        """Return an independent copy (lists copied one level deep, specs shared)."""
        new = ReggaeState(self.game, 0, self.table, self.n, blank=True)
        self._copy_base(new)
        new.table = self.table
        new.n = self.n
        new.draw = [pile.copy() for pile in self.draw]
        new.hand = [pile.copy() for pile in self.hand]
        new.discard = [pile.copy() for pile in self.discard]
        new.drawn = (
            [cards.copy() for cards in self.drawn] if self.events is not None else self.drawn
        )
        new.resolving = self.resolving.copy()
        new.revealing = self.revealing.copy()
        new.starter_piles = {symbol: pile.copy() for symbol, pile in self.starter_piles.items()}
        new.main_deck = self.main_deck.copy()
        new.lineup = self.lineup.copy()
        new.villain_deck = self.villain_deck.copy()
        new.villains = self.villains.copy()
        new.gifts = {villain: cards.copy() for villain, cards in self.gifts.items()}
        new.oppression = self.oppression.copy()
        new.destroyed = self.destroyed.copy()
        new.scored = self.scored.copy()
        new.pool = self.pool.copy()
        new.active = self.active
        new.phase = self.phase
        new.turn = self.turn
        new.turn_limit = self.turn_limit
        new.yays_left = self.yays_left
        new.open_gifts = self.open_gifts
        new.played = self.played.copy()
        new.tasks = self.tasks.copy()
        new.result = self.result
        new.reason = self.reason
        return new

    def determinise(self, player: int, rng: Rng) -> ReggaeState:
        """Return a copy with every face-down pile reshuffled (draw piles, main and villain deck),
        each sorted first, so the sample never depends on how the hidden cards lay."""
        new = self.clone()
        for pile in (*new.draw, new.main_deck, new.villain_deck):
            pile.sort()
            rng.shuffle(pile)
        new.rng = rng.spawn()
        return new

    def observation(self, player: int) -> dict[str, Any]:
        """Return the table as ``player`` sees it: face-down piles are counts, hands are open."""
        keys = self._keys
        left = self.cards_left()
        return {
            "player": player,
            "active_player": self.active,
            "phase": self.phase,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "pool": dict(zip(POOL_KINDS, self.pool, strict=True)),
            "yays_left": self.yays_left,
            "open_gifts": self.open_gifts,
            "players": [
                {
                    "hand": keys(self.hand[p]),
                    "draw_pile": len(self.draw[p]),
                    "discard_pile": keys(self.discard[p]),
                }
                for p in range(self.n)
            ],
            "lineup": [self.table[c].key if c is not None else None for c in self.lineup],
            "main_deck": len(self.main_deck),
            "starter_piles": {s: len(pile) for s, pile in self.starter_piles.items()},
            "oppression_pile": len(self.oppression),
            "villain_deck": len(self.villain_deck),
            "villains": [
                {
                    "card": self.table[v].key,
                    "colour": self.table[v].colour,
                    "suppresses": list(self.table[v].suppresses),
                    "persuasion": self.table[v].persuasion,
                    "gifts": keys(self.gifts[v]),
                }
                for v in self.villains
            ],
            "suppressed": sorted(self.suppressed_symbols()),
            "resolving": keys(self.resolving + self.revealing),
            "destroyed": keys(self.destroyed),
            "scored": keys(self.scored),
            "missing_pairs": [list(pair) for pair in sorted(self.missing_pairs())],
            "out_of_reach": [list(pair) for pair in sorted(self.out_of_reach(left[0]))],
            "can_still_win": self.can_still_win(left),
            "decision": self._decision_view(),
            "result": self.result,
            "end_reason": self.reason,
        }

    def zone_counts(self) -> dict[str, int]:
        """Return how many cards each zone holds; the total is the whole game box, always."""
        return {
            "draw_piles": sum(len(pile) for pile in self.draw),
            "hands": sum(len(pile) for pile in self.hand),
            "discard_piles": sum(len(pile) for pile in self.discard),
            "resolving": len(self.resolving) + len(self.revealing),
            "lineup": sum(1 for card in self.lineup if card is not None),
            "main_deck": len(self.main_deck),
            "starter_piles": sum(len(pile) for pile in self.starter_piles.values()),
            "oppression_pile": len(self.oppression),
            "villain_deck": len(self.villain_deck),
            "villains": len(self.villains),
            "gifts": sum(len(cards) for cards in self.gifts.values()),
            "destroyed": len(self.destroyed),
            "scored": len(self.scored),
        }

    def key(self) -> Hashable:
        """Return a hashable summary of the whole position (history left out)."""
        return (
            tuple(tuple(pile) for pile in self.draw),
            tuple(tuple(pile) for pile in self.hand),
            tuple(tuple(pile) for pile in self.discard),
            tuple(self.resolving),
            tuple(self.revealing),
            tuple(tuple(self.starter_piles[s]) for s in SYMBOLS),
            tuple(self.main_deck),
            tuple(self.lineup),
            tuple(self.villain_deck),
            tuple((v, tuple(self.gifts[v])) for v in self.villains),
            tuple(self.oppression),
            tuple(self.destroyed),
            tuple(self.scored),
            tuple(self.pool),
            (self.active, self.phase, self.turn, self.yays_left, self.open_gifts),
            tuple(sorted(self.played)),
            tuple(self.tasks),
            self.result,
        )

    def evaluate(self, player: int) -> float:
        """Return the team's prospects in [-1, 1] (the same for every player: co-operative)."""
        return team_value(self)

    # --- search hooks (rules/agents/mcts.py) ---------------------------------------------------
    has_rollout_policy = True

    def rollout_action(self, rng: Rng) -> Action:
        """A playout move: the greedy team policy's (``policy.greedy_action``, the ``team`` agent).

        Uniform random play almost never persuades a villain or scores a pair on purpose, so its
        playouts nearly all end in the suppression loss and cannot tell a saving move from a
        losing one; the team policy's playouts can."""
        return POLICY["play"](self)

    def rollout_turns(self) -> int:
        """Playouts stop when the turn has passed on (after the next Villain Phase), where
        ``action_priors`` scores a turn too; one seat alone never passes it on, so its playouts
        stop at the agent's action limit (``plugin.agent_budgets``)."""
        return 0

    def action_priors(self, player: int) -> list[float]:
        """A prior for each search action: the team's value once the team policy has played the
        rest of the turn after it (``policy.turn_value``), averaged over ``PRIOR_DEALS`` deals
        of the face-down piles (this one and fresh determinisations of it). MCTS seeds its root
        with these (progressive bias), so its few playouts start from the policy's judgement."""
        actions = self.search_actions()
        deals = [self, *(self.determinise(player, self.rng) for _ in range(PRIOR_DEALS - 1))]
        return [
            sum(POLICY["turn_value"](deal, action) for deal in deals) / len(deals)
            for action in actions
        ]

    def search_actions(self) -> list[Action]:
        """The legal actions less the dominated ones.

        A Yay that scores the sixteenth pair wins at once (§Yay), so it is the only action left.
        Otherwise playing a card without its boons goes when each of them only adds (symbols, a
        Yay, an open gift) or asks a choice that ``stop`` declines (destroy, recover, gain free):
        using them is never worse (§Play: the effect is the player's choice). Draw boons stay
        optional, since they change which cards the next hand holds."""
        actions = self.legal_actions()
        if self.tasks or self.result:
            return actions
        hand = {self.table[card].key: card for card in self.hand[self.active]}
        for action in actions:
            if action.kind == "yay" and self.scoring_wins(hand[cast(str, action.args[0])]):
                return [action]
        return [
            action
            for action in actions
            if not (
                action.kind == "play"
                and len(action.args) == 1
                and self.table[hand[cast(str, action.args[0])]].effects
                and all(
                    effect["op"] in FREE_BOONS
                    for effect in self.table[hand[cast(str, action.args[0])]].effects
                )
            )
        ]

    def advice(self) -> Action | None:
        """The team policy's re-draw rule (§Setup: one new hand), which no playout can judge."""
        if not self.tasks or self.tasks[0][0] != "mulligan" or self.result:
            return None
        return POLICY["play"](self)

    # --- queries ------------------------------------------------------------------------------
    def _keys(self, cards: Iterable[int | None]) -> list[str]:
        return [self.table[c].key for c in cards if c is not None]

    def spec(self, card: int) -> CardSpec:
        """Return the definition of a card id."""
        return self.table[card]

    def suppressed_symbols(self) -> set[str]:
        """Return the symbols the villains in play suppress."""
        return {symbol for v in self.villains for symbol in self.table[v].suppresses}

    def scored_pairs(self) -> set[tuple[str, str]]:
        """Return the symbol-colour pairs the non-wild scored cards show."""
        pairs: set[tuple[str, str]] = set()
        for card in self.scored:
            spec = self.table[card]
            if spec.type in ("starter", "main"):
                # card_spec refuses a starter or main card without a symbol and a colour
                pairs.add(cast("tuple[str, str]", (spec.symbol, spec.colour)))
        return pairs

    def missing_pairs(self) -> set[tuple[str, str]]:
        """Return the pairs the score area lacks (before scored wild cards fill any of them)."""
        return set(ALL_PAIRS - self.scored_pairs())

    def cards_left(self) -> tuple[Counter[tuple[str, str]], int]:
        """Return how many cards of each symbol-colour pair, and how many wild cards, may still
        reach the score area: every card of the box but the destroyed, the scored and the main
        and wild cards given to a villain (destroyed with it, §Sway; a starter goes back to its
        pile). Each of those zones is face up, so any seat may count this."""
        gone = {*self.destroyed, *self.scored}
        for gifts in self.gifts.values():
            gone.update(c for c in gifts if self.table[c].type != "starter")
        pairs: Counter[tuple[str, str]] = Counter()
        wilds = 0
        for card, spec in enumerate(self.table):
            if card in gone:
                continue
            if spec.is_wild:
                wilds += 1
            elif spec.type in ("starter", "main"):
                pairs[cast("tuple[str, str]", (spec.symbol, spec.colour))] += 1
        return pairs, wilds

    def out_of_reach(self, pairs: Counter[tuple[str, str]] | None = None) -> set[tuple[str, str]]:
        """Return the missing pairs no card of their own can score any more (``cards_left``, or
        its ``pairs`` when already counted): only a wild card can cover each of them now."""
        left = self.cards_left()[0] if pairs is None else pairs
        return {pair for pair in self.missing_pairs() if not left[pair]}

    def can_still_win(self, left: tuple[Counter[tuple[str, str]], int] | None = None) -> bool:
        """Return False once the deal is lost whatever the team does: more pairs are out of reach
        than the wild cards scored and left can cover (``left``: ``cards_left()`` when already
        counted). A destroyed main or wild card never comes back (only villains and schemes are
        shuffled back, §Villain Phase), so once False it stays False."""
        pairs, wilds = self.cards_left() if left is None else left
        scored_wilds = sum(1 for card in self.scored if self.table[card].is_wild)
        return len(self.out_of_reach(pairs)) <= wilds + scored_wilds

    def covered_pair_count(self) -> int:
        """Return how many of the 16 pairs the score area covers, scored wild cards included."""
        wilds = sum(1 for card in self.scored if self.table[card].is_wild)
        return min(len(ALL_PAIRS), len(self.scored_pairs()) + wilds)

    def scoring_wins(self, card: int) -> bool:
        """Return True when scoring ``card`` now would complete all sixteen pairs (§Yay)."""
        spec = self.table[card]
        pairs = self.scored_pairs()
        wilds = sum(1 for c in self.scored if self.table[c].is_wild) + spec.is_wild
        if spec.type in ("starter", "main"):
            pairs.add(cast("tuple[str, str]", (spec.symbol, spec.colour)))
        return len(pairs) + wilds >= len(ALL_PAIRS)

    def can_afford(self, cost: Iterable[str]) -> bool:
        """Return True when the pool pays ``cost`` (named symbols first, then chosen symbols)."""
        return self.can_pay(symbol_counts(cost))

    def can_pay(self, need: tuple[int, ...]) -> bool:
        """Return True when the pool pays ``need`` symbols of each kind (``SYMBOLS`` order):
        named symbols first, then chosen ones for the shortfall."""
        pool = self.pool
        short = 0
        for index, count in enumerate(need):
            have = pool[index]
            if count > have:
                short += count - have
        return short <= pool[-1]

    def owner_cards(self, player: int) -> list[int]:
        """Return every card ``player`` owns: draw pile, hand and discard pile."""
        return [*self.draw[player], *self.hand[player], *self.discard[player]]

    # --- legal actions ------------------------------------------------------------------------
    def _distinct(self, cards: Iterable[int | None]) -> list[int]:
        seen: dict[str, int] = {}
        for card in cards:
            if card is not None:
                seen.setdefault(self.table[card].key, card)
        return [seen[key] for key in sorted(seen)]

    def _main_actions(self) -> list[Action]:
        hand = self._distinct(self.hand[self.active])
        table = self.table
        actions: list[Action] = []
        for card in hand:
            spec = table[card]
            actions.append(card_action("play", spec.key))
            if spec.effects:
                actions.append(card_action("play", spec.key, "effect"))
        for card in self.buyable(None):
            actions.append(card_action("buy", table[card].key))
        for villain in self._distinct(self.villains):
            for card in hand:
                if self.may_give(card, villain):
                    actions.append(card_action("give", table[card].key, table[villain].key))
        if self.yays_left > 0:
            for card in hand:
                actions.append(card_action("yay", table[card].key))
        actions.append(END)
        return actions

    def buyable(self, max_cost: int | None) -> list[int]:
        """Return the cards on offer (lineup, starter piles) the pool affords, or costing <= max_cost."""
        offer = [*self.lineup, *(pile[-1] for pile in self.starter_piles.values() if pile)]
        result = []
        for card in self._distinct(offer):
            spec = self.table[card]
            if (max_cost is None and self.can_pay(spec.need)) or (
                max_cost is not None and len(spec.cost) <= max_cost
            ):
                result.append(card)
        return result

    def may_give(self, card: int, villain: int) -> bool:
        """Return True when ``card`` may be given to ``villain`` (colour, wild or open gift)."""
        spec = self.table[card]
        if spec.type not in ("starter", "main", "wild"):
            return False
        return spec.is_wild or spec.colour == self.table[villain].colour or self.open_gifts > 0

    def _decision_actions(self, task: tuple[Any, ...]) -> list[Action]:
        kind, player = task[0], task[1]
        if kind == "mulligan":
            return [KEEP, REDRAW]
        if kind == "discard":
            return [
                Action("discard", (self.table[c].key,)) for c in self._distinct(self.hand[player])
            ]
        if kind == "destroy":
            zone = self.hand[player] if task[3] == "hand" else self.discard[player]
            cards = self._distinct(zone)
            return [*(Action("destroy", (self.table[c].key,)) for c in cards), STOP]
        if kind == "recover":
            cards = self._distinct(c for c in self.discard[player] if c not in self.played)
            return [*(Action("recover", (self.table[c].key,)) for c in cards), STOP]
        if kind == "gain_free":
            cards = self.buyable(task[2])
            return [*(Action("gain", (self.table[c].key,)) for c in cards), STOP]
        raise AssertionError(f"not a decision: {task!r}")

    def _decision_view(self) -> dict[str, Any] | None:
        if self.result:
            return None
        if not self.tasks:
            return {"kind": "main", "player": self.active}
        task = self.tasks[0]
        view: dict[str, Any] = {"kind": task[0], "player": task[1]}
        if task[0] in ("discard", "destroy", "recover"):
            view["remaining"] = task[2]
        if task[0] == "destroy":
            view["from"] = task[3]
        if task[0] == "gain_free":
            view["max_cost"] = task[2]
        return view

    # --- decisions ----------------------------------------------------------------------------
    def _take(self, zone: list[int], key: str) -> int:
        for index, card in enumerate(zone):
            if self.table[card].key == key:
                return zone.pop(index)
        raise AssertionError(f"{key} is not there")

    def _decide(self, task: tuple[Any, ...], action: Action) -> None:
        kind, player = task[0], task[1]
        self.tasks.pop(0)
        if kind == "mulligan":
            if action == REDRAW:
                self.draw[player].extend(self.hand[player])
                self.hand[player].clear()
                self.rng.shuffle(self.draw[player])
                self._draw(player, HAND_SIZE, reshuffle=True)
                self.log("redraw", player)
            return
        if action == STOP:
            return
        key = cast(str, action.args[0])
        remaining = task[2] - 1 if kind in ("discard", "destroy", "recover") else 0
        if kind == "discard":
            self.discard[player].append(self._take(self.hand[player], key))
            self.log("discard", player, card=key)
        elif kind == "destroy":
            zone = self.hand[player] if task[3] == "hand" else self.discard[player]
            self._destroy(self._take(zone, key))
            self.log("destroy", player, card=key)
        elif kind == "recover":
            card = self._take(self.discard[player], key)
            self.hand[player].append(card)
            if self.events is not None:
                self.drawn[player].add(card)
            self.log("recover", player, card=key)
        elif kind == "gain_free":
            self.discard[player].append(self._take_offer(key))
            self.log("gain", player, card=key, free=True)
        if remaining > 0:
            self.tasks.insert(0, (kind, player, remaining, *task[3:]))

    def _main_step(self, action: Action) -> None:
        player = self.active
        if action.kind == "play":
            card = self._take(self.hand[player], cast(str, action.args[0]))
            spec = self.table[card]
            self.played.add(card)
            if spec.type in ("starter", "main"):
                self.pool[SYMBOLS.index(spec.symbol)] += 1
            elif spec.is_wild:
                self.pool[-1] += 1
            use_effect = len(action.args) > 1 and bool(spec.effects)
            self.log("play", player, card=spec.key, effect=use_effect)
            if use_effect:
                self.resolving.append(card)
                steps = [("boon", player, index, card) for index in range(len(spec.effects))]
                self.tasks[:0] = [*steps, ("played", player, card)]
            else:
                self.discard[player].append(card)
        elif action.kind == "buy":
            key = cast(str, action.args[0])
            card = self._take_offer(key)
            self._pay(self.table[card].cost)
            self.discard[player].append(card)
            self.log("buy", player, card=key)
        elif action.kind == "give":
            self._give(player, *cast("tuple[str, str]", action.args))
        elif action.kind == "yay":
            key = cast(str, action.args[0])
            card = self._take(self.hand[player], key)
            self.scored.append(card)
            self.yays_left -= 1
            self.log("yay", player, card=key)
            if self.covered_pair_count() == len(ALL_PAIRS):
                self._finish(1, WIN_REASON)
        elif action == END:
            self._obtain()

    def _pay(self, cost: Iterable[str]) -> None:
        for symbol in cost:
            index = SYMBOLS.index(symbol)
            if self.pool[index] > 0:
                self.pool[index] -= 1
            else:
                self.pool[-1] -= 1

    def _take_offer(self, key: str) -> int:
        """Remove a card from the lineup (then refill it) or from the top of a starter pile."""
        for slot, card in enumerate(self.lineup):
            if card is not None and self.table[card].key == key:
                self.lineup[slot] = None
                self._refill_lineup()
                return card
        for pile in self.starter_piles.values():
            if pile and self.table[pile[-1]].key == key:
                return pile.pop()
        raise AssertionError(f"{key} is not on offer")

    def _give(self, player: int, card_key: str, villain_key: str) -> None:
        candidates = [v for v in self.villains if self.table[v].key == villain_key]
        villain = max(candidates, key=lambda v: len(self.gifts[v]))
        card = self._take(self.hand[player], card_key)
        spec = self.table[card]
        if not spec.is_wild and spec.colour != self.table[villain].colour:
            self.open_gifts -= 1
        self.gifts[villain].append(card)
        self.log("give", player, card=card_key, villain=villain_key)
        if len(self.gifts[villain]) >= self.table[villain].persuasion:
            self.villains.remove(villain)
            for gift in self.gifts.pop(villain):
                self._destroy(gift)
            self.destroyed.append(villain)
            self.log("persuade", player, villain=villain_key)

    def _obtain(self) -> None:
        player = self.active
        self.discard[player].extend(self.hand[player])
        self.hand[player].clear()
        self.pool = [0] * len(POOL_KINDS)
        self._draw(player, HAND_SIZE, reshuffle=True)
        self.log("obtain", player)
        if self.turn_limit and self.turn >= self.turn_limit:
            self._finish(-1, LIMIT_REASON)
            return
        self.active = (player + 1) % self.n
        self.turn += 1
        self.yays_left = 1
        self.open_gifts = 0
        self.played = set()
        self.tasks = [("start_turn", self.active)]

    # --- the engine at work -------------------------------------------------------------------
    def _settle(self) -> None:
        """Resolve tasks until one needs a decision, the main phase is open or the game is over."""
        while self.tasks and not self.result:
            task = self.tasks[0]
            if task[0] in DECISIONS:
                if self._decision_actions(task) not in ([], [STOP]):
                    return
                self.tasks.pop(0)
                continue
            self.tasks.pop(0)
            self._run(task)

    def _run(self, task: tuple[Any, ...]) -> None:
        kind = task[0]
        if kind == "start_turn":
            self.phase = "villain"
            self.log("turn-start", self.active, turn=self.turn)
            self.tasks[:0] = [("reveal", self.active), ("main", self.active)]
        elif kind == "main":
            self.phase = "main"
            if not self.villain_deck:
                # §Villain Phase: a deck that ran out is rebuilt at once, before the Main Phase
                self._rebuild_villain_deck()
        elif kind == "reveal":
            self._reveal()
        elif kind == "blow":
            _, player, index, source = task
            self._blow(self.table[source].effects[index])
        elif kind == "suppress":
            self._suppression_discard(task[2])
        elif kind == "scheme_done":
            self.revealing.remove(task[2])
            self.destroyed.append(task[2])
        elif kind == "boon":
            _, player, index, card = task
            self._boon(player, self.table[card].effects[index])
        elif kind == "played":
            self.resolving.remove(task[2])
            self.discard[task[1]].append(task[2])
        else:
            raise AssertionError(f"unknown task {task!r}")

    def _rebuild_villain_deck(self) -> None:
        """Shuffle every villain and scheme of the destroyed pile into a new villain deck."""
        returning = [c for c in self.destroyed if self.table[c].type in ("villain", "scheme")]
        if returning:
            back = set(returning)
            self.destroyed = [c for c in self.destroyed if c not in back]
            self.rng.shuffle(returning)
            self.villain_deck = returning
            self.log("villain-deck-rebuilt", self.active, cards=len(returning))

    def _reveal(self) -> None:
        if not self.villain_deck:
            # ran out when nothing could be rebuilt (or emptied by an effect): try again now
            self._rebuild_villain_deck()
        if not self.villain_deck:
            self.log("villain-deck-empty", self.active)
            return
        card = self.villain_deck.pop()
        spec = self.table[card]
        self.log("reveal", self.active, card=spec.key, type=spec.type)
        steps = [("blow", self.active, index, card) for index in range(len(spec.effects))]
        if spec.type == "oppression":
            self.oppression.append(card)
        elif spec.type == "scheme":
            self.revealing.append(card)
            self.tasks[:0] = [*steps, ("scheme_done", self.active, card)]
        else:
            self.villains.insert(0, card)
            self.gifts[card] = []
            if self.suppressed_symbols() >= set(SYMBOLS):
                self._finish(-1, LOSS_REASON)
                return
            self.tasks[:0] = [*steps, ("suppress", self.active, card)]

    def _suppression_discard(self, villain: int) -> None:
        suppressed = set(self.table[villain].suppresses)
        hand = self.hand[self.active]
        hit = [c for c in hand if self.table[c].symbol in suppressed]
        if hit:
            self.hand[self.active] = [c for c in hand if c not in hit]
            self.discard[self.active].extend(hit)
            self.log("suppressed-discard", self.active, cards=self._keys(hit))

    def targets(self, who: str) -> list[int]:
        """Return the players an effect aimed at ``who`` reaches (Single Player Rules applied)."""
        active = self.active
        if who == "self":
            return [active]
        if who == "next":
            return [(active + 1) % self.n]
        clockwise = [(active + step) % self.n for step in range(self.n)]
        if who == "others":
            return clockwise[1:] or [active]
        return clockwise

    def _blow(self, effect: Any) -> None:
        op = effect["op"]
        if op == "discard":
            steps = [("discard", p, effect["amount"]) for p in self.targets(effect["who"])]
            self.tasks[:0] = steps
        elif op == "oppress":
            for player in self.targets(effect["who"]):
                for _ in range(effect["amount"]):
                    if not self.oppression:
                        break
                    card = self.oppression.pop()
                    zone = {"discard": self.discard, "hand": self.hand, "deck": self.draw}
                    zone[effect["to"]][player].append(card)
                    self.log("oppress", player, to=effect["to"])
        elif op == "destroy_lineup":
            slots = [s for s, c in enumerate(self.lineup) if c is not None][: effect["amount"]]
            for slot in slots:
                destroyed = self.lineup[slot]
                assert destroyed is not None
                self.lineup[slot] = None
                self.destroyed.append(destroyed)
            self._refill_lineup()
        elif op == "seed_villain_deck":
            for _ in range(min(effect["amount"], len(self.oppression))):
                self.villain_deck.append(self.oppression.pop())
            self.rng.shuffle(self.villain_deck)
        elif op == "reveal_again":
            self.tasks.insert(0, ("reveal", self.active))
        elif op == "strip_gifts":
            for villain in self.villains:
                for gift in self.gifts[villain]:
                    self._destroy(gift)
                self.gifts[villain] = []
        elif op == "unscore":
            for _ in range(min(effect["amount"], len(self.scored))):
                self._destroy(self.scored.pop())
        self.log("blow", self.active, op=op)

    def _boon(self, player: int, effect: Any) -> None:
        op = effect["op"]
        if op == "draw":
            for target in self.targets(effect["who"]):
                self._draw(target, effect["amount"], reshuffle=False)
        elif op == "gain_symbols":
            for symbol in effect["symbols"]:
                self.pool[POOL_KINDS.index(symbol)] += 1
        elif op == "destroy":
            self.tasks.insert(0, ("destroy", player, effect["amount"], effect["from"]))
        elif op == "recover":
            self.tasks.insert(0, ("recover", player, effect["amount"]))
        elif op == "gain_free":
            self.tasks.insert(0, ("gain_free", player, effect["max_cost"]))
        elif op == "extra_yay":
            self.yays_left += 1
        elif op == "open_gift":
            self.open_gifts += effect["amount"]

    # --- zones --------------------------------------------------------------------------------
    def _draw(self, player: int, count: int, *, reshuffle: bool) -> None:
        draw, hand = self.draw[player], self.hand[player]
        for _ in range(count):
            if not draw and reshuffle and self.discard[player]:
                draw.extend(self.discard[player])
                self.discard[player].clear()
                self.rng.shuffle(draw)
            if not draw:
                return
            card = draw.pop()
            hand.append(card)
            if self.events is not None:
                self.drawn[player].add(card)

    def _refill_lineup(self) -> None:
        for slot, card in enumerate(self.lineup):
            if card is None and self.main_deck:
                self.lineup[slot] = self.main_deck.pop()

    def _destroy(self, card: int) -> None:
        """Destroy a card: starters and oppression go back to their piles, the rest are destroyed."""
        spec = self.table[card]
        if spec.type == "starter":
            self.starter_piles[cast(str, spec.symbol)].append(card)  # a starter has a symbol
        elif spec.type == "oppression":
            self.oppression.append(card)
        else:
            self.destroyed.append(card)

    def _finish(self, result: int, reason: str) -> None:
        self.result = result
        self.reason = reason
        self.phase = "over"
        self.tasks = []
        self.log("game-over", self.active, result="win" if result > 0 else "loss", reason=reason)


# --- how good a position is for the team (weights: ``evaluation``) -----------------------------
def team_value(state: ReggaeState) -> float:
    """Return the team's prospects in [-1, 1]: +1 won, -1 lost, in between a heuristic."""
    if state.result:
        return float(state.result)
    table = state.table
    covered = state.covered_pair_count() / PAIRS
    missing = state.missing_pairs()
    owned = [card for player in range(state.n) for card in state.owner_cards(player)]
    can_cover = {
        (table[c].symbol, table[c].colour)
        for c in owned
        if (table[c].symbol, table[c].colour) in missing
    }
    wilds = sum(1 for c in owned if table[c].is_wild)
    potential = min(len(missing), len(can_cover) + wilds) / PAIRS
    oppressed = sum(1 for c in owned if table[c].type == "oppression")
    pressure = sum(max(0, table[v].persuasion - len(state.gifts[v])) for v in state.villains)
    unspent = sum(state.pool)
    w = WEIGHTS
    value = (
        w["covered"] * covered
        + w["potential"] * potential
        + w["unspent"] * unspent
        - danger(len(state.suppressed_symbols()))
        - w["pressure"] * pressure
        - w["oppressed"] * oppressed
        + _in_reach(state, missing)
    )
    return max(-0.95, min(0.95, value))


def _in_reach(state: ReggaeState, missing: set[tuple[str, str]]) -> float:
    """The part of the value the active hand holds this turn (§Main Phase: Yay and Sway)."""
    if state.phase not in ("villain", "main"):
        return 0.0
    table = state.table
    hand = state.hand[state.active]
    scorers = {(table[c].symbol, table[c].colour) for c in hand} & missing
    wilds = sum(1 for c in hand if table[c].is_wild)
    yays = min(state.yays_left, len(scorers) + wilds, len(missing))
    w = WEIGHTS
    pair_worth = (w["covered"] - w["potential"]) / PAIRS
    yay = w["yay_in_reach"] * pair_worth
    return yay * yays + w["sway_in_reach"] * _best_persuasion(state, hand)


def _best_persuasion(state: ReggaeState, hand: list[int]) -> float:
    """The danger drop of the best persuasion ``hand`` can complete now (§Sway): cards of the
    villain's colour and wild cards, and other cards while open gifts last."""
    table = state.table
    suppressing = Counter(s for v in state.villains for s in table[v].suppresses)
    now = danger(len(suppressing))
    givable = [c for c in hand if table[c].type in ("starter", "main", "wild")]
    best = 0.0
    for villain in state.villains:
        need = table[villain].persuasion - len(state.gifts[villain])
        matching = sum(
            1 for c in givable if table[c].is_wild or table[c].colour == table[villain].colour
        )
        if matching + min(state.open_gifts, len(givable) - matching) < need:
            continue
        freed = sum(1 for s in table[villain].suppresses if suppressing[s] == 1)
        best = max(best, now - danger(len(suppressing) - freed))
    return best
