"""Toy Duel's test-hands model (``rules.engines.core.hands`` protocol): the goldfish plays its
best card each turn, racing an idle rival to 15 points; there is no mulligan."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engines.core import SetupError
from rules.engines.core.hands import (
    BaseHandReport,
    HandWalk,
    OutcomeTally,
    deck_counts,
    never,
    per_game,
    resolve_policy,
)
from tests.toygame.engine import HAND, TARGET, ToyGame

MULLIGAN_POLICIES: dict[str, Callable[..., bool]] = {"never": never}
DEFAULT_POLICY = "never"


@dataclass(frozen=True, kw_only=True)
class ToyReport(BaseHandReport):
    mean_turns: float

    @property
    def figures(self) -> list[tuple[str, str]]:
        return [("Turns to 15 points", f"{self.mean_turns:.1f}")]


def _pile(deck: Sequence[Mapping[str, Any]]) -> tuple[ToyGame, list[str]]:
    names = [str(record["name"]) for record in deck]
    if len(names) < HAND:
        raise SetupError(f"a deck needs at least {HAND} cards, not {len(names)}")
    records = {str(r["name"]): {k: v for k, v in r.items() if k != "zone"} for r in deck}
    try:
        return ToyGame(list(records.values())), names
    except ValueError as error:
        raise SetupError(str(error)) from error


def _play(game: ToyGame, names: list[str], seed: int, turns: int) -> tuple[list[str], int, int]:
    """Deal from ``seed`` and play up to ``turns`` turns: the hand, the score, turns played."""
    state = game.new_initial_state(seed, {"decks": [names, names], "first_player": 0})
    hand, pile, score, played = state.hands[0], state.piles[0], 0, 0
    while played < turns and hand and score < TARGET:
        best = max(hand, key=lambda name: game.points[name])
        hand.remove(best)
        score += game.points[best]
        if pile:
            hand.append(pile.pop())
        played += 1
    return sorted(hand), score, played


def sample(
    deck: Sequence[Mapping[str, Any]], n: int = 100, seed: int = 0, mulligan_policy: Any = None
) -> ToyReport:
    resolve_policy(MULLIGAN_POLICIES, mulligan_policy or DEFAULT_POLICY)
    game, names = _pile(deck)
    tally = OutcomeTally()
    total = 0
    openings = []
    for index in range(n):
        openings.append(_play(game, names, seed + index, 0)[0])
        _hand, score, played = _play(game, names, seed + index, len(names))
        tally.add("won: target" if score >= TARGET else "lost: cards-out", played)
        total += played
    return ToyReport(
        games=n,
        wins=tally.wins,
        win_turn=tally.win_turn,
        opening_hands=openings[:5],
        mean_turns=per_game(total, n),
    )


def walk(
    deck: Sequence[Mapping[str, Any]],
    *,
    seed: int,
    mulligans: int = 0,
    kept: bool = False,
    turns: int = 0,
) -> HandWalk:
    try:
        game, names = _pile(deck)
    except SetupError as error:
        return HandWalk(seed=seed, error=str(error))
    hand, score, played = _play(game, names, seed, turns if kept else 0)
    finished = score >= TARGET or not hand
    return HandWalk(
        seed=seed,
        kept=kept,
        turns=played,
        finished=finished,
        outcome=f"You reached {score} points on turn {played}." if finished else "",
        hand=hand,
        counters=[("Points", str(score)), ("Cards", str(len(deck_counts(deck))))],
        log=[f"turn {played}: {score} points"] if played else [],
    )
