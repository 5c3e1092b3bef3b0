"""What a seat of a friend table is sent: its own view of the position only (the table built
from its own observation, its own choices, the log as it may read it), rendered as the play
page renders a game against the AI, so the clickable table works alike (static/js/play-table.js).

``seat_update`` is the one function building it (``seat_message`` its whole version): the
WebSocket consumer (web/consumers.py) sends it, each message the log's groups the connection's
page does not show yet, and a test re-deals what a seat cannot see and expects the same message.
A spectator's message is built alike from the public view (``spectator_update``, sent by
web/watch.py), its log sent the same way.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from rules.adapters import engine_for
from rules.engines.core import State
from rules.engines.core.table import PUBLIC
from rules.play import events_for_player, play_position, public_events
from tables.clocks import clock_words, table_clocks
from tables.models import FriendSeat, FriendTable
from tables.selectors import friend_mover_words, friend_result_words, friend_seat_names
from tables.spectators import cards_revealed, seconds_to_next_action, visible_action_count
from web.narration import card_links, narrated_log
from web.table import table_for
from web.views.play import beside_choices, hand_in_bar, seat_choices

#: the notes on the chairs a seat is shown (the latest)
NOTES_SHOWN = 5
#: tables whose spectators' view a process keeps (``spectator_update_at``), each at one position
SPECTATOR_VIEWS_KEPT = 64
#: renderings of one spectators' view kept, by ``data-log-from`` (pages in step share one)
HTML_KEPT = 4

# table pk -> (what its spectators' view was built from, the view)
_spectator_views: OrderedDict[int, tuple[tuple[Any, ...], SpectatorView]] = OrderedDict()
_spectator_views_lock = threading.Lock()


def table_position(table: FriendTable) -> State:
    """The position a started table's stored actions lead to."""
    return play_position(table)


def channel_layer_words() -> str:
    """How moves reach the other players, in words for the table page."""
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if backend.startswith("channels_redis."):
        return "Moves travel through Redis: players may be served by different server processes."
    return (
        "Moves travel through this server process's memory (no REDIS_URL set): every player "
        "of a table must be served by the same process."
    )


def seat_message(
    table: FriendTable, state: State, seat: FriendSeat, now: datetime | None = None
) -> dict[str, Any]:
    """The message for ``seat`` at ``table`` in position ``state``: the move count a move must
    carry back (``seen``), whether it is this seat's move, and the rendered view of its seat,
    its status line naming whose move it is (any of up to four seats, a rival or a partner),
    with the clocks as they stand at ``now``, the latest notes on the chairs (who left, the
    AI standing in, a flag fall) and the whole log."""
    return seat_update(table, state, seat, now)[0]


