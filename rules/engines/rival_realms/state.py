"""The Rival Realms game state: hands, fields, supply, the four combat subphases and victory.

Every physical card is an integer id into the game's ``table`` (player 0's deck first, then
player 1's). A turn is a sequence of *windows*: the player named by ``window`` may play supply
cards, use abilities of the current phase, play cards the phase allows, or end the window.
Payments, target choices and the engine's own work sit in a task queue in front of the window; a
task that needs a choice becomes that player's decision. Cards on a field are named in actions by
their key and field position, cards in hand by key, so actions read the same in every
determinisation. The rulings these rules follow are written once, in ``docs/rules/rival-realms.md``.

The house rule ``redraw_discard`` (a named setup option, off by default; ruling 23) lets the
active player discard cards from hand in the Redraw window before drawing back up to seven. Once
they discard, the rest of the window is that discard: more ``discard`` actions, in key order so
each set of cards is one sequence, then ``end`` to draw. Without it a hand its owner can never pay
for never changes (§`Redraw`); when neither player can ever act again the game is a stalemate
(ruling 21).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, cast

from rules.engines.core import TERMINAL, Action, CardSightings, Rng, State
from rules.engines.core.weights import weights_beside
from rules.engines.rival_realms.cards import CardSpec

#: the game's own policy, which playouts follow and whose wins are taken without search:
#: "play" (``policy.play_action``), "win" (``policy.winning_action``) and "attack_choices" (the
#: choices a look-ahead weighs, ``policy.attack_choices``). The policy reads this
#: module, so it fills these in as it loads (the package loads it) instead of being imported here
POLICY: dict[str, Callable[[RealmsState], Any]] = {}

HAND_SIZE = 7
#: the evaluation's feature weights (``evaluate``: life lead, might on the field, cards in hand,
#: playable cards in hand, and a realm's or other permanent's might against a unit's attack and
#: defense), tuned by self-play (``bench/tune.py``) and loaded from weights.json
WEIGHTS = weights_beside(__file__)
STARTING_LIFE = 20
#: ``evaluate`` of a combat likely to end the game: above any other position, below a win
FORECAST_WIN = 0.99
#: changes of the player to act an MCTS playout makes (a combat turn makes about seven)
ROLLOUT_TURNS = 16
#: the last turn on which a unit on the field counts for its side in ``evaluate`` and on which
#: the default's look-ahead chooses attackers (``policy.attack_choices``). From the next on a unit
#: is worth only the damage it deals by attacking, so every agent sends it in: a unit attacks
#: once (it leaves the field after §`Resolve`), and a one-turn search that counted it on the
#: field kept it home for ever once its side led, to the turn limit (measured in docs/agents.md)
ALL_OUT_TURN = 40

LIFE_REASON = "life"
CARD_REASON = "card-victory"
DRAW_REASON = "simultaneous"
LIMIT_REASON = "turn-limit"
STALEMATE_REASON = "stalemate"
#: every end reason a game can have (``end_reason()``); the plugin gives each one words
END_REASONS = (LIFE_REASON, CARD_REASON, DRAW_REASON, LIMIT_REASON, STALEMATE_REASON)
#: the phases of a player's own turn when no combat happens (§`Turn Sequence`)
QUIET_PHASES = frozenset({"deploy", "attack", "redraw", "any"})

END = Action("end")
PASS = Action("pass")
#: the windows of a combat whose blocks are declared (§`Reinforce`, §`Resolve`)
COMBAT_AFTER_BLOCKS = frozenset({"reinforce", "resolve_attacker", "resolve_defender"})

#: tasks that wait for a player's choice; the others the engine runs by itself
DECISIONS = frozenset({"pay_hand", "pay_field", "choose", "rival_discard", "return", "assign"})
#: the ability phase each window belongs to
WINDOW_PHASE = {
    "deploy": "deploy",
    "attack": "attack",
    "defend": "defend",
    "reinforce": "reinforce",
    "resolve_attacker": "resolve",
    "resolve_defender": "resolve",
    "redraw": "redraw",
}
CHOSEN_TARGETS = ("own_unit", "enemy_unit", "enemy_realm")


class RealmsState(State):
    """A Rival Realms position: both players' zones, supply, life, the combat and the tasks."""

    __slots__ = (
        "active",
        "attackers",
        "blocked",
        "blocks",
        "combat_cards",
        "cycling",
        "damage",
        "discard",
        "draw",
        "field",
        "first",
        "hand",
        "known_hand",
        "life",
        "lost",
        "mods",
        "open_decklists",
        "owner",
        "passes",
        "phase",
        "plan",
        "reason",
        "redraw_discard",
        "scores",
        "shields",
        "stack",
        "supply",
        "table",
        "tasks",
        "turn",
        "turn_limit",
        "window",
    )

    def __init__(
        self,
        game: Any,
        seed: int,
        table: tuple[CardSpec, ...],
        owner: tuple[int, ...],
        blank: bool = False,
    ) -> None:
        super().__init__(game, seed)
        self.table = table
        self.owner = owner
        if blank:  # clone() fills every field
            return
        self.draw: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.lost: list[list[int]] = [[], []]
        self.known_hand: list[list[int]] = [[], []]
        self.life = [STARTING_LIFE, STARTING_LIFE]
        self.supply = [0, 0]
        self.active = 0
        #: the seat that moved first (§`Setup`)
        self.first = 0
        self.window = 0
        self.phase = "deploy"
        self.passes = 0
        self.attackers: list[int] = []
        self.blocks: dict[int, int] = {}
        self.blocked: list[int] = []
        self.combat_cards: list[int] = []
        self.stack: list[int] = []
        self.damage: dict[int, int] = {}
        self.shields: dict[int, int] = {}
        self.plan: dict[int, int] = {}
        #: house rule ``redraw_discard`` (ruling 23): discard from hand before drawing in Redraw
        self.redraw_discard = False
        #: option ``open_decklists`` (ruling 20): search may deal the rival's unseen cards from
        #: the rival's own list; off, it deals them from the card set (the rulebook shows no list)
        self.open_decklists = False
        #: the key of the card last discarded in this Redraw ("" while none has been)
        self.cycling = ""
        self.mods: list[tuple[int, int, int, str]] = []
        self.tasks: list[tuple[Any, ...]] = []
        self.turn = 1
        self.turn_limit = 0
        self.scores: list[float] | None = None
        self.reason = ""

    # --- the core API -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Return the player whose decision is open, or TERMINAL."""
        if self.scores is not None:
            return TERMINAL
        if self.tasks:
            return self.tasks[0][1]
        return self.window

    def legal_actions(self) -> list[Action]:
        """Return the choices open to the player to act, in a stable order."""
        if self.scores is not None:
            return []
        if self.tasks:
            return self._task_choices(self.tasks[0])
        return self._window_actions(self.window)

    def _apply(self, action: Action) -> None:
        """Carry out one decision, then run the engine until someone must decide again."""
        if self.tasks:
            self._decide(self.tasks.pop(0), action)
        else:
            self._window_step(self.window, action)
        self.settle()

    def returns(self) -> list[float]:
        """Return +1 / -1 for a finished game, 0 for both after a draw or while playing."""
        return list(self.scores) if self.scores is not None else [0.0, 0.0]

    def end_reason(self) -> str:
        """Return how the game ended: life, card-victory, simultaneous or turn-limit."""
        return self.reason

    def first_player(self) -> int:
        """Return the seat that moved first (§`Setup`: random unless the setup names it)."""
        return self.first

    def card_sightings(self) -> list[CardSightings] | None:
        """Per seat: its cards, those it drew (out of its draw deck by the end, or played) and
        those it played or put onto its field (the ``play`` and ``enter`` events)."""
        if self.events is None:
            return None
        names = {spec.key: spec.name for spec in self.table}
        result = []
        for player in (0, 1):
            cards = [card for card, owner in enumerate(self.owner) if owner == player]
            undrawn = set(self.draw[player])
            played = frozenset(
                names[event.detail["card"]]
                for event in self.events
                if event.player == player
                and event.kind in ("play", "enter")
                and event.detail.get("card") in names
            )
            drew = frozenset(self.table[card].name for card in cards if card not in undrawn)
            deck = frozenset(self.table[card].name for card in cards)
            result.append(CardSightings(deck, drew | played, played))
        return result

    def turn_count(self) -> int:
        """Return the turns played (both players' turns counted); a turn cut off by the turn
        limit or a stalemate before it began does not count."""
        return self.turn - 1 if self.reason in (LIMIT_REASON, STALEMATE_REASON) else self.turn

    def clone(self) -> RealmsState:
        """Return an independent copy (lists copied one level deep, specs shared)."""
        new = RealmsState(self.game, 0, self.table, self.owner, blank=True)
        self._copy_base(new)
        new.table = self.table
        new.owner = self.owner
        new.draw = [z.copy() for z in self.draw]
        new.hand = [z.copy() for z in self.hand]
        new.field = [z.copy() for z in self.field]
        new.discard = [z.copy() for z in self.discard]
        new.lost = [z.copy() for z in self.lost]
        new.known_hand = [z.copy() for z in self.known_hand]
        new.life = self.life.copy()
        new.supply = self.supply.copy()
        new.active = self.active
        new.first = self.first
        new.window = self.window
        new.phase = self.phase
        new.passes = self.passes
        new.attackers = self.attackers.copy()
        new.blocks = self.blocks.copy()
        new.blocked = self.blocked.copy()
        new.combat_cards = self.combat_cards.copy()
        new.stack = self.stack.copy()
        new.damage = self.damage.copy()
        new.shields = self.shields.copy()
        new.plan = self.plan.copy()
        new.redraw_discard = self.redraw_discard
        new.open_decklists = self.open_decklists
        new.cycling = self.cycling
        new.mods = self.mods.copy()
        new.tasks = self.tasks.copy()
        new.turn = self.turn
        new.turn_limit = self.turn_limit
        new.scores = None if self.scores is None else self.scores.copy()
        new.reason = self.reason
        return new

    def zone_counts(self) -> dict[str, int]:
        """Return the cards in each zone; the total is both 40-card decks, always."""
        return {
            "draw_decks": sum(len(z) for z in self.draw),
            "hands": sum(len(z) for z in self.hand),
            "fields": sum(len(z) for z in self.field),
            "discard_decks": sum(len(z) for z in self.discard),
            "lost_decks": sum(len(z) for z in self.lost),
            "reinforce_in_play": len(self.combat_cards),
            "being_played": len(self.stack),
        }

    def key(self) -> Hashable:
        """Return a hashable summary of the position (history left out)."""
        return (self.turn, self.position())

    def position(self) -> tuple[Any, ...]:
        """Return the whole position without the turn number (repetition compares these)."""
        return (
            tuple(tuple(z) for z in self.draw),
            tuple(tuple(sorted(z)) for z in self.hand),
            tuple(tuple(z) for z in self.field),
            tuple(tuple(z) for z in self.discard),
            tuple(tuple(z) for z in self.lost),
            tuple(self.life),
            tuple(self.supply),
            (self.active, self.window, self.phase, self.passes, self.cycling),
            tuple(self.attackers),
            tuple(sorted(self.blocks.items())),
            tuple(self.combat_cards),
            tuple(self.stack),
            tuple(sorted(self.damage.items())),
            tuple(sorted(self.shields.items())),
            tuple(sorted(self.plan.items())),
            tuple(self.mods),
            tuple(self.tasks),
        )

    def evaluate(self, player: int) -> float:
        """Return a heuristic in [-1, 1]: life, fighting strength on the field (a unit counts
        through turn ``ALL_OUT_TURN`` only) and playable cards in the hands as the Redraw will
        leave them (``after_redraw``), with a combat under way counted as it is likely to end,
        an attack that would feed a rival's card victory included (``attack_crowns_defender``)."""
        if self.scores is not None:
            return self.scores[player]
        rival = 1 - player
        to_defender, leaving = self.combat_outlook()
        life = list(self.life)
        life[1 - self.active] -= to_defender
        # A combat likely to bring a ruler's life to 0 is scored as the game it ends (§`Winning`),
        # short of a win already made: weighed by the terms below, the attackers leaving the
        # field (§`Unit Cards`) outweighed the rival's last points of life, so a one-turn search
        # held back a lethal attack and let a lethal one through unblocked.
        if life[rival] <= 0 < life[player]:
            return FORECAST_WIN
        if life[player] <= 0 < life[rival]:
            return -FORECAST_WIN
        ended = self._combat_card_victory()
        if ended is None and self.attack_crowns_defender():
            return -FORECAST_WIN if player == self.active else FORECAST_WIN
        if ended is not None:
            return FORECAST_WIN * ended[player]

        w = WEIGHTS
        units_count = self.turn <= ALL_OUT_TURN

        def might(p: int) -> float:
            total = 0.0
            for card in self.field[p]:
                spec = self.table[card]
                if card in leaving:
                    continue
                if spec.type == "unit":
                    if units_count:
                        total += self.attack_of(card) + self.defense_of(card)
                else:
                    total += w["permanent"]
            return total

        # tanh: cards that gain life can take a lead far past 20, and the other terms still count.
        lead = math.tanh((life[player] - life[rival]) / STARTING_LIFE)
        mine, theirs = might(player), might(rival)
        field = (mine - theirs) / (mine + theirs + 1.0)
        # Hands as the Redraw will leave them: the player to act refills to seven at the end of
        # the turn (§`Redraw`), so a line that hands the move to the rival mid-turn (an attack:
        # the rival blocks) is not scored a hand short of one that ends the turn.
        (held, playable), (rival_held, rival_playable) = (
            self.after_redraw(player),
            self.after_redraw(rival),
        )
        hand = (held - rival_held) / (2 * HAND_SIZE)
        # A hand is worth what it can play: cards it can never pay for are what the Redraw
        # discard (ruling 23) swaps for new ones, and what locks a hand without it (ruling 21).
        live = (playable - rival_playable) / HAND_SIZE
        value = w["lead"] * lead + w["field"] * field + w["hand"] * hand + w["live"] * live
        return max(-1.0, min(1.0, value))

    def _combat_card_victory(self) -> list[float] | None:
        """The result a combat under way, blocks declared, would end the game with if neither
        player did anything more (the rest of it played out on a copy), where a victory ability
        is on a field; None otherwise. A card victory can come of the units a combat loses
        (Siege Camp counts lost cards; §`Winning`, ruling 8)."""
        if not self.attackers or self.phase not in COMBAT_AFTER_BLOCKS:
            return None
        if not any(self.table[c].of_kind("victory") for side in self.field for c in side):
            return None
        trial = self.clone().quiet()
        while trial.scores is None and trial.attackers and trial.phase in COMBAT_AFTER_BLOCKS:
            if trial.tasks:
                trial.apply_unchecked(trial.legal_actions()[0])
            else:
                trial.apply_unchecked(PASS if trial.phase == "reinforce" else END)
        return trial.scores

    def attack_crowns_defender(self) -> bool:
        """Before blocks: would the declared attackers that the defender's units could kill,
        lost together (§`Unit Cards`: a unit dealt more than its defense goes to the lost deck),
        meet a victory condition of the defender's (Siege Camp's lost cards, §`Winning`)? The
        defender's units strike together, as ``policy`` reckons an attack's risk."""
        if not self.attackers or self.phase not in ("attack", "defend") or self.blocks:
            return False
        defender = 1 - self.active
        striking = self.striking(defender)
        at_risk = [
            c for c in self.attackers if striking > self.defense_of(c) - self.damage.get(c, 0)
        ]
        return bool(at_risk) and self.leaving_crowns(defender, at_risk, lost=True)

    def striking(self, player: int) -> int:
        """The attack of all ``player``'s units together: what they deal if all block at once."""
        return sum(self.attack_of(c) for c in self.field[player] if self.table[c].type == "unit")

    def leaving_crowns(self, rival: int, cards: list[int], lost: bool) -> bool:
        """Would ``cards`` leaving the field (to their owners' lost decks when ``lost``, else
        their discard piles) meet a victory condition on ``rival``'s field?"""
        if not any(self.table[c].of_kind("victory") for c in self.field[rival]):
            return False
        trial = self.clone().quiet()
        for card in cards:
            trial._leave_field(card, trial.lost if lost else trial.discard)
        return trial.meets_victory(rival)

    def combat_outlook(self) -> tuple[int, set[int]]:
        """Return the damage a combat under way is likely to deal the defender and the units it
        is likely to take off the field (every unit in a combat leaves it, §`Unit Cards`).

        Before blocks are declared the defender is assumed to block the strongest attackers, one
        unit each, with its weakest units; after, the unblocked attackers' attack is the damage.
        """
        if not self.attackers:
            return 0, set()
        leaving = set(self.attackers) | set(self.blocks)
        if self.phase in ("attack", "defend") and not self.blocks:
            defender = 1 - self.active
            blockers = sorted(
                (c for c in self.field[defender] if self.table[c].type == "unit"),
                key=lambda c: (self.attack_of(c) + self.defense_of(c), c),
            )
            attacks = sorted(self.attack_of(a) for a in self.attackers)
            through = max(0, len(attacks) - len(blockers))
            leaving.update(blockers[: len(attacks)])
            return sum(attacks[:through]), leaving
        unblocked = sum(self.attack_of(a) for a in self.attackers if a not in self.blocked)
        return unblocked, leaving

    def after_redraw(self, player: int) -> tuple[int, float]:
        """Return the cards ``player``'s hand will hold once this turn's Redraw has refilled it
        (``player`` to act; anyone else's hand as it is) and how many of them it could play
        (``live_in_hand``), a card still to be drawn counted at the share of supply cards, always
        playable, among the cards it will come from (the draw deck, then the discard pile, ruling
        19). Searches read it on a guess at the hidden cards (``determinise``)."""
        held, playable = len(self.hand[player]), float(self.live_in_hand(player))
        if player != self.active or self.scores is not None:
            return held, playable
        source = self.draw[player]
        missing = HAND_SIZE - held
        if len(source) < missing:
            source = source + self.discard[player]
        drawn = min(missing, len(source))
        if drawn <= 0:
            return held, playable
        supply = sum(1 for card in source if self.table[card].type == "supply")
        return held + drawn, playable + drawn * supply / len(source)

    def live_in_hand(self, player: int) -> int:
        """Return the cards in ``player``'s hand that it could play: its supply cards, and cards
        the hand's supply could pay for whose prerequisites are on the field or in the hand."""
        hand = self.hand[player]
        supply = self.supply[player] + sum(self.table[c].supply for c in hand)
        names = {self.table[c].name for c in self.field[player]}
        names.update(self.table[c].name for c in hand)
        return sum(
            1
            for c in hand
            if self.table[c].type == "supply"
            or (
                self.table[c].cost <= supply
                and all(name in names for name in self.table[c].prerequisites)
            )
        )

    # --- search hooks (rules/agents/mcts.py) ---------------------------------------------------
    has_rollout_policy = True

    def rollout_action(self, rng: Rng) -> Action:
        """A playout move: the plain policy's (``policy.play_action``, ``team(policy=plain)``).

        Uniform random play ends windows and spends supply at random, so its playouts lose
        from nearly any position at low life and cannot tell a payment that loses at once from
        a pass; the policy's playouts build, attack and block as a player would."""
        action: Action = POLICY["play"](self)
        return action

    def rollout_turns(self) -> int:
        """How many changes of the player to act an MCTS playout makes before ``evaluate``."""
        return ROLLOUT_TURNS

    def advice(self) -> Action | None:
        """A win on offer is taken without search: the policy's ``winning_action`` (a play,
        ability or target that wins at once, or the supply card toward one; an attack or a
        reinforce play that leaves unblocked attack at least the rival's life). A search at the
        web's budget spreads its playouts over every order of the steps of such a line, and
        scores a win put off to a later turn as high as one taken now (a playout's rival answers
        less well than the search's), so it can end a window a step short of the win."""
        action: Action | None = POLICY["win"](self)
        return action

    def search_actions(self) -> list[Action]:
        """The legal actions less a dominated one: ending the Redraw window while the supply
        left could pay for an ability that only gains life (Temple of Dawn). Both players'
        supply returns to 0 when the turn ends (§`Supply`), so a turn that ends with it unspent
        is never better than the same turn with the life gained. Search agents choose among
        these."""
        actions = self.legal_actions()
        if self.tasks or self.phase != "redraw" or END not in actions:
            return actions
        for action in actions:
            if action.kind != "use":
                continue
            ability = self.table[self.field[self.window][cast(int, action.args[1])]].abilities[
                cast(int, action.args[2])
            ]
            if all(p["pay"] == "supply" for p in ability.cost) and all(
                op["op"] == "gain_life" for op in ability.do
            ):
                return [a for a in actions if a != END]
        return actions

    def lookahead_actions(self) -> list[Action] | None:
        """In the Attack step, which units attack is left to a look-ahead (the default agent,
        ``team`` with ``lookahead``): ending the step or sending in one more unit
        (``policy.attack_choices``). The policy's rule, every unit attacks, is blind to the
        field: a unit kept home blocks the rival's attack next turn (§`Defend`)."""
        choices: list[Action] | None = POLICY["attack_choices"](self)
        return choices

    # --- hidden information -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """Return what ``player`` sees: their own hand, counts for hidden piles, the rest open.

        The rival's hand is a count plus the cards known to be in it; draw decks are counts.
        """
        keys = self._keys
        rival = 1 - player
        return {
            "player": player,
            "active_player": self.active,
            "phase": self.phase,
            "window": self.window,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "redraw_discard": self.redraw_discard,
            "passes": self.passes,
            "life": self.life.copy(),
            "supply": self.supply.copy(),
            "hand": sorted(keys(self.hand[player])),
            "rival_hand": len(self.hand[rival]),
            "rival_known_in_hand": sorted(keys(self._known_in_hand(rival))),
            "draw_decks": [len(z) for z in self.draw],
            "fields": [
                [
                    {
                        "card": self.table[c].key,
                        "attack": self.attack_of(c),
                        "defense": self.defense_of(c),
                        "damage": self.damage.get(c, 0),
                        "shield": self.shields.get(c, 0),
                    }
                    for c in self.field[p]
                ]
                for p in (0, 1)
            ],
            "discard_decks": [keys(z) for z in self.discard],
            "lost_decks": [keys(z) for z in self.lost],
            "combat": {
                "attackers": keys(self.attackers),
                "blocks": [
                    [self.table[b].key, self.table[a].key] for b, a in sorted(self.blocks.items())
                ],
                "reinforce_cards": keys(self.combat_cards),
            },
            "being_played": keys(self.stack),
            "decision": self._decision_view(),
            "returns": self.returns(),
            "end_reason": self.reason,
        }

    def determinise(self, player: int, rng: Rng) -> RealmsState:
        """Return a copy with the rival's unknown hand cards and both draw decks dealt again.

        The rival's unseen cards are dealt from the card set, less the copies of each card the
        player has seen the rival use (ruling 20: the rulebook shows no one the rival's list);
        with the option ``open_decklists`` they are the rival's own unseen cards, shuffled. The
        copy is for search, so it records no events or history (``quiet``).
        """
        new = self.clone()
        rival = 1 - player
        known = new._known_in_hand(rival)
        unknown = [c for c in new.hand[rival] if c not in known]
        # sorted before shuffling: the sample depends only on what ``player`` sees and on
        # ``rng``, never on how the hidden cards lie (agents decide alike on any re-deal)
        pool = sorted(unknown + new.draw[rival])
        rng.shuffle(pool)
        if not self.open_decklists and pool:
            new.table = self._guess_rival_cards(rival, pool, rng)
        new.hand[rival] = known + pool[: len(unknown)]
        new.draw[rival] = pool[len(unknown) :]
        new.draw[player].sort()
        rng.shuffle(new.draw[player])
        new.rng = rng.spawn()
        return new.quiet()

    def _guess_rival_cards(self, rival: int, hidden: list[int], rng: Rng) -> tuple[CardSpec, ...]:
        """Return the table with each of the rival's ``hidden`` cards replaced by a card of the
        set drawn from the copies the rival has not been seen to use (copies in the set less
        the rival's open cards), so a guess never breaks the copies limit of §`Setup`."""
        hidden_set = set(hidden)
        seen: dict[str, int] = {}
        for card, owner in enumerate(self.owner):
            if owner == rival and card not in hidden_set:
                name = self.table[card].name
                seen[name] = seen.get(name, 0) + 1
        pool = [
            spec
            for spec in cast("tuple[CardSpec, ...]", getattr(self.game, "specs", ()))
            for _ in range(max(0, spec.copies - seen.get(spec.name, 0)))
        ]
        if len(pool) < len(hidden):
            return self.table
        rng.shuffle(pool)
        table = list(self.table)
        for card, spec in zip(hidden, pool, strict=False):
            table[card] = spec
        return tuple(table)

    def _known_in_hand(self, player: int) -> list[int]:
        return [c for c in self.known_hand[player] if c in self.hand[player]]

    def _decision_view(self) -> dict[str, Any] | None:
        if self.scores is not None:
            return None
        if not self.tasks:
            return {"kind": self.phase, "player": self.window}
        task = self.tasks[0]
        view: dict[str, Any] = {"kind": task[0], "player": task[1]}
        if task[0] in ("choose", "pay_field"):
            view["card"] = self.table[task[2]].key
        return view

    # --- numbers ------------------------------------------------------------------------------
    def _keys(self, cards: Iterable[int]) -> list[str]:
        return [self.table[c].key for c in cards]

    def _static(self, card: int) -> tuple[int, int]:
        spec = self.table[card]
        attack = defense = 0
        for source in self.field[self.owner[card]]:
            for ability in self.table[source].abilities:
                if ability.kind != "static":
                    continue
                for op in ability.do:
                    if op.get("target") == "own_units" and (
                        "subtype" not in op or op["subtype"] in spec.subtypes
                    ):
                        attack += int(op.get("attack", 0))
                        defense += int(op.get("defense", 0))
        return attack, defense

    def attack_of(self, card: int) -> int:
        """Return a unit's attack now: printed, static and temporary modifiers (never below 0)."""
        spec = self.table[card]
        if spec.type != "unit":
            return 0
        total = spec.attack + self._static(card)[0]
        total += sum(m[1] for m in self.mods if m[0] == card)
        return max(0, total)

    def defense_of(self, card: int) -> int:
        """Return a unit's defense now: printed, static and temporary modifiers."""
        spec = self.table[card]
        if spec.type != "unit":
            return 0
        total = spec.defense + self._static(card)[1]
        return total + sum(m[2] for m in self.mods if m[0] == card)

    def in_combat(self, card: int) -> bool:
        """Return True while a unit participates in the current combat (ruling 3)."""
        return card in self.blocks or card in self.attackers

    def combat_units(self, player: int) -> list[int]:
        """Return ``player``'s units taking part in the current combat."""
        if player == self.active:
            return list(self.attackers)
        return list(self.blocks)

    # --- payments -----------------------------------------------------------------------------
    def _prerequisites_met(self, player: int, names: Iterable[str], without: int = -1) -> bool:
        on_field = {self.table[c].name for c in self.field[player] if c != without}
        return all(name in on_field for name in names)

    def _field_candidates(
        self, player: int, payment: Mapping[str, Any], prerequisites: tuple[str, ...]
    ) -> list[int]:
        result = []
        for card in self.field[player]:
            spec = self.table[card]
            if spec.type != payment["card_type"] or self.in_combat(card):
                continue
            if "subtype" in payment and payment["subtype"] not in spec.subtypes:
                continue
            if "name" in payment and payment["name"] != spec.name:
                continue
            if prerequisites and not self._prerequisites_met(player, prerequisites, card):
                continue
            result.append(card)
        return result

    def _payable(
        self,
        player: int,
        payments: Iterable[Mapping[str, Any]],
        supply: int,
        source: int | None,
        prerequisites: tuple[str, ...],
        from_hand: int = 0,
    ) -> bool:
        supply_due = supply
        for payment in payments:
            pay = payment["pay"]
            if pay == "supply":
                supply_due += int(payment["amount"])
            elif pay == "lose_life":
                pass
            elif pay in ("discard_self", "lose_self"):
                if source is None or self.in_combat(source):
                    return False
            elif pay == "discard_from_hand":
                if len(self.hand[player]) - from_hand < int(payment["count"]):
                    return False
            elif len(self._field_candidates(player, payment, prerequisites)) < int(
                payment["count"]
            ):
                return False
        # Life is always payable (ruling 17): paying it to 0 or less loses at once (§`Winning`).
        return self.supply[player] >= supply_due

    def _pay(
        self,
        player: int,
        payments: tuple[Mapping[str, Any], ...],
        source: int,
        where: int,
        then: tuple[Any, ...],
    ) -> None:
        """Pay supply, life and self-sacrifice now; queue hand and field choices, then ``then``."""
        queued: list[tuple[Any, ...]] = []
        for index, payment in enumerate(payments):
            pay = payment["pay"]
            if pay == "supply":
                self.supply[player] -= int(payment["amount"])
            elif pay == "lose_life":
                self.life[player] -= int(payment["amount"])
            elif pay == "discard_self":
                self._leave_field(source, self.discard)
            elif pay == "lose_self":
                self._leave_field(source, self.lost)
            elif pay == "discard_from_hand":
                queued.append(("pay_hand", player, int(payment["count"])))
            else:
                queued.append(("pay_field", player, source, where, index, int(payment["count"])))
        self.tasks[0:0] = [*queued, then]

    def _payment(self, source: int, where: int, index: int) -> Mapping[str, Any]:
        spec = self.table[source]
        if where < 0:
            return spec.additional_costs[index]
        return spec.abilities[where].cost[index]

    # --- legal actions ------------------------------------------------------------------------
    def _distinct(self, cards: Iterable[int]) -> list[int]:
        seen: dict[str, int] = {}
        for card in cards:
            seen.setdefault(self.table[card].key, card)
        return [seen[k] for k in sorted(seen)]

    def playable(self, player: int, card: int) -> bool:
        """Return True when ``player`` may play ``card`` from hand in the current window."""
        spec = self.table[card]
        if spec.type == "supply":
            return True
        if spec.is_permanent:
            if self.phase != "deploy" or player != self.active:
                return False
        elif spec.type == "reinforce" and self.phase != "reinforce":
            return False
        if not self._prerequisites_met(player, spec.prerequisites):
            return False
        return self._payable(
            player, spec.additional_costs, spec.cost, None, spec.prerequisites, from_hand=1
        )

    def _ability_actions(self, player: int) -> list[Action]:
        phase = WINDOW_PHASE[self.phase]
        actions = []
        for index, card in enumerate(self.field[player]):
            spec = self.table[card]
            for number, ability in enumerate(spec.abilities):
                if ability.usable_in(phase) and self._payable(player, ability.cost, 0, card, ()):
                    actions.append(Action("use", (spec.key, index, number)))
        return actions

    def _window_actions(self, player: int) -> list[Action]:
        if self.cycling:
            # Ruling 23: a Redraw discard under way goes on in key order, or ends with the draw.
            keys = sorted({self.table[c].key for c in self.hand[player]})
            return [Action("discard", (k,)) for k in keys if k >= self.cycling] + [END]
        actions: list[Action] = []
        for card in self._distinct(self.hand[player]):
            spec = self.table[card]
            if spec.type == "supply":
                actions.append(Action("supply", (spec.key,)))
            elif self.playable(player, card):
                actions.append(Action("play", (spec.key,)))
        actions.extend(self._ability_actions(player))
        if self.phase == "attack":
            for index, card in enumerate(self.field[player]):
                if self.table[card].type == "unit" and card not in self.attackers:
                    actions.append(Action("attack", (self.table[card].key, index)))
        elif self.phase == "defend":
            rival_field = self.field[self.active]
            for index, card in enumerate(self.field[player]):
                if self.table[card].type != "unit" or card in self.blocks:
                    continue
                for attacker in self.attackers:
                    slot = rival_field.index(attacker)
                    actions.append(
                        Action(
                            "block",
                            (self.table[card].key, index, self.table[attacker].key, slot),
                        )
                    )
        elif self.phase == "redraw" and self.redraw_discard:
            keys = sorted({self.table[c].key for c in self.hand[player]})
            actions.extend(Action("discard", (k,)) for k in keys)
        actions.append(PASS if self.phase == "reinforce" else END)
        return actions

    def _unit_targets(self, side: int, card_type: str = "unit") -> list[Action]:
        return [
            Action("target", (self.table[c].key, i))
            for i, c in enumerate(self.field[side])
            if self.table[c].type == card_type
        ]

    def _task_choices(self, task: tuple[Any, ...]) -> list[Action]:
        kind, player = task[0], task[1]
        if kind in ("pay_hand", "rival_discard"):
            name = "pay" if kind == "pay_hand" else "discard"
            return [Action(name, (self.table[c].key,)) for c in self._distinct(self.hand[player])]
        if kind == "pay_field":
            payment = self._payment(task[2], task[3], task[4])
            prerequisites = self.table[task[2]].prerequisites if task[3] < 0 else ()
            candidates = self._field_candidates(player, payment, prerequisites)
            return [
                Action("pay", (self.table[c].key, self.field[player].index(c))) for c in candidates
            ]
        if kind == "choose":
            return self._target_choices(player, self._op(task))
        if kind == "return":
            cards = [c for c in self.discard[player] if self.table[c].type == task[2]]
            return [Action("return", (self.table[c].key,)) for c in self._distinct(cards)]
        if kind == "assign":
            blocker, points = task[3][0], task[4]
            slot = self.field[1 - player].index(blocker)
            key = self.table[blocker].key
            return [Action("assign", (key, slot, amount)) for amount in range(points + 1)]
        raise AssertionError(f"not a decision: {task!r}")

    def _op(self, task: tuple[Any, ...]) -> Mapping[str, Any]:
        return self.table[task[2]].abilities[task[3]].do[task[4]]

    def _target_choices(self, player: int, op: Mapping[str, Any]) -> list[Action]:
        target = op.get("target")
        if op["op"] == "lose_card":
            card_type = "realm" if target == "enemy_realm" else "unit"
            return self._unit_targets(1 - player, card_type)
        side = player if target == "own_unit" else 1 - player
        return self._unit_targets(side)

    # --- windows ------------------------------------------------------------------------------
    def _take_from_hand(self, player: int, key: str) -> int:
        for index, card in enumerate(self.hand[player]):
            if self.table[card].key == key:
                if card in self.known_hand[player]:
                    self.known_hand[player].remove(card)
                return self.hand[player].pop(index)
        raise AssertionError(f"{key} is not in hand")

    def _window_step(self, player: int, action: Action) -> None:
        kind = action.kind
        if kind == "supply":
            card = self._take_from_hand(player, cast(str, action.args[0]))
            spec = self.table[card]
            self.supply[player] += spec.supply
            self.discard[player].append(card)
            self.log("supply", player, card=spec.key, supply=self.supply[player])
            for number, _ in spec.of_kind("on_play"):
                self.tasks.append(("ops", player, card, number, 0))
        elif kind == "play":
            card = self._take_from_hand(player, cast(str, action.args[0]))
            spec = self.table[card]
            self.stack.append(card)
            self.supply[player] -= spec.cost
            self.log("play", player, card=spec.key)
            self._pay(player, spec.additional_costs, card, -1, ("enter", player, card))
            if spec.type == "reinforce":
                self._reinforce_action(player)
        elif kind == "use":
            key, index, number = cast("tuple[str, int, int]", action.args)
            card = self.field[player][index]
            ability = self.table[card].abilities[number]
            self.log("use", player, card=key, ability=number)
            self._pay(player, ability.cost, card, number, ("ops", player, card, number, 0))
            if self.phase == "reinforce" and "reinforce" in ability.phases:
                self._reinforce_action(player)
        elif kind == "attack":
            key, index = cast("tuple[str, int]", action.args)
            card = self.field[player][index]
            self.attackers.append(card)
            self.log("attack", player, card=key)
            self._trigger(card, "attacks")
        elif kind == "block":
            key, index, attacker_key, slot = cast("tuple[str, int, str, int]", action.args)
            card = self.field[player][index]
            attacker = self.field[self.active][slot]
            self.blocks[card] = attacker
            if attacker not in self.blocked:
                self.blocked.append(attacker)
            self.log("block", player, card=key, attacker=attacker_key)
            self._trigger(card, "blocks")
        elif kind == "discard":
            key = cast(str, action.args[0])
            card = self._take_from_hand(player, key)
            self.discard[player].append(card)
            self.cycling = key
            self.log("discard", player, card=key, redraw=True)
        elif kind == "pass":
            self.log("pass", player)
            self.passes += 1
            if self.passes >= 2:
                self.phase, self.window = "resolve_attacker", self.active
            else:
                self.window = 1 - player
        else:
            self._end_window(player)

    def _reinforce_action(self, player: int) -> None:
        self.passes = 0
        self.window = 1 - player

    def _end_window(self, player: int) -> None:
        phase = self.phase
        self.log("end", player, phase=phase)
        if phase == "deploy":
            self.phase = "attack"
        elif phase == "attack":
            if self.attackers:
                self.phase, self.window = "defend", 1 - self.active
            else:
                self.phase = "redraw"
        elif phase == "defend":
            self.phase, self.window, self.passes = "reinforce", self.active, 0
        elif phase == "resolve_attacker":
            self.phase, self.window = "resolve_defender", 1 - self.active
        elif phase == "resolve_defender":
            self.tasks.extend([("plan", self.active), ("damage_step", self.active)])
            self.phase = "damage"
        elif phase == "redraw":
            self.cycling = ""
            self._draw(player, HAND_SIZE - len(self.hand[player]))
            self._end_turn()

    def _trigger(self, card: int, when: str) -> None:
        owner = self.owner[card]
        for number, ability in self.table[card].of_kind("triggered"):
            if ability.when == when:
                self.tasks.append(("ops", owner, card, number, 0))

    # --- decisions ----------------------------------------------------------------------------
    def _decide(self, task: tuple[Any, ...], action: Action) -> None:
        kind, player = task[0], task[1]
        if kind == "pay_hand":
            key = cast(str, action.args[0])
            card = self._take_from_hand(player, key)
            self.discard[player].append(card)
            self.log("pay", player, card=key, discarded=True)
            if task[2] > 1:
                self.tasks.insert(0, ("pay_hand", player, task[2] - 1))
        elif kind == "pay_field":
            card = self.field[player][cast(int, action.args[1])]
            payment = self._payment(task[2], task[3], task[4])
            zone = self.lost if payment["pay"] == "lose_from_field" else self.discard
            self._leave_field(card, zone)
            self.log("pay", player, card=action.args[0], lost=zone is self.lost)
            if task[5] > 1:
                self.tasks.insert(0, (*task[:5], task[5] - 1))
        elif kind == "rival_discard":
            key = cast(str, action.args[0])
            card = self._take_from_hand(player, key)
            self.discard[player].append(card)
            self.log("discard", player, card=key)
            if task[2] > 1 and self.hand[player]:
                self.tasks.insert(0, ("rival_discard", player, task[2] - 1))
        elif kind == "return":
            for card in self.discard[player]:
                if self.table[card].key == action.args[0]:
                    self.discard[player].remove(card)
                    self.hand[player].append(card)
                    self.known_hand[player].append(card)
                    break
            self.log("return", player, card=action.args[0])
            if task[3] > 1:
                self.tasks.insert(0, ("return", player, task[2], task[3] - 1))
        elif kind == "choose":
            op = self._op(task)
            side = player if op.get("target") == "own_unit" else 1 - player
            card = self.field[side][cast(int, action.args[1])]
            self._apply_op_to(player, op, card)
        elif kind == "assign":
            attacker, blockers, points = task[2], task[3], task[4]
            amount = cast(int, action.args[2])
            self.plan[blockers[0]] = amount
            rest = blockers[1:]
            if len(rest) > 1:
                self.tasks.insert(0, ("assign", player, attacker, rest, points - amount))
            else:
                self.plan[rest[0]] = points - amount

    # --- the engine's own work ----------------------------------------------------------------
    def settle(self) -> None:
        """Run automatic tasks until a decision or a window is open, checking survival (a card
        leaving may take a static defense bonus with it) and victory after each step."""
        self._check_losses()
        self._check_end()
        while self.scores is None and self.tasks and self.tasks[0][0] not in DECISIONS:
            task = self.tasks.pop(0)
            kind = task[0]
            if kind == "ops":
                self._run_op(task)
            elif kind == "enter":
                self._enter(task[1], task[2])
            elif kind == "plan":
                self._plan_damage(task[1])
            elif kind == "damage_step":
                self._damage_step()
            elif kind == "start_turn":
                self._start_turn(task[1])
            else:
                raise AssertionError(f"unknown task {task!r}")
            self._check_losses()
            self._check_end()
        if self.scores is None and self.tasks and not self._task_choices(self.tasks[0]):
            # A choice with nothing left to choose from (the cards went away) is skipped.
            self.tasks.pop(0)
            self.settle()

    def _enter(self, player: int, card: int) -> None:
        self.stack.remove(card)
        spec = self.table[card]
        if spec.type == "reinforce":
            self.combat_cards.append(card)
            for number, _ in spec.of_kind("on_play"):
                self.tasks.insert(0, ("ops", player, card, number, 0))
            return
        self.field[player].append(card)
        self.log("enter", player, card=spec.key)
        self._trigger(card, "on_deploy")

    def _run_op(self, task: tuple[Any, ...]) -> None:
        _, player, source, number, index = task
        ops = self.table[source].abilities[number].do
        if index + 1 < len(ops):
            self.tasks.insert(0, ("ops", player, source, number, index + 1))
        op = ops[index]
        kind = op["op"]
        target = op.get("target")
        amount = int(op.get("amount", 0))
        if kind == "gain_supply":
            self.supply[player] += amount
        elif kind == "draw":
            self._draw(player, amount)
        elif kind == "gain_life":
            self.life[player] += amount
        elif kind == "damage_rival":
            self.life[1 - player] -= amount
        elif kind == "return_to_hand":
            self.tasks.insert(0, ("return", player, op["card_type"], int(op["amount"])))
        elif kind == "rival_discards":
            if self.hand[1 - player]:
                self.tasks.insert(0, ("rival_discard", 1 - player, amount))
        elif target in CHOSEN_TARGETS:
            choice = ("choose", player, source, number, index)
            options = self._target_choices(player, op)
            if len(options) == 1:
                side = player if target == "own_unit" else 1 - player
                self._apply_op_to(player, op, self.field[side][cast(int, options[0].args[1])])
            elif options:
                self.tasks.insert(0, choice)
        else:
            for card in self._group(player, source, op):
                self._apply_op_to(player, op, card)
        self.log("effect", player, card=self.table[source].key, op=kind)

    def _group(self, player: int, source: int, op: Mapping[str, Any]) -> list[int]:
        target = op.get("target")
        if target == "this_unit":
            return [source] if source in self.field[self.owner[source]] else []
        if target == "own_combat_units":
            return self.combat_units(player)
        if target == "enemy_combat_units":
            return self.combat_units(1 - player)
        if target == "own_units":
            return [
                c
                for c in self.field[player]
                if self.table[c].type == "unit"
                and ("subtype" not in op or op["subtype"] in self.table[c].subtypes)
            ]
        return []

    def _apply_op_to(self, player: int, op: Mapping[str, Any], card: int) -> None:
        kind = op["op"]
        if kind == "damage_unit":
            self._hurt(card, int(op["amount"]))
            self._check_losses()
        elif kind == "prevent_damage":
            self.shields[card] = self.shields.get(card, 0) + int(op["amount"])
        elif kind == "modify":
            self.mods.append(
                (card, int(op.get("attack", 0)), int(op.get("defense", 0)), op["until"])
            )
            self._check_losses()
        elif kind == "lose_card":
            self._leave_field(card, self.lost)
            self.log("lose", self.owner[card], card=self.table[card].key)

    def _hurt(self, card: int, amount: int) -> None:
        shield = self.shields.get(card, 0)
        prevented = min(shield, amount)
        if prevented:
            self.shields[card] = shield - prevented
        if amount > prevented:
            self.damage[card] = self.damage.get(card, 0) + amount - prevented

    def _check_losses(self) -> None:
        """Lose every unit whose damage is over its defense now (§`Unit Cards`), all at once,
        and again while a leaving unit's static bonus leaves others over theirs."""
        while True:
            doomed = [
                card
                for player in (0, 1)
                for card in self.field[player]
                if self.table[card].type == "unit"
                and self.damage.get(card, 0) > self.defense_of(card)
            ]
            if not doomed:
                return
            for card in doomed:
                self._leave_field(card, self.lost)
                self.log("lose", self.owner[card], card=self.table[card].key)

    def _leave_field(self, card: int, zone: list[list[int]]) -> None:
        owner = self.owner[card]
        self.field[owner].remove(card)
        zone[owner].append(card)
        if card in self.attackers:
            self.attackers.remove(card)
        self.blocks.pop(card, None)
        self.damage.pop(card, None)
        self.shields.pop(card, None)
        self.plan.pop(card, None)
        if any(m[0] == card for m in self.mods):
            self.mods = [m for m in self.mods if m[0] != card]

    def _draw(self, player: int, count: int) -> None:
        for _ in range(max(0, count)):
            if not self.draw[player]:
                if not self.discard[player]:
                    return
                self.draw[player], self.discard[player] = self.discard[player], []
                self.rng.shuffle(self.draw[player])
                self.log("reshuffle", player, cards=len(self.draw[player]))
            self.hand[player].append(self.draw[player].pop())

    # --- combat damage ------------------------------------------------------------------------
    def _plan_damage(self, player: int) -> None:
        tasks = []
        for attacker in self.attackers:
            blockers = tuple(b for b, a in self.blocks.items() if a == attacker)
            if len(blockers) > 1:
                tasks.append(("assign", player, attacker, blockers, self.attack_of(attacker)))
        self.tasks[0:0] = tasks

    def _damage_step(self) -> None:
        """Deal every combat damage at once, then lose or discard each unit that took part."""
        defender = 1 - self.active
        hits: dict[int, int] = {}
        to_player = 0
        for attacker in self.attackers:
            blockers = [b for b, a in self.blocks.items() if a == attacker]
            if attacker not in self.blocked:
                to_player += self.attack_of(attacker)
            elif len(blockers) == 1:
                hits[blockers[0]] = hits.get(blockers[0], 0) + self.attack_of(attacker)
            else:
                for blocker in blockers:
                    hits[blocker] = hits.get(blocker, 0) + self.plan.get(blocker, 0)
        for blocker, attacker in self.blocks.items():
            if attacker in self.attackers:
                hits[attacker] = hits.get(attacker, 0) + self.attack_of(blocker)
        for card, amount in hits.items():
            self._hurt(card, amount)
        self.life[defender] -= to_player
        self.log("damage", self.active, to_player=to_player, hits=len(hits))
        # §`Resolve`: the damage is dealt at once and the units that took part then leave at
        # once, so each is judged against the field as it stands before any of them leaves (a
        # unit's static bonus still counts for the others judged with it, §`Unit Cards`).
        leaving = [*self.attackers, *self.blocks]
        lost = {card for card in leaving if self.damage.get(card, 0) > self.defense_of(card)}
        for card in leaving:
            self._leave_field(card, self.lost if card in lost else self.discard)
        for card in self.combat_cards:
            zone = self.lost if self.table[card].reinforce_kind == "once" else self.discard
            zone[self.owner[card]].append(card)
        self.combat_cards = []
        self.attackers, self.blocks, self.blocked, self.plan = [], {}, [], {}
        self.shields = {}
        self.mods = [m for m in self.mods if m[3] != "end_of_combat"]
        self._check_losses()
        for player in (self.active, defender):
            for card in list(self.field[player]):
                self._trigger(card, "combat_end")
        self.phase, self.window = "redraw", self.active

    # --- turns and the end --------------------------------------------------------------------
    def _end_turn(self) -> None:
        self.supply = [0, 0]
        self.damage = {}
        self.shields = {}
        self.mods = [m for m in self.mods if m[3] == "while_on_field"]
        self.turn += 1
        if self.turn > self.turn_limit:
            self._finish(LIMIT_REASON, [0.0, 0.0])
            return
        self.tasks.append(("start_turn", 1 - self.active))

    def _start_turn(self, player: int) -> None:
        self.active = self.window = player
        self.phase = "deploy"
        self.log("turn", player, turn=self.turn)
        # Ruling 21: when neither player can ever do anything but end their windows, nothing
        # can change again and the rulebook's game never ends: that is a stalemate (a draw).
        if self.stalemate():
            self._finish(STALEMATE_REASON, [0.0, 0.0])
            return
        for card in list(self.field[player]):
            self._trigger(card, "turn_start")

    def stalemate(self) -> bool:
        """Return True when, between turns, no player can ever act again (ruling 21): no unit
        on either field (so no combat, no defend or reinforce window), and for each player no
        supply card in hand, no draw into a hand short of seven, no card in hand they could pay
        for with no supply, no ability of their own turn's phases they could pay for, and no
        turn-start trigger. Everything then repeats unchanged for ever (§`Redraw`, §`Supply`)."""
        for player in (0, 1):
            hand = self.hand[player]
            if self.redraw_discard and hand:
                return False  # the house rule can always change the hand
            if len(hand) < HAND_SIZE and (self.draw[player] or self.discard[player]):
                return False
            for card in hand:
                spec = self.table[card]
                if spec.type == "supply":
                    return False
                if (
                    spec.is_permanent
                    and spec.cost == 0
                    and self._prerequisites_met(player, spec.prerequisites)
                    and self._payable(
                        player, spec.additional_costs, 0, None, spec.prerequisites, from_hand=1
                    )
                ):
                    return False
            for card in self.field[player]:
                spec = self.table[card]
                if spec.type == "unit":
                    return False
                for ability in spec.abilities:
                    if ability.kind == "triggered" and ability.when == "turn_start":
                        return False
                    if (
                        ability.kind == "activated"
                        and QUIET_PHASES.intersection(ability.phases)
                        and self._payable(player, ability.cost, 0, card, ())
                    ):
                        return False
        return True

    def meets_victory(self, player: int) -> bool:
        """Return True when a victory ability on ``player``'s field has every condition met."""
        for card in self.field[player]:
            for _, ability in self.table[card].of_kind("victory"):
                if all(self._holds(player, c) for c in ability.conditions):
                    return True
        return False

    def _holds(self, player: int, condition: Mapping[str, Any]) -> bool:
        test = condition["test"]
        side = player if condition.get("side", "own") == "own" else 1 - player
        if test == "on_field":
            return self._prerequisites_met(player, condition["names"])
        if test == "lost_count":
            return len(self.lost[side]) >= int(condition["at_least"])
        count = sum(
            1
            for c in self.field[side]
            if self.table[c].type == condition["card_type"]
            and ("subtype" not in condition or condition["subtype"] in self.table[c].subtypes)
        )
        return count >= int(condition.get("at_least", 0)) and count <= int(
            condition.get("at_most", count)
        )

    def _check_end(self) -> None:
        if self.scores is not None:
            return
        dead = [self.life[p] <= 0 for p in (0, 1)]
        crowned = [self.meets_victory(p) for p in (0, 1)]
        claims = [crowned[p] or dead[1 - p] for p in (0, 1)]
        if claims[0] and claims[1]:
            self._finish(DRAW_REASON, [0.0, 0.0])
        elif claims[0] or claims[1]:
            winner = 0 if claims[0] else 1
            reason = CARD_REASON if crowned[winner] and not dead[1 - winner] else LIFE_REASON
            scores = [-1.0, -1.0]
            scores[winner] = 1.0
            self._finish(reason, scores)

    def _finish(self, reason: str, scores: list[float]) -> None:
        self.scores = scores
        self.reason = reason
        self.tasks = []
        winner = scores.index(1.0) if 1.0 in scores else -1
        self.log("game_over", winner, reason=reason)
