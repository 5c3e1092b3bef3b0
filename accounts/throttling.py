"""Rate limits for anonymous and signed-in clients (429 with Retry-After).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment: ``API_THROTTLE_ANON``,
``API_THROTTLE_USER``, ``API_THROTTLE_TOKEN``, ``SIGNUP_RATE``, ``PASSWORD_RESET_RATE``) and are
read at request time, so a settings change applies at once. Requests are counted in fixed windows
of the rate's period in counters every process shares (``common.counters``: Redis or a
database table, atomic increments), and addresses come from ``common.clientip`` (a forged
``X-Forwarded-For`` counts for nothing unless ``TRUSTED_PROXY_COUNT`` proxies vouch for it).

DRF's own throttles keep a list of timestamps per client and write it back whole, so processes
serving at once overwrite each other's counts; only the rate parsing and keys are DRF's here.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling
from rest_framework.settings import api_settings

from common.clientip import drf_client_ip
from common.counters import counter_add, window_hit, window_hits


class _SharedCounterMixin:
    """Live rate, shared atomic counters and the trusted client address for a DRF throttle."""

    scope: str | None
    rate: str | None
    num_requests: int
    duration: int

    def get_rate(self) -> str | None:
        if self.scope is None:
            return None
        # rates are "N/period" strings; DRF's stubs type them as numbers
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # type: ignore[return-value]

    def get_ident(self, request: Any) -> str:
        return drf_client_ip(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True  # unlimited: nothing is counted
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        hits = _view_hits(request, view)
        hit = hits.get((key, self.duration)) if hits is not None else None
        if hit is None:  # not one of the view's throttles (web/limits.py calls it alone)
            hit = window_hit(key, self.duration)
        total, self._seconds_left, counter = hit
        if total > self.num_requests:
            # a refused request does not count, so Retry-After stays true for a client that obeys
            counter_add(counter, -1, self.duration + 60)
            return False
        return True

    def wait(self) -> float | None:
        return getattr(self, "_seconds_left", None)


HITS_ATTRIBUTE = "_deckwright_throttle_hits"


def _view_hits(request: Any, view: Any) -> dict[tuple[str, int], tuple[int, int, str]] | None:
    """The window hits of every counting throttle of ``view`` for ``request``, counted together
    the first time one of them asks (one round trip to the counters for the request, where
    DRF's ``check_throttles`` would make one per throttle); None without a view."""
    if view is None or not hasattr(view, "get_throttles"):
        return None
    hits = getattr(request, HITS_ATTRIBUTE, None)
    if hits is None:
        limits = []
        for throttle in view.get_throttles():
            if isinstance(throttle, _SharedCounterMixin) and throttle.rate is not None:
                key = throttle.get_cache_key(request, view)  # type: ignore[attr-defined]
                if key is not None:
                    limits.append((key, throttle.duration))
        limits = list(dict.fromkeys(limits))
        hits = dict(zip(limits, window_hits(limits), strict=True))
        setattr(request, HITS_ATTRIBUTE, hits)
    return hits


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
