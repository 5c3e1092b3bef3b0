"""Toy Duel's engine: pure Python on the common ``Game``/``State`` API (no Django)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rules.engines.core import (
    CHANCE,
    TERMINAL,
    Action,
    CardSightings,
    Game,
    Information,
    SetupError,
    State,
)
from rules.engines.core.records import read_fixture_records

SLUG = "toy-duel"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TARGET = 15
HAND = 3
SETUP_KEYS = frozenset({"decks", "first_player"})


def fixture_records() -> list[dict[str, Any]]:
    """The game's cards, read from its own fixture folder."""
    return read_fixture_records(FIXTURES / SLUG)


def points_problem(record: Mapping[str, Any]) -> str:
    """Why the engine could not play a card ("" when it can): it scores 1 to 5 points."""
    points = record.get("attack")
    if not isinstance(points, int) or not 1 <= points <= 5:
        return f"a card scores 1 to 5 points, {record.get('name')!r} scores {points!r}"
    return ""


class ToyState(State):
    """Open hands (perfect information): seat to move, hands, piles and scores."""

    __slots__ = ("decided", "first", "hands", "piles", "scores", "sizes", "to_move", "turns")

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        return self.to_move if self.decided else CHANCE

    def is_over(self) -> bool:
        return max(self.scores) >= TARGET or not any(self.hands)

    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        if player == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        return [Action("play", (name,)) for name in sorted(set(self.hands[self.to_move]))]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(Action("first", (0,)), 0.5), (Action("first", (1,)), 0.5)]

    def _apply(self, action: Action) -> None:
        if action.kind == "first":
            self.to_move = self.first = int(action.args[0])
            self.decided = True
            self.log("first", self.to_move)
            return
        player, name = self.to_move, str(action.args[0])
        self.hands[player].remove(name)
        self.scores[player] += self.game.points[name]
        self.log("play", player, card=name, score=self.scores[player])
        if self.piles[player]:
            self.hands[player].append(self.piles[player].pop())
        self.turns += 1
        other = 1 - player
        self.to_move = other if self.hands[other] else player

    def returns(self) -> list[float]:
        if not self.is_over() or self.scores[0] == self.scores[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.scores[0] > self.scores[1] else [-1.0, 1.0]

    def end_reason(self) -> str:
        if not self.is_over():
            return ""
        return "target" if max(self.scores) >= TARGET else "cards-out"

    def evaluate(self, player: int) -> float:
        if self.is_over():
            return self.returns()[player]
        return (self.scores[player] - self.scores[1 - player]) / TARGET / 2

    def clone(self) -> ToyState:
        new = ToyState.__new__(ToyState)
        self._copy_base(new)
        new.decided, new.first, new.to_move = self.decided, self.first, self.to_move
        new.turns, new.sizes = self.turns, self.sizes
        new.hands = [list(hand) for hand in self.hands]
        new.piles = [list(pile) for pile in self.piles]
        new.scores = list(self.scores)
        return new

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "hands": [list(hand) for hand in self.hands],
            "piles": [len(pile) for pile in self.piles],
            "scores": list(self.scores),
            "to_move": self.to_move,
        }

    def zone_counts(self) -> dict[str, int]:
        played = sum(self.sizes) - sum(map(len, self.hands)) - sum(map(len, self.piles))
        return {
            "hands": sum(map(len, self.hands)),
            "piles": sum(map(len, self.piles)),
            "played": played,
        }

    def key(self) -> Hashable:
        return (
            self.to_move,
            tuple(tuple(sorted(h)) for h in self.hands),
            tuple(map(tuple, self.piles)),
            tuple(self.scores),
        )

    def turn_count(self) -> int | None:
        return self.turns

    def first_player(self) -> int | None:
        return self.first if self.decided else None

    def card_sightings(self) -> list[CardSightings] | None:
        """Per seat: the cards it played (events), drew (played or in hand) and its whole deck."""
        if self.events is None:
            return None
        played: list[set[str]] = [set(), set()]
        for event in self.events:
            if event.kind == "play":
                played[event.player].add(str(event.detail["card"]))
        result = []
        for player in (0, 1):
            drew = played[player] | set(self.hands[player])
            deck = drew | set(self.piles[player])
            result.append(
                CardSightings(frozenset(deck), frozenset(drew), frozenset(played[player]))
            )
        return result


class ToyGame(Game):
    """Two players, open hands, a race to 15 points."""

    slug: ClassVar[str] = SLUG
    name: ClassVar[str] = "Toy Duel"
    information: ClassVar[Information] = Information.PERFECT

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        problems = [p for p in map(points_problem, self.records) if p]
        if problems:
            raise ValueError("; ".join(problems))
        self.points = {str(r["name"]): int(r["attack"]) for r in self.records}

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        return fixture_records()

    def example_setups(self) -> list[dict[str, Any]]:
        sun = ["Dawn One"] * 4 + ["Noon Three"] * 4 + ["Blaze Five"] * 2
        moon = ["Dusk Two"] * 4 + ["Tide Four"] * 4 + ["Dawn One"] * 2
        return [{"decks": [sun, moon]}, {"decks": [moon, sun], "first_player": 1}]

    def new_initial_state(self, seed: int = 0, setup: Mapping[str, Any] | None = None) -> ToyState:
        setup = dict(setup or {})
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(unknown)}")
        decks = setup.get("decks") or self.example_setups()[0]["decks"]
        if len(decks) != 2:
            raise SetupError("Toy Duel is played by two decks")
        for deck in decks:
            missing = sorted(set(deck) - set(self.points))
            if missing:
                raise SetupError(f"not cards of Toy Duel: {', '.join(missing)}")
            if len(deck) < HAND:
                raise SetupError(f"a deck needs at least {HAND} cards, not {len(deck)}")
        state = ToyState(self, seed)
        piles = [list(deck) for deck in decks]
        for pile in piles:
            state.rng.shuffle(pile)
        state.hands = [[pile.pop() for _ in range(HAND)] for pile in piles]
        state.piles = piles
        state.scores = [0, 0]
        state.turns = 0
        state.sizes = (len(decks[0]), len(decks[1]))
        state.decided = "first_player" in setup
        state.to_move = state.first = int(setup.get("first_player", 0))
        if state.to_move not in (0, 1):
            raise SetupError("first_player must be 0 or 1")
        return state
