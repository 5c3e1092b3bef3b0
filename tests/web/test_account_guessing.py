"""Guessing at one account from many addresses (accounts.guard): slowed per account, never
locking its owner out, and the owner told at the next log-in; on the shared counter stores."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from tests.counter_stores import STORES, redis_test_url, shared_counter_store

pytestmark = pytest.mark.django_db

# this file's own Redis database, flushed only here (11 is test_limits', 13 the matchup tasks')
REDIS_URL = redis_test_url("account_guessing")
ATTACKERS = 40
GUESSES_EACH = 4  # below the per-address lockout (5), so only the per-account limit can stop them
OWNER_HOME = "192.0.2.10"


@pytest.fixture(params=STORES)
def shared_counters(request, settings):
    """The guess counts in a store every process shares, as in production."""
    settings.ACCOUNT_GUESS_RATES = ["10/hour", "30/day"]
    with shared_counter_store(request.param, settings, REDIS_URL):
        yield request.param


def log_in(client, password: str, address: str):
    return client.post(
        reverse("login"), {"username": "alice", "password": password}, REMOTE_ADDR=address
    )


def attack(client) -> list[int]:
    """40 addresses guess 4 times each at alice's password; the status of every guess."""
    return [
        log_in(client, f"guess-{address}-{guess}", f"203.0.113.{address + 1}").status_code
        for address in range(ATTACKERS)
        for guess in range(GUESSES_EACH)
    ]


def test_guesses_from_forty_addresses_are_refused_and_the_owner_still_logs_in(
    client, user, password, shared_counters
):
    # given alice logged in once from home
    owner = type(client)()
    assert log_in(owner, password, OWNER_HOME).status_code == 302
    owner.post(reverse("logout"))
    # when 40 addresses guess 4 times each (160 guesses)
    statuses = attack(client)
    # then the password was checked for the first few only: the rest were refused unchecked
    checked = statuses.count(200)  # the usual "wrong password" form
    refused = statuses.count(429)
    assert checked + refused == ATTACKERS * GUESSES_EACH
    assert checked <= 30 and refused >= 130
    # and a right guess now, from a new address, is refused like the others: it tells nothing
    newcomer = type(client)()
    late = log_in(newcomer, password, "198.51.100.200")
    assert late.status_code == 429 and int(late["Retry-After"]) > 0
    assert "Too many failed log-ins at this account" in late.content.decode()
    # when alice logs in from home with her password
    back = log_in(owner, password, OWNER_HOME)
    # then she is in, and the next page tells her of the attempts
    assert back.status_code == 302
    page = owner.get(back["Location"]).content.decode()
    assert f"{ATTACKERS * GUESSES_EACH + 1} failed attempts to log in to your account" in page
    assert f"{refused + 1} refused unchecked" in page
    # told once: the next log-in has nothing to report
    owner.post(reverse("logout"))
    again = log_in(owner, password, OWNER_HOME)
    assert "failed attempts" not in owner.get(again["Location"]).content.decode()


def test_a_browser_the_owner_used_before_works_from_a_new_address(
    client, user, password, shared_counters
):
    # given alice's laptop logged in once (it keeps the device cookie), then the attack
    laptop = type(client)()
    assert log_in(laptop, password, "192.0.2.20").status_code == 302
    laptop.post(reverse("logout"))
    attack(client)
    # when she logs in from the laptop at a café (an address the account never used)
    response = log_in(laptop, password, "198.51.100.33")
    # then she is in
    assert response.status_code == 302


def test_a_new_browser_that_resets_the_password_by_email_logs_in_during_the_attack(
    client, user, shared_counters
):
    # given guessing that paused log-ins at alice's account from anywhere new
    attack(client)
    phone = type(client)()
    address = "198.51.100.44"
    assert log_in(phone, "whatever", address).status_code == 429
    # when she resets her password from the emailed link on a phone she never used
    phone.post(reverse("password_reset"), {"email": "alice@example.com"}, REMOTE_ADDR=address)
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mail.outbox[-1].body).group(1)
    form = phone.get(link, REMOTE_ADDR=address, follow=True)
    new_password = "a-brand-new-passphrase-77"
    done = phone.post(
        form.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
        REMOTE_ADDR=address,
    )
    assert done.status_code == 302
    # then that phone logs in with the new password, though the account is still paused elsewhere
    assert log_in(phone, new_password, address).status_code == 302
    assert log_in(type(client)(), new_password, "198.51.100.45").status_code == 429


def test_the_api_refuses_the_guesses_and_tells_the_owner(user, password, shared_counters, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "token": "1000/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    url = "/api/v1/auth/token/"
    owner = APIClient(REMOTE_ADDR=OWNER_HOME)
    first = owner.post(url, {"username": "alice", "password": password}, format="json")
    assert first.status_code == 200 and first.json()["failed_attempts"] == 0
    statuses = []
    for address in range(ATTACKERS):
        guesser = APIClient(REMOTE_ADDR=f"203.0.113.{address + 1}")
        for guess in range(GUESSES_EACH):
            body = {"username": "alice", "password": f"guess-{address}-{guess}"}
            statuses.append(guesser.post(url, body, format="json").status_code)
    assert statuses.count(400) <= 30 and statuses.count(429) >= 130
    refused = APIClient(REMOTE_ADDR="198.51.100.7").post(
        url, {"username": "alice", "password": password}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["code"] == "account-guarded" and refused.json()["retry_after"] > 0
    # the owner's script, from the address it used before, still gets its token and the count
    back = owner.post(url, {"username": "alice", "password": password}, format="json")
    assert back.status_code == 200
    assert back.json()["failed_attempts"] == ATTACKERS * GUESSES_EACH + 1


def test_an_account_name_that_does_not_exist_is_answered_the_same(client, shared_counters):
    # guessing at a name no account has is slowed the same way, so answers reveal no accounts
    statuses = [
        client.post(
            reverse("login"),
            {"username": "nobody-here", "password": f"guess-{n}"},
            REMOTE_ADDR=f"203.0.113.{n + 1}",
        ).status_code
        for n in range(12)
    ]
    assert statuses == [200] * 10 + [429] * 2
