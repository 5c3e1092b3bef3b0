"""Deck services: create from a decklist, set quantities, versions and diffs, clone (events:
tests/decks/test_events.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from decks.decklist import DecklistParseError
from decks.models import Deck, DeckCard, Format, Visibility
from decks.selectors import deck_entries, deck_export, deck_validate, deck_version_diff
from decks.services import (
    CardChange,
    DeckError,
    DeckPermissionError,
    deck_card_set,
    deck_cards_change,
    deck_cards_replace,
    deck_clone,
    deck_create,
    deck_hash,
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


def _count(deck: Deck, name: str) -> int:
    row = DeckCard.objects.filter(deck=deck, card__name=name).first()
    return row.quantity if row else 0


def test_card_changes_apply_in_order_as_one_version(deck, player):
    grievance = _count(deck, "Grievance Roll")
    changes = [
        CardChange(card="grievance roll", op="add", count=2),
        CardChange(card="Grievance Roll", op="remove", count=1),
        CardChange(card="Boston Port Act", op="set", count=1),
        CardChange(card="Stamp Act", op="set", count=0),
    ]
    changed = deck_cards_change(deck=deck, changes=changes, actor=player)
    assert changed.version == 2
    assert _count(deck, "Grievance Roll") == grievance + 1
    assert _count(deck, "Boston Port Act") == 1 and _count(deck, "Stamp Act") == 0
    note = deck.versions.get(number=2).note
    assert note.startswith(f"Grievance Roll: {grievance} -> {grievance + 2}")
    # a set to the count the deck already holds is no change: no version
    again = deck_cards_change(
        deck=deck, changes=[CardChange(card="Boston Port Act", op="set", count=1)], actor=player
    )
    assert again.version == 2


def test_card_changes_write_nothing_when_one_cannot_be_made(deck, player, other_player):
    changes = [
        CardChange(card="Grievance Roll", op="add", count=1),
        CardChange(card="Stamp Act", op="remove", count=5),
        CardChange(card="Stamp Act", op="double", count=1),
    ]
    with pytest.raises(DeckError) as caught:
        deck_cards_change(deck=deck, changes=changes, actor=player)
    assert [p.split(":")[0] for p in caught.value.problems] == ["change 2", "change 3"]
    deck.refresh_from_db()
    assert deck.version == 1 and deck.versions.count() == 1
    with pytest.raises(DeckPermissionError):
        deck_cards_change(deck=deck, changes=changes[:1], actor=other_player)


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
