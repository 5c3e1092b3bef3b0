"""Per-address limits of the account pages (sign-up, password reset), on the shared counters.

They use the REST API's throttle class (``api.throttling.AddressRateThrottle``) with the rates
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["signup" | "password_reset"]``, so the web and the API
count in the same shared counters (``deckwright.counters``) and read client addresses the same
way.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from api.throttling import AddressRateThrottle
from deckwright.counters import counter_add, window_hit


def address_limit_wait(request: HttpRequest, scope: str) -> int | None:
    """Count one attempt at ``scope`` from this address; seconds to wait if over the limit."""
    throttle = AddressRateThrottle(scope)
    if throttle.allow_request(request, None):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def email_limit_wait(email: str, scope: str) -> int | None:
    """Count one request about an email address (whoever sends it) at ``scope``'s rate; seconds
    to wait if over. Keeps a mailbox from being flooded from many client addresses at once."""
    throttle = AddressRateThrottle(scope)
    if throttle.rate is None or not email.strip():
        return None
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()[:32]
    total, seconds_left, counter = window_hit(f"{scope}:email:{digest}", throttle.duration)
    if total > throttle.num_requests:
        counter_add(counter, -1, throttle.duration + 60)
        return seconds_left
    return None


def rate_limited_page(request: HttpRequest, what: str, seconds: int) -> HttpResponse:
    """The 429 page: what was refused and when to try again."""
    until = timezone.now() + dt.timedelta(seconds=seconds)
    minutes = max(1, math.ceil(seconds / 60))
    message = (
        f"Too many {what} from your address. You can try again at {until:%H:%M} UTC "
        f"(in {minutes} minute{'s' if minutes != 1 else ''})."
    )
    context = {"title": "Please wait a while", "message": message}
    response = render(request, "web/rate_limited.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
