"""Spectators of a friend table (issue 35 item 4): who may watch (no one, holders of the
spectator link, anyone), how far behind the game they see it (a time delay, as streamers use),
and whether the cards are shown to everyone once the game is over (only when every seated
person said so).

A spectator is sent the position of the actions stored at least ``spectator_delay`` seconds
ago: ``action_times`` records when each action of ``actions`` was stored. Times are passed in
(``now``, Unix seconds) so that what a spectator sees never depends on the clock of a test.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest

from tables.clocks import clock_now
from tables.errors import TableRefused
from tables.models import FriendTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: the delays a table may be opened with, in seconds, and their words
DELAYS: dict[int, str] = {
    0: "no delay",
    60: "1 minute",
    180: "3 minutes",
    300: "5 minutes",
}


def stamp_action_times(table: FriendTable, now: float | None = None) -> None:
    """Record ``now`` (Unix seconds; default: the tables' clock, ``tables.clocks.clock_now``) as
    the time of every action not yet timed; call it before a table whose ``actions`` grew is
    saved."""
    moment = clock_now().timestamp() if now is None else now
    missing = len(table.actions) - len(table.action_times)
    if missing > 0:
        table.action_times = [*table.action_times, *([moment] * missing)]


def spectator_choice(spectators: object, delay: object) -> tuple[str, int]:
    """Who may watch and the delay in seconds, from a form's answers (missing: nobody, no
    delay); ``TableRefused`` for a choice that is not offered."""
    who = str(spectators or FriendTable.Spectators.NONE)
    if who not in FriendTable.Spectators.values:
        raise TableRefused("Choose who may watch: nobody, the spectator link or anyone.")
    try:
        seconds = int(str(delay or 0))
    except ValueError:
        seconds = -1
    if seconds not in DELAYS:
        raise TableRefused("Choose a delay for spectators: none, 1, 3 or 5 minutes.")
    return who, seconds


def spectator_settings_set(table: FriendTable, *, spectators: str, delay: int) -> None:
    """Store who may watch ``table`` and the delay (checked by ``spectator_choice``)."""
    table.spectators = spectators
    table.spectator_delay = delay
    table.save(update_fields=["spectators", "spectator_delay"])


def spectator_check(table: FriendTable | None, token: str | None) -> FriendTable:
    """``table`` when a spectator with ``token`` (None: no link) may watch it; otherwise
    ``TableRefused`` saying why (a table without spectators, a wrong or missing token)."""
    if table is None:
        raise TableRefused("There is no such table.")
    if table.spectators == FriendTable.Spectators.PUBLIC:
        return table
    if table.spectators != FriendTable.Spectators.LINK:
        raise TableRefused("The players of this table do not let anyone watch it.")
    if not token or not secrets.compare_digest(table.spectator_token.encode(), token.encode()):
        raise TableRefused("This spectator link is not valid for this table.")
    return table


def visible_action_count(table: FriendTable, now: float) -> int:
    """How many of the table's actions a spectator sees at ``now``: those stored at least the
    delay ago (an action stored before times were recorded counts as old)."""
    if not table.spectator_delay:
        return len(table.actions)
    cutoff = now - table.spectator_delay
    times = list(table.action_times)
    count = 0
    for index in range(len(table.actions)):
        stored = times[index] if index < len(times) else None
        if stored is not None and float(stored) > cutoff:
            break
        count += 1
    return count


def seconds_to_next_action(table: FriendTable, now: float) -> float | None:
    """In how many seconds a spectator's delayed view shows the next action (None: it shows
    them all)."""
    shown = visible_action_count(table, now)
    if shown >= len(table.actions) or shown >= len(table.action_times):
        return None
    return max(float(table.action_times[shown]) + table.spectator_delay - now, 0.0)


def cards_revealed(table: FriendTable) -> bool:
    """Whether the open view (every hand, the whole log) is shown after the game: the game is
    over and every seated person chose to show their cards (the AI has nothing to agree to)."""
    if table.status != FriendTable.Status.FINISHED:
        return False
    people = [seat for seat in table.seats.all() if not seat.agent]
    return bool(people) and all(seat.reveal_after for seat in people)


def reveal_after_set(*, table_pk: int, user: User, reveal: bool) -> FriendTable:
    """Store whether ``user``'s seat shows its cards to spectators once the game is over."""
    with transaction.atomic():
        table = FriendTable.objects.select_for_update().get(pk=table_pk)
        seat = next((s for s in table.seats.all() if s.user_id == user.pk), None)
        if seat is None:
            raise TableRefused("You are not seated at this table.")
        seat.reveal_after = reveal
        seat.save(update_fields=["reveal_after"])
    return table


def watching_changed(table_pk: int, by: int) -> None:
    """Count a spectator's connection opened (``by`` 1) or closed (-1)."""
    FriendTable.objects.filter(pk=table_pk).update(watching=Greatest(F("watching") + by, 0))
