"""The new-deck form in a real browser: changing the game changes the game formats and variants
offered (htmx fetches them from ``deck_new``), the new game's default format selected.

Uses the browser fixtures of ``tests/web/test_browser.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

from decks.models import Format
from decks.selectors import format_default
from decks.validation import rules_for
from tests.web.browser import BROWSER_TESTS, expect, log_in, shot
from tests.web.conftest import RNR

pytestmark = BROWSER_TESTS

RVR = "regality-vs-religion"


def offered(game: str) -> list[str]:
    """The game-format options the form should offer for ``game``: none, then its formats."""
    formats = Format.objects.filter(game__slug=game).order_by("-is_default", "name")
    return ["No format (construction rules only)", *(f.name for f in formats)]


def test_changing_the_game_changes_the_formats_offered(page, user, password):
    log_in(page, user, password)
    page.goto("/decks/new/")
    game_format = page.get_by_label("Game format")
    # given: the form opens on Revolt N Reign, its default format selected, no variant select
    expect(page.get_by_label("Game", exact=True)).to_have_value(RNR)
    expect(game_format.locator("option")).to_have_text(offered(RNR))
    expect(game_format).to_have_value(str(format_default(RNR).pk))
    expect(page.get_by_label("Variant")).to_have_count(0)
    # when: the player picks Regality vs Religion
    page.get_by_label("Game", exact=True).select_option(RVR)
    # then: its formats (and only them) are offered, its default selected, and its variants
    expect(game_format.locator("option")).to_have_text(offered(RVR))
    expect(game_format).to_have_value(str(format_default(RVR).pk))
    expect(page.get_by_label("Variant")).to_have_value(rules_for(RVR).default_variant)
    shot(page, "deck-new-game-formats")
    # and back to Revolt N Reign
    page.get_by_label("Game", exact=True).select_option(RNR)
    expect(game_format.locator("option")).to_have_text(offered(RNR))
    expect(page.get_by_label("Variant")).to_have_count(0)
