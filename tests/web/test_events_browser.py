"""The event form in a real browser: the time zone comes from the browser, is shown beside the
deadline box, and the deadline typed is read in it (static/js/event-time-zone.js).

Uses the browser fixtures of ``tests/web/test_browser.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterator

import pytest
from django.utils import timezone

from decks.models import Event
from tests.web.browser import BROWSER_TESTS, TIMEOUT_MS, expect, shot

pytestmark = BROWSER_TESTS

ORGANISER_PASSWORD = "pw-olga-organiser"  # tests/conftest.py's organiser fixture
PARIS = zoneinfo.ZoneInfo("Europe/Paris")


@pytest.fixture
def tokyo_page(browser, live_server) -> Iterator[object]:
    """A page in a browser whose clock says Asia/Tokyo."""
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, timezone_id="Asia/Tokyo"
    )
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_the_browser_zone_is_preselected_shown_and_used(tokyo_page, organiser):
    page = tokyo_page
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(ORGANISER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto("/events/new/")

    zone = page.get_by_label("Time zone")
    label = page.locator("[data-time-zone-label]")
    expect(zone).to_have_value("Asia/Tokyo")
    expect(label).to_have_text("Asia/Tokyo")
    zone.select_option("Europe/Paris")
    expect(label).to_have_text("Europe/Paris")

    day = timezone.localdate() + dt.timedelta(days=6)
    page.get_by_label("Name").fill("Browser Cup")
    page.get_by_label("Format").select_option(label="Standard")
    page.get_by_label("Date").fill(day.isoformat())
    page.get_by_label("Decklist deadline").fill(f"{day - dt.timedelta(days=1)}T18:00")
    shot(page, "event-new-time-zone")
    page.get_by_role("button", name="Create event").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Browser Cup")
    expect(page.get_by_text(f"{day - dt.timedelta(days=1)} 18:00 Europe/Paris")).to_be_visible()
    event = Event.objects.get(name="Browser Cup")
    assert event.time_zone == "Europe/Paris"
    typed = dt.datetime.combine(day - dt.timedelta(days=1), dt.time(18), tzinfo=PARIS)
    assert event.decklist_deadline == typed.astimezone(dt.UTC)
    shot(page, "event-detail-time-zone")
