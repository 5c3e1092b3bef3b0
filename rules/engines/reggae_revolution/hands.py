"""Test hands for Reggae Revolution: the opening hand, its one re-draw and single-player games.

A deck is one player's 12-card starting deck (zone ``starting``), optionally with a full table
setup (zones ``main``, ``lineup`` and ``villain``, see ``decks/validation/reggae_revolution.py``).
A goldfish game is the single-player game of rulebook §`Single Player Rules` (effects aimed at
other players reach the one player) played by the greedy team policy of ``policy.py``. Zones the
deck leaves out come from the engine's default box: the main deck, the villain deck and, always,
the oppression pile. A given lineup is dealt face up as listed and the rest of the main deck is
shuffled under it (§`Setup`).

§`Setup` lets a player reshuffle an unwanted starting hand and draw a new one, once (ruling 3 of
``docs/rules/reggae-revolution.md``); that re-draw is this game's mulligan, so a policy decides it
and a walk may take at most one. The report gives the re-draw rate, how often the kept hand shows
all four symbols, the cards left after the first §`Villain Phase`, the symbols raised on the first
two turns (§`Play`; they are the whole 12-card deck, so they show what the opening can buy),
the symbol-colour pairs scored by turns 5 and 10 (§`Yay`), and how the games end (§`Object`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from rules.engines.core import SetupError
from rules.engines.core.hands import (
    AgentFactory,
    BaseHandReport,
    HandsModel,
    HandWalk,
    OutcomeTally,
    never,
    per_game,
    percent,
    percent_with_interval,
    turn_events,
)
from rules.engines.core.intervals import wilson_interval
from rules.engines.reggae_revolution.cards import (
    CardSpec,
    card_specs,
    fixture_records,
)
from rules.engines.reggae_revolution.evaluation import PAIRS
from rules.engines.reggae_revolution.game import STARTERS_PER_SYMBOL, ReggaeRevolutionGame
from rules.engines.reggae_revolution.plugin import ReggaeRevolutionPlugin
from rules.engines.reggae_revolution.policy import greedy_action
from rules.engines.reggae_revolution.state import (
    END,
    KEEP,
    LIMIT_REASON,
    LINEUP_SIZE,
    LOSS_REASON,
    MAX_REDRAWS,
    REDRAW,
    WIN_REASON,
    ReggaeState,
)

MulliganPolicy = Callable[[Sequence[CardSpec], int], bool]

STARTING, MAIN, LINEUP, VILLAIN = "starting", "main", "lineup", "villain"
ZONE_TYPES: dict[str, tuple[str, ...]] = {
    STARTING: ("starter",),
    MAIN: ("main", "wild"),
    LINEUP: ("main", "wild"),
    VILLAIN: ("villain", "scheme"),
}
TURN_LIMIT = 200
PAIR_TURNS = (5, 10)
#: symbols raised thresholds: a wild card costs 4 symbols, so 4 on turn 1 (8 over turns 1-2)
#: means the opening can pay for the dearest cards of the box
TURN_1_TARGET = 4
TWO_TURN_TARGET = 8
OPENING_HANDS_KEPT = 5

#: how sampled games are counted, in the plugin's words for each end reason
OUTCOMES = {
    reason: f"{'won' if reason == WIN_REASON else 'lost'}: "
    + ReggaeRevolutionPlugin.words.end_reason(reason)
    for reason in (WIN_REASON, LOSS_REASON, LIMIT_REASON)
}


def _symbols(hand: Sequence[CardSpec]) -> set[str]:
    return {spec.symbol for spec in hand if spec.symbol}


def _fewer_than_three_symbols(hand: Sequence[CardSpec], redraws: int) -> bool:
    return len(_symbols(hand)) < 3


def _not_all_four_symbols(hand: Sequence[CardSpec], redraws: int) -> bool:
    return len(_symbols(hand)) < 4


@dataclass(frozen=True)
class Goldfish:
    """The engine game a deck is played in, and its lineup (None: dealt from the main deck)."""

    game: ReggaeRevolutionGame
    lineup: tuple[str, ...] | None


def _count_by_name(cards: Iterable[Mapping[str, Any]]) -> dict[str, tuple[Mapping[str, Any], int]]:
    counted: dict[str, tuple[Mapping[str, Any], int]] = {}
    for record in cards:
        name = str(record.get("name", "?"))
        first, count = counted.get(name, (record, 0))
        counted[name] = (first, count + 1)
    return counted


def _with_copies(counted: dict[str, tuple[Mapping[str, Any], int]]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in record.items() if k != "zone"} | {"copies_in_set": count}
        for record, count in counted.values()
    ]


@lru_cache(maxsize=1)
def _box() -> tuple[dict[str, Any], ...]:
    """Return the engine's default game box (read once: the fixture files do not change)."""
    return tuple(fixture_records())


