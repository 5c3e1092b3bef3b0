"""Test hands for Reign Absolute: Umbrous Edition: placement, reinforcements and goldfish games.

There is no player hand and no mulligan (§`Key Concepts & Mechanics`, §`Setup`): a deck is a whole
faction deck, shuffled, and its "opening" is the order in which its units come up for placement.
The only policy is therefore "never". ``sample(deck, n, seed, mulligan_policy)`` plays ``n``
two-player games in which the deck's player is the 1st Player against an idle rival fielding
another faction (the three other factions in turn, by seed). The idle rival places its units on
random legal squares, places the Combat Reinforcements it must (§`Reinforcement Phase`) under a
random unit of its own, ignores its Turn Reinforcements, never takes an Action, and in a Doom
discards its weakest unit other than its Liege. The player follows a deterministic line that uses
only what the player may know (§`Key Concepts & Mechanics`):

- placement (§`Setup`): the Liege on the legal square farthest from enemy units, every other unit
  on the one nearest to them;
- Action Phase (§`Action Phase`): attack with the unit other than the Liege whose expected
  margin is largest when that margin is at least 1 (its own Strength, bonus and Combat
  Reinforcements against the defender's Strength and Defence, or the rival faction's average
  when the defender is still face down, plus the average Defence a Combat Reinforcement under it
  adds); otherwise call Doom when the rival has one unit left or fewer units than the player
  (§`Doom Action`: each Doom costs both sides one unit, so it wins from a lead); otherwise move
  the strongest unit that touches no enemy a step towards the nearest one; otherwise pass;
- Reinforcement Phase: a Combat Reinforcement goes under the strongest unit other than the Liege
  that touches an enemy (the next attacker); Another Turn and extra draws are resolved, a peek
  looks at the first unseen unit offered, other Turn Reinforcements are ignored; in a Doom the
  player discards its weakest unit other than the Liege.

The report gives where the Liege comes in the placement order, how often it ends setup next to an
enemy, what the first Reinforcement drawn is, the Combat Reinforcements under the player's units
after turns 3 and 5, units lost and defeated by turn 5, and how and when games end (the turn the
goldfish eradicates the idle rival). ``walk`` replays one such game for a page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engines.core import Action, Rng, SetupError
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
from rules.engines.reign_absolute.cards import FIXTURE_DIR, CardSpec, fixture_records
from rules.engines.reign_absolute.game import ReignAbsoluteGame
from rules.engines.reign_absolute.narration import space
from rules.engines.reign_absolute.state import DOOM, PASS, ReignState, Square

MulliganPolicy = Callable[[Sequence[CardSpec], int], bool]


DECK_DIR = FIXTURE_DIR.parent / "decks" / "reign-absolute"
SAMPLE_TURNS = 60  # own turns a sampled game may last before it counts as a draw
WALK_TURNS = 40
EARLY_PLACEMENTS = 3
BY_TURNS = (3, 5)
LOSS_TURN = 5
IGNORE = Action("ignore")
RESOLVE = Action("resolve")
SKIP = Action("skip")
DONE = Action("done")


@dataclass(frozen=True, kw_only=True)
class ReignHandReport(BaseHandReport):
    """What ``sample`` found over its goldfish games."""

    faction: str
    liege_early: float  # share of games with the Liege among the first EARLY_PLACEMENTS placed
    liege_round: float  # mean placement round of the Liege (1 = placed first)
    liege_exposed: float  # share of games with the Liege next to an enemy unit after setup
    first_draw_combat: float  # of games in which the player drew: first draw a Combat one
    games_with_draw: int  # games in which the player drew a Reinforcement at all
    under_units: dict[int, float]  # mean Combat Reinforcements under own units after that turn
    units_lost: float  # mean own units lost by the end of turn LOSS_TURN
    units_defeated: float  # mean rival units gone by the end of turn LOSS_TURN

    @property
    def figures(self) -> list[tuple[str, str]]:
        """The headline figures as (label, value) rows, in display order."""
        rows = [
            (f"Liege among your first {EARLY_PLACEMENTS} units placed", f"{self.liege_early:.0%}"),
            ("Placement round of the Liege", f"{self.liege_round:.1f}"),
            ("Liege next to an enemy unit after setup", f"{self.liege_exposed:.0%}"),
            (
                "Your first Reinforcement drawn is a Combat one",
                f"{self.first_draw_combat:.0%}",
            ),
        ]
        rows += [
            (f"Combat Reinforcements under your units after turn {t}", f"{count:.1f}")
            for t, count in self.under_units.items()
        ]
        rows += [
            (f"Your units lost by turn {LOSS_TURN}", f"{self.units_lost:.1f}"),
            (f"Rival units removed by turn {LOSS_TURN}", f"{self.units_defeated:.1f}"),
        ]
        return rows


# --- decks and the engine ---------------------------------------------------------------------
BOX = CardBox(fixture_records, ReignAbsoluteGame)


def sample_deck(stem: str) -> list[dict[str, Any]]:
    """One record per card (zone "") of a legal sample deck, ``fixtures/decks/reign-absolute``."""
    text = (DECK_DIR / f"{stem}.txt").read_text(encoding="utf-8")
    counts: dict[str, int] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")):
            count, _, name = line.partition(" ")
            counts[name.strip()] = counts.get(name.strip(), 0) + int(count)
    return BOX.deck(counts)


def sample_decks() -> list[str]:
    """The names of the legal sample decks (file stems), sorted."""
    return sorted(path.stem for path in DECK_DIR.glob("legal-*.txt"))


def game_for(deck: Sequence[Mapping[str, Any]]) -> ReignAbsoluteGame:
    """The engine playing the deck's own card records (the built-in box supplies the rest)."""
    return BOX.game_for(deck)


