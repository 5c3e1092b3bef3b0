"""The WebSocket of a friend table (``/ws/play/friends/<id>/``): a seated player's page sends its
moves here and is sent its own seat's view after every change.

One connection per seated player, all in the table's group. A move (``{"type": "move",
"action": <index of a legal action>, "seen": <the move count the page showed>}``) goes to
``tables.services.friend_table_move``, which checks and applies it (and the AI's replies); a
refusal is said to the sender alone (``{"type": "refused", "message"}``) with the position as
it stands. After a change the group is told only *that* the table changed: each connection then
builds its own seat's message (``web.friends.seat_update``), so nothing meant for one seat
ever travels to another; a message carries the log's groups its page does not show yet only (the
page keeps the others). On connect the page is sent the current position, whole (a reload resumes);
while chairs are free, ``{"type": "waiting", "message", "free"}`` saying how many are.

Presence (``tables.clocks.seat_presence``): each connection counts its seat connected while open;
the page pings (``{"type": "ping"}``, every ``tables.clocks.PING_SECONDS``, unanswered) so that a
seat whose connections were never closed (a server process died) counts as away once it stops.
A connect, a move and a ping each first enforce the table's deadline
(``tables_deadlines_enforce``: the AI taking over for a player away, a flag fall) and tell the
table when that changed it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, ASGISendEvent, WebSocketScope
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import JsonWebsocketConsumer
from channels.layers import get_channel_layer

from accounts.users import signed_in
from tables.clocks import clock_now, seat_presence
from tables.selectors import friend_seat_of, friend_table_get, friend_waiting_words
from tables.services import TableRefused, friend_table_move, tables_deadlines_enforce
from web.friends import seat_update, table_position

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: close codes (4000-4999 are the application's): not signed in / not seated at this table
CLOSE_NOT_SIGNED_IN = 4401
CLOSE_NOT_SEATED = 4403
#: the code a connection that ended without a closing handshake is counted closed with
CLOSE_ABNORMAL = 1006
#: what a send to a browser that already closed its socket raises: the ASGI specification asks
#: servers for a subclass of OSError (uvicorn's); daphne's, through autobahn, is Disconnected
SOCKET_GONE: tuple[type[Exception], ...] = (OSError, Disconnected)


def group_name(table_pk: int) -> str:
    return f"friend-table-{table_pk}"


def table_changed_notify(table_pk: int) -> None:
    """Tell every connection to the table that it changed (a chair taken, the game started):
    each sends its own seat the position (a page still waiting for players reloads)."""
    layer = get_channel_layer()
    assert layer is not None  # settings.CHANNEL_LAYERS always names one
    async_to_sync(layer.group_send)(group_name(table_pk), {"type": "table.changed"})


class TableSocket(JsonWebsocketConsumer):
    """A connection to a friend table (a seat's or a spectator's): every frame reaches
    ``receive_json``, a frame that is not JSON text (bytes, broken JSON) as None, which each
    consumer refuses with a message rather than an error.

    Whatever ends the connection, ``disconnect`` runs once it is over: the browser's close
    (channels calls it), a send that met a socket the browser had already closed (a position
    the table pushed while the tab was closing: the connection ends there, quietly), or an
    error in a handler. Each consumer's ``disconnect`` is therefore safe to run twice, and a
    seat's presence or a table's watching count never stays counted for a socket that is gone.
    """

    async def __call__(
        self, scope: WebSocketScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        async def send_while_open(message: ASGISendEvent) -> None:
            try:
                await send(message)
            except SOCKET_GONE as gone:
                raise StopConsumer from gone

        try:
            # channels' stubs type a consumer's scope by a private name of theirs
            await super().__call__(scope, receive, send_while_open)  # type: ignore[arg-type]
        finally:
            await database_sync_to_async(self.disconnect)(CLOSE_ABNORMAL)

    def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        try:
            content = self.decode_json(text_data) if text_data is not None else None
        except ValueError:
            content = None
        self.receive_json(content)


class FriendTableConsumer(TableSocket):
    """One seated player's connection to their table."""

    table_pk: int
    #: accepted as a seated player's connection (counted in the seat's presence)
    seated: bool = False
    #: the log groups this connection's page shows (each message sends the rest only)
    log_shown: Sequence[Mapping[str, Any]] = ()

    def connect(self) -> None:
        visitor = self.scope.get("user")
        self.table_pk = int(self.scope["url_route"]["kwargs"]["pk"])
        if visitor is None or not visitor.is_authenticated:
            self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        user = signed_in(visitor)
        table = friend_table_get(self.table_pk)
        if table is None or friend_seat_of(table, user) is None:
            self.close(code=CLOSE_NOT_SEATED)
            return
        async_to_sync(self.channel_layer.group_add)(group_name(self.table_pk), self.channel_name)
        self.accept()
        self.seated = True
        now = clock_now()
        back = seat_presence(self.table_pk, user, 1, now)
        if self.enforce(now) or back:
            table_changed_notify(self.table_pk)  # this connection too is sent the position
        else:
            self.send_position()

    @property
    def player(self) -> User:
        """The signed-in player: ``connect`` closes on an anonymous visitor, so every handler
        after it has one."""
        return signed_in(self.scope["user"])

    def disconnect(self, code: int) -> None:
        if hasattr(self, "table_pk"):
            async_to_sync(self.channel_layer.group_discard)(
                group_name(self.table_pk), self.channel_name
            )
        if self.seated:
            self.seated = False  # counted closed once, however the connection ended
            seat_presence(self.table_pk, self.player, -1, clock_now())

    def enforce(self, now: datetime) -> bool:
        """Act on this table's deadline if it passed; True when that changed the table."""
        return bool(tables_deadlines_enforce(now, table_pk=self.table_pk))

    def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        now = clock_now()
        if kind == "ping":
            seat_presence(self.table_pk, self.player, 0, now)
            if self.enforce(now):
                table_changed_notify(self.table_pk)
            return
        if kind != "move":
            self.send_json({"type": "refused", "message": "Unknown message: send a move."})
            self.send_position()
            return
        if self.enforce(now):
            table_changed_notify(self.table_pk)  # the move then meets the table as it stands
        try:
            friend_table_move(
                table_pk=self.table_pk,
                user=self.player,
                index=content.get("action"),
                seen=content.get("seen"),
                now=now,
            )
        except TableRefused as error:
            self.send_json({"type": "refused", "message": str(error)})
            self.send_position()
            return
        table_changed_notify(self.table_pk)

    def table_changed(self, event: dict[str, Any]) -> None:
        """The table changed: send this connection's seat its own view."""
        self.send_position()

    def send_position(self) -> None:
        table = friend_table_get(self.table_pk)
        seat = friend_seat_of(table, self.player) if table is not None else None
        if table is None or seat is None or table.seed is None:
            free = table.chairs - len(table.seats.all()) if table is not None else 0
            words = f"{friend_waiting_words(table)}." if table is not None else ""
            self.send_json({"type": "waiting", "message": words, "free": free})
            return
        message, self.log_shown = seat_update(
            table, table_position(table), seat, log_shown=self.log_shown
        )
        self.send_json(message)
