"""A game's events in plain words, grouped by turn: what replays and test hands show.

Engines record events as data (``Event.as_dict()``: a ``kind``, the ``player`` and details such as
card keys, squares or phase codes). Each game's plug-in names a ``Narrator`` subclass
(``GamePlugin.narrator``) that says every event of that game in the rulebook's words: cards by
name (as ``CardRef`` parts a page can link to the card's page), players by the seat names the
caller gives, positions and phases as the rulebook describes them. The shared ``narrate`` groups
the lines by turn, each group headed by the turn's number and who plays it, so a page never
shows an internal id or code and stays the same for every game.

Pure Python like every engine module: the page resolves each ``CardRef`` to a card page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from rules.engines.core.records import card_key

#: the event kind every engine logs when a player's turn begins (with its ``turn`` number)
TURN_START = "turn-start"


@dataclass(frozen=True)
class CardRef:
    """A card named in a line: its engine key (``card_key`` of its name) and its name in words."""

    key: str
    name: str

    def __str__(self) -> str:
        return self.name


Part = str | CardRef


@dataclass(frozen=True)
class Line:
    """One event in words: text and card parts, in reading order."""

    parts: tuple[Part, ...]
    player: int | None = None
    kind: str = ""  # the event's kind, for tests and styles (never shown)

    @property
    def text(self) -> str:
        """The line as plain text (cards by name)."""
        return "".join(str(part) for part in self.parts)

    @property
    def cards(self) -> list[CardRef]:
        """The cards the line names."""
        return [part for part in self.parts if isinstance(part, CardRef)]


@dataclass
class TurnGroup:
    """A turn's lines under its heading ("Turn 3: Seat 2 (Red deck)"); turn None is the setup."""

    heading: str
    turn: int | None = None
    player: int | None = None
    lines: list[Line] = field(default_factory=list)


#: third-person verbs whose second-person form is not the word less its "s"
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go", "was": "were"}


