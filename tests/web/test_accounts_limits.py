"""Account pages under attack: log-in lockout, sign-up and reset limits; the API token page."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_strikes(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = dt.timedelta(minutes=15)


def _log_in(client, password, **extra):
    return client.post(reverse("login"), {"username": "alice", "password": password}, **extra)


def _signed_in(client) -> bool:
    return client.get(reverse("deck-list-mine")).status_code == 200


def test_the_right_password_after_too_many_wrong_ones_is_refused_with_when_to_retry(
    client, user, password, three_strikes
):
    # given three wrong passwords from one address
    for _ in range(3):
        _log_in(client, "wrong")
    # when the right one comes
    response = _log_in(client, password)
    # then the address is locked out, told why and when to try again, and not signed in
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    page = response.content.decode()
    assert "Too many failed log-ins" in page and "in 15 minutes" in page
    assert reverse("password_reset") in page
    assert not _signed_in(client)


def test_a_forged_forwarded_for_does_not_escape_the_lockout(client, user, password, three_strikes):
    for number in range(3):
        _log_in(client, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
    response = _log_in(client, password, HTTP_X_FORWARDED_FOR="192.0.2.77")
    assert response.status_code == 429


def test_after_the_cool_off_the_right_password_works(client, user, password, three_strikes):
    for _ in range(3):
        _log_in(client, "wrong")
    # the cool-off is counted from the last failure; move it 16 minutes into the past
    AccessAttempt.objects.update(attempt_time=timezone.now() - dt.timedelta(minutes=16))

    response = _log_in(client, password)

    assert response.status_code == 302
    assert _signed_in(client)


def test_logging_into_ones_own_account_does_not_reset_the_count(
    client, django_user_model, user, password, three_strikes
):
    # an attacker with an account of their own, guessing alice's password between log-ins
    django_user_model.objects.create_user("mallory", "m@example.com", "mallory-own-password-1")
    for _ in range(2):
        assert _log_in(client, "guess").status_code == 200
    own = client.post(
        reverse("login"), {"username": "mallory", "password": "mallory-own-password-1"}
    )
    assert own.status_code == 302
    client.post(reverse("logout"))
    assert _log_in(client, "guess").status_code == 429
    assert _log_in(client, password).status_code == 429


def test_a_wrong_password_below_the_limit_is_the_usual_form_error(client, user, three_strikes):
    response = _log_in(client, "wrong")
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content


@pytest.mark.parametrize("length", [256, 5000])
def test_a_name_longer_than_any_account_is_a_form_error_and_still_counts(client, length):
    # given a failed log-in whose name is wider than axes' username column (PostgreSQL checks it)
    response = client.post(reverse("login"), {"username": "x" * length, "password": "wrong"})
    # then it is the usual form error, and the failure is recorded under the name cut to fit
    assert response.status_code == 200
    attempt = AccessAttempt.objects.get()
    assert attempt.failures_since_start == 1
    assert attempt.username == "x" * 255


@pytest.fixture
def tight_account_rates(settings):
    rates = {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
        "signup": "2/hour",
        "password_reset": "2/hour",
    }
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_sign_ups_are_limited_per_address(client, tight_account_rates):
    for number in range(2):
        response = client.post(
            reverse("signup"),
            {
                "username": f"user{number}",
                "email": f"user{number}@example.com",
                "password1": "a-long-test-passphrase-42",
                "password2": "a-long-test-passphrase-42",
            },
        )
        assert response.status_code == 302
        client.post(reverse("logout"))

    response = client.post(
        reverse("signup"),
        {"username": "user9", "email": "u9@example.com", "password1": "a", "password2": "a"},
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )

    assert response.status_code == 429
    assert "Too many sign-up attempts from your address" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    # looking at the page is never limited
    assert client.get(reverse("signup")).status_code == 200


def test_password_resets_are_limited_per_address(client, user, tight_account_rates):
    statuses = [
        client.post(reverse("password_reset"), {"email": "alice@example.com"}).status_code
        for _ in range(3)
    ]
    assert statuses == [302, 302, 429]
    assert len(mail.outbox) == 2


def test_one_mailbox_is_not_flooded_from_many_addresses(client, user, tight_account_rates):
    statuses = [
        client.post(
            reverse("password_reset"),
            {"email": "Alice@Example.com"},
            REMOTE_ADDR=f"192.0.2.{number}",
        ).status_code
        for number in range(1, 4)
    ]
    assert statuses == [302, 302, 429]
    assert len(mail.outbox) == 2
    assert (
        "for this email"
        in client.post(
            reverse("password_reset"), {"email": "alice@example.com"}, REMOTE_ADDR="192.0.2.9"
        ).content.decode()
    )


def test_the_token_page_shows_creates_rotates_and_revokes(client, user):
    page = reverse("account-token")
    assert reverse("login") in client.get(page)["Location"]  # signed-in users only
    client.force_login(user)
    assert "You have no API token" in client.get(page).content.decode()

    client.post(page, {"action": "create"})
    first = Token.objects.get(user=user).key
    shown = client.get(page).content.decode()
    assert first in shown and "Expires" in shown

    client.post(page, {"action": "rotate"})
    second = Token.objects.get(user=user).key
    assert second != first

    client.post(page, {"action": "revoke"})
    assert not Token.objects.filter(user=user).exists()
    assert client.post(page, {"action": "explode"}).status_code == 400


def test_the_token_page_says_when_a_token_has_expired(client, user, settings):
    settings.API_TOKEN_TTL_DAYS = 7
    token = Token.objects.create(user=user)
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(days=8))
    client.force_login(user)
    assert "expired" in client.get(reverse("account-token")).content.decode()
