"""Connections come and go (issue 35): the AI plays for a player who is away on their move, and
optional chess-style clocks.

A table's settings, chosen when it is opened (``table_settings_parse``): ``takeover_after``, the
seconds a player may be away while it is their move before the table's AI plays for them
(None: never), and an optional Fischer clock: ``clock_seconds`` per player, ``clock_increment``
seconds added each time a player hands the move on.

Bookkeeping, all stored on the rows so that any server process can act:

* ``FriendTable.turn_seat`` / ``turn_started_at``: the person to decide and since when (set by
  ``turn_begin`` after every change, so chance's and the AI's moves are never on anyone's clock);
  ``deadline_at``: the earliest moment a takeover or a flag fall is due (``deadline_refresh``).
* ``FriendSeat.connections`` (open WebSockets: several tabs count each), ``seen_at`` (the last
  connect or ping) and ``left_at`` (when the last connection closed). A seat whose count says
  connected but that sent no ping for ``PRESENCE_STALE`` counts as away since its last ping (a
  server process that died never closed its connections).

Takeover: when it is a person's move, they are away, and ``takeover_after`` seconds have passed
since they left (or since the turn began, whichever is later), the seat is marked ``stand_in``
and the AI (at the level the table's AI chairs play, ``tables.services``) moves for it until they
reconnect, which gives them their chair back (``seat_presence``). While the AI stands in, the
seat's clock does not run.

Clocks: a seat is charged the time from the start of its decision to its move (``clock_charge``)
and gets the increment once the move passes to another seat (``turn_end``), so a turn of several
actions earns one increment. A flag fall (its time used up before it moved) ends a two-player
game: the flagged seat loses, ``winner`` the other engine seat, ``end_reason`` ``"time"``. At a
table of three seats or more the game goes on for the others: the flagged seat is played by the
AI for the rest of the game (``flagged``; reconnecting does not give it back).

Nothing here waits: ``tables.services.tables_deadlines_enforce(now)`` acts on every active table past its
deadline. The web calls it for a table whenever it is loaded (page, WebSocket connect, move) and
on the pings the table page sends every ``PING_SECONDS``; ``manage.py tables_tick`` calls it for
every table (from cron), so a game where nobody is connected still moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from rules.engines.core import State
from tables.errors import TableRefused
from tables.models import FriendSeat, FriendTable

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

#: what the table form offers for ``takeover_after`` (seconds; None: never)
TAKEOVER_CHOICES: tuple[tuple[int | None, str], ...] = (
    (None, "Never"),
    (60, "1 minute"),
    (120, "2 minutes"),
    (300, "5 minutes"),
)
TAKEOVER_MIN, TAKEOVER_MAX = 10, 3600
CLOCK_MINUTES_MAX = 180
INCREMENT_MAX = 60
#: how often the table page pings, and how long without a ping a connection counts as gone
PING_SECONDS = 10
PRESENCE_STALE = timedelta(seconds=45)
#: ``FriendTable.end_reason`` of a game lost on time
END_TIME = "time"
#: the notes kept per table (the latest)
NOTES_KEPT = 50


def clock_now() -> datetime:
    """The time the clocks read (tests replace it with a fixed clock)."""
    return timezone.now()


@dataclass(frozen=True)
class TableSettings:
    """How a table treats absence and time."""

    takeover_after: int | None = None
    clock_seconds: int | None = None
    clock_increment: int = 0


def _whole(text: object, what: str) -> int | None:
    """A form field as a whole number (None: left empty or "none"/"never")."""
    value = str(text if text is not None else "").strip()
    if value.lower() in {"", "none", "never"}:
        return None
    digits = value.removeprefix("-").removeprefix("+")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 9:
        raise TableRefused(f"{what} must be a whole number, not {value[:20]!r}.")
    number = int(value)
    if number < 0:
        raise TableRefused(f"{what} cannot be negative.")
    return number


def table_settings_parse(
    takeover_after: object, clock_minutes: object, clock_increment: object
) -> TableSettings:
    """The settings the table form posted (text); ``TableRefused`` says what is wrong with them.

    ``takeover_after`` is seconds (empty or "never": never, else from 10 s to an hour);
    ``clock_minutes`` minutes per player (empty or "none": no clock, else from 1 to 180);
    ``clock_increment`` seconds added after each move (0 to 60; only with a clock)."""
    takeover = _whole(takeover_after, "The time before the AI takes over")
    minutes = _whole(clock_minutes, "The clock's minutes per player")
    increment = _whole(clock_increment, "The clock's increment") or 0
    if takeover is not None and not TAKEOVER_MIN <= takeover <= TAKEOVER_MAX:
        raise TableRefused(
            f"The time before the AI takes over must be from {TAKEOVER_MIN} seconds to "
            f"{TAKEOVER_MAX // 60} minutes, or never."
        )
    if minutes is not None and not 1 <= minutes <= CLOCK_MINUTES_MAX:
        raise TableRefused(
            f"The clock's minutes per player must be from 1 to {CLOCK_MINUTES_MAX}, or no clock."
        )
    if increment > INCREMENT_MAX:
        raise TableRefused(f"The clock's increment must be from 0 to {INCREMENT_MAX} seconds.")
    if increment and minutes is None:
        raise TableRefused("An increment needs a clock: give the minutes per player too.")
    return TableSettings(
        takeover_after=takeover,
        clock_seconds=minutes * 60 if minutes is not None else None,
        clock_increment=increment,
    )


def _duration_words(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} seconds"
    words = f"{minutes} minute{'s' if minutes != 1 else ''}"
    return words + (f" {rest} seconds" if rest else "")


def table_settings_words(table: FriendTable) -> str:
    """The table's settings in words, for its page."""
    if table.takeover_after is None:
        away = "The AI never plays for a player who is away."
    else:
        away = (
            f"The AI plays for a player away for {_duration_words(table.takeover_after)} on "
            "their move, until they come back."
        )
    if table.clock_seconds is None:
        return away + " No clock."
    clock = f"Clocks: {_duration_words(table.clock_seconds)} each"
    if table.clock_increment:
        clock += f", plus {table.clock_increment} seconds after each move"
    return f"{away} {clock}."


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def _who(seat: FriendSeat) -> str:
    return seat.user.get_username() if seat.user is not None else seat.label