def goldfish(deck: Sequence[Mapping[str, Any]]) -> Goldfish:
    """Return the game ``deck`` is played in; raise SetupError when the engine cannot play it."""
    zones: dict[str, list[Mapping[str, Any]]] = {zone: [] for zone in ZONE_TYPES}
    problems: list[str] = []
    for record in deck:
        zone = str(record.get("zone") or STARTING)
        if zone not in zones:
            problems.append(f"{record.get('name', '?')} sits in an unknown zone {zone!r}")
            continue
        if record.get("type") not in ZONE_TYPES[zone]:
            problems.append(f"{record.get('name', '?')} cannot be in the {zone} zone")
        zones[zone].append(record)
    starters = _count_by_name(zones[STARTING])
    size = len(zones[STARTING])
    wanted = STARTERS_PER_SYMBOL * 4
    counts = sorted(count for _, count in starters.values())
    if size != wanted or counts != [STARTERS_PER_SYMBOL] * 4:
        listed = ", ".join(f"{count} {name}" for name, (_, count) in sorted(starters.items()))
        problems.append(
            f"the starting deck must be {wanted} starters, {STARTERS_PER_SYMBOL} of each of the "
            f"four (Setup); this one has {size}: {listed or 'none'}"
        )
    lineup = zones[LINEUP]
    if lineup and len(lineup) != LINEUP_SIZE:
        problems.append(f"the lineup holds {LINEUP_SIZE} cards (Setup), not {len(lineup)}")
    if problems:
        raise SetupError("Reggae Revolution cannot play this deck: " + "; ".join(problems))
    box = _box()
    records = [
        {k: v for k, v in first.items() if k != "zone"} for first, _ in starters.values()
    ] + [r for r in box if r["type"] == "oppression"]
    if zones[MAIN] or lineup:
        records += _with_copies(_count_by_name([*zones[MAIN], *lineup]))
    else:
        records += [r for r in box if r["type"] in ("main", "wild")]
    if zones[VILLAIN]:
        records += _with_copies(_count_by_name(zones[VILLAIN]))
    else:
        records += [r for r in box if r["type"] in ("villain", "scheme")]
    try:
        card_specs(records)  # the card-data problems in their own words (not the game's wrapper)
        game = ReggaeRevolutionGame(records)
        game.new_initial_state(0, {"players": 1})  # the starter piles must deal a deck
    except ValueError as exc:  # CardDataError and SetupError included
        raise SetupError(f"Reggae Revolution cannot play this deck: {exc}") from exc
    keys = {spec.name: spec.key for spec in game.specs}
    return Goldfish(game, tuple(keys[str(r["name"])] for r in lineup) or None)


def deal(fish: Goldfish, seed: int) -> ReggaeState:
    """Deal the single-player game of ``seed`` up to the re-draw decision (§`Setup`)."""
    state = fish.game.new_initial_state(seed, {"players": 1, "turn_limit": TURN_LIMIT})
    if fish.lineup is not None:
        table = state.table
        pool = [c for c in state.lineup if c is not None] + state.main_deck
        chosen: list[int] = []
        for key in fish.lineup:
            chosen.append(next(c for c in pool if table[c].key == key and c not in chosen))
        taken = set(chosen)
        rest = [c for c in pool if c not in taken]
        state.rng.shuffle(rest)
        state.lineup = list(chosen)
        state.main_deck = rest
    return state


def redraw(state: ReggaeState) -> None:
    """Take the one re-draw and stop before the first Villain Phase, so the new hand shows.

    The engine runs the first §`Villain Phase` as soon as the last re-draw decision is answered;
    a second decision queued behind this one holds it there (it is only ever answered ``keep``).
    """
    state.tasks.insert(1, ("mulligan", 0))
    state.apply(REDRAW)


def hand_specs(state: ReggaeState) -> list[CardSpec]:
    """Return the single player's hand as card definitions."""
    return [state.table[c] for c in state.hand[0]]


def _names(state: ReggaeState, cards: Iterable[int | None]) -> list[str]:
    return [state.table[c].name for c in cards if c is not None]


@dataclass
class _Tally:
    """What one goldfish game showed, turn by turn."""

    after_first_villain: int = 0
    raised: dict[int, int] = field(default_factory=dict)
    pairs_by_turn: dict[int, int] = field(default_factory=dict)


def finish_villain_phase(state: ReggaeState) -> None:
    """Answer, by the greedy team policy, the choices a Villain Phase asks until Main opens."""
    while state.tasks and not state.is_terminal():
        state.apply_unchecked(greedy_action(state))


