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

A model that plays agents (the game's ``GamePlugin.hands_use_agents``) takes one more keyword,
``make_agent`` (an ``AgentFactory``): agents sit above the engines, so they are passed in, never
imported here.

Both are pure functions of their arguments: the same seed gives the same answer.

The pieces every model shares live here too: the "never" policy and the lookup of a policy by
name, the report base (``BaseHandReport``) with its ``as_dict``, the tally of how games ended
(``OutcomeTally``), outcome words, percentages, and the built-in card box an engine is made of
(``CardBox``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from rules.engines.core.api import Event, SetupError
from rules.engines.core.narration import TURN_START

PolicyT = TypeVar("PolicyT", bound=Callable[..., bool])
GameT = TypeVar("GameT")


class AgentLike(Protocol):
    """What a hands model needs of an agent: the action it plays in a state."""

    def act(self, state: Any) -> Any:
        """Return the action to play."""
        ...


#: ``make_agent(name, seed)``: an agent by name ("greedy", "random" ...), seeded
AgentFactory = Callable[[str, int], AgentLike]


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
    # the same events as data (``Event.as_dict()``), from the start of the player's last turn,
    # for the game's narrator (``GamePlugin.narrate``: in words, grouped by turn)
    events: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""  # why the deck cannot be played (a SetupError's message)
    seat: int = 0  # the engine seat the player sits in (the log's "You")
    # the engine state the walk stopped at, for the table view (None when the deal failed)
    state: Any = field(default=None, compare=False, repr=False)


# --- mulligan policies ------------------------------------------------------------------------
def never(hand: Sequence[Any], mulligans: int) -> bool:
    """The policy that keeps every hand (the only one of a game without a mulligan)."""
    return False


def resolve_policy(policies: Mapping[str, PolicyT], policy: str | PolicyT) -> PolicyT:
    """Return the policy named ``policy`` (a callable is returned as it is).

    Raises ``ValueError`` naming the known policies for a name the game does not have.
    """
    if not isinstance(policy, str):
        return policy
    if policy not in policies:
        known = ", ".join(policies)
        raise ValueError(f"unknown mulligan policy {policy!r} (known: {known})")
    return policies[policy]


# --- reports ----------------------------------------------------------------------------------
def per_game(total: float, games: int) -> float:
    """The mean of ``total`` over ``games`` games (0.0 over none)."""
    return total / games if games else 0.0


def percent(rate: float) -> str:
    """A rate as a percentage with one decimal: ``0.4567`` -> ``"45.7%"``."""
    return f"{100 * rate:.1f}%"


def percent_with_interval(rate: float, interval: tuple[float, float]) -> str:
    """A rate and its 95% interval as percentages: ``"45.7% (95%: 38.1%-53.2%)"``."""
    low, high = interval
    return f"{percent(rate)} (95%: {percent(low)}-{percent(high)})"


def _json_ready(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _json_ready(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_ready(item) for item in value]
    return value


@mypyc_attr(allow_interpreted_subclasses=True)  # a test game reports from outside
@dataclass(frozen=True, kw_only=True)
class BaseHandReport:
    """The base of a game's report: the fields of ``HandSummary``, and ``as_dict``.

    A game's report is a frozen dataclass deriving from this one that adds its own figures as
    fields and a ``figures`` property; ``FIGURES_IN_DICT`` puts those rows in ``as_dict`` too.
    """

    FIGURES_IN_DICT: ClassVar[bool] = False
    _ENDINGS: ClassVar[tuple[str, ...]] = ("wins", "win_turn", "opening_hands")

    games: int
    wins: dict[str, int]  # outcome label -> games
    win_turn: dict[str, float]  # outcome label -> mean turn it happened on
    opening_hands: list[list[str]] = field(default_factory=list)

    @property
    def figures(self) -> list[tuple[str, str]]:
        """The game's headline figures as (label, formatted value) rows, in display order."""
        return []

    def as_dict(self) -> dict[str, Any]:
        """Return the report as JSON-ready data: the games, the game's own fields in the order
        they are declared, how the games ended, the openings (and the figures, when asked)."""
        own = [f.name for f in fields(self) if f.name != "games" and f.name not in self._ENDINGS]
        data = {name: _json_ready(getattr(self, name)) for name in ["games", *own, *self._ENDINGS]}
        if self.FIGURES_IN_DICT:
            data["figures"] = [list(row) for row in self.figures]
        return data


class OutcomeTally:
    """How sampled games ended: games per outcome label and, where a turn is given, its mean."""

    def __init__(self) -> None:
        self.wins: dict[str, int] = {}
        self._turns: dict[str, int] = {}

    def add(self, label: str, turn: int | None = None) -> None:
        """Count one game that ended as ``label``, on ``turn`` when the mean turn is wanted."""
        self.wins[label] = self.wins.get(label, 0) + 1
        if turn is not None:
            self._turns[label] = self._turns.get(label, 0) + turn

    @property
    def win_turn(self) -> dict[str, float]:
        """Outcome label -> the mean turn of the games that ended so (labels given a turn)."""
        return {label: total / self.wins[label] for label, total in self._turns.items()}


def outcome_label(winner: int | None, reason: str) -> str:
    """A two-player game's outcome for seat 0, as ``sample`` counts it: ``"won: life"`` ..."""
    if winner == 0:
        return f"won: {reason}"
    return f"drawn: {reason}" if winner is None else f"lost: {reason}"


def outcome_text(winner: int | None, turn: int, reason: str) -> str:
    """A finished two-player game in words for seat 0: ``"You won on turn 7: life."``."""
    result = "won" if winner == 0 else "drew" if winner is None else "lost"
    return f"You {result} on turn {turn}: {reason}."


def turn_events(
    events: Sequence[Event], start: int, kinds: Sequence[str] = (TURN_START,)
) -> list[dict[str, Any]]:
    """The events from the beginning of the turn under way at index ``start`` on, as data: a
    walk's log then starts with its turn's heading, whatever it counted from."""
    begin = start
    for index in range(min(start, len(events) - 1), -1, -1):
        if events[index].kind in kinds:
            begin = index
            break
    return [event.as_dict() for event in events[begin:]]


#: what a walk's log calls the seats: you in seat 0, the goldfish rival (or partners) after
WALK_SEATS = ("You", "The rival", "Player 3", "Player 4")
TEAM_SEATS = ("You", "Player 2", "Player 3", "Player 4")


def walk_seats(cooperative: bool, seat: int = 0) -> list[str]:
    """What a walk's log calls each engine seat, the player sitting in ``seat``."""
    names = list(TEAM_SEATS if cooperative else WALK_SEATS)
    if seat:
        names[0], names[seat] = names[seat], names[0]
    return names


def log_lines(
    plugin: Any, events: Sequence[Mapping[str, Any]], specs: Iterable[Any] = (), seat: int = 0
) -> list[str]:
    """A walk's events as the game's narrator says them (``GamePlugin.narrate``), one string a
    line, cards named from ``specs`` (anything with ``key`` and ``name``), the player in
    ``seat`` called "You"."""
    seats = walk_seats(plugin.cooperative, seat)
    names = {spec.key: spec.name for spec in specs}
    return [line.text for group in plugin.narrate(events, seats, names) for line in group.lines]


def card_namer(specs: Iterable[Any]) -> Callable[[Any], str]:
    """Return a function from a card key (as the events give it) to the card's name."""
    names = {spec.key: spec.name for spec in specs}

    def name(key: Any) -> str:
        return names.get(str(key), str(key))

    return name


# --- decks ------------------------------------------------------------------------------------
def deck_counts(deck: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Return ``{card name: copies}`` from one record per physical card."""
    counts: dict[str, int] = {}
    for record in deck:
        name = str(record["name"])
        counts[name] = counts.get(name, 0) + 1
    return counts


class CardBox(Generic[GameT]):
    """A game's built-in card records by name and the engine made of them, both made once.

    ``make`` builds an engine from a list of card records (raising ``ValueError`` for bad data).
    """

    def __init__(
        self,
        records: Callable[[], Iterable[Mapping[str, Any]]],
        make: Callable[[list[dict[str, Any]]], GameT],
    ) -> None:
        self._records = records
        self._make = make

    @functools.cached_property
    def records(self) -> dict[str, dict[str, Any]]:
        """The built-in card records by name."""
        return {str(r["name"]): dict(r) for r in self._records()}

    @functools.cached_property
    def game(self) -> GameT:
        """The engine playing the built-in records."""
        return self._make(list(self.records.values()))

    def deck(self, counts: Mapping[str, int]) -> list[dict[str, Any]]:
        """One built-in record per card (zone "") of a deck given as ``{name: copies}``."""
        return [
            {**self.records[name], "zone": ""}
            for name, count in counts.items()
            for _ in range(count)
        ]

    def game_for(self, deck: Sequence[Mapping[str, Any]]) -> GameT:
        """The engine playing the deck's own card records (the built-in ones supply the rest).

        Raises ``SetupError`` when the deck's records make no engine.
        """
        builtin = self.records
        own = {str(r["name"]): {k: v for k, v in r.items() if k != "zone"} for r in deck}
        if all(builtin.get(name) == record for name, record in own.items()):
            return self.game
        try:
            return self._make(list({**builtin, **own}.values()))
        except ValueError as error:
            raise SetupError(str(error)) from error
