"""The client's address, taken from ``X-Forwarded-For`` only as far as trusted proxies vouch for it.

Every address-keyed limit uses this one function: the REST API throttles, the log-in lockout
(django-axes' ``AXES_CLIENT_IP_CALLABLE``), the sign-up and password-reset limits and the quota on
anonymous visitors' games (matchups and every other simulation job). ``TRUSTED_PROXY_COUNT`` (environment, default 0) says how many reverse
proxies stand in front of the app, each appending the address it saw to ``X-Forwarded-For``:

- 0: no header is trusted, the address is ``REMOTE_ADDR`` (what the socket saw);
- n: the n-th address from the right of ``X-Forwarded-For`` (the one the outermost trusted proxy
  received the connection from). Anything a client wrote further left is ignored, so a forged
  header cannot make each request look like a new client.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The address limits are counted against (``REMOTE_ADDR`` unless proxies are trusted), always
    a valid IPv4 or IPv6 address, or "" when the request carries none."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [hop for hop in forwarded.split(",") if hop.strip()]
        if hops:
            # with fewer hops than proxies, the left-most is as far as the chain goes
            chosen = _valid(hops[-min(proxies, len(hops))])
            if chosen is not None:
                return chosen
    # No usable address (a Unix socket, a test request): "" - such clients share one counter.
    return _valid(remote) or ""


def axes_client_ip(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the same address, None when there is none (axes stores it in
    an IP column that takes no empty text on PostgreSQL)."""
    return client_ip(request) or None


def drf_client_ip(request: HttpRequest) -> str:
    """The same address for a DRF ``Request`` (which wraps the Django request)."""
    return client_ip(getattr(request, "_request", request))


#: the width of django-axes' ``AccessAttempt.username`` column (a varchar on PostgreSQL)
AXES_USERNAME_MAX = 255


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the name a failed log-in tried, cut to what axes can store.

    No account has a longer name, and without the cut a 300-character name made recording the
    failure itself fail (a 500 on PostgreSQL, which checks varchar widths).
    """
    name = credentials.get("username") if credentials else request.POST.get("username")
    return None if name is None else str(name)[:AXES_USERNAME_MAX]
