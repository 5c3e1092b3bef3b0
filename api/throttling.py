"""Rate limits for anonymous and signed-in clients (429 with Retry-After).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment: ``API_THROTTLE_ANON``,
``API_THROTTLE_USER``, ``API_THROTTLE_TOKEN``, ``SIGNUP_RATE``, ``PASSWORD_RESET_RATE``) and are
read at request time, so a settings change applies at once. Counters live in the shared "limits"
cache (``settings.LIMITS_CACHE``: Redis or a database table, never one process's memory) and
addresses come from ``deckwright.clientip`` (a forged ``X-Forwarded-For`` counts for nothing
unless ``TRUSTED_PROXY_COUNT`` proxies vouch for it).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework import throttling
from rest_framework.settings import api_settings

from deckwright.clientip import drf_client_ip


class _SharedCacheMixin:
    """Live rate, shared counters and the trusted client address for any DRF throttle."""

    scope: str

    @property
    def cache(self) -> Any:  # DRF reads ``self.cache``; looked up per use so tests can swap it
        return caches[settings.LIMITS_CACHE]

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Any) -> str:
        return drf_client_ip(request)


class AnonymousRateThrottle(_SharedCacheMixin, throttling.AnonRateThrottle):
    """Requests without a user, counted per client address."""


class UserRateThrottle(_SharedCacheMixin, throttling.UserRateThrottle):
    """Requests of a signed-in user or token, counted per user."""


class AddressRateThrottle(_SharedCacheMixin, throttling.SimpleRateThrottle):
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
