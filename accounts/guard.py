"""Password guessing at one account, from any number of addresses: slowed per account, without
locking the owner out, and the owner told at the next log-in.

The address lockout (django-axes, ``accounts.lockout``) stops one address guessing; this stops many
addresses sharing the guesses at one account. ``AccountGuardBackend`` stands in front of the
password check of the log-in page and of ``POST /api/v1/auth/token/``:

- A password check at an account is counted, per account name, in every tier of
  ``ACCOUNT_GUESS_RATES`` (default ``10/hour,30/day``), in the shared counters
  (``common.counters``: Redis when ``REDIS_URL`` is set, else a database table), whoever
  sends it. Once a tier is full the attempt is refused before the password is looked at (so a
  refusal says nothing about the password), until that tier's window ends: the wait grows from
  minutes (the hourly tier) to a day (the daily one). A successful log-in gives its count back;
  refused attempts do not count.
- Clients the owner used before are exempt, so nobody can lock a known user out: the addresses
  the account logged in from successfully (remembered ``ACCOUNT_KNOWN_DAYS``, default 90, from
  the last log-in from each), and browsers holding the signed device cookie the log-in page sets
  on success, as does setting a new password from the emailed reset link. They are still subject
  to the per-address lockout.
- Failed and refused attempts are counted per account until the owner's next successful log-in,
  which takes the counts: the page shows a message, the API's token answer a
  ``failed_attempts`` field.

Account names are hashed before they become counter names; names that match no account are
counted like real ones, so the answers tell nothing about which accounts exist.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest, HttpResponse

from common.clientip import client_ip
from common.counters import counter_add, counter_get, counter_take, counter_touch, window_hit

PREFIX = "account-guard"
NOTICE_SECONDS = 90 * 86400  # failed attempts wait this long for the owner's next log-in
DEVICE_COOKIE_PREFIX = "deckwright_known_"
# the salt keeps the name the module had, so device cookies signed before the move stay valid
DEVICE_SALT = "web.account_guard.device"
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*")
#: what a view finds on the request after ``authenticate``
WAIT_ATTRIBUTE = "account_guard_wait"
NOTICE_ATTRIBUTE = "account_guard_notice"
KEY_ATTRIBUTE = "account_guard_key"


@dataclass(frozen=True)
class GuessTier:
    count: int
    period: int


@dataclass(frozen=True)
class FailedAttempts:
    """Attempts at an account since its last successful log-in: wrong passwords, and attempts
    refused unchecked because the account's guess tiers were full."""

    failed: int
    refused: int

    @property
    def total(self) -> int:
        return self.failed + self.refused

    def message(self) -> str:
        plural = "s" if self.total != 1 else ""
        text = (
            f"{self.total} failed attempt{plural} to log in to your account since your last log-in"
        )
        if self.refused:
            text += f" ({self.refused} refused unchecked: too many guesses at your account)"
        return (
            f"{text}. If they were not you, someone may be guessing your password: choose a long, "
            "unique one (Change password)."
        )


def guess_tiers() -> list[GuessTier]:
    """``settings.ACCOUNT_GUESS_RATES`` (``["10/hour", "30/day"]``) as tiers."""
    tiers = []
    for rate in settings.ACCOUNT_GUESS_RATES:
        match = _RATE.fullmatch(rate)
        if not match or int(match.group(1)) < 1:
            raise ImproperlyConfigured(
                f"ACCOUNT_GUESS_RATES: {rate!r} is not <count>/<second|minute|hour|day>"
            )
        tiers.append(GuessTier(int(match.group(1)), PERIODS[match.group(2)]))
    return tiers


