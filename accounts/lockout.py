"""Log-in lockout (django-axes): who is locked out, and the answer they get.

``settings.AXES_*`` configure it (failure limit, cool-off, keyed by client address). Axes counts
failed ``authenticate`` calls made with a request: the log-in page's and the API's password-for-
token exchange (``api.views.auth``). A locked-out address gets ``lockout_response``: a page (or,
under ``/api/``, a problem) with status 429, a ``Retry-After`` header and the time to try again.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone

from common.problems import PROBLEM_CONTENT_TYPE, problem

LOCKED_OUT_CODE = "locked-out"


class LockoutBackend(AxesStandaloneBackend):
    """Axes' gatekeeper for requests; ``authenticate`` without a request (the shell, the test
    client's ``login``) is no brute-force path, so it is left to the next backend."""

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


def retry_after_seconds(request: HttpRequest | None = None) -> int:
    """Seconds until a locked-out address may try again.

    Axes answers a lockout right after recording the attempt that hit it (a failure during the
    lockout restarts the wait), so the wait is the whole cool-off from now.
    """
    cool_off = get_cool_off(request) or dt.timedelta(minutes=15)
    return max(1, int(cool_off.total_seconds()))


def lockout_message(seconds: int) -> str:
    """What a locked-out client reads: why, and when to try again (UTC)."""
    until = timezone.now() + dt.timedelta(seconds=seconds)
    minutes = max(1, round(seconds / 60))
    return (
        "Too many failed log-ins from your address. You can try again at "
        f"{until:%H:%M} UTC (in {minutes} minute{'s' if minutes != 1 else ''}); "
        "each failed attempt until then restarts the wait."
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """Axes' ``AXES_LOCKOUT_CALLABLE``: a 429 page, or a problem under ``/api/``."""
    seconds = retry_after_seconds(request)
    message = lockout_message(seconds)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            problem(429, message, code=LOCKED_OUT_CODE, request=request, retry_after=seconds),
            status=429,
            content_type=PROBLEM_CONTENT_TYPE,
        )
    else:
        context = {"message": message, "retry_after": seconds}
        response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
