"""The manual playtest of a Revolt N Reign deck (issue 18, point 4): draw, move cards between
zones, start again; no opponent and nothing stored but the session's layout."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.test_matchup_runs import two_decks

pytestmark = pytest.mark.django_db


def _zones(page) -> dict[str, list[str]]:
    return {zone["id"]: [name for _, name in zone["cards"]] for zone in page.context["zones"]}


def test_draw_play_and_move_cards_by_hand(alice, user):
    # given a Revolt N Reign deck: its 3 Unconstitutional Acts start in play, 57 cards to draw
    deck, _ = two_decks(user, "revolt-n-reign")
    url = reverse("deck-playtest", args=[deck.pk])
    assert f'href="{url}"' in alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    page = alice.get(url)
    assert page.status_code == 200
    assert len(_zones(page)["ua"]) == 3 and page.context["draw_count"] == 57
    # when two cards are drawn and the first is moved to the Pillars
    for _ in range(2):
        assert alice.post(url, {"op": "draw"}).status_code == 302
    hand = _zones(alice.get(url))["hand"]
    assert len(hand) == 2
    moved = alice.post(url, {"op": "move", "source": "hand", "index": 0, "target": "pillars"})
    assert moved.status_code == 302
    # then the card is in the Pillars and the page says so
    page = alice.get(url)
    assert _zones(page)["pillars"] == hand[:1] and _zones(page)["hand"] == hand[1:]
    assert page.context["draw_count"] == 55
    # a stale move (that card is gone) is refused and changes nothing
    stale = alice.post(url, {"op": "move", "source": "hand", "index": 5, "target": "discard"})
    assert stale.status_code == 400
    assert "no longer there" in stale.content.decode()
    assert _zones(alice.get(url)) == _zones(page)
    # starting again deals a fresh layout
    alice.post(url, {"op": "restart"})
    page = alice.get(url)
    assert page.context["draw_count"] == 57 and not _zones(page)["hand"]


def test_games_without_a_manual_playtest_say_so(alice, user):
    deck, _ = two_decks(user, "reign-absolute")
    page = alice.get(reverse("deck-playtest", args=[deck.pk]))
    assert page.status_code == 404
    assert "no manual playtest" in page.content.decode()
