"""The test-hands page of a deck, for every game with a test-hands model."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from decks.models import DeckCard, Visibility
from rules import test_hands
from rules.engines.core import plugin_for
from tests.web.conftest import SAMPLES, make_deck
from web.testhands import deck_records

pytestmark = pytest.mark.django_db


def _legal_sample(game: str) -> str:
    return sorted(path.stem for path in (SAMPLES / game).glob("legal-*.txt"))[0]


def _deck(user, game: str, **kwargs):
    return make_deck(user, game=game, sample_name=_legal_sample(game), name="Sample", **kwargs)


def _url(deck) -> str:
    return reverse("deck-test-hands", args=[deck.pk])


@pytest.mark.parametrize("game", test_hands.games())
def test_every_game_with_a_model_deals_a_walk_and_a_summary(alice, user, game):
    # given: a legal sample deck of the game
    deck = _deck(user, game)
    # when: the page deals, keeps and plays a turn
    opening = alice.get(_url(deck), {"seed": 3})
    played = alice.get(_url(deck), {"seed": 3, "kept": "on", "turns": 1})
    summary = alice.get(_url(deck), {"hands": 3, "deal_seed": 2, "policy": "never"})
    # then: every step renders with the game's own figures and no "not available" message
    assert opening.status_code == 200, opening.content.decode()[:500]
    assert b"not available" not in opening.content
    assert not opening.context["walk"].error
    assert played.status_code == 200 and played.context["walk"].turns == 1
    assert b"After your turn 1" in played.content
    assert summary.status_code == 200
    report = summary.context["summary"]
    assert report.games == 3
    for label, value in report.figures:
        assert f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" in summary.content.decode()
    assert b"How the games ended" in summary.content
    # and how each game ended is said in the plugin's words, not as an engine code
    words = plugin_for(game).words
    assert report.wins
    for label in report.wins:
        result, _, reason = label.partition(": ")
        assert result in ("won", "lost", "drawn") and reason in words.end_reasons.values(), label
        assert escape(label) in summary.content.decode()


def test_the_deck_page_links_to_test_hands_for_reign_absolute(alice, user):
    deck = _deck(user, "reign-absolute")
    page = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert f'href="{_url(deck)}"' in page


def test_reign_absolute_shows_the_deal_then_the_placed_units(alice, user):
    deck = _deck(user, "reign-absolute")
    deal = alice.get(_url(deck), {"seed": 5})
    body = deal.content.decode()
    assert "The deal" in body and "Place the units" in body and "Mulligan</a>" not in body
    assert 'data-testid="hand"' not in body  # there is no hand in Reign Absolute
    placed = alice.get(_url(deck), {"seed": 5, "kept": "on"})
    assert b"Units placed" in placed.content and b"(Liege)" in placed.content


def test_rival_realms_offers_no_mulligan_and_only_the_never_policy(alice, user):
    deck = _deck(user, "rival-realms")
    response = alice.get(_url(deck), {"seed": 1})
    assert response.context["walk"].can_mulligan is False
    assert b">Mulligan</a>" not in response.content
    choices = response.context["summary_form"].fields["policy"].choices
    assert [name for name, _ in choices] == ["never"]


def test_the_summary_alone_comes_back_to_htmx(alice, user):
    deck = _deck(user, "rival-realms")
    response = alice.get(
        _url(deck), {"hands": 4, "deal_seed": 1, "policy": "never"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"Realm or unit deployed on turn 1" in response.content


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"hands": 0, "deal_seed": 1, "policy": "never"}, "greater than or equal to 1"),
        ({"hands": 5, "deal_seed": 1, "policy": "no-pillar"}, "Select a valid choice"),
        ({"hands": 501, "deal_seed": 1, "policy": "never"}, "less than or equal to 500"),
        ({"seed": 1, "kept": "on", "turns": 99}, "less than or equal to 40"),
        ({"seed": -4}, "greater than or equal to 0"),
    ],
)
def test_bad_input_is_a_400_with_a_clear_message(alice, user, query, message):
    deck = _deck(user, "rival-realms")
    response = alice.get(_url(deck), query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_deck_the_engine_cannot_play_says_why(alice, user):
    deck = make_deck(
        user, game="reign-absolute", sample_name="illegal-faction-size", name="Too small"
    )
    response = alice.get(_url(deck))
    assert response.status_code == 400
    assert b"cannot be played yet" in response.content
    assert b"faction deck" in response.content


def test_a_private_deck_of_another_user_is_not_found(client, other_user, user, password):
    deck = _deck(other_user, "reign-absolute", visibility=Visibility.PRIVATE)
    client.login(username=user.username, password=password)
    assert client.get(_url(deck)).status_code == 404
    assert (
        client.get(_url(deck), {"hands": 3, "deal_seed": 1, "policy": "never"}).status_code == 404
    )


def test_a_game_without_a_model_says_so_and_the_deck_page_has_no_link(alice, user, monkeypatch):
    # given: the registry could not import Rival Realms' model
    monkeypatch.setattr(test_hands, "_loaded", {"rival-realms": None})
    deck = _deck(user, "rival-realms")
    # then: the page says so and the deck page does not offer the link
    response = alice.get(_url(deck))
    assert response.status_code == 200
    assert b"not available for Rival Realms yet" in response.content
    page = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert f'href="{_url(deck)}"' not in page


def test_deck_records_carry_each_copy_and_its_zone(user):
    deck = _deck(user, "reggae-revolution")
    records = deck_records(deck)
    rows = DeckCard.objects.filter(deck=deck).select_related("card")
    assert len(records) == sum(row.quantity for row in rows)
    for row in rows:
        copies = [r for r in records if r["name"] == row.card.name and r["zone"] == row.zone]
        assert len(copies) == row.quantity
