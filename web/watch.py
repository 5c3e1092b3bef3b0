"""The WebSocket of a friend table's spectators (``/ws/play/friends/<id>/watch/?token=...``):
it pushes the delayed public view (``web.friends.spectator_update_at``) after every change of
the table that changes it, and again when the delay lets the next action be shown (the page asks
with ``{"type": "refresh"}`` once the message's ``refresh_in`` seconds have passed; a page that
shows the view already is sent ``{"type": "wait", "refresh_in": ...}``, when to ask again). As a seat's, a
message carries the log's groups its page does not show yet only (the page keeps the others);
on connect the whole log. A spectator never moves: any other message is refused and changes
nothing.

Spectators join the table's group (``web.consumers.group_name``) so they hear "table.changed"
like the players, and are sent a view built from what no seat holds privately, once per
position for all the table's spectators a process serves; opening and closing a spectator's
connection changes the count the players are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync

from tables import clocks
from tables.errors import TableRefused
from tables.selectors import friend_table_get
from tables.spectators import seconds_to_next_action, spectator_check, watching_changed
from web.consumers import TableSocket, group_name, table_changed_notify
from web.friends import SpectatorView, spectator_view_at

#: close code: this table lets nobody watch, or the spectator link is wrong
CLOSE_NOT_ALLOWED = 4403


class FriendSpectatorConsumer(TableSocket):
    """One spectator's connection to a table."""

    #: what a spectator's move (or any message but a refresh) is answered
    SPECTATORS_REFUSED = "Spectators cannot make moves: you are watching this table."
    #: the clock (Unix seconds) the delay is measured by: the tables' own; tests put their own
    clock: ClassVar[Callable[[], float]] = staticmethod(lambda: clocks.clock_now().timestamp())
    table_pk: int
    token: str
    counted = False
    #: the log groups this connection's page shows (each message sends the rest only)
    log_shown: Sequence[Mapping[str, Any]] = ()
    #: the view this connection's page shows, and whether its page will ask again
    view_sent: SpectatorView | None = None
    refresh_due = False

    def connect(self) -> None:
        self.table_pk = int(self.scope["url_route"]["kwargs"]["pk"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.token = (query.get("token") or [""])[0]
        try:
            spectator_check(friend_table_get(self.table_pk), self.token)
        except TableRefused:
            self.close(code=CLOSE_NOT_ALLOWED)
            return
        watching_changed(self.table_pk, 1)
        self.counted = True
        table_changed_notify(self.table_pk)  # the players' pages show the count
        async_to_sync(self.channel_layer.group_add)(group_name(self.table_pk), self.channel_name)
        self.accept()
        self.send_position()

    def disconnect(self, code: int) -> None:
        if self.counted:
            async_to_sync(self.channel_layer.group_discard)(
                group_name(self.table_pk), self.channel_name
            )
            watching_changed(self.table_pk, -1)
            self.counted = False
            table_changed_notify(self.table_pk)

    def receive_json(self, content: Any, **kwargs: Any) -> None:
        """A refresh is answered with the view; anything else (a move above all) is refused."""
        if isinstance(content, dict) and content.get("type") == "refresh":
            self.send_position()
            return
        self.send_json({"type": "refused", "message": self.SPECTATORS_REFUSED})

    def table_changed(self, event: dict[str, Any]) -> None:
        """The table changed: send this spectator the view (or close if watching is over). A page
        that shows that very view already is sent nothing when it waits for the next action its
        delay shows or has nothing more to wait for (a move the delay still hides, another
        spectator arriving), and otherwise only when to ask again (``{"type": "wait"}``)."""
        self.send_position(unless_shown=True)

    def send_position(self, *, unless_shown: bool = False) -> None:
        table = friend_table_get(self.table_pk)
        try:
            spectator_check(table, self.token)
        except TableRefused:
            self.close(code=CLOSE_NOT_ALLOWED)
            return
        if table is None or table.seed is None:
            self.send_json({"type": "waiting", "message": "The game has not started yet."})
            return
        now = type(self).clock()
        view = spectator_view_at(table, now)
        refresh_in = seconds_to_next_action(table, now)
        if view is self.view_sent:
            if unless_shown and (self.refresh_due or refresh_in is None):
                return
            # the page shows this view already: it is told only when to ask again
            self.refresh_due = refresh_in is not None
            self.send_json({"type": "wait", "refresh_in": refresh_in})
            return
        message, self.log_shown = view.update(refresh_in, self.log_shown)
        self.view_sent, self.refresh_due = view, refresh_in is not None
        self.send_json(message)
