"""The signed-in user, typed: for the views, API views and sockets that serve only a signed-in
user (``login_required``, ``IsAuthenticated``, a consumer that closes on anonymous visitors)."""

from __future__ import annotations

from django.contrib.auth.models import User


def signed_in(user: object) -> User:
    """``request.user`` (or a socket's ``scope["user"]``) where it cannot be anonymous: the
    ``User`` behind it (a lazy object passes, as it proxies its class)."""
    assert isinstance(user, User), "only signed-in users reach here"
    return user
