"""Reads of friend tables: a player's tables, a table with its chairs, the seat of a user, and
the words naming seats, whose move it is and how the table stands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.engines.core import CHANCE, State, find_plugin
from tables.models import FriendSeat, FriendTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def friend_tables_of(user: User) -> Sequence[FriendTable]:
    """The tables ``user`` sits at (opened or joined), latest move first."""
    return list(
        FriendTable.objects.filter(seats__user_id=user.pk)
        .select_related("game")
        .prefetch_related("seats__user")
        .distinct()[:50]
    )


def friend_table_get(pk: int) -> FriendTable | None:
    """The table ``pk`` with its game and chairs, or None."""
    return (
        FriendTable.objects.select_related("game")
        .prefetch_related("seats__user")
        .filter(pk=pk)
        .first()
    )


def friend_table_by_token(token: str) -> FriendTable | None:
    """The table an invite link opens, or None."""
    return FriendTable.objects.select_related("game").filter(invite_token=token).first()


def friend_seat_of(table: FriendTable, user: User) -> FriendSeat | None:
    """The chair ``user`` sits in at ``table`` (None: not seated, or anonymous)."""
    if not user.is_authenticated:
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def _who(seat: FriendSeat) -> str:
    """The person in a chair by name ("A player" once their account is gone)."""
    return seat.user.get_username() if seat.user is not None else "A player"


def _seat_name(seat: FriendSeat) -> str:
    """A seat by its player's name (or "AI") and deck: "bob (Temple Guard)", "Bisons (AI)"."""
    return f"{seat.label} (AI)" if seat.agent else f"{_who(seat)} ({seat.label})"


def friend_seat_names(table: FriendTable, viewer: FriendSeat | None) -> list[str]:
    """What the log and the table call each engine seat: "You" for the viewer, the others by
    their player's name (or "AI") and deck."""
    seats = sorted(
        (s for s in table.seats.all() if s.engine_seat is not None),
        key=lambda s: s.engine_seat or 0,
    )
    return [
        "You" if viewer is not None and seat.pk == viewer.pk else _seat_name(seat) for seat in seats
    ]


def friend_table_title(table: FriendTable) -> str:
    """The table's decks and players, rivals "v" each other, a co-operative team "&"-joined:
    "King's Court (alice) v Temple Guard (bob)"."""
    plugin = find_plugin(table.game.slug)
    joiner = " & " if plugin is not None and plugin.cooperative else " v "
    sides = [f"{seat.label} ({'AI' if seat.agent else _who(seat)})" for seat in table.seats.all()]
    return joiner.join(sides) or "a table"


@dataclass(frozen=True)
class Chair:
    """One chair of a table as its page lists it: a person, the AI, or free."""

    number: int
    who: str
    deck: str
    is_ai: bool
    is_free: bool
    is_viewer: bool


def friend_chairs(table: FriendTable, viewer: FriendSeat | None) -> list[Chair]:
    """Every chair of ``table`` in order, the free ones too."""
    seated = {seat.chair: seat for seat in table.seats.all()}
    chairs = []
    for number in range(table.chairs):
        seat = seated.get(number)
        if seat is None:
            chairs.append(Chair(number + 1, "Free", "", False, True, False))
            continue
        mine = viewer is not None and seat.pk == viewer.pk
        who = "The AI" if seat.agent else _who(seat)
        chairs.append(
            Chair(number + 1, who + (" (you)" if mine else ""), seat.label, seat.is_ai, False, mine)
        )
    return chairs


def friend_waiting_words(table: FriendTable) -> str:
    """How many chairs are still free, in words: "Waiting for 2 more players"."""
    free = table.chairs - len(table.seats.all())
    return f"Waiting for {free} more player{'s' if free != 1 else ''}"


def friend_mover_words(table: FriendTable, state: State, viewer: FriendSeat | None) -> str:
    """Whose move it is, in words: "Your move", "Waiting for bob's move", "Waiting for the AI
    playing Bisons"."""
    player = state.current_player()
    seat = next((s for s in table.seats.all() if s.engine_seat == player), None)
    if player == CHANCE or seat is None:
        return "Waiting for the game to go on"
    if viewer is not None and seat.pk == viewer.pk:
        return "Your move"
    if seat.agent:
        return f"Waiting for the AI playing {seat.label}"
    return f"Waiting for {_who(seat)}'s move"


def friend_result_words(table: FriendTable, seat: FriendSeat | None) -> str:
    """How the table stands, in words: from ``seat``'s side once over (else by seat name); a
    co-operative game is won or lost by the whole team."""
    if table.status == FriendTable.Status.WAITING:
        return friend_waiting_words(table).lower()
    if table.status != FriendTable.Status.FINISHED:
        return "in play"
    plugin = find_plugin(table.game.slug)
    reason = plugin.words.end_reason(table.end_reason) if plugin and table.end_reason else ""
    if table.end_reason == "time":  # tables.clocks.END_TIME: a flag fell
        reason = "out of time"
    if plugin is not None and plugin.cooperative:
        team = "your team" if seat is not None else "the team"
        words = f"{team} won" if table.winner is not None else f"{team} lost"
    elif table.winner is None:
        words = "a draw"
    elif seat is not None:
        words = "you won" if seat.engine_seat == table.winner else "you lost"
    else:
        names = friend_seat_names(table, None)
        words = f"{names[table.winner]} won" if table.winner < len(names) else "over"
    return words + (f" ({reason})" if reason else "")
