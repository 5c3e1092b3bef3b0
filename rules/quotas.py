"""Hourly quotas on the games anonymous visitors may ask the server to play.

A matchup run costs CPU per game (a Monte Carlo game can take a minute), and without a worker the
page's polls play it in the web process, so anonymous visitors get a budget of games per clock
hour, counted twice: per browser session (``MATCHUP_ANON_GAMES_PER_HOUR``) and per client address
(``MATCHUP_ANON_GAMES_PER_HOUR_IP``, so clearing cookies does not reset it). A run's games are
charged when it starts, all at once. Signed-in users are not limited. The counters live in the
shared "limits" cache (``settings.LIMITS_CACHE``) like every other limit.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches


class MatchupQuotaExceeded(Exception):
    """Starting these games would take an anonymous visitor over an hourly quota."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _charge(key: str, games: int, timeout: int) -> int:
    """Add ``games`` to a counter (atomic on Redis) and return the new total."""
    cache = caches[settings.LIMITS_CACHE]
    cache.add(key, 0, timeout)
    try:
        return cache.incr(key, games)
    except ValueError:  # expired between add and incr
        cache.set(key, games, timeout)
        return games


def _uncharge(key: str, games: int) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing left to give back
        caches[settings.LIMITS_CACHE].decr(key, games)


def matchup_quota_charge(
    *, user: Any, address: str, session_key: str, games: int, now: float | None = None
) -> None:
    """Count ``games`` against the visitor's hourly quotas, or raise ``MatchupQuotaExceeded``
    (charging nothing) when either quota would be passed."""
    if getattr(user, "is_authenticated", False):
        return
    now = time.time() if now is None else now
    hour = int(now // 3600)
    next_hour = (hour + 1) * 3600
    retry_after = max(1, int(next_hour - now))
    timeout = retry_after + 60
    limits = [
        ("session", f"quota:matchup-games:session:{session_key}:{hour}", settings.MATCHUP_ANON_GAMES_PER_HOUR),
        ("address", f"quota:matchup-games:ip:{address}:{hour}", settings.MATCHUP_ANON_GAMES_PER_HOUR_IP),
    ]  # fmt: skip
    charged: list[str] = []
    for what, key, limit in limits:
        total = _charge(key, games, timeout)
        charged.append(key)
        if total > limit:
            for done in charged:
                _uncharge(done, games)
            left = max(0, limit - (total - games))
            resets = dt.datetime.fromtimestamp(next_hour, tz=dt.UTC)
            holder = "this browser" if what == "session" else "your address"
            raise MatchupQuotaExceeded(
                f"Visitors who are not logged in may start {settings.MATCHUP_ANON_GAMES_PER_HOUR} "
                f"games an hour per browser and {settings.MATCHUP_ANON_GAMES_PER_HOUR_IP} per "
                f"address. You asked for {games}; {holder} has {left} left until "
                f"{resets:%H:%M} UTC. Ask for fewer games, or log in (or sign up) to play "
                "without this limit.",
                retry_after,
            )
