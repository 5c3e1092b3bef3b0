"""In Debian's chromium, under the Content-Security-Policy: the pages' own scripts still work
(htmx, the deck builder's add form, the delete confirmation, the replay's arrow keys) and the
browser reports no violation."""

from __future__ import annotations

import re

import pytest

from decks.models import Deck
from rules.lab.jobs import simulation_job_play_inline
from tests.web.browser import BROWSER_TESTS, expect, log_in
from tests.web.conftest import make_deck, store_matchup_job

pytestmark = [*BROWSER_TESTS, pytest.mark.django_db(transaction=True)]


def watch_violations(page) -> list[str]:
    """Console messages in which the browser reports a Content-Security-Policy violation."""
    seen: list[str] = []
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen


def test_the_deck_page_works_and_asks_before_deleting(page, user, password):
    violations = watch_violations(page)
    deck = make_deck(user, name="Kept Deck")
    log_in(page, user, password)
    page.goto(f"/decks/{deck.pk}/")
    # htmx runs: a card added by the form appears without a page load
    added = page.locator("li.deck-row[data-card='Boston Port Act']")
    expect(added).to_have_count(0)
    page.get_by_label("Card name").fill("Boston Port Act")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(added).to_be_visible()
    # the delete button asks first; saying no keeps the deck
    questions: list[str] = []

    def answer(dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.get_by_role("button", name="Delete deck").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kept Deck")
    assert questions == ["Delete this deck and its history?"]
    assert Deck.objects.filter(pk=deck.pk).exists()
    # saying yes deletes it
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.get_by_role("button", name="Delete deck").click()
    expect(page).not_to_have_url(re.compile(rf"/decks/{deck.pk}/$"))
    assert not Deck.objects.filter(pk=deck.pk).exists()
    assert violations == []


def test_the_replay_steps_with_the_arrow_keys(page, user, password):
    violations = watch_violations(page)
    a = make_deck(user, name="A")
    b = make_deck(user, name="B", sample_name="legal-bison-pressure")
    job = store_matchup_job(user, a, b, games=1, seed=2, dispatch=False)
    simulation_job_play_inline(job_id=job.pk)
    log_in(page, user, password)
    page.goto(f"/simulations/{job.pk}/games/1/")
    step = page.get_by_test_id("replay-step")
    expect(step).to_contain_text("Step 1 of")
    page.locator("body").press("ArrowRight")
    expect(step).to_contain_text("Step 2 of")
    page.locator("body").press("ArrowLeft")
    expect(step).to_contain_text("Step 1 of")
    assert violations == []
