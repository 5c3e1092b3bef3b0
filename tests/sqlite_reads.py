"""Readers that a writer does not lock out, on the in-memory SQLite test database.

The suite's SQLite database is one in-memory database in shared-cache mode. There, a connection
writing a table locks it, and another connection reading that table fails at once with
"database table is locked" (the busy timeout does not apply). A served database file in WAL
mode lets readers read the last committed rows meanwhile; here the tests whose threads read
while another thread writes (a live server, the background simulation runner) read without
table locks instead (``PRAGMA read_uncommitted``). PostgreSQL needs none of this."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from django.db import OperationalError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created


def read_uncommitted(connection: BaseDatabaseWrapper, on: bool = True, **kwargs: object) -> None:
    """Turn the pragma on (or off) for one connection; a signal receiver as well."""
    if connection.vendor == "sqlite" and (on or connection.connection is not None):
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA read_uncommitted = {int(on)}")


def reads_uncommitted(connection: BaseDatabaseWrapper) -> bool:
    """Whether a SQLite connection reads without table locks now (the pragma is on)."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA read_uncommitted")
        row = cursor.fetchone()
    return bool(row and row[0])


@contextmanager
def readers_not_blocked(also: Iterable[BaseDatabaseWrapper] = ()) -> Iterator[None]:
    """Every connection open now (this thread's, and ``also``) and every one opened meanwhile,
    in any thread, reads without table locks; the open ones are set back at the end."""
    also = list(also)
    connection_created.connect(read_uncommitted)
    for each in [*connections.all(initialized_only=True), *also]:
        read_uncommitted(each)
    try:
        yield
    finally:
        connection_created.disconnect(read_uncommitted)
        for each in [*connections.all(initialized_only=True), *also]:
            read_uncommitted(each, on=False)


def committed_wait(done: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``done`` until it is true, reading committed rows only: on SQLite this thread's
    connection turns ``read_uncommitted`` off meanwhile (and back on after, if it was on), and a
    read that meets a writer's table lock ("database table is locked", at once) counts as not done
    yet. A reader without locks sees a write before its transaction commits, while that
    transaction still holds its tables: a test that went on then (its teardown's flush) met the
    writer's locks."""
    sqlite = connection.vendor == "sqlite"
    was_on = sqlite and reads_uncommitted(connection)
    if was_on:
        read_uncommitted(connection, on=False)
    deadline = time.monotonic() + seconds
    try:
        while True:
            try:
                if done():
                    return
            except OperationalError as exc:
                if not (sqlite and "locked" in str(exc)):
                    raise
            assert time.monotonic() < deadline, what
            time.sleep(0.05)
    finally:
        if was_on:
            read_uncommitted(connection)
