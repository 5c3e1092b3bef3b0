"""A metagame job in a real browser, from the form to the heat map: three decks, two games a
pairing, random agents, played in-process (no broker) by the server's background thread.

Uses the browser fixtures of ``tests/web/test_browser.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

import re

from tests.rules.jobs_helpers import faction_decks
from tests.web.browser import BROWSER_TESTS, expect, log_in, shot

pytestmark = BROWSER_TESTS


def test_a_metagame_from_the_form_to_the_heat_map(page, user, password, settings):
    settings.CELERY_BROKER_URL = ""  # in-process, in the server's background thread
    decks = faction_decks(user, 3)
    log_in(page, user, password)
    page.get_by_role("link", name="Simulations").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Simulations")

    page.get_by_label("Game", exact=True).select_option("reign-absolute")
    for deck in decks:
        page.get_by_label(f"{deck.name} (Reign Absolute: Umbrous Edition, alice)").check()
    agent = page.get_by_label("Every deck played by")
    expect(agent).to_have_value("greedy")  # the game's own default agent
    expect(agent.locator("option[value=plan]")).to_be_disabled()  # Revolt N Reign's only
    agent.select_option("random")
    page.get_by_label("Games a pairing").fill("3")
    page.get_by_role("button", name="Start the simulation").click()
    # an odd number is refused beside its field, with the decks still picked
    expect(page.get_by_text(re.compile(r"Give an even number \(2 or 4\)"))).to_be_visible()
    shot(page, "simulation-form-error")
    for deck in decks:
        expect(
            page.get_by_label(f"{deck.name} (Reign Absolute: Umbrous Edition, alice)")
        ).to_be_checked()
    page.get_by_label("Games a pairing").fill("2")
    page.get_by_label("Games a pairing").press("Enter")  # the keyboard submits the form

    expect(page.get_by_role("heading", level=1)).to_have_text("Metagame of 3 decks")
    heat = page.get_by_test_id("heat-map")
    expect(heat).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("progress")).to_have_count(0, timeout=60_000)
    expect(heat.get_by_test_id("heat-cell")).to_have_count(6)  # every cell but the diagonal
    expect(heat.get_by_test_id("heat-cell").first).to_contain_text("2 games")
    expect(page.get_by_test_id("field").locator("tbody tr")).to_have_count(3)
    shot(page, "simulation-heat-map")

    # the job is listed under the form; the form and the job fit a phone's screen
    page.set_viewport_size({"width": 375, "height": 740})
    job_url = page.url
    page.goto("/simulations/")
    expect(page.get_by_test_id("recent-jobs")).to_contain_text("Metagame of 3 decks")
    for url in ("/simulations/", job_url):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{url} scrolls sideways on a phone ({width}px)"
    shot(page, "simulation-form-phone")
