"""The manual playtest of every game (issue 18, point 4; issue 34, item 4): the opening as the
game's engine deals it (hand size, mulligans where the game has them, setup zones), then draw,
move, turn cards, keep the game's scores, undo and start again; no opponent, nothing stored but
the session's layout."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from rules.engines.core import plugin_for
from rules.engines.regality_vs_religion.game import RvRGame
from rules.engines.reggae_revolution.state import HAND_SIZE as REGGAE_HAND
from rules.engines.reggae_revolution.state import MAX_REDRAWS
from rules.engines.revolt_n_reign.state import MAX_MULLIGANS, OPENING_HAND, START_LP
from rules.engines.rival_realms.state import HAND_SIZE as REALMS_HAND
from rules.engines.rival_realms.state import STARTING_LIFE
from tests.rules.doctor_helpers import decks
from tests.web.test_matchup_runs import two_decks

pytestmark = pytest.mark.django_db

GAMES = ["revolt-n-reign", "rival-realms", "reggae-revolution", RvRGame.slug, "reign-absolute"]


def _zones(page) -> dict[str, list[str]]:
    return {zone["id"]: [card["name"] for card in zone["cards"]] for zone in page.context["zones"]}


def _counters(page) -> dict[str, int]:
    return {counter["name"]: counter["value"] for counter in page.context["counters"]}


def _open(client, user, game: str):
    deck, _ = two_decks(user, game)
    url = reverse("deck-playtest", args=[deck.pk])
    return deck, url, client.get(url)


@pytest.mark.parametrize(
    ("game", "hand", "mulligans", "counters"),
    [
        ("revolt-n-reign", OPENING_HAND, MAX_MULLIGANS, {"LP": START_LP, "IP": 0}),
        ("rival-realms", REALMS_HAND, 0, {"Life": STARTING_LIFE, "Supply": 0}),
        (
            "reggae-revolution",
            REGGAE_HAND,
            MAX_REDRAWS,
            {"Peace": 0, "Love": 0, "Unity": 0, "Respect": 0},
        ),
        (RvRGame.slug, 0, 0, {"Allies": 0, "Victories": 0}),
        ("reign-absolute", 0, 0, {"Reinforcements drawn": 0}),
    ],
)
def test_the_opening_is_the_engines(alice, user, game, hand, mulligans, counters):
    # given a legal sample deck of the game
    deck, url, page = _open(alice, user, game)
    rules = plugin_for(game).playtest
    assert rules is not None
    # then the deck page links to its playtest, and the opening is dealt as the engine deals it
    assert f'href="{url}"' in alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert page.status_code == 200
    assert rules.opening_hand == hand and rules.mulligans == mulligans
    zones = _zones(page)
    if rules.hand:
        assert len(zones[rules.hand]) == hand
    assert sum(map(len, zones.values())) == sum(line.quantity for line in deck.cards.all())
    # the mulligan is offered only where the game has one, under its own name
    html = page.content.decode()
    assert ('data-testid="playtest-mulligan"' in html) == bool(mulligans)
    # the counters are the game's scores at their starting values, with a turn counter
    assert _counters(page) == counters
    assert page.context["turn"] == 1 and 'data-testid="playtest-turn"' in html
    # and, without any script, the opening hand and every zone read as text
    for name in zones.get(rules.hand, []):
        assert escape(name) in html
    for _, zone_name in rules.zones:
        assert escape(zone_name) in html


def test_each_games_setup_zones(alice, user):
    _, _, rnr = _open(alice, user, "revolt-n-reign")
    assert len(_zones(rnr)["ua"]) == 3 and rnr.context["draw_count"] == 60 - 3 - OPENING_HAND
    _, _, rvr = _open(alice, user, RvRGame.slug)
    assert len(_zones(rvr)["area"]) == 8 and len(_zones(rvr)["neutral"]) == 5
    assert (
        not _zones(rvr)["board"]
        and 'data-testid="playtest-draw-button"' not in rvr.content.decode()
    )
    _, _, realms = _open(alice, user, "rival-realms")
    assert realms.context["draw_count"] == 40 - REALMS_HAND
    _, _, reign = _open(alice, user, "reign-absolute")
    assert not _zones(reign)["hand"] and reign.context["draw_count"] == 11


def test_draw_move_turn_count_undo_and_restart(alice, user):
    # given a Revolt N Reign deck's opening
    _, url, page = _open(alice, user, "revolt-n-reign")
    hand = _zones(page)["hand"]
    # when a card is drawn and the first card of the hand goes to the Pillars
    assert alice.post(url, {"op": "draw"}).status_code == 302
    moved = alice.post(url, {"op": "move", "source": "hand", "index": 0, "target": "pillars"})
    assert moved.status_code == 302
    # then the card is in the Pillars and the hand holds the rest and the drawn card
    page = alice.get(url)
    assert _zones(page)["pillars"] == hand[:1] and _zones(page)["hand"][:-1] == hand[1:]
    assert page.context["draw_count"] == 60 - 3 - OPENING_HAND - 1
    # a Pillar is turned sideways, and the next turn straightens it
    alice.post(url, {"op": "tap", "source": "pillars", "index": 0})
    page = alice.get(url)
    assert page.context["zones"][3]["cards"][0]["turned"]
    assert "turned sideways" in page.content.decode()
    alice.post(url, {"op": "turn"})
    page = alice.get(url)
    assert page.context["turn"] == 2 and not page.context["zones"][3]["cards"][0]["turned"]
    # counters go up and down
    alice.post(url, {"op": "counter", "counter": 0, "delta": -1})
    alice.post(url, {"op": "counter", "counter": 1, "delta": 1})
    assert _counters(alice.get(url)) == {"LP": START_LP - 1, "IP": 1}
    # undo goes back one action at a time
    alice.post(url, {"op": "undo"})
    assert _counters(alice.get(url)) == {"LP": START_LP - 1, "IP": 0}
    # a stale move (that card is gone) is refused and changes nothing
    before = _zones(alice.get(url))
    stale = alice.post(url, {"op": "move", "source": "hand", "index": 50, "target": "discard"})
    assert stale.status_code == 400
    assert "no longer there" in stale.content.decode()
    assert _zones(alice.get(url)) == before
    # starting again deals a fresh opening, with nothing to undo
    alice.post(url, {"op": "restart"})
    page = alice.get(url)
    assert len(_zones(page)["hand"]) == OPENING_HAND and not _zones(page)["pillars"]
    assert _counters(page) == {"LP": START_LP, "IP": 0} and not page.context["can_undo"]


def test_mulligans_only_as_often_as_the_rulebook_allows(alice, user):
    _, url, _ = _open(alice, user, "revolt-n-reign")
    for _ in range(MAX_MULLIGANS):
        assert alice.post(url, {"op": "mulligan"}).status_code == 302
        assert len(_zones(alice.get(url))["hand"]) == OPENING_HAND
    refused = alice.post(url, {"op": "mulligan"})
    assert refused.status_code == 400 and "No mulligan is left" in refused.content.decode()
    # a game without a mulligan refuses one
    _, realms, _ = _open(alice, user, "rival-realms")
    assert alice.post(realms, {"op": "mulligan"}).status_code == 400


def test_a_pile_gives_its_top_card_and_takes_cards_back_on_top(alice, user):
    _, url, page = _open(alice, user, "reign-absolute")
    assert alice.post(url, {"op": "draw"}).status_code == 302
    unit = _zones(alice.get(url))["hand"][0]
    alice.post(url, {"op": "move", "source": "hand", "index": 0, "target": "battlefield"})
    alice.post(url, {"op": "tap", "source": "battlefield", "index": 0})
    page = alice.get(url)
    assert _zones(page)["battlefield"] == [unit] and "revealed" in page.content.decode()
    alice.post(url, {"op": "move", "source": "battlefield", "index": 0, "target": "draw"})
    page = alice.get(url)
    assert _zones(page)["draw"][0] == unit and page.context["draw_count"] == 11


def test_cards_are_turned_only_in_play_and_only_where_the_game_turns_them(alice, user):
    _, url, page = _open(alice, user, "rival-realms")
    assert 'data-testid="playtest-tap"' not in page.content.decode()
    refused = alice.post(url, {"op": "tap", "source": "hand", "index": 0})
    assert refused.status_code == 400 and "turns no card" in refused.content.decode()
    _, url, page = _open(alice, user, "revolt-n-reign")
    assert 'data-testid="playtest-tap"' not in page.content.decode()  # no Pillar in play yet
    refused = alice.post(url, {"op": "tap", "source": "hand", "index": 0})
    assert refused.status_code == 400 and "Only a card in play" in refused.content.decode()


def test_bad_counter_changes_are_refused(alice, user):
    _, url, _ = _open(alice, user, "rival-realms")
    # "\u00b2" (a superscript two) is a digit to str.isdigit() that int() refuses: once a 500
    for data in ({"counter": 9, "delta": 1}, {"counter": 0, "delta": "x"}, {"counter": "\u00b2"}):
        assert alice.post(url, {"op": "counter", "delta": 1, **data}).status_code == 400
    moved = alice.post(url, {"op": "move", "source": "hand", "index": "\u00b2", "target": "draw"})
    assert moved.status_code == 400
    assert _counters(alice.get(url)) == {"Life": STARTING_LIFE, "Supply": 0}


def test_an_htmx_action_gets_the_new_layout_at_once(alice, user):
    _, url, _ = _open(alice, user, "rival-realms")
    drawn = alice.post(url, {"op": "draw"}, HTTP_HX_REQUEST="true")
    assert drawn.status_code == 200 and len(_zones(drawn)["hand"]) == REALMS_HAND + 1
    assert 'id="playtest"' in drawn.content.decode()


def test_a_game_without_a_playtest_says_so(toy_duel, alice, user):
    # given the toy game, whose plugin declares no playtest
    sun, _ = decks(user)
    url = reverse("deck-playtest", args=[sun.pk])
    assert f'href="{url}"' not in alice.get(reverse("deck-detail", args=[sun.pk])).content.decode()
    page = alice.get(url)
    assert page.status_code == 404 and "no manual playtest" in page.content.decode()
