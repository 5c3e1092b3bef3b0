"""The Reign Absolute game state: the battlefield, reinforcements, combat, Doom and victory.

Every physical card is an integer id into the game's ``table`` of ``CardSpec``. The battlefield
maps ``(x, y)`` squares to unit ids; Combat Reinforcements under a unit are a tuple keyed by the
unit's id, so moving a unit moves its reinforcements with it. Who knows a face-down unit is a bit
mask per card (its owner always; everyone once it was revealed in combat or taken from a face-up
discard pile; a single player after a peek). Work the engine does by itself (drawing, resolving a
combat, passing the turn) sits in a task queue; a task that needs a choice becomes that player's
decision. The rulings these rules follow are written once, in ``docs/rules/reign-absolute.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, cast

from rules.engines.core import TERMINAL, Action, CardSightings, Rng, State
from rules.engines.core.weights import weights_beside
from rules.engines.reign_absolute.cards import CardSpec

Square = tuple[int, int]
STEPS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
CENTRE: Square = (0, 0)

WIN_REASON = "last-liege"
DRAW_REASON = "all-lieges-fell"
LIMIT_REASON = "turn-limit"
#: every end reason a game can have (``end_reason()``); the plugin gives each one words
END_REASONS = (WIN_REASON, DRAW_REASON, LIMIT_REASON)

#: the evaluation's feature weights (``evaluate``: a reinforcement under a unit against a point of
#: its strength, and the pull towards the nearest enemy), tuned by self-play (``bench/tune.py``)
#: and loaded from weights.json
WEIGHTS = weights_beside(__file__)

PASS = Action("pass")
DOOM = Action("doom")
DONE = Action("done")
SKIP = Action("skip")
RESOLVE = Action("resolve")
IGNORE = Action("ignore")
#: Turn Reinforcement operations that only give, so resolving them is never worse than not
FREE_GIFTS = frozenset({"extra_turn", "draw_reinforcements"})
#: the determinisations ``action_priors`` averages over
PRIOR_DEALS = 8

#: tasks that wait for a player's choice; the others the engine runs by itself
DECISIONS = frozenset(
    {
        "place",
        "after_setup",
        "action",
        "reveal",
        "recall",
        "doom_discard",
        "place_reinforcement",
        "turn_card",
        "extra_move",
    }
)


def neighbours(square: Square) -> list[Square]:
    """Return the four orthogonally adjacent squares (there is no diagonal adjacency)."""
    return [step[0] for step in steps_from(square)]


#: One step from a square: the square reached, and the move, attack and swap actions to it.
Step = tuple[Square, Action, Action, Action]
#: the steps from each square met so far, built once per square so that listing legal moves
#: allocates no square and no action (the board is small: a few hundred squares at most)
_STEPS_FROM: dict[Square, tuple[Step, ...]] = {}
#: the march actions from each square met so far, by the square marched to
_MARCHES_FROM: dict[Square, dict[Square, Action]] = {}


def steps_from(square: Square) -> tuple[Step, ...]:
    """The four orthogonal steps from ``square`` (in ``STEPS`` order), with their actions."""
    found = _STEPS_FROM.get(square)
    if found is None:
        x, y = square
        found = tuple(
            (
                (x + dx, y + dy),
                Action("move", (x, y, x + dx, y + dy)),
                Action("attack", (x, y, x + dx, y + dy)),
                Action("swap", (x, y, x + dx, y + dy)),
            )
            for dx, dy in STEPS
        )
        _STEPS_FROM[square] = found
    return found


def march_action(start: Square, far: Square) -> Action:
    """The action marching the unit on ``start`` to ``far`` (one object per pair of squares)."""
    marches = _MARCHES_FROM.get(start)
    if marches is None:
        marches = _MARCHES_FROM[start] = {}
    found = marches.get(far)
    if found is None:
        found = marches[far] = Action("march", (start[0], start[1], far[0], far[1]))
    return found


class ReignState(State):
    """A Reign Absolute position: battlefield, faction decks, discards, reinforcements, tasks."""

    __slots__ = (
        "active",
        "alive",
        "board",
        "choices",
        "combat",
        "deck",
        "discard",
        "extra_turns",
        "faction_decks",
        "factions",
        "first",
        "known",
        "moved",
        "n",
        "owner",
        "reason",
        "scores",
        "table",
        "tasks",
        "turn",
        "turn_limit",
        "under",
        "unit_discards",
        "worths",
    )

    def __init__(
        self,
        game: Any,
        seed: int,
        table: tuple[CardSpec, ...],
        factions: Sequence[str],
        blank: bool = False,
    ) -> None:
        super().__init__(game, seed)
        self.table = table
        self.factions = tuple(factions)
        if blank:  # clone() fills every field
            return
        self.n = len(self.factions)
        seat: dict[str | None, int] = {faction: p for p, faction in enumerate(self.factions)}
        self.owner: tuple[int, ...] = tuple(
            seat.get(spec.faction, -1) if spec.is_unit else -1 for spec in table
        )
        self.worths: tuple[float, ...] = tuple(spec.worth for spec in table)
        self.board: dict[Square, int] = {}
        self.under: dict[int, tuple[int, ...]] = {}
        self.known: list[int] = [0] * len(table)
        #: whether a unit was seen changing squares (so it cannot be an immobile one)
        self.moved: list[bool] = [False] * len(table)
        self.faction_decks: list[list[int]] = [[] for _ in range(self.n)]
        self.unit_discards: list[list[int]] = [[] for _ in range(self.n)]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.alive = [True] * self.n
        self.tasks: list[tuple[Any, ...]] = []
        self.combat: dict[str, Any] | None = None
        self.active = 0
        #: the 1st Player (§Setup), for reports
        self.first = 0
        self.turn = 1
        self.turn_limit = 0
        self.extra_turns = 0
        self.scores: list[float] | None = None
        self.reason = ""
        self.choices: list[Action] | None = None

    # --- the core API -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Return the player whose decision is open, or TERMINAL."""
        if self.scores is not None:
            return TERMINAL
        return self.tasks[0][1]

    def legal_actions(self) -> list[Action]:
        """Return the choices open to the player to act, in a stable order."""
        if self.scores is not None:
            return []
        if self.choices is None:
            self.choices = self._choices(self.tasks[0])
        return list(self.choices)

    def _apply(self, action: Action) -> None:
        """Carry out one decision, then run the engine until someone must decide again."""
        self.choices = None
        task = self.tasks.pop(0)
        self._decide(task, action)
        self.settle()

    def returns(self) -> list[float]:
        """Return +1 for the last Liege standing, -1 for the eradicated, 0 for a draw."""
        return list(self.scores) if self.scores is not None else [0.0] * self.n

    def end_reason(self) -> str:
        """Return how the game ended: last-liege, all-lieges-fell or turn-limit."""
        return self.reason

    def first_player(self) -> int:
        """Report hook: the 1st Player, who placed first and takes the first Turn (§Setup)."""
        return self.first

    def card_sightings(self) -> list[CardSightings] | None:
        """Per player: the Units of its faction deck (the Reinforcements are one deck shared by
        every player, not a faction's, so they do not count), those it drew (deployed on the
        battlefield: every Unit out of its faction deck by the end, which §Setup places all of)
        and those it played (made a Move or March, or a Reinforcement's extra moves, so changed
        squares; attacked or was attacked: the ``attack`` events; or was revealed to lend its
        strength to a combat: the ``reveal`` events). A Swap or a Peek names squares, not Units,
        so it does not make a Unit played."""
        if self.events is None:
            return None
        seat_of = {self.table[card].key: seat for card, seat in enumerate(self.owner) if seat >= 0}
        names = {spec.key: spec.name for spec in self.table}
        used: list[set[str]] = [set() for _ in range(self.n)]
        for event in self.events:
            if event.kind == "attack":
                keys = [event.detail.get("attacker"), event.detail.get("defender")]
            elif event.kind == "reveal":
                keys = [event.detail.get("unit")]
            else:
                continue
            for key in keys:
                if isinstance(key, str) and key in seat_of:
                    used[seat_of[key]].add(names[key])
        result = []
        for player in range(self.n):
            units = [card for card, seat in enumerate(self.owner) if seat == player]
            waiting = set(self.faction_decks[player])
            deck = frozenset(self.table[card].name for card in units)
            drew = frozenset(self.table[card].name for card in units if card not in waiting)
            moved = {self.table[card].name for card in units if self.moved[card]}
            played = frozenset(moved | used[player])
            result.append(CardSightings(deck, drew | played, played))
        return result

    def clone(self) -> ReignState:
        """Return an independent copy (containers copied one level deep, specs shared)."""
        new = ReignState(self.game, 0, self.table, self.factions, blank=True)
        self._copy_base(new)
        new.table = self.table
        new.factions = self.factions
        new.n = self.n
        new.owner = self.owner
        new.worths = self.worths
        new.board = self.board.copy()
        new.under = self.under.copy()
        new.known = self.known.copy()
        new.moved = self.moved.copy()
        new.faction_decks = [deck.copy() for deck in self.faction_decks]
        new.unit_discards = [pile.copy() for pile in self.unit_discards]
        new.deck = self.deck.copy()
        new.discard = self.discard.copy()
        new.alive = self.alive.copy()
        new.tasks = self.tasks.copy()
        new.combat = None
        if self.combat is not None:
            new.combat = {**self.combat, "cards": [c.copy() for c in self.combat["cards"]]}
            new.combat["revealed"] = self.combat["revealed"].copy()
        new.active = self.active
        new.first = self.first
        new.turn = self.turn
        new.turn_limit = self.turn_limit
        new.extra_turns = self.extra_turns
        new.scores = None if self.scores is None else self.scores.copy()
        new.reason = self.reason
        new.choices = self.choices  # never mutated: legal_actions() hands out copies
        return new

    def zone_counts(self) -> dict[str, int]:
        """Return the cards in each zone; the total never changes during a game."""
        held = sum(1 for task in self.tasks if task[0] in ("place", "place_reinforcement"))
        return {
            "faction_decks": sum(len(deck) for deck in self.faction_decks),
            "battlefield": len(self.board),
            "unit_discards": sum(len(pile) for pile in self.unit_discards),
            "under_units": sum(len(cards) for cards in self.under.values()),
            "reinforcement_deck": len(self.deck),
            "reinforcement_discard": len(self.discard),
            "in_combat": sum(len(c) for c in self.combat["cards"]) if self.combat else 0,
            "held": held,
        }

    def key(self) -> Hashable:
        """Return a hashable summary of the position (history left out)."""
        return (
            tuple(sorted(self.board.items())),
            tuple(sorted(self.under.items())),
            tuple(self.known),
            tuple(tuple(d) for d in self.faction_decks),
            tuple(tuple(p) for p in self.unit_discards),
            tuple(self.deck),
            tuple(self.discard),
            tuple(self.alive),
            tuple(self.tasks),
            (self.active, self.turn, self.extra_turns, self.reason),
        )

    def evaluate(self, player: int) -> float:
        """Return a heuristic in [-1, 1]: the player's fighting strength against the best rival.

        A Doom under way is counted as done (§`Doom Action`): each player still to discard loses
        their weakest unit, their Liege when it is all they have, which eradicates them. A small
        bonus for units (the Liege apart) close to an enemy unit breaks ties between quiet moves,
        so an agent looking one turn ahead seeks combat instead of wandering off across the
        unbounded battlefield (which kept such games going to the turn limit).
        """
        if self.scores is not None:
            return self.scores[player]
        if not self.alive[player]:
            return -1.0
        owner, worths, table = self.owner, self.worths, self.table
        doom = [0] * self.n
        for task in self.tasks:
            if task[0] == "doom_discard":
                doom[task[1]] += 1
        kept: list[list[int]] = [[] for _ in range(self.n)]
        for unit in self.board.values():
            kept[owner[unit]].append(unit)
        standing = [False] * self.n
        for p in range(self.n):
            if not self.alive[p]:
                continue
            lieges = [u for u in kept[p] if table[u].is_liege]
            others = sorted((u for u in kept[p] if not table[u].is_liege), key=worths.__getitem__)
            lost = doom[p]
            kept[p] = others[lost:] + lieges
            standing[p] = bool(lieges) and lost <= len(others)
        if not standing[player]:
            return -1.0
        if not any(standing[p] for p in range(self.n) if p != player):
            return 1.0
        w = WEIGHTS
        reinforcement = w["reinforcement"]
        strength = [0.0] * self.n
        for p in range(self.n):
            for unit in kept[p]:
                strength[p] += worths[unit] + reinforcement * len(self.under.get(unit, ()))
        mine = strength[player]
        rival = max((strength[p] for p in range(self.n) if p != player and standing[p]), default=0)
        value = (mine - rival) / (mine + rival + 1.0)
        enemies = [sq for sq, u in self.board.items() if owner[u] != player and standing[owner[u]]]
        mobile = [
            sq
            for sq, u in self.board.items()
            if owner[u] == player and not table[u].is_liege and not table[u].immobile
        ]
        if enemies and mobile:
            gap = sum(
                min(abs(x - ex) + abs(y - ey) for ex, ey in enemies) for x, y in mobile
            ) / len(mobile)
            value += w["closeness"] / gap
        return max(-1.0, min(1.0, value))

    # --- search hooks (rules/agents/mcts.py) ---------------------------------------------------
    has_rollout_policy = True

    def search_actions(self) -> list[Action]:
        """Return the legal actions less the dominated ones, which search never tries.

        Giving up the Liege to a Doom while another unit could go eradicates the player
        (§`Doom Action`, §`Victory`), the worst ending there is. Ignoring a Turn Reinforcement
        that only gives (Another Turn, Supply Wagon) forgoes a Turn, which may pass with no
        Action, or Combat Reinforcements, which only add to a unit (§`Reinforcement Phase`).
        """
        actions = self.legal_actions()
        if self.scores is not None:
            return actions
        task = self.tasks[0]
        if task[0] == "doom_discard" and len(actions) > 1:
            # there is one Liege, so with two units or more another one can always go
            return [a for a in actions if not self.spec_at(cast(Square, a.args)).is_liege]
        if task[0] == "turn_card" and (self.table[task[2]].op or {}).get("op") in FREE_GIFTS:
            return [RESOLVE]
        return actions

    def rollout_action(self, rng: Rng) -> Action:
        """Return a playout move: uniform among ``search_actions`` (no playout gives a Liege
        away in a Doom, which made a Doom look good to a player who could only lose by it)."""
        return rng.choice(self.search_actions())

    def action_priors(self, player: int) -> list[float]:
        """Return a prior for each search action: its mean ``evaluate`` once carried out.

        A combat resolves and a Doom counts as done in ``evaluate``, so an attack that takes
        the last rival Liege starts at 1 and a Doom or attack that costs the player's own Liege
        at -1. MCTS seeds its root with these (progressive bias): with a few dozen playouts
        spread over twenty actions, noisy rollouts alone found a winning attack only by luck.
        The mean is over ``PRIOR_DEALS`` determinisations for ``player`` (from a copy of this
        state's generator, which is left as it was): on one deal an attack on a face-down unit
        is a sure win or a sure loss, and a lucky deal sent the Liege into a stronger unit.
        """
        actions = self.search_actions()
        totals = [0.0] * len(actions)
        rng = self.rng.clone()
        for _ in range(PRIOR_DEALS):
            deal = self.determinise(player, rng)
            for index, action in enumerate(actions):
                child = deal.clone()
                child.apply_unchecked(action)
                totals[index] += child.evaluate(player)
        return [total / PRIOR_DEALS for total in totals]

    # --- hidden information -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        """Return what ``player`` sees, with unknown units and rivals' reinforcements hidden.

        Own units and their reinforcements are shown; an enemy unit only once ``player`` knows
        it; enemy reinforcements only as a count; face-up piles in full.
        """
        bit = 1 << player
        board = []
        for square in sorted(self.board):
            unit = self.board[square]
            owner = self.owner[unit]
            cards = self.under.get(unit, ())
            board.append(
                {
                    "square": list(square),
                    "owner": owner,
                    "unit": self.table[unit].key if self.known[unit] & bit else None,
                    "reinforcements": len(cards),
                    "moved": self.moved[unit],
                    "reinforcement_cards": (
                        [self.table[c].key for c in cards] if owner == player else None
                    ),
                }
            )
        return {
            "player": player,
            "players": self.n,
            "factions": list(self.factions),
            "alive": self.alive.copy(),
            "active_player": self.active,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "extra_turns": self.extra_turns,
            "battlefield": board,
            "faction_decks": [len(deck) for deck in self.faction_decks],
            "unit_discards": [self._keys(pile) for pile in self.unit_discards],
            "reinforcement_deck": len(self.deck),
            "reinforcement_discard": self._keys(self.discard),
            "combat": self._combat_view(),
            "decision": self._decision_view(player),
            "returns": self.returns(),
            "end_reason": self.reason,
        }

    def determinise(self, player: int, rng: Rng) -> ReignState:
        """Return a copy with everything ``player`` cannot see resampled consistently.

        Each rival's face-down units unknown to ``player`` (on the battlefield, in the faction deck
        or about to be placed) are dealt again from that rival's unseen cards; the Reinforcement
        deck, rivals' reinforcements and a rival's card in hand are dealt again from the unseen
        reinforcements, Combat Reinforcements going where only a Combat Reinforcement can be.
        The copy is for search, so it records no events or history (``quiet``).
        """
        new = self.clone()
        bit = 1 << player
        for rival in range(self.n):
            new._redeal_units(rival, player, bit, rng)
        new._redeal_reinforcements(player, rng)
        new.rng = rng.spawn()
        new.choices = None
        return new.quiet()

    def _redeal_units(self, rival: int, player: int, bit: int, rng: Rng) -> None:
        board_slots = [
            sq
            for sq, unit in sorted(self.board.items())
            if self.owner[unit] == rival and not self.known[unit] & bit
        ]
        held = [i for i, task in enumerate(self.tasks) if task[0] == "place" and task[1] == rival]
        if rival == player:
            board_slots, held = [], []
        old = [self.board[sq] for sq in board_slots] + [self.tasks[i][2] for i in held]
        # sorted before shuffling: the sample depends only on what ``player`` sees and on
        # ``rng``, never on how the hidden units lie (agents decide alike on any re-deal)
        pool = sorted(old + self.faction_decks[rival])
        if len(pool) < 2:
            return
        rng.shuffle(pool)
        # A unit seen changing squares cannot be an immobile one: deal those slots first.
        moved = [self.moved[unit] for unit in old[: len(board_slots)]]
        mobile = [unit for unit in pool if not self.table[unit].immobile][: sum(moved)]
        taken = set(mobile)
        rest = iter([unit for unit in pool if unit not in taken])
        firsts = iter(mobile)
        pool = [next(firsts) if flag else next(rest) for flag in moved] + list(rest)
        under = {unit: self.under.pop(unit) for unit in old if unit in self.under}
        masks = [self.known[unit] for unit in old]
        for sq, new_unit, old_unit, mask, flag in zip(
            board_slots, pool, old, masks, moved, strict=False
        ):
            self.board[sq] = new_unit
            self.known[new_unit] = mask
            self.moved[new_unit] = flag
            if old_unit in under:
                self.under[new_unit] = under[old_unit]
        for index, new_unit in zip(held, pool[len(board_slots) :], strict=False):
            task = self.tasks[index]
            self.tasks[index] = (task[0], task[1], new_unit)
            self.known[new_unit] = 0
            self.moved[new_unit] = False
        self.faction_decks[rival] = pool[len(old) :]
        for unit in self.faction_decks[rival]:
            self.known[unit] = 0
            self.moved[unit] = False

    def _redeal_reinforcements(self, player: int, rng: Rng) -> None:
        combat_slots: list[tuple[str, Any]] = []
        hidden: list[int] = list(self.deck)
        for unit, cards in sorted(self.under.items()):
            if self.owner[unit] != player:
                combat_slots.extend(("under", (unit, i)) for i in range(len(cards)))
                hidden.extend(cards)
        for index, task in enumerate(self.tasks):
            if task[0] == "place_reinforcement" and task[1] != player:
                combat_slots.append(("held", index))
                hidden.append(task[2])
        combat = sorted(c for c in hidden if self.table[c].is_combat)
        others = [c for c in hidden if not self.table[c].is_combat]
        rng.shuffle(combat)
        fill, rest = combat[: len(combat_slots)], combat[len(combat_slots) :]
        stacks: dict[int, list[int]] = {}
        for (kind, where), card in zip(combat_slots, fill, strict=True):
            if kind == "under":
                stacks.setdefault(where[0], []).append(card)
            else:
                task = self.tasks[where]
                self.tasks[where] = (task[0], task[1], card)
        for unit, stack in stacks.items():
            self.under[unit] = tuple(stack)
        self.deck = sorted(rest + others)
        rng.shuffle(self.deck)

    def _combat_view(self) -> dict[str, Any] | None:
        if self.combat is None:
            return None
        c = self.combat
        return {
            "attacker": list(c["from"]),
            "defender": list(c["to"]),
            "attacker_unit": self.table[c["units"][0]].key,
            "defender_unit": self.table[c["units"][1]].key,
            "attacker_cards": self._keys(c["cards"][0]),
            "defender_cards": self._keys(c["cards"][1]),
            "revealed": [list(sq) for sq in c["revealed"]],
        }

    def _decision_view(self, player: int) -> dict[str, Any] | None:
        if self.scores is not None:
            return None
        task = self.tasks[0]
        view: dict[str, Any] = {"kind": task[0], "player": task[1]}
        if task[0] == "place":
            view["unit"] = self.table[task[2]].key if task[1] == player else None
        elif task[0] == "place_reinforcement":
            view["card"] = self.table[task[2]].key if task[1] == player else None
        elif task[0] == "turn_card":
            view["card"] = self.table[task[2]].key
        elif task[0] == "extra_move":
            view["remaining"] = task[2]
        elif task[0] == "doom_discard":
            view["caller"] = task[2]
        return view

    # --- queries ------------------------------------------------------------------------------
    def _keys(self, cards: Iterable[int]) -> list[str]:
        return [self.table[c].key for c in cards]

    def spec_at(self, square: Square) -> CardSpec:
        """Return the card definition of the unit on ``square``."""
        return self.table[self.board[square]]

    def units_of(self, player: int) -> list[Square]:
        """Return the squares of ``player``'s units, sorted."""
        return sorted(sq for sq, unit in self.board.items() if self.owner[unit] == player)

    def liege_square(self, player: int) -> Square | None:
        """Return where ``player``'s Liege stands, or None once it is gone."""
        for sq, unit in self.board.items():
            if self.owner[unit] == player and self.table[unit].is_liege:
                return sq
        return None

    def next_seat(self, player: int) -> int:
        """Return the next player clockwise who is still in the game."""
        for step in range(1, self.n + 1):
            seat = (player + step) % self.n
            if self.alive[seat]:
                return seat
        return player

    def _empty_next_to(self, squares: Iterable[Square]) -> list[Square]:
        board = self.board
        return sorted({n for sq in squares for n in neighbours(sq) if n not in board})

    def placement_squares(self, player: int) -> list[Square]:
        """Return where ``player`` may place a unit now (§Setup placement order)."""
        if not self.board:
            return [CENTRE]
        own = self.units_of(player)
        if not own:
            enemies = [sq for sq, u in self.board.items() if self.owner[u] != player]
            return self._empty_next_to(enemies)
        return self._empty_next_to(own) or self._empty_next_to(self.board)

    def _adjacent_ally_pairs(self, player: int) -> list[tuple[Square, Square]]:
        # An immobile unit cannot make a Move or Attack Action (its card text), but a swap is
        # neither: swap effects take any adjacent friendly unit (§Move Action, ruling 23).
        pairs = []
        for sq in self.units_of(player):
            for other in ((sq[0] + 1, sq[1]), (sq[0], sq[1] + 1)):
                unit = self.board.get(other)
                if unit is not None and self.owner[unit] == player:
                    pairs.append((sq, other))
        return pairs

    def _moves(self, player: int) -> list[Action]:
        actions = []
        board = self.board
        for sq in self.units_of(player):
            if self.spec_at(sq).immobile:
                continue
            for target, move, _attack, _swap in steps_from(sq):
                if target not in board:
                    actions.append(move)
        return actions

    def _recalls(self, player: int) -> list[Action]:
        keys = sorted({self.table[u].key for u in self.unit_discards[player]})
        squares = self._empty_next_to(self.units_of(player))
        return [Action("recall", (key, *sq)) for key in keys for sq in squares]

    def _peeks(self, player: int, origin: Square | None, reach: int) -> list[Action]:
        bit = 1 << player
        actions = []
        for sq, unit in sorted(self.board.items()):
            if self.owner[unit] == player or self.known[unit] & bit:
                continue
            if origin is None:
                actions.append(Action("peek", sq))
            elif abs(sq[0] - origin[0]) + abs(sq[1] - origin[1]) <= reach:
                actions.append(Action("peek", (*origin, *sq)))
        return actions

    # --- legal actions ------------------------------------------------------------------------
    def _choices(self, task: tuple[Any, ...]) -> list[Action]:
        kind, player = task[0], task[1]
        if kind == "place":
            return [Action("place", sq) for sq in self.placement_squares(player)]
        if kind == "after_setup":
            return [Action("swap", (*a, *b)) for a, b in self._adjacent_ally_pairs(player)] + [SKIP]
        if kind == "action":
            return self._action_phase(player)
        if kind == "reveal":
            return self._reveal_choices(player)
        if kind == "recall":
            return self._recalls(player)
        if kind == "doom_discard":
            return [Action("discard", sq) for sq in self.units_of(player)]
        if kind == "place_reinforcement":
            return [Action("reinforce", sq) for sq in self.units_of(player)]
        if kind == "turn_card":
            return self._turn_card_choices(player, self.table[task[2]])
        if kind == "extra_move":
            return [*self._moves(player), DONE]
        raise AssertionError(f"not a decision: {task!r}")

    def _action_phase(self, player: int) -> list[Action]:
        actions: list[Action] = []
        board = self.board
        owner = self.owner
        table = self.table
        for sq in self.units_of(player):
            spec = table[board[sq]]
            if not spec.immobile:
                steps = steps_from(sq)
                for target, move, attack, _swap in steps:
                    unit = board.get(target)
                    if unit is None:
                        actions.append(move)
                    elif owner[unit] != player:
                        actions.append(attack)
                if spec.march:
                    for far in self._march_squares(sq, spec.march):
                        actions.append(march_action(sq, far))
                if spec.swaps:
                    for target, _move, _attack, swap in steps:
                        unit = board.get(target)
                        if unit is not None and owner[unit] == player:
                            actions.append(swap)
            if spec.peek_range:
                actions.extend(self._peeks(player, sq, spec.peek_range))
        actions.append(DOOM)
        actions.append(PASS)
        return actions

    def _march_squares(self, start: Square, reach: int) -> list[Square]:
        """Return empty squares 2..``reach`` steps away, reached through empty squares only."""
        seen = {start}
        frontier = [start]
        far: set[Square] = set()
        for step in range(1, reach + 1):
            nxt = []
            for sq in frontier:
                for n, _move, _attack, _swap in steps_from(sq):
                    if n not in seen and n not in self.board:
                        seen.add(n)
                        nxt.append(n)
                        if step >= 2:
                            far.add(n)
            frontier = nxt
        return sorted(far)

    def _reveal_choices(self, player: int) -> list[Action]:
        combat = self.combat
        assert combat is not None
        side = combat["reveal_side"]
        op = combat["reveal_op"]
        centre = combat["to"] if side == 1 else combat["from"]
        wanted = op["unit"]
        actions = []
        for sq in sorted(neighbours(centre)):
            unit = self.board.get(sq)
            if (
                unit is not None
                and self.owner[unit] == player
                and sq not in combat["revealed"]
                and self.table[unit].name == wanted
            ):
                actions.append(Action("reveal", sq))
        return [*actions, DONE]

    def _turn_card_choices(self, player: int, spec: CardSpec) -> list[Action]:
        op = spec.op or {}
        kind = op.get("op")
        if kind in ("extra_turn", "draw_reinforcements"):
            return [RESOLVE, IGNORE]
        if kind == "extra_moves":
            return [*self._moves(player), IGNORE]
        if kind == "swap_adjacent_allies":
            pairs = self._adjacent_ally_pairs(player)
            return [*(Action("swap", (*a, *b)) for a, b in pairs), IGNORE]
        if kind == "peek":
            return [*self._peeks(player, None, 0), IGNORE]
        if kind == "recall_unit":
            return [*self._recalls(player), IGNORE]
        return [IGNORE]

    # --- decisions ----------------------------------------------------------------------------
    def _decide(self, task: tuple[Any, ...], action: Action) -> None:
        kind, player = task[0], task[1]
        # Every decision here that reads arguments reads squares (a recall goes to ``_recall``).
        args = cast("tuple[int, ...]", action.args)
        if kind == "place":
            self._put_unit(task[2], (args[0], args[1]))
            self.log("place", player, square=list(args))
        elif kind == "after_setup":
            if action.kind == "swap":
                self._swap((args[0], args[1]), (args[2], args[3]))
                self.log("swap", player, squares=[list(args[:2]), list(args[2:])])
        elif kind == "action":
            self._action(player, action)
        elif kind == "reveal":
            self._reveal(player, action)
        elif kind == "recall":
            self._recall(player, action)
        elif kind == "doom_discard":
            self._doom_discard(player, (args[0], args[1]), task[2])
        elif kind == "place_reinforcement":
            unit = self.board[(args[0], args[1])]
            self.under[unit] = (*self.under.get(unit, ()), task[2])
            self.log("reinforce", player, square=list(args))
        elif kind == "turn_card":
            self._turn_card(player, self.table[task[2]], action)
        elif kind == "extra_move" and action.kind == "move":
            self._step(player, action)
            if task[2] > 1:
                self.tasks.insert(0, ("extra_move", player, task[2] - 1))

    def _put_unit(self, unit: int, square: Square) -> None:
        self.board[square] = unit
        self.known[unit] |= 1 << self.owner[unit]

    def _swap(self, a: Square, b: Square) -> None:
        # a swapped unit may be an immobile one, so a swap says nothing about ``moved``
        self.board[a], self.board[b] = self.board[b], self.board[a]

    def _step(self, player: int, action: Action) -> None:
        x, y, tx, ty = cast("tuple[int, int, int, int]", action.args)
        unit = self.board[(tx, ty)] = self.board.pop((x, y))
        self.moved[unit] = True
        self.log(action.kind, player, origin=[x, y], square=[tx, ty])

    def _action(self, player: int, action: Action) -> None:
        args = cast("tuple[int, ...]", action.args)  # every Action's arguments are squares
        follow = [("draw", player, 1), ("end_turn", player)]
        everyone = (1 << self.n) - 1
        if action.kind in ("move", "march"):
            self._step(player, action)
            if action.kind == "march":
                # Only one kind of unit can make this Action: making it shows what it is.
                self.known[self.board[(args[2], args[3])]] = everyone
        elif action.kind == "swap":
            self.known[self.board[(args[0], args[1])]] = everyone
            self._swap((args[0], args[1]), (args[2], args[3]))
            self.log("swap", player, squares=[list(args[:2]), list(args[2:])])
        elif action.kind == "peek":
            self.known[self.board[(args[0], args[1])]] = everyone
            target = (args[2], args[3])
            self.known[self.board[target]] |= 1 << player
            self.log("peek", player, square=list(target))
        elif action.kind == "attack":
            follow = [*self._start_combat(player, (args[0], args[1]), (args[2], args[3])), *follow]
        elif action.kind == "doom":
            order = []
            seat = player
            while True:
                seat = self.next_seat(seat)
                order.append(("doom_discard", seat, player))
                if seat == player:
                    break
            self.log("doom", player)
            follow = [*order, ("end_turn", player)]
        else:
            self.log("pass", player)
        self.tasks[0:0] = follow

    def _reveal(self, player: int, action: Action) -> None:
        combat = self.combat
        assert combat is not None
        if action.kind == "reveal":
            square = cast(Square, action.args)
            combat["revealed"].append(square)
            self.known[self.board[square]] = (1 << self.n) - 1
            self.log("reveal", player, square=list(square), unit=self.spec_at(square).key)
            self.tasks.insert(0, ("reveal", player))

    def _recall(self, player: int, action: Action) -> None:
        key, x, y = cast("tuple[str, int, int]", action.args)
        pile = self.unit_discards[player]
        for index, unit in enumerate(pile):
            if self.table[unit].key == key:
                pile.pop(index)
                self._put_unit(unit, (x, y))
                self.known[unit] = (1 << self.n) - 1
                self.log("recall", player, unit=key, square=[x, y])
                return
        raise AssertionError(f"{key} is not in the unit discard pile")

    def _turn_card(self, player: int, spec: CardSpec, action: Action) -> None:
        if action == IGNORE:
            self.log("ignore", player, card=spec.key)
            return
        op = spec.op or {}
        kind = op.get("op")
        self.log("resolve", player, card=spec.key)
        if kind == "extra_turn":
            self.extra_turns += 1
        elif kind == "draw_reinforcements":
            self.tasks.insert(0, ("draw", player, int(op["count"])))
        elif kind == "extra_moves":
            self._step(player, action)
            if int(op["count"]) > 1:
                self.tasks.insert(0, ("extra_move", player, int(op["count"]) - 1))
        elif kind == "swap_adjacent_allies":
            args = cast("tuple[int, ...]", action.args)
            self._swap((args[0], args[1]), (args[2], args[3]))
        elif kind == "peek":
            args = cast("tuple[int, ...]", action.args)
            self.known[self.board[(args[0], args[1])]] |= 1 << player
        elif kind == "recall_unit":
            self._recall(player, action)

    # --- the engine's own work ----------------------------------------------------------------
    def settle(self) -> None:
        """Run automatic tasks until a decision is open or the game is over."""
        self.choices = None
        while self.scores is None and self.tasks and self.tasks[0][0] not in DECISIONS:
            task = self.tasks.pop(0)
            kind = task[0]
            if kind == "placement":
                self._next_placement(task[1])
            elif kind == "start_turn":
                self.active = task[1]
                self.log("turn-start", task[1], turn=self.turn)
                self.tasks.insert(0, ("action", task[1]))
            elif kind == "resolve_combat":
                self._resolve_combat()
            elif kind == "draw":
                self._reinforcement_draw(task[1], task[2])
            elif kind == "end_turn":
                self._end_turn(task[1])
            else:
                raise AssertionError(f"unknown task {task!r}")
        if self.scores is None and not self.tasks:
            raise AssertionError("no task is open in a running game")

    def _next_placement(self, seat: int) -> None:
        for step in range(self.n):
            player = (seat + step) % self.n
            if self.faction_decks[player]:
                unit = self.faction_decks[player].pop()
                self.tasks[0:0] = [("place", player, unit), ("placement", (player + 1) % self.n)]
                return
        first = self.active
        tasks: list[tuple[Any, ...]] = []
        for step in range(self.n):
            player = (first + step) % self.n
            liege = self.liege_square(player)
            if liege is not None and self.spec_at(liege).after_setup:
                tasks.append(("after_setup", player))
        tasks.append(("start_turn", first))
        self.tasks[0:0] = tasks

    def draw_card(self) -> int | None:
        """Take the top Reinforcement, reshuffling the discard pile into a new deck when empty."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.log("reshuffle", -1, cards=len(self.deck))
        return self.deck.pop()

    def _reinforcement_draw(self, player: int, count: int) -> None:
        if count <= 0 or not self.alive[player]:
            return
        card = self.draw_card()
        if card is None:
            return
        rest = [("draw", player, count - 1)] if count > 1 else []
        spec = self.table[card]
        if spec.is_combat:
            self.log("draw", player, card=None)
            self.tasks[0:0] = [("place_reinforcement", player, card), *rest]
        else:
            self.discard.append(card)
            self.log("draw", player, card=spec.key)
            self.tasks[0:0] = [("turn_card", player, card), *rest]

    def _end_turn(self, player: int) -> None:
        self.turn += 1
        if self.turn > self.turn_limit:
            self._finish(LIMIT_REASON)
            return
        if self.extra_turns and self.alive[player]:
            self.extra_turns -= 1
            nxt = player
        else:
            self.extra_turns = 0
            nxt = self.next_seat(player)
        self.tasks.insert(0, ("start_turn", nxt))

    # --- combat -------------------------------------------------------------------------------
    def _start_combat(self, player: int, origin: Square, target: Square) -> list[tuple[Any, ...]]:
        attacker, defender = self.board[origin], self.board[target]
        everyone = (1 << self.n) - 1
        self.known[attacker] = self.known[defender] = everyone
        self.combat = {
            "from": origin,
            "to": target,
            "units": (attacker, defender),
            "cards": [list(self.under.pop(attacker, ())), list(self.under.pop(defender, ()))],
            "revealed": [],
            "reveal_side": None,
            "reveal_op": None,
        }
        self.log(
            "attack",
            player,
            origin=list(origin),
            square=list(target),
            attacker=self.table[attacker].key,
            defender=self.table[defender].key,
            attacker_cards=self._keys(self.combat["cards"][0]),
            defender_cards=self._keys(self.combat["cards"][1]),
        )
        tasks: list[tuple[Any, ...]] = []
        for side, (unit, square) in enumerate(((attacker, origin), (defender, target))):
            role = "attacker" if side == 0 else "defender"
            for op in self.table[unit].combat_ops(role):
                if op["op"] != "reveal_adjacent":
                    continue
                owner = self.owner[unit]
                # The choice is offered whenever a friendly unit is adjacent, whatever it is,
                # so rivals learn nothing from the offer itself.
                if any(
                    self.board.get(n) is not None and self.owner[self.board[n]] == owner
                    for n in neighbours(square)
                ):
                    self.combat["reveal_side"] = side
                    self.combat["reveal_op"] = op
                    tasks.append(("reveal", owner))
        tasks.append(("resolve_combat", player))
        return tasks

    def _resolve_combat(self) -> None:
        combat = self.combat
        assert combat is not None
        units = combat["units"]
        cards = combat["cards"]
        specs = (self.table[units[0]], self.table[units[1]])
        roles = ("attacker", "defender")
        pending: deque[tuple[int, int]] = deque()
        for side in (0, 1):
            for op in specs[side].combat_ops(roles[side]):
                if op["op"] == "draw_reinforcements":
                    pending.append((side, int(op["count"])))
        for side in (0, 1):
            for card in cards[side]:
                op = self.table[card].op or {}
                if op.get("op") == "draw_reinforcements":
                    pending.append((side, int(op["count"])))
        drawn: list[list[str]] = [[], []]
        while pending:
            side, count = pending.popleft()
            for _ in range(count):
                card = self.draw_card()
                if card is None:
                    break
                spec = self.table[card]
                drawn[side].append(spec.key)
                if not spec.is_combat:
                    self.discard.append(card)
                    continue
                cards[side].append(card)
                op = spec.op or {}
                if op.get("op") == "draw_reinforcements":
                    pending.append((side, int(op["count"])))
        cancels = [
            any((self.table[c].op or {}).get("op") == "cancel_enemy_reinforcements" for c in pile)
            for pile in cards
        ]
        void = (cancels[1], cancels[0])
        ignored: list[set[str]] = [set(), set()]
        for side in (0, 1):
            for op in specs[side].combat_ops(roles[side]):
                if op["op"] == "ignore_enemy_bonus":
                    ignored[1 - side].add(op["bonus"])
        totals = []
        for side in (0, 1):
            spec = specs[side]
            kind = "attack" if side == 0 else "defence"
            total = spec.strength
            if kind not in ignored[side]:
                total += spec.attack if side == 0 else spec.defence
            for op in spec.combat_ops(roles[side]):
                if op["op"] == "bonus":
                    total += int(op.get(kind, 0)) + int(op.get("strength", 0))
            if combat["reveal_side"] == side:
                each = combat["reveal_op"]["each"]
                per = int(each.get(kind, 0)) + int(each.get("strength", 0))
                total += per * len(combat["revealed"])
            if not void[side]:
                for card in cards[side]:
                    op = self.table[card].op or {}
                    if op.get("op") == "bonus":
                        total += int(op.get(kind, 0)) + int(op.get("strength", 0))
            totals.append(total)
        lost = [totals[0] <= totals[1], totals[1] <= totals[0]]
        if totals[0] == totals[1]:
            survives = ["survives_ties" in spec.always for spec in specs]
            if survives[0] != survives[1]:
                lost = [not survives[0], not survives[1]]
        self.log(
            "combat",
            self.owner[units[0]],
            attacker=specs[0].key,
            defender=specs[1].key,
            drawn=drawn,
            attacker_cards=self._keys(cards[0]),
            defender_cards=self._keys(cards[1]),
            void=list(void),
            totals=totals,
            defeated=[roles[s] for s in (0, 1) if lost[s]],
        )
        for pile in cards:
            self.discard.extend(pile)
        self.combat = None
        origin, target = combat["from"], combat["to"]
        for side, square in ((0, origin), (1, target)):
            if lost[side]:
                unit = self.board.pop(square)
                self.unit_discards[self.owner[unit]].append(unit)
        if not lost[0] and lost[1] and "attacks_without_moving" not in specs[0].always:
            self.board[target] = self.board.pop(origin)
        owners = (self.owner[units[0]], self.owner[units[1]])
        fallen = [side for side in (0, 1) if lost[side] and specs[side].is_liege]
        for side in fallen:
            self._eradicate(owners[side])
        self._check_victory([owners[side] for side in fallen])
        if self.scores is None:
            for side in fallen:
                victor = owners[1 - side]
                if self.alive[victor] and self.unit_discards[victor]:
                    self.tasks.insert(0, ("recall", victor))

    # --- Doom and victory ---------------------------------------------------------------------
    def _doom_discard(self, player: int, square: Square, caller: int) -> None:
        unit = self.board.pop(square)
        self.unit_discards[player].append(unit)
        self.known[unit] = (1 << self.n) - 1
        self.discard.extend(self.under.pop(unit, ()))
        self.log("doom_discard", player, square=list(square), unit=self.table[unit].key)
        if self.table[unit].is_liege:
            self._eradicate(player)
            self._check_victory([player])
            if self.scores is None and caller != player and self.unit_discards[caller]:
                self.tasks.insert(0, ("recall", caller))

    def _eradicate(self, player: int) -> None:
        self.alive[player] = False
        for square in self.units_of(player):
            unit = self.board.pop(square)
            self.known[unit] = (1 << self.n) - 1
            self.unit_discards[player].append(unit)
            self.discard.extend(self.under.pop(unit, ()))
        self.tasks = [t for t in self.tasks if t[1] != player or t[0] == "end_turn"]
        self.log("eradicated", player)

    def _check_victory(self, fallen: list[int]) -> None:
        standing = [p for p in range(self.n) if self.alive[p]]
        if len(standing) == 1:
            self._finish(WIN_REASON, [1.0 if p == standing[0] else -1.0 for p in range(self.n)])
        elif not standing:
            self._finish(DRAW_REASON, [0.0 if p in fallen else -1.0 for p in range(self.n)])

    def _finish(self, reason: str, scores: list[float] | None = None) -> None:
        if scores is None:
            scores = [0.0 if self.alive[p] else -1.0 for p in range(self.n)]
        self.scores = scores
        self.reason = reason
        self.tasks = []
        winner = self.winner_seat()
        self.log("game_over", -1 if winner is None else winner, reason=reason)

    def winner_seat(self) -> int | None:
        """Return the seat that won, or None (still playing or a draw)."""
        if self.scores is None or self.reason != WIN_REASON:
            return None
        return self.scores.index(1.0)