def _note(table: FriendTable, text: str) -> None:
    table.notes = [*list(table.notes or []), text][-NOTES_KEPT:]


def _person_deciding(table: FriendTable, seats: Sequence[FriendSeat]) -> FriendSeat | None:
    if table.turn_seat is None:
        return None
    return next((s for s in seats if s.engine_seat == table.turn_seat and not s.agent), None)


def _takeover_at(table: FriendTable, seat: FriendSeat) -> datetime | None:
    """When the AI takes over ``seat``, deciding since ``turn_started_at`` (None: never)."""
    if table.takeover_after is None or table.turn_started_at is None:
        return None
    after = timedelta(seconds=table.takeover_after)
    if seat.connections > 0:
        if seat.seen_at is None:
            return None
        # connected by the count: away only once it has sent no sign of life for a while
        return max(table.turn_started_at + after, seat.seen_at + PRESENCE_STALE + after)
    away = seat.left_at or table.turn_started_at
    return max(table.turn_started_at, away) + after


def deadline_refresh(table: FriendTable, seats: Sequence[FriendSeat]) -> None:
    """Set ``deadline_at``: the earliest takeover or flag fall due for the person deciding."""
    table.deadline_at = None
    seat = _person_deciding(table, seats)
    if table.status != FriendTable.Status.ACTIVE or seat is None or table.turn_started_at is None:
        return
    if seat.stand_in or seat.flagged:
        return
    due = [_takeover_at(table, seat)]
    if seat.clock_left_ms is not None:
        due.append(table.turn_started_at + timedelta(milliseconds=seat.clock_left_ms))
    table.deadline_at = min((at for at in due if at is not None), default=None)


def _seats_save(seats: Sequence[FriendSeat]) -> None:
    for seat in seats:
        seat.save(update_fields=["clock_left_ms", "stand_in", "flagged"])


def turn_begin(
    table: FriendTable, state: State, seats: Sequence[FriendSeat], now: datetime
) -> None:
    """After a change: the person to decide (if any) decides from ``now``; the next deadline.
    Stores the seats' clocks; the caller saves the table."""
    if table.status == FriendTable.Status.ACTIVE and not state.is_terminal():
        player = state.current_player()
        person = next((s for s in seats if s.engine_seat == player and not s.agent), None)
    else:
        person = None
    table.turn_seat = person.engine_seat if person is not None else None
    table.turn_started_at = now if person is not None else None
    deadline_refresh(table, seats)
    _seats_save(seats)


def clocks_start(table: FriendTable, seats: Sequence[FriendSeat]) -> None:
    """Wind every person's clock as the game starts (nothing when the table has none)."""
    for seat in seats:
        if table.clock_seconds is not None and not seat.agent:
            seat.clock_left_ms = table.clock_seconds * 1000


def clock_charge(table: FriendTable, seat: FriendSeat, now: datetime) -> None:
    """Charge ``seat`` for its decision so far, as it moves; refuses the move when its time ran
    out first (its flag fell: ``tables.services.tables_deadlines_enforce`` ends the game)."""
    if seat.clock_left_ms is None or table.turn_started_at is None:
        return
    left = seat.clock_left_ms - _ms(now - table.turn_started_at)
    if left <= 0:
        raise TableRefused("Your time ran out before this move: nothing was changed.")
    seat.clock_left_ms = left