def deck_faction(game: ReignAbsoluteGame, deck: Sequence[Mapping[str, Any]]) -> str:
    """The faction whose whole deck ``deck`` is; raise ``SetupError`` when it is not one."""
    counts = deck_counts(deck)
    lieges = [r for r in deck if r.get("type") == "liege"]
    branches = [str(r.get("branch")) for r in (lieges or deck) if r.get("branch")]
    if not branches:
        raise SetupError("the deck has no faction's units: a deck is a whole faction deck")
    faction = max(sorted(set(branches)), key=branches.count)
    expected: dict[str, int] = {}
    for unit in game.unit_ids(faction):
        expected[game.table[unit].name] = expected.get(game.table[unit].name, 0) + 1
    if counts != expected:
        wrong = sorted(set(counts) | set(expected), key=str)
        detail = ", ".join(
            f"{name} {counts.get(name, 0)} of {expected.get(name, 0)}"
            for name in wrong
            if counts.get(name, 0) != expected.get(name, 0)
        )
        raise SetupError(f"the deck is not the whole {faction} faction deck (Setup): {detail}")
    return faction


def rival_faction(game: ReignAbsoluteGame, faction: str, seed: int) -> str:
    """The idle rival's faction for a seed: the other factions in turn."""
    others = [f for f in game.factions if f != faction]
    if not others:
        raise SetupError("Reign Absolute needs a second faction for the rival")
    return others[seed % len(others)]


def _new_game(
    deck: Sequence[Mapping[str, Any]], seed: int, own_turns: int
) -> tuple[ReignState, str]:
    game = game_for(deck)
    faction = deck_faction(game, deck)
    setup = {
        "factions": [faction, rival_faction(game, faction, seed)],
        "first_player": 0,
        "turn_limit": 2 * own_turns,
    }
    return game.new_initial_state(seed, setup), faction


# --- the two lines ----------------------------------------------------------------------------
def _distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _nearest(state: ReignState, square: Square, player: int) -> int:
    enemies = [sq for sq, u in state.board.items() if state.owner[u] != player]
    return min((_distance(square, e) for e in enemies), default=0)


def _combat_bonus(state: ReignState, cards: Sequence[int], kind: str) -> int:
    total = 0
    for card in cards:
        op = state.table[card].op or {}
        if op.get("op") == "bonus":
            total += int(op.get(kind, 0)) + int(op.get("strength", 0))
    return total


