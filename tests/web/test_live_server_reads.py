"""The browser tests' server reads while another thread writes (``_readers_not_blocked_by_writers``
in tests/web/conftest.py). On the tests' shared in-memory SQLite database, a write transaction
locks its tables for every connection that reads without ``read_uncommitted``, and a page then
answers 500: a metagame's page, polled while the in-process runner wrote its chunk's lease,
failed a CI run that way (2026-12-03). The live server reads through the connection it was
started with, which need not be this thread's: measured after tests/web/test_views.py, it was
not, and it had been left without the pragma."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.web.browser import BROWSER_TESTS

pytestmark = BROWSER_TESTS


def test_the_live_server_reads_past_other_connections_writes(page, live_server):
    # given a browser test (Playwright runs an event loop in this thread, so the thread's
    # connections are not the ones the server was started with) and the server's connections
    served = live_server.thread.connections_override.values()
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's shared-cache table locks only: PostgreSQL readers never wait")
    # then each reads without table locks, so a poll is served while the runner writes
    for each in served:
        with each.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted")
            assert cursor.fetchone() == (1,), each.alias
