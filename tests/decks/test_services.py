"""Deck services: create from a decklist, set quantities, versions and diffs, clone, events."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from decks.decklist import DecklistParseError
from decks.models import Deck, DeckCard, Format, Registration, Visibility
from decks.selectors import deck_entries, deck_export, deck_validate, deck_version_diff
from decks.services import (
    DeckError,
    DeckPermissionError,
    RegistrationLockedError,
    deck_card_set,
    deck_cards_replace,
    deck_clone,
    deck_create,
    deck_hash,
    event_create,
    registration_submit,
    registration_withdraw,
)
from tests.decks.conftest import RNR, read_sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(player) -> Deck:
    return deck_create(
        owner=player,
        game=RNR,
        name="Eagle Control",
        decklist=read_sample(RNR, "legal-eagle-control"),
        format=Format.objects.get(game__slug=RNR, slug="standard"),
    )


def test_deck_create_from_a_decklist_stores_cards_and_version_one(deck):
    assert deck.version == 1
    assert sum(row.quantity for row in deck.cards.all()) == 60
    assert deck.versions.count() == 1
    assert deck_validate(deck, as_of=dt.date(2026, 10, 1)).legal


def test_deck_create_refuses_unknown_cards_with_suggestions(player):
    with pytest.raises(DeckError) as caught:
        deck_create(owner=player, game=RNR, name="Typo", decklist="2 Eagel Dive\n1 Stamp Act\n")

    assert len(caught.value.problems) == 1
    assert caught.value.problems[0].startswith(
        "line 1: 'Eagel Dive' is not a Revolt N Reign card (did you mean Eagle Dive"
    )
    assert not Deck.objects.filter(name="Typo").exists()


def test_deck_create_refuses_unreadable_text(player):
    with pytest.raises(DecklistParseError):
        deck_create(owner=player, game=RNR, name="Bad", decklist="0 Stamp Act\n")


def test_an_illegal_deck_can_be_saved_and_is_judged_illegal(player):
    deck = deck_create(owner=player, game=RNR, name="Work in progress", decklist="2 Stamp Act\n")

    report = deck_validate(deck)

    assert set(report.codes) == {"deck-size", "ua-count", "copy-limit"}


def test_deck_card_set_changes_one_quantity_and_records_a_version(deck):
    deck = deck_card_set(deck=deck, card="Eagle Dive", quantity=1)
    deck = deck_card_set(deck=deck, card="Signal Ridge", quantity=7)
    deck = deck_card_set(deck=deck, card="Stamp Act", quantity=0)

    assert deck.version == 4
    assert not DeckCard.objects.filter(deck=deck, card__name="Stamp Act").exists()
    assert deck_version_diff(deck, 1, 4) == {
        "from": 1,
        "to": 4,
        "added": [],
        "removed": [{"name": "Stamp Act", "zone": "", "quantity": 1}],
        "changed": [
            {"name": "Eagle Dive", "zone": "", "from": 2, "to": 1},
            {"name": "Signal Ridge", "zone": "", "from": 6, "to": 7},
        ],
    }
    assert [v.note for v in deck.versions.order_by("number")][1] == "Eagle Dive: 2 -> 1"


def test_setting_the_same_quantity_records_nothing(deck):
    deck = deck_card_set(deck=deck, card="Eagle Dive", quantity=2)

    assert deck.version == 1
    assert deck.versions.count() == 1


def test_only_the_owner_changes_a_deck(deck, other_player):
    with pytest.raises(DeckPermissionError):
        deck_card_set(deck=deck, card="Eagle Dive", quantity=1, actor=other_player)


def test_deck_card_set_refuses_bad_quantities_and_cards_of_other_games(deck):
    with pytest.raises(DeckError, match="whole number"):
        deck_card_set(deck=deck, card="Eagle Dive", quantity=-1)
    with pytest.raises(DeckError, match="not a Revolt N Reign card"):
        deck_card_set(deck=deck, card="King", quantity=1)


def test_replacing_the_decklist_records_one_version_and_a_diff(deck):
    deck = deck_cards_replace(deck=deck, decklist="3 Stamp Act\n1 Eagle Dive\n")

    assert deck.version == 2
    diff = deck_version_diff(deck, 1, 2)
    assert diff["changed"] == [
        {"name": "Eagle Dive", "zone": "", "from": 2, "to": 1},
        {"name": "Stamp Act", "zone": "", "from": 1, "to": 3},
    ]
    original = {e["name"] for e in deck.versions.get(number=1).entries}
    assert {row["name"] for row in diff["removed"]} == original - {"Stamp Act", "Eagle Dive"}
    assert [(e.name, e.quantity) for e in deck_entries(deck)] == [
        ("Eagle Dive", 1),
        ("Stamp Act", 3),
    ]


def test_clone_copies_cards_to_a_new_private_deck(deck, other_player):
    deck.visibility = Visibility.PUBLIC
    deck.save()

    clone = deck_clone(deck=deck, owner=other_player)

    assert clone.owner == other_player and clone.name == "Eagle Control (copy)"
    assert clone.visibility == Visibility.PRIVATE
    assert deck_export(clone) == deck_export(deck).replace(
        "# name: Eagle Control\n", "# name: Eagle Control (copy)\n"
    )
    assert clone.versions.get().note == "cloned from Eagle Control v1"


def test_a_private_deck_cannot_be_cloned_by_someone_else(deck, other_player):
    with pytest.raises(DeckPermissionError):
        deck_clone(deck=deck, owner=other_player)


def test_deck_hash_ignores_order_case_and_repeats_but_not_counts():
    a = deck_hash([("Stamp Act", 1), ("Eagle Dive", 2)])
    b = deck_hash([("eagle dive", 1), ("STAMP ACT", 1), ("Eagle-Dive", 1)])
    c = deck_hash([("Stamp Act", 1), ("Eagle Dive", 3)])

    assert a == b != c
    assert len(a) == 64


@pytest.fixture
def event(organiser):
    return event_create(
        game=RNR,
        format=Format.objects.get(game__slug=RNR, slug="standard"),
        name="Liberty Open",
        date=dt.date(2026, 10, 3),
        decklist_deadline=dt.datetime(2026, 10, 2, 18, 0, tzinfo=dt.UTC),
        organiser=organiser,
    )


def test_registration_stores_the_list_its_hash_and_verdict(event, other_player):
    text = read_sample(RNR, "legal-bison-pressure")
    before = dt.datetime(2026, 10, 1, 12, 0, tzinfo=dt.UTC)

    registration = registration_submit(event=event, player=other_player, decklist=text, now=before)

    assert registration.legal
    assert registration.decklist == text
    assert registration.deck_hash == deck_hash(registration_entries(registration))
    assert registration.verdict["format"] == "standard"
    assert registration.verdict["as_of"] == "2026-10-03"


def registration_entries(registration: Registration) -> list[tuple[str, int]]:
    return [(e["name"], e["quantity"]) for e in registration.entries]


def test_an_illegal_list_is_registered_with_its_violations(event, other_player):
    text = read_sample(RNR, "illegal-banned")
    before = dt.datetime(2026, 10, 1, 12, 0, tzinfo=dt.UTC)

    registration = registration_submit(event=event, player=other_player, decklist=text, now=before)

    assert not registration.legal
    assert [v["code"] for v in registration.verdict["violations"]] == ["banned"]


def test_after_the_deadline_a_registration_is_locked(event, other_player):
    before = dt.datetime(2026, 10, 1, 12, 0, tzinfo=dt.UTC)
    after = dt.datetime(2026, 10, 2, 18, 1, tzinfo=dt.UTC)
    first = registration_submit(
        event=event,
        player=other_player,
        decklist=read_sample(RNR, "legal-bison-pressure"),
        now=before,
    )

    with pytest.raises(RegistrationLockedError, match="deadline"):
        registration_submit(
            event=event,
            player=other_player,
            decklist=read_sample(RNR, "legal-eagle-control"),
            now=after,
        )
    with pytest.raises(RegistrationLockedError):
        registration_withdraw(registration=first, now=after)

    stored = Registration.objects.get(pk=first.pk)
    assert stored.deck_hash == first.deck_hash
    assert stored.decklist == read_sample(RNR, "legal-bison-pressure")


def test_resubmitting_before_the_deadline_replaces_the_list(event, other_player):
    before = dt.datetime(2026, 10, 1, 12, 0, tzinfo=dt.UTC)
    registration_submit(
        event=event, player=other_player, decklist=read_sample(RNR, "illegal-banned"), now=before
    )
    second = registration_submit(
        event=event,
        player=other_player,
        decklist=read_sample(RNR, "legal-bison-pressure"),
        now=before,
    )

    assert Registration.objects.filter(event=event).count() == 1
    assert second.legal


def test_an_event_format_must_belong_to_the_event_game(organiser):
    with pytest.raises(DeckError, match="another game"):
        event_create(
            game="rival-realms",
            format=Format.objects.get(game__slug=RNR, slug="standard"),
            name="Mismatch",
            date=dt.date(2026, 10, 3),
            decklist_deadline=timezone.now(),
            organiser=organiser,
        )
