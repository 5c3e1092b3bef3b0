"""Limits of the pages, on the shared counters: per address for the account pages (sign-up,
password reset), per client for the CPU-heavy pages (replays, test hands, play moves, playtest).

They use the REST API's throttle class (``accounts.throttling.AddressRateThrottle``) with the rates
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`` (read at request time), so the web and the API
count in the same shared counters (``common.counters``) and read client addresses the same
way. Over a limit the answer is the 429 page, with ``Retry-After``.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import math
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.throttling import AddressRateThrottle
from common.clientip import client_ip
from common.counters import counter_add, window_hit

#: the CPU-heavy pages' scopes (rates in DEFAULT_THROTTLE_RATES) and what the 429 page calls them
HEAVY_PAGES = {
    "replay": "replay steps",
    "test_hands": "test-hand requests",
    "play_move": "moves",
    "playtest": "playtest actions",
}


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


def client_limit_wait(request: HttpRequest, scope: str) -> int | None:
    """Count one request at ``scope`` for this client (the signed-in account, else the address);
    seconds to wait if over the limit (the refused request is not counted)."""
    throttle = AddressRateThrottle(scope)
    if throttle.rate is None:
        return None
    user = getattr(request, "user", None)
    who = f"user:{user.pk}" if user is not None and user.is_authenticated else client_ip(request)
    total, seconds_left, counter = window_hit(f"{scope}:client:{who}", throttle.duration)
    if total > throttle.num_requests:
        counter_add(counter, -1, throttle.duration + 60)
        return seconds_left
    return None


def heavy_page(scope: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view that costs CPU, limited per client at ``scope``'s rate (``HEAVY_PAGES``): over it,
    the 429 page. Put it below ``login_required``, so a redirect to log in is not counted."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            wait = client_limit_wait(request, scope)
            if wait is not None:
                signed_in = request.user.is_authenticated
                source = "your account" if signed_in else "your address"
                return rate_limited_page(request, HEAVY_PAGES[scope], wait, source=source)
            return view(request, *args, **kwargs)

        return limited

    return decorator


def rate_limited_page(
    request: HttpRequest, what: str, seconds: int, *, source: str = "your address"
) -> HttpResponse:
    """The 429 page: what was refused, from whom, and when to try again."""
    until = timezone.now() + dt.timedelta(seconds=seconds)
    minutes = max(1, math.ceil(seconds / 60))
    message = (
        f"Too many {what} from {source}. You can try again at {until:%H:%M} UTC "
        f"(in {minutes} minute{'s' if minutes != 1 else ''})."
    )
    context = {"title": "Please wait a while", "message": message}
    response = render(request, "web/rate_limited.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