class Goldfish:
    """The player's deterministic line (see the module docstring), for seat 0."""

    def __init__(self, state: ReignState) -> None:
        rival_units = [s for s in state.table if s.is_unit and s.faction == state.factions[1]]
        self.rival_mean = sum(s.strength + s.defence for s in rival_units) / len(rival_units)
        combat = [s for s in state.table if s.is_combat]
        self.defence_per_card = _mean_bonus(combat, "defence")

    def act(self, state: ReignState) -> Action:
        """Return the goldfish line's choice for seat 0, who is to act."""
        task = state.tasks[0]
        kind = task[0]
        actions = state.legal_actions()
        if kind == "place":
            return self._place(state, task[2], actions)
        if kind == "action":
            return self._action(state, actions)
        if kind == "place_reinforcement":
            target = self._next_attacker(state) or self._strongest(state, state.units_of(0))
            return Action("reinforce", target) if target else actions[0]
        if kind == "turn_card":
            if RESOLVE in actions:
                return RESOLVE
            peeks = [a for a in actions if a.kind == "peek"]
            return peeks[0] if peeks else IGNORE
        if kind == "doom_discard":
            return _weakest_discard(state, 0, actions)
        if kind == "after_setup":
            return SKIP
        if kind == "extra_move" or kind == "reveal":
            reveals = [a for a in actions if a.kind == "reveal"]
            return reveals[0] if reveals else DONE
        return actions[0]

    @staticmethod
    def _place(state: ReignState, unit: int, actions: list[Action]) -> Action:
        def distance(action: Action) -> int:
            args = _ints(action)
            return _nearest(state, (args[0], args[1]), 0)

        if state.table[unit].is_liege:
            return max(actions, key=lambda a: (distance(a), [-x for x in _ints(a)]))
        return min(actions, key=lambda a: (distance(a), a.args))

    def _attack_margin(self, state: ReignState, action: Action) -> float:
        x, y, tx, ty = _ints(action)
        mine = state.board[(x, y)]
        spec = state.table[mine]
        total = (
            spec.strength + spec.attack + _combat_bonus(state, state.under.get(mine, ()), "attack")
        )
        theirs = state.board[(tx, ty)]
        if state.known[theirs] & 1:
            other = state.table[theirs]
            defence: float = float(other.strength + other.defence)
        else:
            defence = self.rival_mean
        defence += self.defence_per_card * len(state.under.get(theirs, ()))
        return total - defence

    def _action(self, state: ReignState, actions: list[Action]) -> Action:
        own = state.units_of(0)
        rival = state.units_of(1)
        liege = state.liege_square(0)
        attacks = [
            a
            for a in actions
            if a.kind == "attack" and ((a.args[0], a.args[1]) != liege or len(own) == 1)
        ]
        if attacks:
            best = max(
                attacks, key=lambda a: (self._attack_margin(state, a), [-v for v in _ints(a)])
            )
            if self._attack_margin(state, best) >= 1:
                return best
        if len(rival) == 1 or len(rival) < len(own):
            return DOOM
        movers = [
            sq
            for sq in own
            if sq != liege and not state.spec_at(sq).immobile and _nearest(state, sq, 0) > 1
        ]
        mover = self._strongest(state, movers)
        if mover is not None:
            steps = [a for a in actions if a.kind == "move" and (a.args[0], a.args[1]) == mover]
            if steps:
                return min(
                    steps, key=lambda a: (_nearest(state, (_ints(a)[2], _ints(a)[3]), 0), a.args)
                )
        return PASS

    @staticmethod
    def _strongest(state: ReignState, squares: Sequence[Square]) -> Square | None:
        if not squares:
            return None
        return max(squares, key=lambda sq: (state.spec_at(sq).worth, [-v for v in sq]))

    def _next_attacker(self, state: ReignState) -> Square | None:
        liege = state.liege_square(0)
        front = [
            sq
            for sq in state.units_of(0)
            if sq != liege and not state.spec_at(sq).immobile and _nearest(state, sq, 0) == 1
        ]
        return self._strongest(state, front)


def _ints(action: Action) -> tuple[int, ...]:
    """The arguments of a placement, move, attack or discard: squares' coordinates."""
    return cast("tuple[int, ...]", action.args)


