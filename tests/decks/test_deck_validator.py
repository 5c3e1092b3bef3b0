"""The deck validator behind ``validate``: built once per game, format, date and variant, and
renewed when the cards, sets or formats it was built from change (here at once, elsewhere
within the recheck window)."""

from __future__ import annotations

import datetime as dt

import pytest

from cards.caching import bump_generation
from cards.models import Card, CardSet
from cards.naming import name_key
from decks.models import Format, FormatCardEntry, FormatCardStatus
from decks.validation import base, deck_validator, validate
from decks.validation import formats as format_caches
from decks.validation import index as index_caches
from tests.decks.conftest import RNR, legal_rnr_deck

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 10, 1)


def test_one_validator_serves_every_deck_of_a_game_format_and_date(django_assert_num_queries):
    validator = deck_validator(RNR, "standard", AS_OF)

    with django_assert_num_queries(0):
        for _ in range(20):
            assert validate(RNR, legal_rnr_deck(), format="standard", as_of=AS_OF).legal
        assert deck_validator(RNR, "standard", AS_OF) is validator

    assert deck_validator(RNR, "standard", AS_OF - dt.timedelta(days=1)) is not validator
    assert deck_validator(RNR) is not validator


def test_the_validator_judges_as_validate_does():
    deck = legal_rnr_deck()
    deck["Eagle Dive"] = 3
    fmt = Format.objects.get(game__slug=RNR, slug="standard")

    by_slug = validate(RNR, deck, format="standard", as_of=AS_OF)
    by_row = validate(RNR, deck, format=fmt, as_of=AS_OF)
    by_validator = deck_validator(RNR, fmt.pk, AS_OF).validate(deck)

    assert by_slug.to_dict() == by_row.to_dict() == by_validator.to_dict()
    assert by_slug.format == "standard" and by_slug.as_of == AS_OF
    assert validate(RNR, deck, as_of=AS_OF).to_dict()["as_of"] == "2026-10-01"


def test_a_card_change_is_seen_by_the_next_validation():
    deck = legal_rnr_deck()
    assert validate(RNR, deck, format="standard", as_of=AS_OF).legal

    card = Card.objects.get(game__slug=RNR, name="Eagle Dive")
    card.name = "Eagle Dives"
    card.save()

    report = validate(RNR, deck, format="standard", as_of=AS_OF)
    assert report.codes == ["unknown-card"]


def test_a_set_change_is_seen_by_the_next_validation():
    deck = legal_rnr_deck()
    assert validate(RNR, deck, format="standard", as_of=AS_OF).legal

    card_set = Card.objects.get(game__slug=RNR, name="Eagle Dive").card_set
    card_set.release_date = AS_OF + dt.timedelta(days=1)  # not yet out on the day judged
    card_set.save()

    report = validate(RNR, deck, format="standard", as_of=AS_OF)
    assert "not-in-format" in report.codes
    assert CardSet.objects.get(pk=card_set.pk).release_date > AS_OF


def test_a_format_change_is_seen_by_the_next_validation():
    deck = legal_rnr_deck()
    assert validate(RNR, deck, format="standard", as_of=AS_OF).legal

    FormatCardEntry.objects.create(
        format=Format.objects.get(game__slug=RNR, slug="standard"),
        card=Card.objects.get(game__slug=RNR, name="Eagle Dive"),
        status=FormatCardStatus.BANNED,
        effective_from=dt.date(2026, 9, 1),
    )

    assert validate(RNR, deck, format="standard", as_of=AS_OF).codes == ["banned"]


def test_another_processs_change_is_seen_at_the_next_check_and_not_before(monkeypatch):
    # given a validator in use, and another process renaming a card and banning another: the
    # rows change without a signal here, and the shared generation counters move
    deck = legal_rnr_deck()
    assert validate(RNR, deck, format="standard", as_of=AS_OF).legal
    renamed = Card.objects.filter(game__slug=RNR, name="Eagle Dive")
    renamed.update(name="Eagle Dives", name_key=name_key("Eagle Dives"))
    FormatCardEntry.objects.bulk_create(
        [
            FormatCardEntry(
                format=Format.objects.get(game__slug=RNR, slug="standard"),
                card=Card.objects.get(game__slug=RNR, name="Signal Ridge"),
                status=FormatCardStatus.BANNED,
                effective_from=dt.date(2026, 9, 1),
            )
        ]
    )
    bump_generation(index_caches.GENERATION_KEY)
    bump_generation(format_caches.GENERATION_KEY)

    # when this process validates within its recheck window, then it judges as before
    monkeypatch.setattr(base, "RECHECK_SECONDS", 3600.0)
    assert validate(RNR, deck, format="standard", as_of=AS_OF).legal

    # when the window has passed, then the next validation sees both changes
    monkeypatch.setattr(base, "RECHECK_SECONDS", 0.0)
    report = validate(RNR, deck, format="standard", as_of=AS_OF)
    assert sorted(report.codes) == ["banned", "unknown-card"]


def test_a_validator_is_renewed_in_place_only_when_the_window_has_passed(monkeypatch):
    validator = deck_validator(RNR, "standard", AS_OF)
    monkeypatch.setattr(base, "RECHECK_SECONDS", 0.0)

    renewed = deck_validator(RNR, "standard", AS_OF)

    assert renewed is not validator
    assert renewed.index is validator.index and renewed.snapshot is validator.snapshot
