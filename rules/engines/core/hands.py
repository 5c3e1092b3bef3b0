"""The test-hands model every game's ``rules/engines/<game>/hands.py`` subclasses, and its shapes.

A game's model deals seeded solo games of one deck ("goldfish" games against an idle or absent
rival). It is a ``HandsModel`` subclass, named by the game's plugin (``GamePlugin.hands_model``,
``"package.module:Class"``) and made by ``GamePlugin.hands()``. The base class holds what every
game shares:

- ``mulligan_policies`` (policy name -> callable; ``{"never": ...}`` where the game has no
  mulligan) and ``default_policy``, with ``policies()`` (the default first) and ``policy(name)``;
- ``sample(deck, n, seed, mulligan_policy) -> report`` over ``n`` games, where ``deck`` is one
  ``Card.record()`` dict per physical copy, each with a ``"zone"`` key ("" where the game has
  none), and the report satisfies ``HandSummary``: the policy is checked before any game, then
  the game's ``deal_games`` plays them;
- ``walk(deck, *, seed, mulligans, kept, turns) -> HandWalk``: one game, replayed from those few
  choices, so a page can step through it statelessly: the game's ``replay`` plays it, and a deck
  the engine refuses (``SetupError``) gives a walk whose ``error`` says why;
- the words a walk's log and outcome are said in: the plugin's narrator (``log``) and end
  reasons (``ended``).

A subclass holds only what differs: its policies, ``deal_games`` and ``replay``. A model that
plays agents (``uses_agents``) gets ``make_agent`` (an ``AgentFactory``): agents sit above the
engines, so they are passed in, never imported here.

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
from rules.engines.core.narration import TURN_START, TurnGroup

PolicyT = TypeVar("PolicyT", bound=Callable[..., bool])
GameT = TypeVar("GameT")


class AgentLike(Protocol):
    """What a hands model needs of an agent: the action it plays in a state."""

    def act(self, state: Any) -> Any:
        """Return the action to play."""
        ...


#: ``make_agent(name, seed)``: an agent by name ("greedy", "random" ...), seeded
AgentFactory = Callable[[str, int], AgentLike]


class EndWords(Protocol):
    """What a hands model needs of a game's page words: an end-reason code in words."""

    def end_reason(self, code: str) -> str:
        """An end-reason code in words."""
        ...


class HandsPlugin(Protocol):
    """What a hands model needs of its game's plugin (``GamePlugin`` answers it): whether the
    seats play together, the game's page words and its narrator."""

    @property
    def cooperative(self) -> bool:
        """All seats win or lose together."""
        ...

    @property
    def words(self) -> EndWords:
        """The game's page words."""
        ...

    def narrate(
        self,
        events: Sequence[Mapping[str, Any]],
        seats: Sequence[str],
        names: Mapping[str, str] | None = None,
    ) -> list[TurnGroup]:
        """Events (``Event.as_dict()`` records) in words, grouped by turn."""
        ...


class HandSummary(Protocol):
    """What a hands model's ``sample`` reports over its games."""

    @property
    def games(self) -> int:
        """How many games were played."""
        ...

    @property
    def wins(self) -> dict[str, int]:
        """Outcome label ("won: life", "lost: deck-out", "drawn" ...) -> games."""
        ...

    @property
    def win_turn(self) -> dict[str, float]:
        """Outcome label -> the mean turn it happened on."""
        ...

    @property
    def opening_hands(self) -> list[list[str]]:
        """A few of the opening hands kept, card names sorted."""
        ...

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


#: the fields that close a report's ``as_dict``, after the game's own
_ENDINGS = ("wins", "win_turn", "opening_hands")


@mypyc_attr(allow_interpreted_subclasses=True)  # a test game reports from outside
@dataclass(frozen=True, kw_only=True)
class BaseHandReport:
    """The base of a game's report: the fields of ``HandSummary``, and ``as_dict``.

    A game's report is a frozen dataclass deriving from this one that adds its own figures as
    fields and a ``figures`` property; ``figures_in_dict`` puts those rows in ``as_dict`` too.
    (No ``ClassVar`` here: compiled, dataclasses would take it for a field.)
    """

    games: int
    wins: dict[str, int]  # outcome label -> games
    win_turn: dict[str, float]  # outcome label -> mean turn it happened on
    opening_hands: list[list[str]] = field(default_factory=list)

    @property
    def figures(self) -> list[tuple[str, str]]:
        """The game's headline figures as (label, formatted value) rows, in display order."""
        return []

    def figures_in_dict(self) -> bool:
        """Whether ``as_dict`` carries the ``figures`` rows too (a game's report may say so)."""
        return False

    def as_dict(self) -> dict[str, Any]:
        """Return the report as JSON-ready data: the games, the game's own fields in the order
        they are declared, how the games ended, the openings (and the figures, when asked)."""
        own = [f.name for f in fields(self) if f.name != "games" and f.name not in _ENDINGS]
        data = {name: _json_ready(getattr(self, name)) for name in ["games", *own, *_ENDINGS]}
        if self.figures_in_dict():
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
    plugin: HandsPlugin,
    events: Sequence[Mapping[str, Any]],
    specs: Iterable[Any] = (),
    seat: int = 0,
) -> list[str]:
    """A walk's events as the game's narrator says them (``GamePlugin.narrate``), one string a
    line, cards named from ``specs`` (anything with ``key`` and ``name``), the player in
    ``seat`` called "You"."""
    seats = walk_seats(plugin.cooperative, seat)
    names = {spec.key: spec.name for spec in specs}
    return [line.text for group in plugin.narrate(events, seats, names) for line in group.lines]


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


