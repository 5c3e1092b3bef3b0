"""The account pages in a real browser: the log-in lockout page and the API token page."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.web.browser import BROWSER_TESTS, expect, log_in, shot

pytestmark = BROWSER_TESTS


def test_the_log_in_lockout_says_when_to_come_back(page, user, password, settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = dt.timedelta(minutes=15)
    page.goto("/accounts/login/")
    for attempt in (*["wrong"] * 3, password):
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(attempt)
        page.get_by_role("button", name="Log in").click()
        if page.get_by_role("heading", level=1).inner_text() != "Log in":
            break
    expect(page.get_by_role("heading", level=1)).to_have_text("Log-in locked for a while")
    expect(page.get_by_role("alert")).to_contain_text("in 15 minutes")
    expect(page.get_by_role("link", name="reset it by email")).to_be_visible()
    shot(page, "login-locked-out")


@pytest.mark.django_db(transaction=True)
def test_the_api_token_page_creates_rotates_and_revokes(page, user, password):
    log_in(page, user, password)
    page.get_by_role("link", name="API token").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your API token")
    page.get_by_role("button", name="Create a token").click()
    first = page.locator("#api-token").inner_text()
    assert len(first) == 40
    page.get_by_role("button", name="Rotate (new token, old one stops working)").click()
    expect(page.locator(".messages")).to_contain_text("the old one no longer works")
    assert page.locator("#api-token").inner_text() != first
    shot(page, "api-token")
    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("You have no API token.")).to_be_visible()
