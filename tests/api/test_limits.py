"""Limits every process shares: the API throttle and the token endpoint, keyed by a client address
that a forged X-Forwarded-For cannot change, on the real shared backends (database table, Redis).
"""

from __future__ import annotations

import uuid

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from common.clientip import client_ip
from common.counters import counter_add, window_hit
from tests.counter_stores import STORES, redis_test_url, shared_counter_store
from tests.test_settings_env import _settings_in_subprocess

pytestmark = pytest.mark.django_db

REDIS_URL = redis_test_url("limits")  # this suite's own Redis database, flushed only here


@pytest.fixture(params=STORES)
def shared_limits(request, settings):
    """Counters in a store every process shares, as in production."""
    with shared_counter_store(request.param, settings, REDIS_URL):
        yield request.param


@pytest.fixture
def tight_anonymous_rate(settings, still_counter_clock):
    """Three anonymous requests a minute, counted in one window."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def _forged() -> str:
    return f"203.0.113.{uuid.uuid4().int % 250 + 1}, 198.51.100.{uuid.uuid4().int % 250 + 1}"


def test_a_forged_forwarded_for_does_not_escape_the_throttle(shared_limits, tight_anonymous_rate):
    # given a client that sends a different made-up X-Forwarded-For with every request
    client = APIClient()
    # when it makes one request more than the limit
    statuses = [
        client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=_forged()).status_code for _ in range(4)
    ]
    # then its real address is counted and the fourth is refused
    assert statuses == [200, 200, 200, 429]


def test_counters_live_in_the_shared_cache_not_in_one_process(shared_limits, tight_anonymous_rate):
    client = APIClient()
    for _ in range(3):
        client.get("/api/v1/games/")
    # another process starts with empty memory: the count must be in the shared store itself
    assert any(key.startswith("throttle_anon_") for key in _stored_keys(shared_limits))
    assert client.get("/api/v1/games/").status_code == 429


def _stored_keys(backend: str) -> list[str]:
    if backend == "redis":
        import redis

        raw = redis.Redis.from_url(REDIS_URL).keys("*")
        return [(key.decode() if isinstance(key, bytes) else key).split(":", 2)[-1] for key in raw]
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM deckwright_limit_counter")
        return [row[0] for row in cursor.fetchall()]


def test_with_trusted_proxies_each_forwarded_client_is_counted_apart(
    shared_limits, tight_anonymous_rate, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    client = APIClient()
    # behind one proxy, the right-most address is the one the proxy saw: two clients
    first = [
        client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="192.0.2.1").status_code for _ in range(4)
    ]
    second = client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="192.0.2.2").status_code
    assert first == [200, 200, 200, 429]
    assert second == 200
    # a client prepending its own entry is still counted by what the proxy appended
    spoof = client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.9.9.9, 192.0.2.1")
    assert spoof.status_code == 429


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "198.51.100.7", "127.0.0.9"),
        (0, "", "127.0.0.9"),
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "10.0.0.1, 198.51.100.7", "198.51.100.7"),
        (2, "10.0.0.1, 198.51.100.7, 192.0.2.50", "198.51.100.7"),
        (3, "198.51.100.7", "198.51.100.7"),
        (1, "not-an-address", "127.0.0.9"),
        (1, "", "127.0.0.9"),
    ],
)
def test_client_address_trusts_only_as_many_hops_as_proxies(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.9", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_a_request_without_an_address_has_the_empty_address(settings):
    # a Unix-socket server or Django's force_login: no REMOTE_ADDR; axes stores None for it
    from django.http import HttpRequest

    from common.clientip import axes_client_ip

    assert client_ip(HttpRequest()) == ""
    assert axes_client_ip(HttpRequest()) is None


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "0 0"),
        ({"API_NUM_PROXIES": "0"}, "0 0"),  # used to become None: DRF then trusted any header
        ({"TRUSTED_PROXY_COUNT": "2"}, "2 2"),
        ({"API_NUM_PROXIES": "1"}, "1 1"),  # the old name still works
    ],
)
def test_one_proxy_setting_feeds_drf_and_defaults_to_trusting_no_header(env, expected):
    result = _settings_in_subprocess(env, "s.TRUSTED_PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES']")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == expected.split()


@pytest.mark.parametrize(
    "name", ["LOGIN_FAILURE_LIMIT", "LOGIN_LOCKOUT_MINUTES", "API_TOKEN_TTL_DAYS"]
)
def test_limits_that_must_be_positive_refuse_zero(name):
    result = _settings_in_subprocess({name: "0"}, "1")
    assert result.returncode != 0
    assert f"{name}='0' must be 1 or more" in result.stderr


def test_a_negative_proxy_count_is_refused():
    result = _settings_in_subprocess({"TRUSTED_PROXY_COUNT": "-1"}, "1")
    assert result.returncode != 0
    assert "TRUSTED_PROXY_COUNT=-1 must be 0 or more" in result.stderr


def test_without_redis_the_counters_are_a_database_table_never_process_memory():
    result = _settings_in_subprocess({"REDIS_URL": ""}, "s.LIMITS_STORE, 'limits' in s.CACHES")
    assert result.stdout.split() == ["database", "False"]
    result = _settings_in_subprocess(
        {"REDIS_URL": "redis://127.0.0.1:6379/3"},
        "s.LIMITS_STORE, s.CACHES['limits']['BACKEND']",
    )
    assert result.stdout.split() == ["cache", "django.core.cache.backends.redis.RedisCache"]


def test_counters_add_up_and_give_back_in_each_store(shared_limits):
    assert [counter_add("probe", 1, 60) for _ in range(3)] == [1, 2, 3]
    assert counter_add("probe", -1, 60) == 2
    assert counter_add("other", 5, 60) == 5


def test_a_window_ends_within_its_period_and_the_next_starts_afresh(shared_limits):
    total, left, _ = window_hit("w", 60, now=1_000_000.0)
    assert total == 1 and 1 <= left <= 60
    assert window_hit("w", 60, now=1_000_000.0)[0] == 2
    assert window_hit("w", 60, now=1_000_000.0 + left)[0] == 1
    # clock windows (the hourly quotas) start on the hour
    assert window_hit("h", 3600, now=7200.0 + 10, stagger=False)[1] == 3590