# --- the model --------------------------------------------------------------------------------
#: a mulligan policy: ``policy(hand, mulligans taken so far)`` -> whether to send the hand back
MulliganPolicy = Callable[..., bool]


@mypyc_attr(allow_interpreted_subclasses=True)  # a test game's model is interpreted
class HandsModel:
    """A game's test-hands model: subclass it once in ``rules/engines/<game>/hands.py`` and name
    the subclass in the plugin's ``hands_model``; ``GamePlugin.hands()`` makes one.

    The subclass sets ``mulligan_policies`` and ``default_policy`` (a game without a mulligan
    keeps the "never" policy given here) and writes ``deal_games`` and ``replay``; ``sample`` and
    ``walk`` are the same for every game.
    """

    #: policy name -> ``MulliganPolicy``; ``default_policy`` names one of them
    mulligan_policies: ClassVar[Mapping[str, MulliganPolicy]] = {"never": never}
    default_policy: ClassVar[str] = "never"
    #: the model plays agents: ``sample`` and ``walk`` need ``make_agent``
    uses_agents: ClassVar[bool] = False

    def __init__(self, plugin: HandsPlugin) -> None:
        self.plugin = plugin

    # --- what every game shares ---------------------------------------------------------------
    def policies(self) -> list[str]:
        """The mulligan policies by name, the default first (only "never" without mulligans)."""
        default = self.default_policy
        return [default, *(name for name in self.mulligan_policies if name != default)]

    def policy(self, policy: str | MulliganPolicy | None = None) -> MulliganPolicy:
        """The policy named ``policy`` (None: the default; a callable is returned as it is).

        Raises ``ValueError`` naming the known policies for a name the game does not have.
        """
        return resolve_policy(
            self.mulligan_policies, self.default_policy if policy is None else policy
        )

    def sample(
        self,
        deck: Sequence[Mapping[str, Any]],
        n: int = 100,
        seed: int = 0,
        mulligan_policy: str | MulliganPolicy | None = None,
        *,
        make_agent: AgentFactory | None = None,
    ) -> HandSummary:
        """Deal ``n`` seeded goldfish games of ``deck`` (seeds ``seed`` .. ``seed + n - 1``) and
        report. ``mulligan_policy`` is a policy name (or a callable); None means the default.

        Raises ``ValueError`` for an unknown policy name (before any game is played) and
        ``SetupError`` for a deck the engine refuses.
        """
        policy = self.policy(mulligan_policy)
        return self.deal_games(deck, n=n, seed=seed, policy=policy, make_agent=make_agent)

    def walk(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        seed: int,
        mulligans: int = 0,
        kept: bool = False,
        turns: int = 0,
        make_agent: AgentFactory | None = None,
    ) -> HandWalk:
        """Replay the goldfish game of ``seed``: the opening, ``mulligans`` taken, kept when
        ``kept``, then ``turns`` of the player's own turns. A deck the engine cannot play gives a
        finished walk whose ``error`` says why."""
        try:
            return self.replay(
                deck, seed=seed, mulligans=mulligans, kept=kept, turns=turns, make_agent=make_agent
            )
        except SetupError as error:
            return HandWalk(seed=seed, finished=True, error=str(error))

    def log(
        self, events: Sequence[Mapping[str, Any]], specs: Iterable[Any] = (), seat: int = 0
    ) -> list[str]:
        """A walk's events (``Event.as_dict()`` records) as the game's narrator says them
        (``log_lines``), the player in ``seat`` called "You"."""
        return log_lines(self.plugin, events, specs, seat)

    def ended(self, code: str) -> str:
        """An end-reason code in the plugin's words (what the test-hands page shows)."""
        return self.plugin.words.end_reason(code)

    def agents(self, make_agent: AgentFactory | None) -> AgentFactory:
        """``make_agent``, which a model that plays agents cannot do without."""
        if make_agent is None:
            raise ValueError(f"{type(self).__name__} plays agents: pass make_agent")
        return make_agent

    # --- what a game writes -------------------------------------------------------------------
    def deal_games(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        n: int,
        seed: int,
        policy: MulliganPolicy,
        make_agent: AgentFactory | None,
    ) -> HandSummary:
        """Play ``n`` goldfish games of ``deck`` with the mulligan ``policy`` and report;
        ``SetupError`` for a deck the engine cannot play."""
        raise NotImplementedError

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
        """The walk of ``walk`` (``SetupError`` for a deck the engine cannot play)."""
        raise NotImplementedError
