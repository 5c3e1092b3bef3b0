"""The browser tests' server reads while another thread writes (``_readers_not_blocked_by_writers``
in tests/web/conftest.py). On the tests' shared in-memory SQLite database, a write transaction
locks its tables for every connection that reads without ``read_uncommitted``, and a page then
answers 500: a metagame's page, polled while the in-process runner wrote its chunk's lease,
failed a CI run that way (2026-12-03). The live server reads through the connection it was
started with, which need not be this thread's: measured after tests/web/test_views.py, it was
not, and it had been left without the pragma."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from tests.sqlite_reads import committed_wait
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


def test_a_committed_wait_outlasts_a_writers_open_transaction(live_server, django_user_model):
    # given a row another thread (as the server's) has changed in a transaction it keeps open
    player = django_user_model.objects.create_user("closing", password="pw-not-secret-42")
    written, release = threading.Event(), threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                django_user_model.objects.filter(pk=player.pk).update(first_name="Closed")
                written.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=writer)
    thread.start()
    assert written.wait(30)

    def closed() -> bool:
        return django_user_model.objects.filter(pk=player.pk, first_name="Closed").exists()

    if connection.vendor == "sqlite":
        # a read without locks sees the change before it commits, the writer's locks still held
        assert closed()
    # when this thread waits for the change, committed, and the writer commits a moment later
    threading.Timer(0.3, release.set).start()
    committed_wait(closed, 30, "the change never committed")
    # then the wait ended only once the writer could commit, and the change is there
    assert release.is_set()
    thread.join(30)
    assert not thread.is_alive() and closed()
