"""The one game API every Deckwright engine implements (after OpenSpiel's ``Game``/``State``).

A ``Game`` holds metadata and the card records it plays with; ``Game.new_initial_state(seed,
setup)`` starts a game. A ``State`` is mutable: ``apply(action)`` advances it, ``clone()`` copies it
cheaply. Players are numbered from 0; ``current_player()`` returns a player number, ``CHANCE`` when
the engine needs a random outcome chosen (see ``chance_outcomes``), or ``TERMINAL``.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Self

from mypy_extensions import mypyc_attr

from rules.engines.core.rng import Rng

CHANCE = -1
TERMINAL = -2


class Information(enum.Enum):
    """Whether every player sees the whole state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class IllegalActionError(ValueError):
    """An action that is not in ``legal_actions()`` of the state it was applied to."""


class SetupError(ValueError):
    """A setup mapping the engine cannot start a game from (unknown variant, bad deck ...).

    ``seat`` is the seat whose deck is at fault, where one is: the message then calls it
    "deck {seat}", and a page that knows the decks' names puts the name in its place
    (``rules.matchups.play_setup_check``)."""

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class Action(NamedTuple):
    """A small immutable, hashable, orderable move: a kind and plain arguments.

    Arguments are strings (card keys, cell names) or integers (indexes, coordinates, amounts);
    which ones depends on the kind, so an engine casts them where it unpacks a kind's arguments.
    ``str(action)`` reads like a move ("place Queen b2", "turn N"); ``Action.parse`` reverses it.
    """

    kind: str
    args: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(arg) for arg in self.args)])

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action back from its ``str()`` (integer-looking arguments become ints)."""
        kind, *args = text.split()
        return cls(
            kind,
            tuple(
                int(a) if a.lstrip("-").isascii() and a.lstrip("-").isdigit() else a for a in args
            ),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a game, for logs, replays and the UI."""

    kind: str
    player: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"kind": self.kind, "player": self.player, **dict(self.detail)}


@dataclass(frozen=True, slots=True)
class CardSightings:
    """One seat's cards in a finished game, by name: its whole ``deck``, the cards it ``drew``
    (held in hand, or in play from the start, at any time) and those it ``played``."""

    deck: frozenset[str]
    drew: frozenset[str]
    played: frozenset[str]


