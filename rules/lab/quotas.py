"""Hourly quotas on the games visitors may ask the server to play.

A game costs CPU (a Monte Carlo game can take a minute), and without a worker the web process
plays it, so games are counted per clock hour before anything is played, all of a job's games
at once, in the transaction that stores the job (``rules.lab.jobs.simulation_job_start``):

- anonymous visitors, on every kind of job (matchups included), per browser session
  (``MATCHUP_ANON_GAMES_PER_HOUR``) and per client address (``MATCHUP_ANON_GAMES_PER_HOUR_IP``,
  so clearing cookies does not reset it);
- signed-in users, on every kind of job (which may ask for many thousand games), per account
  (``SIMULATION_USER_GAMES_PER_HOUR``) and per client address
  (``SIMULATION_GAMES_PER_HOUR_IP``, so many accounts on one address share one budget).

A refused request charges nothing. The counters are shared by every process
(``common.counters``) like every other limit's.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings

from common.counters import counter_add, window_hit

HOUR = 3600


class GamesQuotaExceeded(Exception):
    """Starting these games would take a visitor over an hourly quota."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class MatchupQuotaExceeded(GamesQuotaExceeded):
    """An anonymous visitor's quota (every kind of job shares it)."""


def _charge(
    limits: Sequence[tuple[str, str, int]],
    games: int,
    now: float,
    refusal: Callable[[str, int, int, dt.datetime], GamesQuotaExceeded],
) -> None:
    """Count ``games`` on every ``(what, counter, limit)``; when one would pass its limit, take
    back what was counted and raise ``refusal(what, limit, left, resets)``."""
    charged: list[str] = []
    for what, name, limit in limits:
        total, seconds_left, counter = window_hit(name, HOUR, games, now=now, stagger=False)
        charged.append(counter)
        if total > limit:
            for done in charged:
                counter_add(done, -games, HOUR + 60)
            left = max(0, limit - (total - games))
            resets = dt.datetime.fromtimestamp(now + seconds_left, tz=dt.UTC)
            error = refusal(what, limit, left, resets)
            error.retry_after = seconds_left
            raise error


def matchup_quota_charge(
    *, user: Any, address: str, session_key: str, games: int, now: float | None = None
) -> None:
    """Count ``games`` against an anonymous visitor's hourly quotas, or raise
    ``MatchupQuotaExceeded`` (charging nothing) when either quota would be passed. Signed-in
    users are not counted."""
    if getattr(user, "is_authenticated", False):
        return
    limits = [
        ("session", f"quota:matchup-games:session:{session_key}", settings.MATCHUP_ANON_GAMES_PER_HOUR),
        ("address", f"quota:matchup-games:ip:{address}", settings.MATCHUP_ANON_GAMES_PER_HOUR_IP),
    ]  # fmt: skip

    def refusal(what: str, limit: int, left: int, resets: dt.datetime) -> GamesQuotaExceeded:
        holder = "this browser" if what == "session" else "your address"
        return MatchupQuotaExceeded(
            f"Visitors who are not logged in may start {settings.MATCHUP_ANON_GAMES_PER_HOUR} "
            f"games an hour per browser and {settings.MATCHUP_ANON_GAMES_PER_HOUR_IP} per "
            f"address. You asked for {games}; {holder} has {left} left until "
            f"{resets:%H:%M} UTC. Ask for fewer games, or log in (or sign up) to play "
            "without this limit.",
            0,
        )

    _charge(limits, games, time.time() if now is None else now, refusal)


def simulation_quota_charge(
    *, user: Any, address: str, session_key: str, games: int, now: float | None = None
) -> None:
    """Count a simulation job's ``games`` against the visitor's hourly quotas (anonymous: the
    matchup quotas; signed in: per account and per address), or raise ``GamesQuotaExceeded``
    charging nothing."""
    if not getattr(user, "is_authenticated", False):
        matchup_quota_charge(
            user=user, address=address, session_key=session_key, games=games, now=now
        )
        return
    per_user = int(settings.SIMULATION_USER_GAMES_PER_HOUR)
    per_address = int(settings.SIMULATION_GAMES_PER_HOUR_IP)
    limits = [
        ("account", f"quota:simulation-games:user:{user.pk}", per_user),
        ("address", f"quota:simulation-games:ip:{address}", per_address),
    ]

    def refusal(what: str, limit: int, left: int, resets: dt.datetime) -> GamesQuotaExceeded:
        holder = "your account" if what == "account" else "your address"
        return GamesQuotaExceeded(
            f"Simulation jobs may play {per_user} games an hour per account and {per_address} "
            f"per address. This job has {games}; {holder} has {left} left until "
            f"{resets:%H:%M} UTC. Ask for fewer decks or games a pairing, or wait.",
            0,
        )

    _charge(limits, games, time.time() if now is None else now, refusal)
