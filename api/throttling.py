"""Rate limits for anonymous and signed-in clients (429 with Retry-After).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment: ``API_THROTTLE_ANON``,
``API_THROTTLE_USER``, ``API_THROTTLE_TOKEN``, ``SIGNUP_RATE``, ``PASSWORD_RESET_RATE``) and are
read at request time, so a settings change applies at once. Requests are counted in fixed windows
of the rate's period in counters every process shares (``deckwright.counters``: Redis or a
database table, atomic increments), and addresses come from ``deckwright.clientip`` (a forged
``X-Forwarded-For`` counts for nothing unless ``TRUSTED_PROXY_COUNT`` proxies vouch for it).

DRF's own throttles keep a list of timestamps per client and write it back whole, so processes
serving at once overwrite each other's counts; only the rate parsing and keys are DRF's here.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling
from rest_framework.settings import api_settings

from deckwright.clientip import drf_client_ip
from deckwright.counters import counter_add, window_hit


class _SharedCounterMixin:
    """Live rate, shared atomic counters and the trusted client address for a DRF throttle."""

    scope: str
    rate: str | None
    num_requests: int
    duration: int

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Any) -> str:
        return drf_client_ip(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        total, self._seconds_left, counter = window_hit(key, self.duration)
        if total > self.num_requests:
            # a refused request does not count, so Retry-After stays true for a client that obeys
            counter_add(counter, -1, self.duration + 60)
            return False
        return True

    def wait(self) -> float | None:
        return getattr(self, "_seconds_left", None)


class AnonymousRateThrottle(_SharedCounterMixin, throttling.AnonRateThrottle):
    """Requests without a user, counted per client address."""


class UserRateThrottle(_SharedCounterMixin, throttling.UserRateThrottle):
    """Requests of a signed-in user or token, counted per user."""


class AddressRateThrottle(_SharedCounterMixin, throttling.SimpleRateThrottle):
    """Requests to one sensitive endpoint (``scope``), counted per client address, signed in or
    not. Works on plain Django requests too, so the web's sign-up and reset pages share it."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenRateThrottle(AddressRateThrottle):
    """Password-for-token exchanges per address (on top of the log-in lockout)."""

    def __init__(self) -> None:
        super().__init__("token")
