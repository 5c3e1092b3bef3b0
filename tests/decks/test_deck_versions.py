"""Deck writes one after another (SQLite and PostgreSQL alike): adds and removals change counts in
the database, every write records a version, and a write made from a stale version is refused
when it would overwrite (``test_concurrency.py`` has the same outcomes with real threads)."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from decks.models import Deck, DeckCard, Format
from decks.selectors import deck_changes_since, deck_for_change
from decks.services import (
    DeckBusyError,
    DeckError,
    DeckPermissionError,
    DeckVersionConflict,
    _write,
    deck_card_add,
    deck_card_remove,
    deck_card_set,
    deck_cards_add,
    deck_cards_replace,
    deck_create,
    deck_delete,
    deck_details_update,
    deck_update,
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
    )


def count(deck: Deck, name: str) -> int:
    row = DeckCard.objects.filter(deck=deck, card__name=name).first()
    return row.quantity if row else 0


def version_numbers(deck: Deck) -> list[int]:
    return list(deck.versions.order_by("number").values_list("number", flat=True))


def test_n_single_adds_give_n_copies_and_n_versions(deck, player):
    before = count(deck, "Grievance Roll")
    for _ in range(5):
        deck_card_add(deck=deck, card="grievance roll", quantity=1, actor=player)
    deck.refresh_from_db()
    assert count(deck, "Grievance Roll") == before + 5
    assert deck.version == 6
    assert version_numbers(deck) == [1, 2, 3, 4, 5, 6]
    notes = list(deck.versions.order_by("number").values_list("note", flat=True))[1:]
    assert notes == [f"Grievance Roll: {before + i} -> {before + i + 1}" for i in range(5)]


def test_an_add_from_a_stale_copy_of_the_deck_still_counts(deck, player):
    # a writer holding the deck object from version 1 adds after two other adds
    stale = Deck.objects.get(pk=deck.pk)
    deck_card_add(deck=deck, card="Grievance Roll", actor=player)
    deck_card_add(deck=deck, card="Grievance Roll", actor=player)
    deck_card_add(deck=stale, card="Grievance Roll", actor=player)
    assert count(deck, "Grievance Roll") >= 3
    assert Deck.objects.get(pk=deck.pk).version == 4


def test_removing_copies_down_to_none_and_beyond(deck, player):
    deck_card_set(deck=deck, card="Eagle Dive", quantity=2, actor=player)
    deck_card_remove(deck=deck, card="Eagle Dive", actor=player)
    assert count(deck, "Eagle Dive") == 1
    deck_card_remove(deck=deck, card="Eagle Dive", actor=player)
    assert count(deck, "Eagle Dive") == 0
    version = Deck.objects.get(pk=deck.pk).version
    with pytest.raises(DeckError, match="holds 0 copies of Eagle Dive"):
        deck_card_remove(deck=deck, card="Eagle Dive", actor=player)
    assert Deck.objects.get(pk=deck.pk).version == version  # refused: nothing recorded


def test_an_add_past_999_copies_is_refused_and_changes_nothing(deck, player):
    deck_card_set(deck=deck, card="Eagle Dive", quantity=998, actor=player)
    with pytest.raises(DeckError, match="at most 999 copies of Eagle Dive"):
        deck_card_add(deck=deck, card="Eagle Dive", quantity=2, actor=player)
    assert count(deck, "Eagle Dive") == 998
    with pytest.raises(DeckError, match="at most 999 copies of Eagle Dive"):
        deck_cards_add(deck=deck, decklist="2 Eagle Dive\n1 Stamp Act\n", actor=player)
    assert count(deck, "Eagle Dive") == 998


def test_unknown_cards_and_zones_are_refused_with_suggestions(deck, player):
    with pytest.raises(DeckError, match="Did you mean Eagle Dive"):
        deck_card_add(deck=deck, card="Eagel Dive", actor=player)
    with pytest.raises(DeckError, match="whole number from 1 to 999"):
        deck_card_add(deck=deck, card="Eagle Dive", quantity=0, actor=player)


def test_pasting_in_add_mode_adds_every_line_as_one_version(deck, player):
    before = {name: count(deck, name) for name in ("Grievance Roll", "Eagle Dive")}
    deck_cards_add(deck=deck, decklist="1 Grievance Roll\n2 Eagle Dive\n", actor=player)
    deck_cards_add(deck=deck, decklist="1 Grievance Roll\n", actor=player)
    assert count(deck, "Grievance Roll") == before["Grievance Roll"] + 2
    assert count(deck, "Eagle Dive") == before["Eagle Dive"] + 2
    assert version_numbers(deck) == [1, 2, 3]
    assert deck.versions.get(number=2).note == "3 cards added from a decklist"


def test_a_stale_overwrite_is_refused_and_writes_nothing(deck, player):
    # given someone added a card after this writer read version 1
    deck_card_add(deck=deck, card="Grievance Roll", actor=player)
    cards_before = sorted(deck.cards.values_list("card__name", "quantity"))
    # when the writer replaces the list, sets a count or renames from version 1
    for write in (
        lambda: deck_cards_replace(
            deck=deck, decklist="2 Eagle Dive", actor=player, expected_version=1
        ),
        lambda: deck_card_set(
            deck=deck, card="Eagle Dive", quantity=0, actor=player, expected_version=1
        ),
        lambda: deck_details_update(deck=deck, actor=player, name="Mine", expected_version=1),
        lambda: deck_delete(deck=deck, actor=player, expected_version=1),
    ):
        with pytest.raises(DeckVersionConflict) as refused:
            write()
        assert refused.value.current == 2 and refused.value.expected == [1]
        assert "changed since you opened it" in str(refused.value)
    # then nothing changed
    fresh = Deck.objects.get(pk=deck.pk)
    assert (fresh.version, fresh.name) == (2, "Eagle Control")
    assert sorted(fresh.cards.values_list("card__name", "quantity")) == cards_before
    # and the same write from the current version goes through
    deck_cards_replace(deck=deck, decklist="2 Eagle Dive", actor=player, expected_version=2)
    assert list(deck.cards.values_list("card__name", "quantity")) == [("Eagle Dive", 2)]


def test_settings_changes_are_versions_with_a_note(deck, player):
    founding = Format.objects.get(game__slug=RNR, slug="founding")
    deck_details_update(deck=deck, actor=player, name="Renamed", visibility="public")
    deck_details_update(deck=deck, actor=player, name="Renamed", visibility="public")  # no change
    deck.refresh_from_db()
    assert deck.version == 2
    assert (
        deck.versions.get(number=2).note
        == "name: Eagle Control -> Renamed; visibility: private -> public"
    )
    deck_update(deck=deck, actor=player, format=founding, decklist="1 Stamp Act")
    note = Deck.objects.get(pk=deck.pk).versions.get(number=3).note
    assert note == f"decklist replaced; format: none -> {founding.name}"


def test_changes_since_lists_the_saves_and_the_card_diff(deck, player):
    deck_card_add(deck=deck, card="Grievance Roll", actor=player)
    deck_details_update(deck=deck, actor=player, name="Renamed")
    deck.refresh_from_db()
    changes = deck_changes_since(deck, 1)
    assert (changes.since, changes.current) == (1, 3)
    assert [number for number, _ in changes.saves] == [2, 3]
    assert changes.cards_changed
    rows = changes.diff["added"] + changes.diff["changed"]
    assert [row["name"] for row in rows] == ["Grievance Roll"]


def test_the_one_ownership_rule_for_reading_and_changing(deck, player, other_player):
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404

    assert deck_for_change(player, deck.pk) == deck
    with pytest.raises(Http404):  # private: others may not even see it
        deck_for_change(other_player, deck.pk)
    deck_details_update(deck=deck, actor=player, visibility="public")
    with pytest.raises(DeckPermissionError):  # public: they see it but may not change it
        deck_for_change(other_player, deck.pk)
    with pytest.raises(DeckPermissionError):
        deck_for_change(AnonymousUser(), deck.pk)
    with pytest.raises(DeckPermissionError):
        deck_card_add(deck=deck, card="Eagle Dive", actor=other_player)


def test_a_locked_sqlite_database_is_a_busy_error_not_a_crash():
    @_write
    def blocked() -> None:
        raise OperationalError("database is locked")

    @_write
    def broken() -> None:
        raise OperationalError("no such table: decks_deck")

    with pytest.raises(DeckBusyError, match="busy saving other changes"):
        blocked()
    with pytest.raises(OperationalError):  # other database errors are not disguised
        broken()
