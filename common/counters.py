"""Counters that every process and worker shares, for rate limits and quotas.

Each increment is atomic, so N processes counting at once give the same total as one: in Redis
(``SET NX EX`` and ``INCRBY`` in one ``MULTI``/``EXEC`` through the "limits" cache,
``settings.LIMITS_STORE == "cache"``) when REDIS_URL is set, else in the database table
``deckwright_limit_counter`` (one ``INSERT … ON CONFLICT DO UPDATE … RETURNING``, on SQLite and
PostgreSQL alike; made by ``accounts/migrations/0001``). ``counters_add`` and ``window_hits`` count
several counters (a request's throttles) in that one round trip.
Never one process's memory: with that, four workers let 453 of 600 requests through a limit of
120 (``bench/limits.py`` measures it).

Limits count in fixed windows (``window_hit``): a period-long window per key, shifted by a hash of
the key so that every client's window does not restart at the same instant.
"""

from __future__ import annotations

import hashlib
import random
import time
import weakref
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection

TABLE = "deckwright_limit_counter"
PURGE_CHANCE = 0.01  # one hit in a hundred also deletes expired rows


def counter_add(name: str, amount: int, ttl: int) -> int:
    """Add ``amount`` to counter ``name`` (made at 0, forgotten ``ttl`` seconds after it is
    made) and return its new value, atomically."""
    return counters_add([(name, amount, ttl)])[0]


def counters_add(changes: Sequence[tuple[str, int, int]]) -> list[int]:
    """``counter_add`` of each ``(name, amount, ttl)``, in one round trip to the store (a Redis
    ``MULTI``/``EXEC`` pipeline, or one database statement); the new values, in order. A name
    given twice gets both amounts (each change's value is then the total of both)."""
    if not changes:
        return []
    totals: dict[str, list[int]] = {}  # name -> [amount, ttl]
    for name, amount, ttl in changes:
        if name in totals:
            totals[name][0] += amount
        else:
            totals[name] = [amount, ttl]
    values = _cache_add(totals) if settings.LIMITS_STORE == "cache" else _table_add(totals)
    return [values[name] for name, _, _ in changes]


# redis-py clients by Django cache backend: Django makes a new client object (on the same
# connection pool) for every call, which cost 7% of a POST /validate/ under the profiler. A
# client over a pool is thread-safe; Django's cache handler gives each thread its own backend.
_clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _redis_client(cache: Any, key: str) -> Any | None:
    """The redis-py client behind Django's Redis cache backend for writes, else None."""
    if not isinstance(cache, RedisCache):
        return None
    client = _clients.get(cache)
    if client is None:
        backend = getattr(cache, "_cache", None)  # django...backends.redis.RedisCacheClient
        get_client = getattr(backend, "get_client", None)
        if get_client is None:
            return None
        # Writes always go to the first server's pool, whatever the key.
        client = _clients[cache] = get_client(key, write=True)
    return client


def _cache_add(totals: dict[str, list[int]]) -> dict[str, int]:
    cache = caches[settings.LIMITS_CACHE]
    keys = {name: cache.make_and_validate_key(name) for name in totals}
    client = _redis_client(cache, next(iter(keys.values())))
    if client is not None:
        # SET NX EX then INCRBY, in a transaction: one round trip, and the counter cannot
        # expire between the two (an INCRBY on a missing key would make one with no expiry).
        # Django's Redis cache stores an int as its digits, so the cache API reads it back.
        pipe = client.pipeline(transaction=True)
        for name, (amount, ttl) in totals.items():
            pipe.set(keys[name], 0, ex=ttl, nx=True)
            pipe.incrby(keys[name], amount)
        replies = pipe.execute()
        return {name: int(replies[2 * i + 1]) for i, name in enumerate(totals)}
    values = {}
    for name, (amount, ttl) in totals.items():  # another cache backend (tests: local memory)
        cache.add(name, 0, ttl)
        try:
            values[name] = cache.incr(name, amount)
        except ValueError:  # expired between add and incr
            cache.set(name, amount, ttl)
            values[name] = amount
    return values