def turn_end(
    table: FriendTable,
    state: State,
    seats: Sequence[FriendSeat],
    mover: FriendSeat,
    now: datetime,
) -> None:
    """After ``mover``'s move and the replies: the increment once the move passed to another
    seat (or the game ended), then the next decision begins."""
    handed_on = state.is_terminal() or state.current_player() != mover.engine_seat
    if mover.clock_left_ms is not None and table.clock_increment and handed_on:
        mover.clock_left_ms += table.clock_increment * 1000
    turn_begin(table, state, seats, now)


def _flag_fall(table: FriendTable, seat: FriendSeat, seats: Sequence[FriendSeat]) -> None:
    seat.clock_left_ms = 0
    who = _who(seat)
    rivals = [s for s in seats if s.engine_seat is not None and s.pk != seat.pk]
    if len(rivals) == 1:
        table.status = FriendTable.Status.FINISHED
        table.winner = rivals[0].engine_seat
        table.end_reason = END_TIME
        _note(table, f"{who}'s clock ran out: {_who(rivals[0])} wins on time.")
    else:
        seat.flagged = True
        _note(table, f"{who}'s clock ran out: the AI plays for {who} for the rest of the game.")


def deadline_act(
    table: FriendTable,
    seats: Sequence[FriendSeat],
    now: datetime,
    ai_can_play: Callable[[], bool],
) -> bool:
    """At ``table`` past its deadline: the flag fall or the AI's takeover due at ``now`` for the
    person deciding, noted on the table. True when it changed the game (the caller lets the AI
    and chance move, then begins the next decision); False when nothing was due after all, or
    no AI can play these decks (``ai_can_play``): nobody takes over then, the takeover is
    switched off and the clock, if any, still runs. The caller saves the table and the seats
    (``turn_begin`` does)."""
    seat = _person_deciding(table, seats)
    if seat is None or table.turn_started_at is None:
        deadline_refresh(table, seats)
        return False
    spent = _ms(now - table.turn_started_at)
    takeover = _takeover_at(table, seat)
    if seat.clock_left_ms is not None and seat.clock_left_ms - spent <= 0:
        _flag_fall(table, seat, seats)
    elif takeover is not None and takeover <= now:
        if not ai_can_play():
            table.takeover_after = None
            deadline_refresh(table, seats)
            return False
        if seat.clock_left_ms is not None:
            seat.clock_left_ms -= spent
        seat.stand_in = True
        who = _who(seat)
        _note(table, f"{who} left; the AI plays for {who} until {who} returns.")
    else:
        deadline_refresh(table, seats)
        return False
    return True


def seat_presence(table_pk: int, user: User, change: int, now: datetime | None = None) -> bool:
    """A connection of ``user``'s seat opened (``change`` 1), closed (-1) or pinged (0). Opening
    one gives a person the AI stood in for their chair back. True when the players are to be
    told (someone is back)."""
    now = now or clock_now()
    with transaction.atomic():
        table = FriendTable.objects.select_for_update().filter(pk=table_pk).first()
        if table is None:
            return False
        seats = list(table.seats.select_related("user"))
        seat = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
        if seat is None:
            return False
        back = False
        if change > 0:
            seat.connections += 1
            seat.seen_at = now
            seat.left_at = None
            if seat.stand_in and not seat.flagged:
                seat.stand_in = False
                back = True
                _note(table, f"{_who(seat)} is back and plays again.")
        elif change < 0:
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0:
                seat.left_at = now
        else:
            seat.seen_at = now
        seat.save(update_fields=["connections", "seen_at", "left_at", "stand_in"])
        deadline = table.deadline_at
        deadline_refresh(table, seats)
        if back or table.deadline_at != deadline:
            table.save(update_fields=["deadline_at", "notes"])
    return back


def table_clocks(table: FriendTable, now: datetime | None = None) -> list[dict[str, Any]]:
    """Each clocked seat's time left at ``now`` (engine seat order): ``engine_seat``,
    ``left_ms`` and ``running`` (it is that seat's decision, so the page counts it down)."""
    now = now or clock_now()
    shown = []
    seats = sorted(
        (s for s in table.seats.all() if s.engine_seat is not None and s.clock_left_ms is not None),
        key=lambda s: s.engine_seat or 0,
    )
    for seat in seats:
        running = (
            table.status == FriendTable.Status.ACTIVE
            and table.turn_seat == seat.engine_seat
            and table.turn_started_at is not None
            and not (seat.stand_in or seat.flagged)
        )
        left = int(seat.clock_left_ms or 0)
        if running and table.turn_started_at is not None:
            left = max(0, left - _ms(now - table.turn_started_at))
        shown.append({"engine_seat": seat.engine_seat, "left_ms": left, "running": running})
    return shown


def clock_words(left_ms: int) -> str:
    """Time left as a clock shows it: m:ss (h:mm:ss from an hour)."""
    seconds = max(0, left_ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