def play_turn(state: ReggaeState, tally: _Tally | None = None) -> None:
    """Play the current turn's main phase with the greedy team policy, through its Obtain."""
    turn = state.turn
    raised = 0
    prices = {spec.key: len(spec.cost) for spec in state.table}
    while not state.is_terminal() and state.turn == turn:
        action = greedy_action(state)
        if action.kind == "buy" and not state.tasks:
            raised += prices[str(action.args[0])]
        if action == END and not state.tasks:
            raised += sum(state.pool)
            if tally is not None:
                tally.pairs_by_turn[turn] = state.covered_pair_count()
        state.apply_unchecked(action)
    finish_villain_phase(state)
    if tally is not None:
        tally.raised[turn] = raised
        if state.is_terminal():
            tally.pairs_by_turn.setdefault(turn, state.covered_pair_count())


@dataclass(frozen=True, kw_only=True)
class HandReport(BaseHandReport):
    """What ``sample`` found over its games (satisfies ``rules.engines.core.hands.HandSummary``)."""

    redraw_rate: float
    all_four_symbols: float
    cards_after_first_villain: float
    raised_turn_1: float
    raised_turns_1_2: float
    turn_1_target_rate: float
    two_turn_target_rate: float
    pairs_by_turn: dict[int, float]

    def figures_in_dict(self) -> bool:
        """This game's figures go in ``as_dict`` too."""
        return True

    @property
    def won(self) -> int:
        """Return the number of games the player won."""
        return self.wins.get(OUTCOMES[WIN_REASON], 0)

    @property
    def figures(self) -> list[tuple[str, str]]:
        """Return the headline figures as (label, formatted value) rows, in display order."""
        rows = [
            ("Games", str(self.games)),
            ("Re-draws taken", percent(self.redraw_rate)),
            ("Kept hand shows all four symbols", percent(self.all_four_symbols)),
            (
                "Cards in hand after the first Villain Phase",
                f"{self.cards_after_first_villain:.2f}",
            ),
            ("Symbols raised on turn 1", f"{self.raised_turn_1:.2f}"),
            ("Symbols raised on turns 1-2", f"{self.raised_turns_1_2:.2f}"),
            (f"Turn 1 raises {TURN_1_TARGET}+ symbols", percent(self.turn_1_target_rate)),
            (f"Turns 1-2 raise {TWO_TURN_TARGET}+ symbols", percent(self.two_turn_target_rate)),
        ]
        for turn, pairs in self.pairs_by_turn.items():
            rows.append((f"Pairs scored by turn {turn}", f"{pairs:.1f} of {PAIRS}"))
        interval = wilson_interval(self.won, self.games)
        rows.append(("Won", percent_with_interval(per_game(self.won, self.games), interval)))
        for label in OUTCOMES.values():
            count = self.wins.get(label, 0)
            if count:
                verb, how = label.split(": ")
                rows.append(
                    (
                        f"{verb.title()} ({how}): mean turn",
                        f"{self.win_turn[label]:.1f} ({count} games)",
                    )
                )
        return rows