def second_person(verb: str) -> str:
    """A third-person present verb as "you" says it: ``plays`` -> ``play``, ``passes`` -> ``pass``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") else verb


def card_name_from_key(key: str) -> str:
    """A card key in words when nothing better is known (``warden-thornwood`` -> Warden Thornwood)."""
    return " ".join(word.capitalize() for word in str(key).split("-") if word)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``3 cards``, ``1 card``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


@mypyc_attr(allow_interpreted_subclasses=True)  # a new game's narrator plugs in from outside
class Narrator:
    """Says one game's events in words. Subclass per game with a ``describe_<kind>`` per event.

    ``seats`` names the players by engine seat ("Seat 1 (Red deck)", or "You" and "The rival");
    ``names`` maps card keys to card names where the caller knows them (card records), else a key
    is put in words. A subclass builds lines with ``say`` from text, ``card`` and ``who`` parts.
    """

    #: heading of the events before the first turn
    setup_heading = "Setup"
    #: the event field naming the card an event is about (``describe_<kind>``'s third argument)
    subject_key: ClassVar[str] = "card"
    #: kinds said in a game's words only when the event names its card (else the plain words)
    needs_subject: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        seats: Sequence[str],
        names: Mapping[str, str] | None = None,
        end_reasons: Mapping[str, str] | None = None,
    ) -> None:
        self.seats = list(seats)
        self.names = dict(names or {})
        self.end_reasons = dict(end_reasons or {})

    # --- parts ----------------------------------------------------------------------------------
    def who(self, player: Any) -> str:
        """The seat's name, as the subject of a sentence."""
        if isinstance(player, int) and 0 <= player < len(self.seats):
            return self.seats[player]
        if isinstance(player, int) and player >= 0:
            return f"Player {player + 1}"
        return "The table"

    def whom(self, player: Any) -> str:
        """The seat's name inside a sentence ("the rival", "you", "Seat 2")."""
        name = self.who(player)
        if name in ("You", "The table") or name.startswith("The "):
            return name[0].lower() + name[1:]
        return name

    def whose(self, player: Any) -> str:
        """The seat's possessive ("your", "Seat 2's")."""
        name = self.whom(player)
        return "your" if name == "you" else f"{name}'s"

    def does(self, player: Any, verb: str, *, inside: bool = False) -> str:
        """Subject and verb agreeing: ``Seat 1 plays`` or ``You play`` (``the rival plays``
        ``inside`` a sentence)."""
        name = self.whom(player) if inside else self.who(player)
        return f"{name} {self.verb(player, verb)}"

    def verb(self, player: Any, verb: str) -> str:
        """A third-person verb agreeing with the player: ``draws``, or ``draw`` for "You"."""
        return second_person(verb) if self.who(player) == "You" else verb

    def end_reason(self, code: Any) -> str:
        """How a game ended, in the game's words (the plug-in's), else the code with spaces."""
        text = str(code or "")
        return self.end_reasons.get(text, text.replace("-", " ").replace("_", " "))

    def card(self, key_or_name: Any) -> CardRef:
        """A card part from the key (or the name) an event gives."""
        text = str(key_or_name)
        key = card_key(text)
        name = self.names.get(key) or (
            text if text != key or " " in text else card_name_from_key(key)
        )
        return CardRef(key, name)

    def cards(self, keys: Sequence[Any]) -> list[Part]:
        """Several cards as parts joined with commas and "and"."""
        parts: list[Part] = []
        refs = [self.card(key) for key in keys]
        for index, ref in enumerate(refs):
            if index:
                parts.append(" and " if index == len(refs) - 1 else ", ")
            parts.append(ref)
        return parts

    @staticmethod
    def say(*parts: Part | Sequence[Part]) -> tuple[Part, ...]:
        """Parts of a line, flattening lists of parts."""
        out: list[Part] = []
        for part in parts:
            if isinstance(part, str | CardRef):
                out.append(part)
            else:
                out.extend(part)
        return tuple(out)

    # --- what a game overrides ------------------------------------------------------------------
    def turn_of(self, event: Mapping[str, Any]) -> int | None:
        """The turn number an event begins, or None when it begins none."""
        if event.get("kind") == TURN_START:
            return int(event.get("turn", 0))
        return None

    def heading(self, turn: int, player: Any) -> str:
        """A turn group's heading: its number and who plays it."""
        return f"Turn {turn}: {self.who(player)}"

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """The event in words, or None for one that says nothing a reader needs (bookkeeping).

        A game's narrator says each kind of event in a method ``describe_<kind>`` (the kind with
        ``-`` read as ``_``), called with the event, its player and the card it is about (the
        ``subject_key`` field as a ``CardRef``, or None): the class's methods are its dispatch
        table. A kind with no method, or one in ``needs_subject`` whose event names no card, gets
        the ``plain`` words."""
        kind = str(event.get("kind", ""))
        method = getattr(self, "describe_" + kind.replace("-", "_"), None)
        key = event.get(self.subject_key)
        subject = self.card(key) if key else None
        if method is None or (subject is None and kind in self.needs_subject):
            return self.plain(event)
        said: tuple[Part, ...] | None = method(event, event.get("player"), subject)
        return said

    def describe_game_over(
        self, event: Mapping[str, Any], player: Any, card: CardRef | None
    ) -> tuple[Part, ...] | None:
        """The end of a game that logs ``game_over`` with its winner and reason: who won and
        why (``end_reason``), or, without a winner (no seat, or -1), that it ended and why. A game
        whose end reads otherwise (a team's win or loss; a draw at the turn limit) says so in
        its own method."""
        reason = self.end_reason(event.get("reason"))
        if isinstance(player, int) and player >= 0:
            return (f"{self.does(player, 'wins')}: {reason}.",)
        return (f"The game ends: {reason}.",)

    def plain(self, event: Mapping[str, Any]) -> tuple[Part, ...]:
        """Only the event's kind in words and who it is of, never its details (which may be ids
        or codes): what an event no ``describe_<kind>`` method says gets."""
        kind = str(event.get("kind", "")).replace("_", " ").replace("-", " ")
        return (f"{self.who(event.get('player'))}: {kind}.",)

    # --- the log --------------------------------------------------------------------------------
    def narrate(self, events: Sequence[Mapping[str, Any]]) -> list[TurnGroup]:
        """Every event in words, grouped by turn (events before the first turn under "Setup")."""
        groups: list[TurnGroup] = []
        for event in events:
            turn = self.turn_of(event)
            if turn is not None:
                player = event.get("player")
                groups.append(TurnGroup(self.heading(turn, player), turn, player))
                continue
            parts = self.describe(event)
            if not parts:
                continue
            if not groups:
                groups.append(TurnGroup(self.setup_heading))
            player = event.get("player")
            seat = player if isinstance(player, int) else None
            groups[-1].lines.append(Line(parts, seat, str(event.get("kind", ""))))
        return groups

    def group_ends(self, events: Sequence[Mapping[str, Any]]) -> list[int]:
        """Per group ``narrate(events)`` makes, the index just past its last event (where the
        next group begins), so a replay can show the table as each group leaves it."""
        starts: list[int] = []
        for index, event in enumerate(events):
            if self.turn_of(event) is not None:
                starts.append(index)
            elif not starts and self.describe(event):
                starts.append(0)  # the setup group
        return [*starts[1:], len(events)]
