"""The shared counter stores (common.counters) for tests of limits every process shares."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from common.counters import counter_clear

#: the stores a limit's tests run on: the database table, and Redis where it runs
STORES = ["database", pytest.param("redis", marks=pytest.mark.redis)]


#: which of the test run's Redis databases each test file flushes as its own (one file a slot: a
#: run split by file, ``make test``, may run any two files at once)
REDIS_SLOTS = {
    "http_caching": 0,
    "settings_env": 1,
    "limits": 2,  # tests/api/test_limits.py
    "throttle_round_trips": 3,  # tests/api/test_throttle_round_trips.py
    "matchup_tasks": 4,  # the broker of tests/rules' real Celery workers
    "account_guessing": 5,
    "simulation_resume": 6,
}


def redis_test_url(slot: str) -> str:
    """The Redis database a test file uses (and flushes) as its own: database
    ``DECKWRIGHT_TEST_REDIS_DB`` (9 unless set) plus the file's slot. Two test runs at once on one
    machine (CI's SQLite and PostgreSQL passes, .ci/run) set different bases so that neither
    flushes the other's keys: 9 covers databases 9-15, 1 covers 1-7."""
    base = int(os.environ.get("DECKWRIGHT_TEST_REDIS_DB", "9"))
    return f"redis://127.0.0.1:6379/{base + REDIS_SLOTS[slot]}"


def redis_reason(url: str) -> str | None:
    """Why Redis at ``url`` cannot be used (a message for a skip), or None when it answers."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except (redis.RedisError, OSError) as error:
        return f"Redis is not reachable at {url} ({error}); start redis-server to run it"
    return None


def redis_emptied(slot: str) -> str:
    """The URL of the Redis database a test file uses as its own (``redis_test_url``), emptied
    of whatever an earlier, aborted run left; the test is skipped with the reason where Redis
    does not answer."""
    import redis

    url = redis_test_url(slot)
    reason = redis_reason(url)
    if reason:
        pytest.skip(reason)
    redis.Redis.from_url(url).flushdb()
    return url


@contextmanager
def shared_counter_store(store: str, settings: Any, redis_url: str) -> Iterator[None]:
    """Count limits in ``store`` ("database": the table of accounts/migrations/0001; "redis": the
    test's own Redis database ``redis_url``, skipped with the reason where Redis is absent, and
    flushed afterwards), starting from no counts."""
    if store == "redis":
        reason = redis_reason(redis_url)
        if reason:
            pytest.skip(reason)
        settings.LIMITS_STORE = "cache"
        settings.CACHES = {
            **settings.CACHES,
            settings.LIMITS_CACHE: {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": "limits",
            },
        }
    else:
        settings.LIMITS_STORE = "database"
    counter_clear()
    try:
        yield
    finally:
        if store == "redis":
            import redis

            redis.Redis.from_url(redis_url).flushdb()
