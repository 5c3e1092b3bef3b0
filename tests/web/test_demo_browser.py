"""A first visit in a real browser: the home page leads to a sample deck of the demo set, and a
card page shows its rulings and generated art (screenshots in ``test-artifacts/``)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from cards.models import Card
from decks.demo import demo_deck_list
from tests.web.browser import BROWSER_TESTS, expect, shot

pytestmark = [*BROWSER_TESTS, pytest.mark.django_db(transaction=True)]


def test_a_new_visitor_opens_a_sample_deck_from_the_home_page(page) -> None:
    call_command("load_demo", stdout=io.StringIO())
    first = demo_deck_list().first()
    assert first is not None

    page.goto("/")
    samples = page.get_by_test_id("sample-decks")
    expect(samples).to_be_visible()
    shot(page, "demo-home")
    samples.get_by_role("link", name=first.name).click()

    expect(page.get_by_role("heading", level=1)).to_contain_text(first.name)
    shot(page, "demo-sample-deck")


def test_a_card_page_shows_its_rulings(page) -> None:
    card = Card.objects.get(game__slug="revolt-n-reign", name="Militia Bill")

    page.goto(card.get_absolute_url())

    expect(page.get_by_text("Damage printed against an opponent's Defense.")).to_be_visible()
    shot(page, "card-rulings-and-art")