def _mean_bonus(combat: Sequence[CardSpec], kind: str) -> float:
    if not combat:
        return 0.0
    total = 0
    for spec in combat:
        op = spec.op or {}
        if op.get("op") == "bonus":
            total += int(op.get(kind, 0)) + int(op.get("strength", 0))
    return total / len(combat)


def _weakest_discard(state: ReignState, player: int, actions: list[Action]) -> Action:
    def rank(action: Action) -> tuple[bool, float, int, tuple[Any, ...]]:
        square = (_ints(action)[0], _ints(action)[1])
        unit = state.board[square]
        spec = state.table[unit]
        return (spec.is_liege, spec.worth, len(state.under.get(unit, ())), action.args)

    return min(actions, key=rank)


class IdleRival:
    """The idle rival (see the module docstring), with its own random choices."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed ^ 0x5EED)

    def act(self, state: ReignState) -> Action:
        """Return the idle rival's choice for the seat to act."""
        kind = state.tasks[0][0]
        player = state.current_player()
        actions = state.legal_actions()
        if kind in ("place", "place_reinforcement"):
            return self.rng.choice(actions)
        if kind == "action":
            return PASS
        if kind == "turn_card":
            return IGNORE
        if kind == "after_setup":
            return SKIP
        if kind == "doom_discard":
            return _weakest_discard(state, player, actions)
        return actions[0]


# --- sampling ---------------------------------------------------------------------------------
@dataclass
class _Tally:
    """One game's numbers, filled in as it is played."""

    placed: list[str] = field(default_factory=list)
    liege_round: int = 0
    liege_exposed: bool = False
    first_draw: bool | None = None
    under: dict[int, int] = field(default_factory=dict)
    lost: int | None = None
    removed: int | None = None


def _play(
    state: ReignState, seed: int, turns: int | None, tally: _Tally | None = None
) -> tuple[int, int]:
    """Play until the game ends or the player's turn ``turns + 1`` is about to start.

    Return (own turns played, index of the first event of the last own turn).
    """
    goldfish = Goldfish(state)
    rival = IdleRival(seed)
    own_turns = 0
    last_turn = 0
    log_from = len(state.events or ())
    while not state.is_terminal():
        task = state.tasks[0]
        kind, player = task[0], task[1]
        if kind == "action" and player == 0 and state.turn != last_turn:
            if tally is not None:
                _snapshot(state, tally, own_turns)
            if turns is not None and own_turns == turns:
                break
            last_turn = state.turn
            own_turns += 1
            log_from = len(state.events or ())
        if player != 0:
            state.apply(rival.act(state))
            continue
        if tally is not None:
            if kind == "place":
                tally.placed.append(state.table[task[2]].name)
                if state.table[task[2]].is_liege:
                    tally.liege_round = len(tally.placed)
            elif kind in ("place_reinforcement", "turn_card") and tally.first_draw is None:
                tally.first_draw = kind == "place_reinforcement"
        state.apply(goldfish.act(state))
    if tally is not None:
        _snapshot(state, tally, own_turns, final=True)
    return own_turns, log_from


def units_left(state: ReignState, player: int) -> int:
    """The player's units not yet discarded: on the battlefield or still to be placed."""
    return sum(1 for owner in state.owner if owner == player) - len(state.unit_discards[player])


def _snapshot(state: ReignState, tally: _Tally, own_turns: int, final: bool = False) -> None:
    """Record the figures due once ``own_turns`` of the player's turns are over."""
    if own_turns == 0 and not final:
        liege = state.liege_square(0)
        tally.liege_exposed = liege is not None and _nearest(state, liege, 0) == 1
    for t in BY_TURNS:
        if t not in tally.under and (own_turns >= t or final):
            tally.under[t] = sum(
                len(state.under.get(state.board[sq], ())) for sq in state.units_of(0)
            )
    if tally.lost is None and (own_turns >= LOSS_TURN or final):
        tally.lost = len(state.unit_discards[0])
        tally.removed = len(state.unit_discards[1])


def _unit_line(state: ReignState, square: Square) -> str:
    unit = state.board[square]
    spec = state.table[unit]
    cards = len(state.under.get(unit, ()))
    tag = " (Liege)" if spec.is_liege else ""
    extra = f", {cards} reinforcement{'s' if cards != 1 else ''}" if cards else ""
    return f"{spec.name}{tag} on {space(square)}{extra}"


