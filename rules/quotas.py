"""Hourly quotas on the games anonymous visitors may ask the server to play.

A matchup run costs CPU per game (a Monte Carlo game can take a minute), and without a worker the
page's polls play it in the web process, so anonymous visitors get a budget of games per clock
hour, counted twice: per browser session (``MATCHUP_ANON_GAMES_PER_HOUR``) and per client address
(``MATCHUP_ANON_GAMES_PER_HOUR_IP``, so clearing cookies does not reset it). A run's games are
charged when it starts, all at once. Signed-in users are not limited. The counters are shared by
every process (``deckwright.counters``) like every other limit's.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.conf import settings

from deckwright.counters import counter_add, window_hit

HOUR = 3600


class MatchupQuotaExceeded(Exception):
    """Starting these games would take an anonymous visitor over an hourly quota."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def matchup_quota_charge(
    *, user: Any, address: str, session_key: str, games: int, now: float | None = None
) -> None:
    """Count ``games`` against the visitor's hourly quotas, or raise ``MatchupQuotaExceeded``
    (charging nothing) when either quota would be passed."""
    if getattr(user, "is_authenticated", False):
        return
    now = time.time() if now is None else now
    limits = [
        ("session", f"quota:matchup-games:session:{session_key}", settings.MATCHUP_ANON_GAMES_PER_HOUR),
        ("address", f"quota:matchup-games:ip:{address}", settings.MATCHUP_ANON_GAMES_PER_HOUR_IP),
    ]  # fmt: skip
    charged: list[str] = []
    for what, name, limit in limits:
        total, seconds_left, counter = window_hit(name, HOUR, games, now=now, stagger=False)
        charged.append(counter)
        if total > limit:
            for done in charged:
                counter_add(done, -games, HOUR + 60)
            left = max(0, limit - (total - games))
            resets = dt.datetime.fromtimestamp(now + seconds_left, tz=dt.UTC)
            holder = "this browser" if what == "session" else "your address"
            raise MatchupQuotaExceeded(
                f"Visitors who are not logged in may start {settings.MATCHUP_ANON_GAMES_PER_HOUR} "
                f"games an hour per browser and {settings.MATCHUP_ANON_GAMES_PER_HOUR_IP} per "
                f"address. You asked for {games}; {holder} has {left} left until "
                f"{resets:%H:%M} UTC. Ask for fewer games, or log in (or sign up) to play "
                "without this limit.",
                seconds_left,
            )
