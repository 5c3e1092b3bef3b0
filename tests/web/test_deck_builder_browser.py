"""The deck builder in a real browser: the card preview on hover and keyboard focus, grouping,
the legality date, the odds calculator, folded clicks and revert; a screenshot of the builder of
each game in ``test-artifacts/deck-builder-<game>.png``.

Uses the browser fixtures of ``tests/web/test_browser.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

import re

import pytest

from decks.selectors import deck_entries
from decks.stats import deck_stats, hypergeometric_at_least
from decks.validation import rules_for
from tests.web.browser import BROWSER_TESTS, expect, log_in, shot
from tests.web.conftest import RNR, make_deck

pytestmark = BROWSER_TESTS

LEGAL_SAMPLES = {
    "revolt-n-reign": "legal-eagle-control",
    "regality-vs-religion": "legal-regality-standard",
    "reggae-revolution": "legal-full-setup",
    "reign-absolute": "legal-elves-grove",
    "rival-realms": "legal-arcane-court",
}


def _row(page, card: str):
    return page.locator(f'li.deck-row[data-card="{card}"]')


def _loaded(page, image) -> None:
    """Wait until the image has arrived and decoded (the renderer draws it on first request)."""
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )


def test_preview_grouping_date_calculator_and_revert(page, user, password):
    deck = make_deck(user, name="Banned Act", sample_name="illegal-banned")
    log_in(page, user, password)
    page.goto(f"/decks/{deck.pk}/?as_of=2026-10-01")

    # the full card shows while the name is hovered ...
    writs = _row(page, "Writs of Assistance")
    preview = writs.locator(".card-preview img")
    expect(preview).to_be_hidden()
    writs.locator(".card-link").hover()
    expect(preview).to_be_visible()
    _loaded(page, preview)
    page.mouse.move(5, 5)
    expect(preview).to_be_hidden()
    # ... and while it has keyboard focus (Tab from the row above), until Escape
    rows = page.locator("li.deck-row")
    names = rows.evaluate_all("rows => rows.map(r => r.dataset.card)")
    above = _row(page, names[names.index("Writs of Assistance") - 1])
    above.get_by_role("button", name=re.compile("^Remove ")).focus()
    page.keyboard.press("Tab")
    expect(writs.locator(".card-link")).to_be_focused()
    expect(preview).to_be_visible()
    page.keyboard.press("Escape")
    expect(preview).to_be_hidden()

    # the banned card's row says why; judged before the ban, it is fine
    expect(writs).to_have_class(re.compile("offending"))
    expect(writs.get_by_test_id("row-problems")).to_contain_text("banned")
    page.get_by_label("Legal on").fill("2026-05-15")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"as_of=2026-05-15"))
    expect(_row(page, "Writs of Assistance")).not_to_have_class(re.compile("offending"))

    # grouping by cost, remembered in the URL
    page.get_by_label("Group by").select_option("cost")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"group=cost"))
    headings = page.locator(".deck-list h3").all_inner_texts()
    costs = [int(m.group(1)) for h in headings if (m := re.match(r"IP cost (\d+)", h))]
    assert costs and costs == sorted(costs)

    # the calculator: at least 2 of two cards by turn 4
    picks = ["Common Pasture", "Buffalo Charge"]
    stats = deck_stats(RNR, deck_entries(deck))
    hits = sum(n for card, n in stats.draw_pile if card.name in picks)
    exact = hypergeometric_at_least(stats.draw_pile_size, hits, rules_for(RNR).cards_seen(4), 2)
    page.get_by_label("Any of these cards").select_option(picks)
    page.get_by_label("At least").fill("2")
    page.get_by_label("by turn").check()
    page.get_by_label("Turn (0: opening hand)").fill("4")
    page.get_by_role("button", name="Calculate").click()
    answer = page.get_by_test_id("odds-answer")
    expect(answer).to_contain_text(f"{float(exact) * 100:.1f}%")
    expect(answer).to_contain_text(f"exactly {exact.numerator}/{exact.denominator}")

    # three quick clicks make one version; revert to the first brings the deck back
    before = _row(page, "Common Pasture").get_by_test_id("qty").inner_text()
    for clicks in range(1, 4):
        _row(page, "Common Pasture").get_by_role("button", name="One more Common Pasture").click()
        expect(_row(page, "Common Pasture").get_by_test_id("qty")).to_have_text(
            str(int(before) + clicks)
        )
    expect(page.locator("#deck-status")).to_contain_text("version 2")
    page.get_by_role("link", name="version history").click()
    expect(page.locator("table.card-table tbody tr")).to_have_count(2)
    page.get_by_role("button", name="Revert to version 1").click()
    expect(page.get_by_text("Reverted to version 1: saved as version 3.")).to_be_visible()
    expect(_row(page, "Common Pasture").get_by_test_id("qty")).to_have_text(before)


@pytest.mark.parametrize("game", sorted(LEGAL_SAMPLES))
def test_builder_screenshot_of_each_game(page, user, password, game):
    deck = make_deck(user, name=f"Sample {game}", sample_name=LEGAL_SAMPLES[game], game=game)
    log_in(page, user, password)
    page.goto(f"/decks/{deck.pk}/")
    first = page.locator("li.deck-row").first
    expect(first.locator("img.card-thumb")).to_be_visible()
    # thumbnails load lazily as they scroll into view: load them all for a full-page screenshot
    page.locator("img.card-thumb").evaluate_all("imgs => imgs.forEach(i => i.loading = 'eager')")
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.card-thumb')]"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    first.locator(".card-link").hover()
    expect(first.locator(".card-preview img")).to_be_visible()
    _loaded(page, first.locator(".card-preview img"))
    shot(page, f"deck-builder-{game}")
