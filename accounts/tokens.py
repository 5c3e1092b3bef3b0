"""API tokens that expire and can be rotated or revoked; the authentication class that checks them.

A user has at most one token (DRF's ``authtoken.Token``). It is valid for
``settings.API_TOKEN_TTL_DAYS`` days from when it was issued; after that every request with it is a
401 ``token-expired`` problem until the user asks for a new one (password exchange, rotation or the
account page). Writes follow the services convention: ``token_issue``, ``token_rotate``,
``token_revoke``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

TOKEN_EXPIRED_CODE = "token-expired"


def token_lifetime() -> dt.timedelta:
    return dt.timedelta(days=settings.API_TOKEN_TTL_DAYS)


def token_expires_at(token: Token) -> dt.datetime:
    """When ``token`` stops being accepted."""
    return token.created + token_lifetime()


def token_is_expired(token: Token, now: dt.datetime | None = None) -> bool:
    return (now or timezone.now()) >= token_expires_at(token)


def token_for_user(user: User) -> Token | None:
    """The user's token, expired or not (None when they have none)."""
    return Token.objects.filter(user=user).first()


@transaction.atomic
def token_issue(*, user: User) -> Token:
    """The user's valid token: the current one while it lasts, else a new one."""
    token = Token.objects.select_for_update().filter(user=user).first()
    if token is not None and not token_is_expired(token):
        return token
    if token is not None:
        token.delete()
    return Token.objects.create(user=user)


@transaction.atomic
def token_rotate(*, user: User) -> Token:
    """A new token for the user; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def token_revoke(*, user: User) -> bool:
    """Delete the user's token (log out every script using it); False when there was none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, refused with ``token-expired`` once the token is too old."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if token_is_expired(token):
            expired = token_expires_at(token)
            raise exceptions.AuthenticationFailed(
                f"The token expired on {expired:%Y-%m-%d %H:%M} UTC. Get a new one with "
                "POST /api/v1/auth/token/ (username and password).",
                code=TOKEN_EXPIRED_CODE,
            )
        return user, token