# --- the model --------------------------------------------------------------------------------
class ReggaeRevolutionHands(HandsModel):
    """Reggae Revolution's test hands: the §`Setup` re-draw as the mulligan (at most one), then
    the single-player game played by the greedy team policy."""

    mulligan_policies: ClassVar[Mapping[str, MulliganPolicy]] = {
        "never": never,
        "fewer-than-three-symbols": _fewer_than_three_symbols,
        "not-all-four-symbols": _not_all_four_symbols,
    }
    #: the greedy team policy's own re-draw rule
    default_policy: ClassVar[str] = "fewer-than-three-symbols"

    def deal_games(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        n: int,
        seed: int,
        policy: MulliganPolicy,
        make_agent: AgentFactory | None,
    ) -> HandReport:
        """Play ``n`` goldfish games of ``deck`` (seeds ``seed`` .. ``seed + n - 1``) and report.

        Raises SetupError (with every problem named) when the engine cannot play the deck.
        """
        fish = goldfish(deck)
        redraws = all_four = after_villain = 0
        raised_1 = raised_12 = target_1 = target_12 = 0
        pair_totals = dict.fromkeys(PAIR_TURNS, 0)
        outcomes = OutcomeTally()
        hands: list[list[str]] = []
        for index in range(n):
            state = deal(fish, seed + index)
            state.quiet()
            if policy(hand_specs(state), 0):
                redraws += 1
                redraw(state)
            kept = hand_specs(state)
            all_four += len(_symbols(kept)) == 4
            if len(hands) < OPENING_HANDS_KEPT:
                hands.append(sorted(spec.name for spec in kept))
            state.apply(KEEP)
            finish_villain_phase(state)
            after_villain += len(state.hand[0])
            tally = _Tally()
            while not state.is_terminal():
                play_turn(state, tally)
            first, second = tally.raised.get(1, 0), tally.raised.get(2, 0)
            raised_1 += first
            raised_12 += first + second
            target_1 += first >= TURN_1_TARGET
            target_12 += first + second >= TWO_TURN_TARGET
            for turn in PAIR_TURNS:
                reached = [t for t in tally.pairs_by_turn if t <= turn]
                pair_totals[turn] += tally.pairs_by_turn[max(reached)] if reached else 0
            outcomes.add(OUTCOMES[state.end_reason()], state.turn)
        return HandReport(
            games=n,
            redraw_rate=per_game(redraws, n),
            all_four_symbols=per_game(all_four, n),
            cards_after_first_villain=per_game(after_villain, n),
            raised_turn_1=per_game(raised_1, n),
            raised_turns_1_2=per_game(raised_12, n),
            turn_1_target_rate=per_game(target_1, n),
            two_turn_target_rate=per_game(target_12, n),
            pairs_by_turn={turn: per_game(total, n) for turn, total in pair_totals.items()},
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
        """Replay the goldfish game of ``seed``: ``mulligans`` re-draws (at most one), then ``turns``.

        ``turns`` greater than zero implies the hand was kept.
        """
        fish = goldfish(deck)
        mulligans = max(0, min(mulligans, MAX_REDRAWS))
        state = deal(fish, seed)
        if mulligans:
            redraw(state)
        kept = kept or turns > 0
        if not kept:
            return HandWalk(
                state=state,
                seed=seed,
                mulligans=mulligans,
                can_mulligan=mulligans < MAX_REDRAWS,
                phase="Opening hand: keep it, or re-draw once (Setup)",
                hand=sorted(spec.name for spec in hand_specs(state)),
                zones=_zones(state)[:1],
                counters=[("Draw pile", str(len(state.draw[0])))],
                log=self.log([e.as_dict() for e in state.events or []], state.table),
            )
        played = 0
        seen = len(state.events or [])
        state.apply(KEEP)
        finish_villain_phase(state)
        while played < turns and not state.is_terminal():
            seen = len(state.events or [])
            play_turn(state)
            played += 1
        return HandWalk(
            state=state,
            seed=seed,
            mulligans=mulligans,
            kept=True,
            turns=played,
            finished=state.is_terminal(),
            outcome=_outcome(state),
            phase="Game over" if state.is_terminal() else f"Turn {state.turn}: Main Phase",
            hand=sorted(spec.name for spec in hand_specs(state)),
            zones=_zones(state),
            counters=_counters(state),
            log=self.log(turn_events(state.events or [], seen), state.table),
            events=turn_events(state.events or [], seen) if played else [],
        )


def _outcome(state: ReggaeState) -> str:
    reason = state.end_reason()
    if reason == WIN_REASON:
        return f"You won on turn {state.turn}: all {PAIRS} symbol-colour pairs are scored."
    if reason == LOSS_REASON:
        return f"You lost on turn {state.turn}: the villains suppress all four symbols."
    if reason == LIMIT_REASON:
        return f"You lost: the game reached the turn limit ({state.turn_limit} turns)."
    return ""


def _zones(state: ReggaeState) -> list[tuple[str, list[str]]]:
    villains = []
    for villain in state.villains:
        spec = state.table[villain]
        villains.append(
            f"{spec.name} ({spec.colour}; suppresses {', '.join(spec.suppresses)}; "
            f"{len(state.gifts[villain])} of {spec.persuasion} gifts)"
        )
    return [
        ("Lineup", _names(state, state.lineup)),
        ("Villains in play", villains),
        ("Score area", _names(state, state.scored)),
        ("Discard pile", sorted(_names(state, state.discard[0]))),
    ]


def _counters(state: ReggaeState) -> list[tuple[str, str]]:
    suppressed = sorted(state.suppressed_symbols())
    return [
        ("Turn", str(state.turn)),
        ("Pairs scored", f"{state.covered_pair_count()} of {PAIRS}"),
        ("Suppressed", ", ".join(suppressed) or "none"),
        ("Draw pile", str(len(state.draw[0]))),
        ("Deck", str(len(state.owner_cards(0)))),
        ("Main deck", str(len(state.main_deck))),
        ("Villain deck", str(len(state.villain_deck))),
    ]


__all__ = [
    "Goldfish",
    "HandReport",
    "ReggaeRevolutionHands",
    "deal",
    "finish_villain_phase",
    "goldfish",
    "play_turn",
    "redraw",
]
