"""What the API throttles cost a request: one round trip to the shared counters for all of a
view's throttles (Redis: one MULTI/EXEC pipeline; the database: one statement), none when every
rate is unlimited, with the same limits and Retry-After as counting them one by one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from common import counters
from tests.counter_stores import STORES, redis_test_url, shared_counter_store

pytestmark = pytest.mark.django_db

REDIS_URL = redis_test_url("throttle_round_trips")  # this file's own Redis database
#: what every throttle's counter key holds (DRF's ``cache_format``)
THROTTLE_KEY = b"throttle_"


@pytest.fixture(params=STORES)
def shared_limits(request, settings, monkeypatch):
    # The table store also deletes expired rows on one write in a hundred, at random: the
    # housekeeping of the store, not the throttles' cost (as the Redis count leaves out other
    # traffic), and a statement these counts would see one run in a hundred.
    monkeypatch.setattr(counters, "PURGE_CHANCE", 0.0)
    with shared_counter_store(request.param, settings, REDIS_URL):
        yield request.param


def _rates(settings, anon: str | None, user: str | None) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": anon, "user": user}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@contextmanager
def redis_round_trips() -> Iterator[list[int]]:
    """Counts what redis-py sends about the throttles' counters (a command, or a whole
    pipeline, is one send; other traffic, such as a cache's generation check that falls due
    during the request, is not the throttles' cost): counting by wrapping the real
    connection's method, the commands still go to the real server."""
    sent = [0]
    original = redis.connection.Connection.send_packed_command

    def counted(self, command, check_health=True):
        packed = command if isinstance(command, bytes | str) else b"".join(command)
        if THROTTLE_KEY in (packed.encode() if isinstance(packed, str) else packed):
            sent[0] += 1
        return original(self, command, check_health)

    setattr(redis.connection.Connection, "send_packed_command", counted)  # noqa: B010 (a spy)
    try:
        yield sent
    finally:
        setattr(redis.connection.Connection, "send_packed_command", original)  # noqa: B010


def _counter_statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "deckwright_limit_counter" in q["sql"]]


def test_an_anonymous_request_counts_both_throttles_in_one_round_trip(shared_limits, settings):
    # given the anonymous and the user throttle both counting (an anonymous client is counted
    # by its address under each)
    _rates(settings, "100/minute", "1000/minute")
    client = APIClient()
    client.get("/api/v1/")  # the first request of a process may connect
    # when one request passes both
    with redis_round_trips() as sent, CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/").status_code == 200
    # then the counters took one round trip in the store used
    if shared_limits == "redis":
        assert sent[0] == 1
        assert _counter_statements(queries) == []
    else:
        assert sent[0] == 0
        assert len(_counter_statements(queries)) == 1


def test_unlimited_rates_count_nothing(shared_limits, settings):
    _rates(settings, None, None)
    client = APIClient()
    client.get("/api/v1/")
    with redis_round_trips() as sent, CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert client.get("/api/v1/").status_code == 200
    assert sent[0] == 0
    assert _counter_statements(queries) == []


def test_limits_and_retry_after_are_those_of_each_throttle(
    shared_limits, settings, still_counter_clock
):
    # given a tight anonymous rate and a looser user rate, counted together
    _rates(settings, "3/minute", "5/minute")
    client = APIClient()
    statuses = [client.get("/api/v1/").status_code for _ in range(4)]
    # then the tighter one refuses the fourth, with a Retry-After within its minute
    assert statuses == [200, 200, 200, 429]
    refused = client.get("/api/v1/")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    # and the user throttle counted every request it let through (DRF asks each throttle,
    # as before): 5 of 5, so with the anonymous rate loosened the next is refused by it
    _rates(settings, "100/minute", "5/minute")
    assert client.get("/api/v1/").status_code == 429
