"""Deckwright on a phone (issue 34, item 7): at 375 px the main menu collapses behind a menu
button, and the play page of every game fits the width: a wide board scrolls inside itself,
never the page. Screenshots go to ``test-artifacts/phone-*.png``.

Uses the browser fixtures of ``tests/web/conftest.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

import pytest

from tests.web.browser import BROWSER_TESTS, TIMEOUT_MS, expect, log_in, shot
from tests.web.test_matchup_runs import GAMES, game_some_moves_in

pytestmark = BROWSER_TESTS

PHONE = {"width": 375, "height": 740}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    yield tab
    context.close()


def _page_width(tab) -> int:
    return int(tab.evaluate("document.scrollingElement.scrollWidth"))


def test_the_menu_collapses_behind_a_button_on_a_phone(phone, user, password):
    log_in(phone, user, password)
    menu = phone.get_by_role("button", name="Menu")
    play = phone.get_by_role("navigation", name="Main").get_by_role("link", name="Play")
    # at 375 px the links are behind the menu button, and the header is one line
    expect(menu).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(play).to_be_hidden()
    header = phone.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 80, header
    shot(phone, "phone-menu-closed")
    # the button opens them, and a link takes the player there
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(play).to_be_visible()
    assert _page_width(phone) <= PHONE["width"]
    shot(phone, "phone-menu-open")
    play.click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Play against the AI")


def test_the_menu_is_a_row_of_links_on_a_desktop(page, user, password):
    log_in(page, user, password)
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    expect(
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Play")
    ).to_be_visible()


@pytest.mark.parametrize("game", GAMES)
def test_every_games_play_page_fits_a_phone(phone, user, password, game):
    # given a game some moves in (the board has grown where the game has one)
    played = game_some_moves_in(user, game, 34, 40)
    # when the player opens it on a phone
    log_in(phone, user, password)
    phone.goto(f"/play/{played.pk}/")
    expect(phone.get_by_test_id("table")).to_be_visible()
    # then the page is no wider than the screen: a wide board scrolls inside itself
    assert _page_width(phone) <= PHONE["width"], game
    grid = phone.get_by_test_id("table-grid")
    if grid.count():
        box = phone.locator(".table-grid-wrap").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # and no card spills over its space onto the next one
        spilled = phone.evaluate(
            "() => Array.from(document.querySelectorAll('.table-cell'))"
            ".filter(c => c.scrollWidth > c.clientWidth + 1).length"
        )
        assert spilled == 0, f"{spilled} spaces of the {game} board hold cards wider than them"
    shot(phone, f"phone-play-{game}")


@pytest.mark.parametrize(
    "path",
    ["/help/query-language/", "/help/agents/", "/cards/?game=reign-absolute&view=list"],
)
def test_the_help_pages_and_a_games_card_filters_fit_a_phone(phone, path):
    phone.goto(path)
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    # the page is no wider than the screen: a wide table scrolls inside itself
    assert _page_width(phone) <= PHONE["width"], path
    shot(phone, "phone" + path.split("?")[0].rstrip("/").replace("/", "-"))
