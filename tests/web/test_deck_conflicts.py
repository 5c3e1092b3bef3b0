"""The deck builder when the deck changed since the page was opened (another tab, another
device): overwrites are refused with a 409 that shows what changed and the current list; adds and
+/- clicks commute, so they are applied on top and the page says the deck had changed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import Deck
from decks.services import deck_card_add, deck_details_update
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db


def changed_elsewhere(deck: Deck, user) -> Deck:
    """Another tab adds a card: the deck moves from version 1 to 2."""
    return deck_card_add(deck=deck, card="Grievance Roll", quantity=1, actor=user)


def count(deck: Deck, name: str) -> int:
    row = deck.cards.filter(card__name=name).first()
    return row.quantity if row else 0


def test_every_builder_form_carries_the_version_shown(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    for form_id in ("add-version", "paste-version", "settings-version"):
        assert f'value="1" id="{form_id}"' in body
    assert body.count('name="version" value="1"') >= 3 + legal_deck.cards.count()


def test_after_an_htmx_change_the_forms_outside_the_panel_get_the_new_version(alice, legal_deck):
    response = alice.post(
        reverse("deck-card-add", args=[legal_deck.pk]),
        {"name": "Grievance Roll", "version": 1},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    for form_id in ("add-version", "paste-version", "settings-version"):
        assert f'value="2" id="{form_id}" hx-swap-oob="true"' in body


def test_a_stale_remove_is_refused_with_the_other_change_shown(alice, user, legal_deck):
    changed_elsewhere(legal_deck, user)
    response = alice.post(
        reverse("deck-card-set", args=[legal_deck.pk]),
        {"card": "Eagle Dive", "quantity": 0, "version": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "This deck changed since you opened it." in body
    assert "Nothing was changed" in body and "it is now at version 2" in body
    assert "version 2: Grievance Roll:" in body  # the other tab's save
    assert "Grievance Roll" in body.split('class="deck-diff"')[1]  # and its card change
    assert count(legal_deck, "Eagle Dive") > 0  # the remove did not happen
    assert Deck.objects.get(pk=legal_deck.pk).version == 2


def test_a_stale_replace_paste_is_refused_and_keeps_the_text(alice, user, legal_deck):
    changed_elsewhere(legal_deck, user)
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"decklist": "2 Eagle Dive", "mode": "replace", "kind": "text", "version": 1},
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "This deck changed since you opened it." in body
    assert "2 Eagle Dive</textarea>" in body  # the user's paste is still there to resubmit
    assert 'value="2" id="paste-version"' in body  # now on top of the version shown
    assert count(legal_deck, "Grievance Roll") >= 1


def test_stale_settings_are_refused_and_the_current_version_shown(alice, user, legal_deck):
    deck_details_update(deck=legal_deck, actor=user, name="Renamed in the other tab")
    response = alice.post(
        reverse("deck-settings", args=[legal_deck.pk]),
        {"name": "Mine", "visibility": "private", "format": "", "version": 1},
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "name: Eagle Control -&gt; Renamed in the other tab" in body
    assert Deck.objects.get(pk=legal_deck.pk).name == "Renamed in the other tab"
    # resubmitting from the page now shown (version 2) saves
    again = alice.post(
        reverse("deck-settings", args=[legal_deck.pk]),
        {"name": "Mine", "visibility": "private", "format": "", "version": 2},
    )
    assert again.status_code == 302
    assert Deck.objects.get(pk=legal_deck.pk).name == "Mine"


def test_a_stale_add_is_applied_on_top_and_says_the_deck_changed(alice, user, legal_deck):
    before = count(legal_deck, "Grievance Roll")
    changed_elsewhere(legal_deck, user)
    response = alice.post(
        reverse("deck-card-add", args=[legal_deck.pk]),
        {"name": "Grievance Roll", "version": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "changed since you opened it" in response.content.decode()
    assert count(legal_deck, "Grievance Roll") == before + 2


def test_plus_and_minus_buttons_change_by_one_copy(alice, user):
    deck = make_deck(user, name="Buttons")
    url = reverse("deck-card-set", args=[deck.pk])
    before = count(deck, "Eagle Dive")
    assert before >= 1
    alice.post(url, {"card": "Eagle Dive", "change": "1", "version": 1}, HTTP_HX_REQUEST="true")
    # a second tab, still at version 1, clicks + too: both count, and it is told
    second = alice.post(
        url, {"card": "Eagle Dive", "change": "1", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert second.status_code == 200 and "changed since you opened it" in second.content.decode()
    assert count(deck, "Eagle Dive") == before + 2
    alice.post(url, {"card": "Eagle Dive", "change": "-1", "version": 3}, HTTP_HX_REQUEST="true")
    assert count(deck, "Eagle Dive") == before + 1
    neither = alice.post(url, {"card": "Eagle Dive"}, HTTP_HX_REQUEST="true")
    assert neither.status_code == 422


def test_the_builder_page_lists_its_buttons_as_changes(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    assert 'name="change" value="1"' in body and 'name="change" value="-1"' in body
