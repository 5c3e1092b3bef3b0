"""The shapes every game's test-hands model answers with (``rules/engines/<game>/hands.py``).

A game's hands module deals seeded solo games of one deck ("goldfish" games against an idle or
absent rival) and exposes:

- ``MULLIGAN_POLICIES``: policy name -> callable; ``{"never": ...}`` where the game has no
  mulligan; ``DEFAULT_POLICY`` names one of them;
- ``sample(deck, n, seed, mulligan_policy) -> report`` over ``n`` games, where ``deck`` is one
  ``Card.record()`` dict per physical copy, each with a ``"zone"`` key ("" where the game has
  none), and the report satisfies ``HandSummary``;
- ``walk(deck, *, seed, mulligans, kept, turns) -> HandWalk``: one game, replayed from those few
  choices, so a page can step through it statelessly.

Both are pure functions of their arguments: the same seed gives the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class HandSummary(Protocol):
    """What a hands model's ``sample`` reports over its games."""

    games: int
    wins: dict[str, int]  # outcome label ("won: life", "lost: deck-out", "drawn" ...) -> games
    win_turn: dict[str, float]  # outcome label -> mean turn it happened on
    opening_hands: list[list[str]]  # a few of the opening hands kept, card names sorted

    @property
    def figures(self) -> list[tuple[str, str]]:
        """The game's headline figures as (label, formatted value) rows, in display order."""
        ...

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        ...


@dataclass
class HandWalk:
    """Where one goldfish game stands after the choices made so far."""

    seed: int
    mulligans: int = 0
    kept: bool = False
    turns: int = 0  # own turns played so far
    can_mulligan: bool = False
    finished: bool = False
    outcome: str = ""  # in words, once finished ("You won on turn 7: life.")
    phase: str = ""
    hand: list[str] = field(default_factory=list)
    # Named piles the page shows besides the hand: ("Pillars", [...]), ("Board", [...]) ...
    zones: list[tuple[str, list[str]]] = field(default_factory=list)
    # Named numbers: ("LP", "40"), ("IP", "3"), ("Draw pile", "45") ...
    counters: list[tuple[str, str]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # the last turn's events, in words
    error: str = ""  # why the deck cannot be played (a SetupError's message)