# Other code (a test game, a plug-in) may subclass the base classes although they are compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """One position of a game. Subclasses add their own ``__slots__`` and implement the hooks."""

    __slots__ = ("events", "game", "history", "recording", "rng")

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.rng = Rng(seed)
        self.history: list[tuple[int, Action]] = []
        self.events: list[Event] | None = []
        #: False once ``quiet()``: the history stays empty, and clones share it instead of copying
        self.recording = True

    # --- what every engine implements -------------------------------------------------------
    def current_player(self) -> int:
        """Return the player to act, ``CHANCE`` or ``TERMINAL``."""
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        """Return the legal actions of the player to act, in a stable order (empty if terminal)."""
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        """Advance the state by a legal action (``apply`` has already checked legality)."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Return each player's result: +1 win, -1 loss, 0 draw (all 0 while not terminal)."""
        raise NotImplementedError

    def clone(self) -> State:
        """Return an independent copy (subclasses copy their own slots, never via deepcopy)."""
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        """Return what ``player`` can see, as JSON-ready data, with hidden information removed."""
        raise NotImplementedError

    def zone_counts(self) -> dict[str, int]:
        """Return how many cards or tiles sit in each zone; the total never changes in a game."""
        raise NotImplementedError

    # --- hooks with defaults ----------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Return True when the game is over."""
        return self.current_player() == TERMINAL

    def winner(self) -> int | None:
        """Return the winning player, or None while playing or after a draw."""
        if not self.is_terminal():
            return None
        results = self.returns()
        best = max(results)
        leaders = [p for p, r in enumerate(results) if r == best]
        return leaders[0] if len(leaders) == 1 else None

    def end_reason(self) -> str:
        """Return a short stable code saying how the game ended ('' while playing)."""
        return "ended" if self.is_terminal() else ""

    def is_perfect_information(self) -> bool:
        """Return True when no player has hidden information in this game."""
        return self.game.information is Information.PERFECT

    def evaluate(self, player: int) -> float:
        """Return a heuristic value in [-1, 1] of this state for ``player`` (greedy agents use it)."""
        return self.returns()[player] if self.is_terminal() else 0.0

    def determinise(self, player: int, rng: Rng) -> State:
        """Return a full state consistent with ``observation(player)``, hidden parts resampled.

        Search agents for hidden-information games call this instead of reading the state; it
        must use only what ``player`` knows. Perfect-information engines return a clone.
        """
        if self.is_perfect_information():
            return self.clone()
        raise NotImplementedError(f"{type(self).__name__} must implement determinise()")

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Return (action, probability) pairs at a ``CHANCE`` node."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def sample_chance(self) -> Action:
        """Draw a chance outcome with the state's own RNG."""
        outcomes = self.chance_outcomes()
        roll = self.rng.random()
        for action, probability in outcomes:
            roll -= probability
            if roll < 0:
                return action
        return outcomes[-1][0]

    def key(self) -> Hashable:
        """Return a hashable summary of the position (search transposition tables use it)."""
        raise NotImplementedError(f"{type(self).__name__} has no position key")

    # --- optional search hooks (agents call them; the defaults change nothing) --------------
    #: True when ``rollout_action`` is the engine's own playout policy rather than uniform moves
    has_rollout_policy: ClassVar[bool] = False

    def search_actions(self) -> list[Action]:
        """Return the actions worth searching: the legal ones less those known to be dominated."""
        return self.legal_actions()

    def advice(self) -> Action | None:
        """Return the action a rule of thumb takes without search (a mulligan ...), or None."""
        return None

    def rollout_action(self, rng: Rng) -> Action:
        """Return a playout move (the engine's policy where ``has_rollout_policy``, else uniform)."""
        return rng.choice(self.legal_actions())

    def rollout_turns(self) -> int | None:
        """Return how many turn changes a search playout plays before scoring (None: to the end)."""
        return None

    def rollout_value(self, player: int) -> float:
        """Return the score of a playout cut short, for ``player`` (default ``evaluate``)."""
        return self.evaluate(player)

    def action_priors(self, player: int) -> list[float] | None:
        """Return one prior value per search action at the root, or None for none."""
        return None

    def lookahead_actions(self) -> list[Action] | None:
        """Return the actions among which a policy agent with a look-ahead (``team`` with
        ``lookahead``) lets a one-turn search choose at this decision, or None: the policy
        decides alone (the default everywhere)."""
        return None

    def pass_action(self) -> Action | None:
        """Return the action that ends the turn now, or None when there is no such action."""
        return None

    def search_value(self) -> float:
        """Return a terminal position's value for player 0 in alpha-beta (a margin may refine it)."""
        return self.returns()[0]

    def solved_action(self, reach: int = 0) -> Action | None:
        """Return an action of perfect play when the engine's own solver proves one within its own
        small budget (an endgame), else None; alpha-beta plays it instead of searching. ``reach``
        asks the solver to take on larger endgames than its default (that many steps further
        from the end, with a budget to match); engines read it as they see fit."""
        return None

    def canonical_key(self) -> Hashable | None:
        """Return the position key reduced by the board's symmetries, or None without any."""
        return None

    def order_actions(self, actions: list[Action]) -> list[Action]:
        """Return ``actions`` in the order alpha-beta should try them (best guesses first)."""
        return actions

    def turn_count(self) -> int | None:
        """Return how many turns a finished game lasted, or None when the engine does not count."""
        return None

    def first_player(self) -> int | None:
        """Return the seat that moved first, or None when the engine does not say."""
        return None

    def card_sightings(self) -> list[CardSightings] | None:
        """Per seat, the cards of its deck it drew and played this game (card performance);
        None when the engine does not tell, or the state records no events (``quiet()``)."""
        return None

    # --- provided ---------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Check ``action`` is legal, then advance the state and record it in ``history``."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not a legal action here")
        if self.recording:
            self.history.append((player, action))
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """Advance by an action known to come from ``legal_actions()`` (search hot loops)."""
        if self.recording:
            self.history.append((self.current_player(), action))
        self._apply(action)

    def _copy_base(self, other: State) -> None:
        """Copy the base slots into ``other`` (a blank instance a subclass's ``clone`` made)."""
        other.game = self.game
        other.rng = self.rng.clone()
        other.recording = self.recording
        other.history = self.history.copy() if self.recording else self.history
        other.events = self.events.copy() if self.events is not None else None

    def log(self, kind: str, player: int, **detail: Any) -> None:
        """Append an event to the log (unless logging was switched off with ``quiet()``)."""
        if self.events is not None:
            self.events.append(Event(kind, player, detail))

    def event_log(self) -> list[Event]:
        """The events recorded so far; a quiet state (``quiet()``) has none to give."""
        if self.events is None:
            raise RuntimeError("this state was made quiet: it records no events")
        return self.events

    def quiet(self) -> Self:
        """Stop recording events and history on this state and its clones (search hot loops)."""
        self.events = None
        self.history = []
        self.recording = False
        return self


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game's metadata and card records; a factory of initial states."""

    slug: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information: ClassVar[Information] = Information.PERFECT
    cooperative: ClassVar[bool] = False
    """True when all players win or lose together (returns are the same for every seat)."""
    player_names: ClassVar[tuple[str, ...]] = ()
    """What reports call each seat (empty: "player 0", "player 1" ...)."""

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        self.records: tuple[Mapping[str, Any], ...] = tuple(
            records if records is not None else self.builtin_records()
        )

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the engine's own copy of its card records (pure-Python use without a database)."""
        return ()

    def new_initial_state(self, seed: int = 0, setup: Mapping[str, Any] | None = None) -> State:
        """Start a game; ``setup`` holds decks, variant and options (engine-specific keys)."""
        raise NotImplementedError

    def example_setups(self) -> list[dict[str, Any]]:
        """Return setups the conformance suite plays (one per variant or sample deck)."""
        return [{}]

    def num_players(self, setup: Mapping[str, Any] | None = None) -> int:
        """Return how many players a game with this setup has."""
        return self.min_players

    def metadata(self) -> dict[str, Any]:
        """Return the game's metadata as plain data."""
        return {
            "slug": self.slug,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "information": self.information.value,
            "cooperative": self.cooperative,
        }

    def replay(
        self,
        seed: int,
        setup: Mapping[str, Any] | None,
        actions: Sequence[Action],
    ) -> State:
        """Rebuild a game from its seed, setup and the actions played (chance outcomes included)."""
        state = self.new_initial_state(seed, setup)
        for action in actions:
            state.apply(action)
        return state
