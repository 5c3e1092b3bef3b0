"""Rate limits for anonymous and signed-in clients (429 with Retry-After).

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment: ``API_THROTTLE_ANON``,
``API_THROTTLE_USER``) and are read at request time, so a settings change applies at once.
"""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class _LiveRateMixin:
    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonymousRateThrottle(_LiveRateMixin, throttling.AnonRateThrottle):
    """Requests without a user, counted per client address."""


class UserRateThrottle(_LiveRateMixin, throttling.UserRateThrottle):
    """Requests of a signed-in user or token, counted per user."""
