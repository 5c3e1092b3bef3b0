"""Rival Realms: 40 cards, no more copies of a card than the set holds (Setup)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.decklist import decklist_read
from decks.validation import card_index, validate
from tests.decks.conftest import read_sample

pytestmark = pytest.mark.django_db
GAME = "rival-realms"


def legal() -> dict[str, int]:
    deck: dict[str, int] = {}
    for entry in decklist_read(read_sample(GAME, "legal-knights-and-keeps")).entries:
        deck[entry.name] = entry.quantity
    return deck


def test_the_sample_is_forty_legal_cards():
    report = validate(GAME, legal())

    assert report.legal and report.card_count == 40


@pytest.mark.parametrize("size", [39, 41])
def test_deck_size_is_exactly_forty(size):
    deck = legal()
    deck["Iron Tribute"] += size - 40  # Iron Tribute: 8 in the set, 8 in the deck

    report = validate(GAME, deck)

    expected = ["deck-size"] if size < 40 else ["copies-in-set", "deck-size"]
    assert sorted(report.codes) == expected
    assert report.violations[0].rule == "Setup"


def test_copies_in_set_limits_each_card():
    deck = legal()
    deck["Stone Keep"] = 3  # the set holds 2
    deck["Scout Rider"] -= 1
    deck["Grain Tithe"] -= 1
    deck = {n: q for n, q in deck.items() if q}

    report = validate(GAME, deck)

    assert report.codes == ["copies-in-set"]
    assert report.violations[0].message == (
        "Copies in set: 3 copies of Stone Keep, the card set holds 2 copies (Setup)"
    )


def test_several_breaks_are_all_reported():
    deck = legal()
    deck["Stone Keep"] = 3
    deck["Grand Castle"] = 2
    deck["Militia Man"] = 1

    report = validate(GAME, deck)

    assert sorted(report.codes) == ["copies-in-set", "copies-in-set", "deck-size", "unknown-card"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_decks_agree_with_an_independent_count(data):
    cards = list(Card.objects.filter(game__slug=GAME).values_list("name", "copies_in_set"))
    picks = data.draw(st.lists(st.sampled_from(cards), max_size=20, unique=True))
    deck = {name: data.draw(st.integers(1, limit + 1)) for name, limit in picks}

    report = validate(GAME, deck)

    expected = set()
    if sum(deck.values()) != 40:
        expected.add("deck-size")
    if any(deck[name] > limit for name, limit in picks):
        expected.add("copies-in-set")
    assert set(report.codes) == expected
    assert len(card_index(GAME).cards) == len(cards)