# --- the model --------------------------------------------------------------------------------
class ReignAbsoluteHands(HandsModel):
    """Reign Absolute's test hands: no hand, so nothing to mulligan (§Key Concepts & Mechanics):
    the deal is always kept (the base's "never" policy); then the goldfish line. A sampled game
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
    ) -> ReignHandReport:
        """Play ``n`` goldfish games of a faction deck (one record per card) and report.

        Raises ``SetupError`` when the deck is not a whole faction deck of the box.
        """
        faction = ""
        early = rounds = exposed = combat_first = drew = lost = removed = 0
        under = dict.fromkeys(BY_TURNS, 0)
        outcomes = OutcomeTally()
        openings: list[list[str]] = []
        for index in range(n):
            state, faction = _new_game(deck, seed + index, self.sample_turns)
            state.quiet()
            tally = _Tally()
            own_turns, _ = _play(state, seed + index, None, tally)
            early += tally.liege_round <= EARLY_PLACEMENTS
            rounds += tally.liege_round
            exposed += tally.liege_exposed
            combat_first += bool(tally.first_draw)
            drew += tally.first_draw is not None
            lost += tally.lost or 0
            removed += tally.removed or 0
            for t in BY_TURNS:
                under[t] += tally.under.get(t, 0)
            if len(openings) < 5:
                openings.append(sorted(tally.placed[:EARLY_PLACEMENTS]))
            outcomes.add(
                outcome_label(state.winner_seat(), self.ended(state.end_reason())), own_turns
            )
        return ReignHandReport(
            games=n,
            faction=faction,
            liege_early=per_game(early, n),
            liege_round=per_game(rounds, n),
            liege_exposed=per_game(exposed, n),
            first_draw_combat=per_game(combat_first, drew),
            games_with_draw=drew,
            under_units={t: per_game(c, n) for t, c in under.items()},
            units_lost=per_game(lost, n),
            units_defeated=per_game(removed, n),
            wins=outcomes.wins,
            win_turn=outcomes.win_turn,
            opening_hands=openings,
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
        """Deal the faction deck for ``seed``; once ``kept``, place the units and play ``turns`` of
        the player's own turns with the goldfish line (there is no mulligan: ``mulligans`` is
        ignored). Before ``kept`` the units are listed in the order they come up for placement."""
        state, _ = _new_game(deck, seed, WALK_TURNS)
        own_turns, log_from = (0, 0) if not kept else _play(state, seed, turns)
        finished = state.is_terminal()
        outcome = (
            outcome_text(state.winner_seat(), own_turns, self.ended(state.end_reason()))
            if finished
            else ""
        )
        if not kept:
            held = [t[2] for t in state.tasks if t[0] == "place" and t[1] == 0]
            order = [state.table[u].name for u in [*held, *reversed(state.faction_decks[0])]]
            zones = [("Placement order", [f"{i}. {name}" for i, name in enumerate(order, 1)])]
        else:
            known = [sq for sq in state.units_of(1) if state.known[state.board[sq]] & 1]
            zones = [
                ("Your units", [_unit_line(state, sq) for sq in state.units_of(0)]),
                ("Rival units you have seen", [_unit_line(state, sq) for sq in known]),
                ("Your unit discard pile", [state.table[u].name for u in state.unit_discards[0]]),
                (
                    "Rival's unit discard pile",
                    [state.table[u].name for u in state.unit_discards[1]],
                ),
            ]
        return HandWalk(
            state=state,
            seed=seed,
            kept=kept,
            turns=own_turns,
            finished=finished,
            outcome=outcome,
            phase=state.tasks[0][0].replace("_", " ") if state.tasks else "",
            hand=[],
            zones=zones,
            counters=[
                ("Rival faction", state.factions[1].title()),
                ("Your units", str(units_left(state, 0))),
                ("Rival units", str(units_left(state, 1))),
                ("Reinforcement deck", str(len(state.deck))),
            ],
            log=self.log(turn_events(state.event_log(), log_from), state.table)
            if kept and turns
            else [],
            events=turn_events(state.event_log(), log_from) if kept and turns else [],
        )