def _table_add(totals: dict[str, list[int]]) -> dict[str, int]:
    now = int(time.time())
    rows = ", ".join(["(%s, %s, %s)"] * len(totals))
    params: list[Any] = []
    for name, (amount, ttl) in totals.items():
        params += [name, amount, now + ttl]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (name, value, expires_at) VALUES {rows} "
            f"ON CONFLICT (name) DO UPDATE SET value = {TABLE}.value + excluded.value "
            "RETURNING name, value",
            params,
        )
        values = {name: int(value) for name, value in cursor.fetchall()}
        if random.random() < PURGE_CHANCE:
            cursor.execute(f"DELETE FROM {TABLE} WHERE expires_at < %s", [now])
    return values


def counter_get(name: str) -> int:
    """The value of counter ``name``; 0 when it was never made or has expired."""
    if settings.LIMITS_STORE == "cache":
        return int(caches[settings.LIMITS_CACHE].get(name, 0))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT value FROM {TABLE} WHERE name = %s AND expires_at >= %s",
            [name, int(time.time())],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def counter_take(name: str) -> int:
    """The value of counter ``name`` (0 if none), which is then forgotten: the next count starts
    from 0. An increment racing with it lands either in the value taken or in the next count."""
    if settings.LIMITS_STORE == "cache":
        cache = caches[settings.LIMITS_CACHE]
        value = int(cache.get(name, 0))
        if value:
            cache.delete(name)  # may drop an increment made in between: a notice, not a limit
        return value
    now = int(time.time())
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE name = %s RETURNING value, expires_at", [name])
        row = cursor.fetchone()
    return int(row[0]) if row and row[1] >= now else 0


def counter_touch(name: str, ttl: int) -> None:
    """Make counter ``name`` 1 and forget it ``ttl`` seconds from now (again from now if it was
    there): a marker that lasts while it keeps being touched."""
    if settings.LIMITS_STORE == "cache":
        caches[settings.LIMITS_CACHE].set(name, 1, ttl)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (name, value, expires_at) VALUES (%s, 1, %s) "
            "ON CONFLICT (name) DO UPDATE SET value = 1, expires_at = excluded.expires_at",
            [name, int(time.time()) + ttl],
        )


def counter_clear() -> None:
    """Forget every counter (tests, and an administrator lifting every limit at once)."""
    if settings.LIMITS_STORE == "cache":
        caches[settings.LIMITS_CACHE].clear()
        return
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE}")


def _offset(name: str, period: int) -> int:
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % period


def window_hit(
    name: str, period: int, amount: int = 1, *, now: float | None = None, stagger: bool = True
) -> tuple[int, int, str]:
    """Count ``amount`` in the current ``period``-second window of ``name``.

    Returns the window's total, the seconds until it ends and the counter's name (to give the
    amount back with ``counter_add(name, -amount, ...)`` when the hit is refused). With
    ``stagger`` the windows of ``name`` are shifted by a hash of it; without, they follow the
    clock (hours start at :00).
    """
    return window_hits([(name, period)], amount, now=now, stagger=stagger)[0]


def window_hits(
    limits: Sequence[tuple[str, int]],
    amount: int = 1,
    *,
    now: float | None = None,
    stagger: bool = True,
) -> list[tuple[int, int, str]]:
    """``window_hit`` of each ``(name, period)``, all counted in one round trip to the store."""
    now = time.time() if now is None else now
    windows = []
    for name, period in limits:
        offset = _offset(name, period) if stagger else 0
        window = int((now - offset) // period)
        ends = (window + 1) * period + offset
        windows.append((f"{name}:{window}", period, max(1, int(ends - now + 0.999))))
    totals = counters_add([(key, amount, period + 60) for key, period, _ in windows])
    return [(total, left, key) for total, (key, _, left) in zip(totals, windows, strict=True)]
