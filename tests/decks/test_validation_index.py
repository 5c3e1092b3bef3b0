"""The cached card index behind validation: built once, dropped when cards change."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks.validation import card_index, validate
from tests.decks.conftest import RNR, legal_rnr_deck

pytestmark = pytest.mark.django_db


def test_the_index_is_built_once_and_reused(django_assert_num_queries):
    card_index(RNR)

    with django_assert_num_queries(0):
        for _ in range(50):
            validate(RNR, legal_rnr_deck())


def test_a_renamed_card_is_seen_by_the_next_validation():
    deck = legal_rnr_deck()
    assert validate(RNR, deck).legal

    card = Card.objects.get(game__slug=RNR, name="Eagle Dive")
    card.name = "Eagle Dives"
    card.save()

    report = validate(RNR, deck)
    assert report.codes == ["unknown-card"]
    assert report.violations[0].details["suggestions"][0] == "Eagle Dives"


def test_a_card_whose_type_changes_is_judged_by_its_new_type():
    deck = legal_rnr_deck()
    card = Card.objects.get(game__slug=RNR, name="Right to Trade")
    card.card_type = card.card_type.__class__.objects.get(game__slug=RNR, slug="bill")
    card.save()

    assert validate(RNR, deck).legal  # 3 Bills now: at the cap, still legal
    deck["Census Bill"] = 1
    deck["Signal Ridge"] -= 1
    assert validate(RNR, deck).codes == ["bill-cap"]


def test_a_game_without_a_rules_module_gets_the_common_checks(card_factory, game_factory):
    game = game_factory(slug="house-game", name="House Game")
    card_factory(game=game, name="Lantern")

    report = validate(game, {"Lantern": 5, "Lanturn": 1})

    assert report.codes == ["unknown-card"]
    assert report.violations[0].details["suggestions"] == ["Lantern"]
    assert report.card_count == 6


def test_a_table_derived_from_the_index_is_built_once_per_index():
    # CardIndex.derived keeps GameRules.table's and known_headers' tables: built on first use,
    # kept while the index lives (even a table that is None), rebuilt for a new index
    from decks.validation.records import CardIndex

    built: list[CardIndex] = []

    def build(index: CardIndex) -> None:
        built.append(index)

    index = card_index(RNR)
    assert index.derived("test:none", build) is None
    assert index.derived("test:none", build) is None
    assert built == [index]

    card = Card.objects.get(game__slug=RNR, name="Eagle Dive")
    card.name = "Eagle Dives"
    card.save()  # the index is dropped and built again
    fresh = card_index(RNR)
    assert fresh is not index
    fresh.derived("test:none", build)
    assert built == [index, fresh]