def shown_log(
    slug: str, events: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[dict[str, Any]]:
    """The log's groups a page shows (narrated, the groups without a line left out)."""
    return [group for group in narrated_log(slug, events, names) if group["lines"]]


def log_unchanged(log: Sequence[Mapping[str, Any]], shown: Sequence[Mapping[str, Any]]) -> int:
    """How many of ``log``'s first groups a page showing ``shown`` holds already: the groups up
    to the first that differs (the last one shown, grown by a line, differs)."""
    for index, (group, held) in enumerate(zip(log, shown, strict=False)):
        if group != held:
            return index
    return min(len(log), len(shown))


def seat_update(
    table: FriendTable,
    state: State,
    seat: FriendSeat,
    now: datetime | None = None,
    *,
    log_shown: Sequence[Mapping[str, Any]] = (),
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``seat_message`` for a page that shows the log groups ``log_shown`` (what the last
    message on its connection left it): the log's groups from the first that differs only, from
    ``data-log-from`` on (static/js/friend-table.js keeps the groups before it), so that a long
    game's message does not grow with every move; and the log groups the page then shows."""
    slug = table.game.slug
    viewer = int(seat.engine_seat or 0)
    names = friend_seat_names(table, seat)
    view = table_for(slug, state, viewer, names)
    choices, controls = seat_choices(slug, state, viewer, view)
    log = shown_log(slug, events_for_player(state, viewer), names)
    log_from = log_unchanged(log, log_shown)
    finished = state.is_terminal() or table.status == FriendTable.Status.FINISHED
    if finished:
        choices, controls = [], []  # a game ended on time has moves left that nobody may make
        status = f"Game over: {friend_result_words(table, seat)}."
    elif choices:
        status = "Your move."
    else:
        status = f"{friend_mover_words(table, state, seat)}."
    context = {
        "table": view,
        "beside_choices": beside_choices(view),
        "hand": hand_in_bar(slug, view) if choices else [],
        "choices": choices,
        "controls": controls,
        "log": log[log_from:],
        "log_from": log_from,
        "status": status,
        "seen": len(table.actions),
        "clocks": [
            {**clock, "name": names[clock["engine_seat"]], "text": clock_words(clock["left_ms"])}
            for clock in table_clocks(table, now)
            if clock["engine_seat"] < len(names)
        ],
        "notes": list(table.notes or [])[-NOTES_SHOWN:],
        "watching": watching_words(table),
    }
    message = {
        "type": "position",
        "seen": len(table.actions),
        "your_move": bool(choices),
        "finished": finished,
        "html": render_to_string("web/_friend_position.html", context),
    }
    return message, log


def watching_words(table: FriendTable) -> str:
    """How many spectators watch, in words for the players ('' when nobody may watch)."""
    if table.spectators == FriendTable.Spectators.NONE:
        return ""
    count = table.watching
    return f"{count} spectator{'' if count == 1 else 's'} watching."


def spectator_message(
    table: FriendTable, state: State, *, revealed: bool = False, refresh_in: float | None = None
) -> dict[str, Any]:
    """The message for a spectator of ``table`` in position ``state`` (already the delayed one):
    the public table and log, built from what no seat holds privately, or with ``revealed`` (the
    game over and every seated person agreed) every hand and the whole log. ``refresh_in``: in
    how many seconds the delayed view shows the next action (the page asks again then)."""
    return spectator_update(table, state, revealed=revealed, refresh_in=refresh_in)[0]


@dataclass
class SpectatorView:
    """What every spectator of a table is shown at one position, whatever their page holds:
    the public (or, ``revealed``, open) table and status, and the log's groups. ``html`` keeps
    the message's HTML by ``data-log-from``: spectators in step are sent the same."""

    context: dict[str, Any]
    log: list[dict[str, Any]]
    html: dict[int, str] = field(default_factory=dict)

    def update(
        self, refresh_in: float | None, log_shown: Sequence[Mapping[str, Any]]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The message for a page that shows the log groups ``log_shown``, and the groups it
        then shows."""
        log_from = log_unchanged(self.log, log_shown)
        html = self.html.get(log_from)
        if html is None:
            context = {**self.context, "log": self.log[log_from:], "log_from": log_from}
            html = render_to_string("web/_friend_watch_position.html", context)
            if len(self.html) < HTML_KEPT:
                self.html[log_from] = html
        message = {
            "type": "position",
            "finished": self.context["finished"],
            "revealed": self.context["revealed"],
            "refresh_in": refresh_in,
            "html": html,
        }
        return message, self.log


def spectator_view(
    table: FriendTable,
    state: State,
    *,
    revealed: bool = False,
    ended: bool = False,
    names: Sequence[str] | None = None,
) -> SpectatorView:
    """The spectators' view of ``table`` in position ``state``. ``ended``: the table ended at
    ``state`` though its rules' game goes on (a flag fell). ``names``: the seats' names, where
    the caller has read them already."""
    slug = table.game.slug
    names = list(friend_seat_names(table, None) if names is None else names)
    events = [e.as_dict() for e in state.event_log()] if revealed else public_events(state)
    finished = ended or state.is_terminal()
    context = {
        "table": table_for(slug, state, None if revealed else PUBLIC, names),
        "status": f"Game over: {friend_result_words(table, None)}." if finished else "In play.",
        "revealed": revealed,
        "finished": finished,
    }
    return SpectatorView(context, shown_log(slug, events, names))


def spectator_update(
    table: FriendTable,
    state: State,
    *,
    revealed: bool = False,
    refresh_in: float | None = None,
    log_shown: Sequence[Mapping[str, Any]] = (),
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``spectator_message`` for a page that shows the log groups ``log_shown``: the log's
    groups from the first that differs only (``data-log-from``, as ``seat_update`` sends a
    seat's; the page keeps the groups before it), and the groups the page then shows. A reveal
    changes the log from its first hidden card on, and sends it from there."""
    return spectator_view(table, state, revealed=revealed).update(refresh_in, log_shown)


def spectator_update_at(
    table: FriendTable, now: float, *, log_shown: Sequence[Mapping[str, Any]] = ()
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What a spectator of ``table`` whose page shows the log groups ``log_shown`` is sent at
    ``now`` (Unix seconds), and the groups the page then shows: the position of the actions
    stored at least the table's delay ago, open only once that is the end of the game and
    every seated person agreed. A table ended on time is over once its last action is shown."""
    return spectator_view_at(table, now).update(seconds_to_next_action(table, now), log_shown)


def spectator_view_at(table: FriendTable, now: float) -> SpectatorView:
    """The view every spectator of ``table`` is shown at ``now`` (``spectator_update_at``).

    It is built once per position and table in a process (``SPECTATOR_VIEWS_KEPT`` tables),
    however many spectators watch: the next spectator, and each spectator's page in step with
    it, gets it as built, the very same object while nothing it shows has changed. It is built
    anew when anything it shows may differ: another action shown, the table's end or reveal, a
    seat's name, the game's cards or rules."""
    shown = visible_action_count(table, now)
    latest = shown == len(table.actions)
    revealed = latest and cards_revealed(table)
    ended = latest and table.status == FriendTable.Status.FINISHED
    slug = table.game.slug
    names = tuple(friend_seat_names(table, None))
    key = (
        engine_for(slug),
        card_links(slug),
        table.seed,
        json.dumps(table.setup, sort_keys=True),
        tuple(table.actions[:shown]),
        revealed,
        ended,
        table.winner,
        table.end_reason,
        names,
    )
    kept = _spectator_views.get(table.pk)
    if kept is None or not _same_key(kept[0], key):
        state = play_position(table, None if latest else shown)
        view = spectator_view(table, state, revealed=revealed, ended=ended, names=names)
        kept = (key, view)
        with _spectator_views_lock:
            _spectator_views[table.pk] = kept
            _spectator_views.move_to_end(table.pk)
            while len(_spectator_views) > SPECTATOR_VIEWS_KEPT:
                _spectator_views.popitem(last=False)
    return kept[1]


def _same_key(kept: tuple[Any, ...], key: tuple[Any, ...]) -> bool:
    """The engine and the card names by identity (a card changed makes new ones), the rest by
    value."""
    return kept[0] is key[0] and kept[1] is key[1] and kept[2:] == key[2:]
