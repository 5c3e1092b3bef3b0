"""Readers that a writer does not lock out, on the in-memory SQLite test database.

The suite's SQLite database is one in-memory database in shared-cache mode. There, a connection
writing a table locks it, and another connection reading that table fails at once with
"database table is locked" (the busy timeout does not apply). A served database file in WAL
mode lets readers read the last committed rows meanwhile; here the tests whose threads read
while another thread writes (a live server, the background simulation runner) read without
table locks instead (``PRAGMA read_uncommitted``). PostgreSQL needs none of this."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created


def read_uncommitted(connection: BaseDatabaseWrapper, on: bool = True, **kwargs: object) -> None:
    """Turn the pragma on (or off) for one connection; a signal receiver as well."""
    if connection.vendor == "sqlite" and (on or connection.connection is not None):
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA read_uncommitted = {int(on)}")


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