def account_key(username: str) -> str:
    """The account name as it appears in counter names: hashed, never in clear."""
    return hashlib.blake2b(username.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _address_key(address: str) -> str:
    return hashlib.blake2b(address.encode("utf-8"), digest_size=8).hexdigest()


def _known_address_counter(key: str, address: str) -> str:
    return f"{PREFIX}:known:{key}:{_address_key(address)}"


def device_cookie_name(key: str) -> str:
    return f"{DEVICE_COOKIE_PREFIX}{key[:16]}"


def _known_seconds() -> int:
    return settings.ACCOUNT_KNOWN_DAYS * 86400


def client_is_known(request: HttpRequest, key: str) -> bool:
    """Has the account logged in successfully from this browser (its signed device cookie) or
    this address before?"""
    cookie = request.COOKIES.get(device_cookie_name(key))
    if cookie:
        try:
            if signing.loads(cookie, salt=DEVICE_SALT, max_age=_known_seconds()) == key:
                return True
        except signing.BadSignature:
            pass
    address = client_ip(request)
    return bool(address) and counter_get(_known_address_counter(key, address)) > 0


def _reserve_guess(key: str) -> tuple[int | None, list[tuple[str, int]]]:
    """Count one password check at the account in every tier. Returns the seconds to wait when a
    tier is full (nothing stays counted then), else None and the counters to give back if the
    password proves right."""
    taken: list[tuple[str, int]] = []
    wait = 0
    for tier in guess_tiers():
        total, seconds_left, counter = window_hit(
            f"{PREFIX}:guesses:{key}:{tier.period}", tier.period
        )
        taken.append((counter, tier.period))
        if total > tier.count:
            wait = max(wait, seconds_left)
    if wait:
        _give_back(taken)
        return wait, []
    return None, taken


def _give_back(taken: list[tuple[str, int]]) -> None:
    for counter, period in taken:
        counter_add(counter, -1, period + 60)


def _remember_client(request: HttpRequest, key: str) -> None:
    address = client_ip(request)
    if address:
        counter_touch(_known_address_counter(key, address), _known_seconds())


class AccountGuardBackend(ModelBackend):
    """Django's password check, behind the per-account guess limit (module docstring).

    Only checks made with a request are guarded (the shell and the test client's ``login`` are
    not a guessing path); without one it leaves the check to ``ModelBackend`` after it. A wrong
    password or a refusal raises ``PermissionDenied``, which ends ``authenticate`` (so no later
    backend checks the password again) and still sends ``user_login_failed`` (so the address
    lockout counts it). A refusal leaves the wait on the request (``WAIT_ATTRIBUTE``); a success
    leaves what the owner should be told (``NOTICE_ATTRIBUTE``, a ``FailedAttempts`` or None).
    """

    def authenticate(  # type: ignore[override]
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if request is None:
            return None
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        key = account_key(str(username))
        taken: list[tuple[str, int]] = []
        if not client_is_known(request, key):
            wait, taken = _reserve_guess(key)
            if wait is not None:
                counter_add(f"{PREFIX}:refused:{key}", 1, NOTICE_SECONDS)
                setattr(request, WAIT_ATTRIBUTE, wait)
                raise PermissionDenied("too many guesses at this account")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            counter_add(f"{PREFIX}:failed:{key}", 1, NOTICE_SECONDS)
            raise PermissionDenied("wrong password")
        _give_back(taken)
        _remember_client(request, key)
        attempts = FailedAttempts(
            failed=counter_take(f"{PREFIX}:failed:{key}"),
            refused=counter_take(f"{PREFIX}:refused:{key}"),
        )
        setattr(request, NOTICE_ATTRIBUTE, attempts if attempts.total else None)
        setattr(request, KEY_ATTRIBUTE, key)
        return user


def refused_wait(request: HttpRequest) -> int | None:
    """Seconds to wait, when ``authenticate`` refused this request's attempt unchecked."""
    return getattr(request, WAIT_ATTRIBUTE, None)


def failed_attempts(request: HttpRequest) -> FailedAttempts | None:
    """What the owner who just logged in should be told, if anything."""
    return getattr(request, NOTICE_ATTRIBUTE, None)


def remember_device(
    request: HttpRequest, response: HttpResponse, *, username: str | None = None
) -> None:
    """Give the browser the account's signed device cookie: after a successful log-in (the
    account is the one ``authenticate`` let in), or with ``username`` after a password reset by
    the emailed link (the browser proved it reads the owner's mail)."""
    key = account_key(username) if username is not None else getattr(request, KEY_ATTRIBUTE, None)
    if key is None:
        return
    response.set_cookie(
        device_cookie_name(key),
        signing.dumps(key, salt=DEVICE_SALT),
        max_age=_known_seconds(),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def refused_message(seconds: int) -> str:
    """What a refused client reads."""
    minutes = max(1, round(seconds / 60))
    wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
    if minutes >= 120:
        hours = round(minutes / 60)
        wait = f"{hours} hours"
    return (
        "Too many failed log-ins at this account, from many addresses: log-ins from new "
        f"addresses are paused for it (try again in {wait}). Logging in from a browser or "
        "address you used before still works; or reset your password by email."
    )
