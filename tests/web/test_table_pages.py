"""The table view on pages (issue 18, points 1 and 3): a replay shows the table of every game at
each step, open or as one seat sees it, and a test-hands walk shows the same table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards.images.render import output_size
from tests.web.test_matchup_runs import GAMES, poll_to_end, run_id, start, two_decks
from tests.web.test_test_hands_pages import _deck

pytestmark = pytest.mark.django_db

#: per game, zones (headings) its table must show and whether it draws a board grid
ZONES = {
    "revolt-n-reign": (["Unconstitutional Acts", "Pillars", "Defense", "Attack", "Hand"], False),
    "rival-realms": (["Field", "Hand", "Draw deck", "Discard pile"], False),
    "reign-absolute": (["Faction deck", "Unit discard", "Reinforcement discard"], True),
    "regality-vs-religion": (["Tiles in area", "Neutral area", "Offer"], True),
    "reggae-revolution": (["Lineup", "Villains", "Scored", "Hand"], False),
}
COUNTERS = {
    "revolt-n-reign": ["LP", "IP", "Phase", "Draw pile"],
    "rival-realms": ["Life", "Supply", "Deck"],
    "reign-absolute": ["Faction", "Liege", "Turn"],
    "regality-vs-religion": ["Allies", "To move"],
    "reggae-revolution": ["Suppressed", "Pairs still to score", "Villain deck"],
}


def _replay(alice, user, game: str) -> tuple[str, int]:
    a, b = two_decks(user, game)
    pk = run_id(start(alice, a, b, games=2, players=3 if b is None else None))
    poll_to_end(alice, pk)
    return reverse("simulation-game", args=[pk, 1]), pk


def _headings(body: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>|\s*\(\d+\)", "", h).strip()
        for h in re.findall(r"<h4[^>]*>(.*?)</h4>", body)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_step_shows_the_table_of_the_game(alice, user, game):
    url, _ = _replay(alice, user, game)
    total = alice.get(url).context["total"]
    page = alice.get(url, {"step": total // 2 + 1})
    assert page.status_code == 200
    body = page.content.decode()
    table = page.context["table"]
    assert table is not None and 'data-testid="table"' in body
    zones, has_grid = ZONES[game]
    headings = _headings(body)
    for name in zones:
        assert any(h.startswith(name) for h in headings), (name, headings)
    assert (table["grid"] is not None) == has_grid
    if has_grid:
        assert 'data-testid="table-grid"' in body
    labels = [c["label"] for c in table["counters"]] + [
        c["label"] for seat in table["seats"] for c in seat["counters"]
    ]
    for label in COUNTERS[game]:
        assert label in labels
    # cards on the table show their rendered image and link to their card page
    assert re.search(r'<a class="tcard[^"]*" href="/games/[^"]+/cards/[^"]+/"', body)
    thumbs = re.findall(r'src="/cards/[^"]+\.thumb\.png" width="(\d+)" height="(\d+)"', body)
    # each thumbnail's box is its image's size before it loads: nothing on the table moves
    # when it arrives (a click aimed at a card would land beside it)
    assert thumbs and set(thumbs) == {tuple(map(str, output_size(game, "thumb")))}


def test_replay_steps_change_the_table_and_a_seat_view_hides_the_rivals_hand(alice, user):
    url, _ = _replay(alice, user, "revolt-n-reign")
    first = alice.get(url, {"step": 2}).context["table"]
    later = alice.get(url, {"step": 8}).context["table"]
    assert first != later
    # open view: both hands shown face up
    hands = [next(z for z in s["zones"] if z["id"] == "hand") for s in later["seats"]]
    assert all(card["key"] for hand in hands for card in hand["cards"])
    # seat 1's view: its own hand face up, the rival's only as backs
    seen = alice.get(url, {"step": 8, "view": "1"}).context["table"]
    mine, theirs = (next(z for z in s["zones"] if z["id"] == "hand") for s in seen["seats"])
    assert mine["cards"] and all(card["key"] for card in mine["cards"])
    assert theirs["count"] == len(theirs["cards"]) and all(
        card["key"] is None for card in theirs["cards"]
    )
    body = alice.get(url, {"step": 8, "view": "1"}).content.decode()
    assert 'href="?step=9&amp;view=1"' in body, "stepping keeps the chosen view"


def test_the_go_to_game_form_opens_that_game_and_refuses_others(alice, user):
    url, pk = _replay(alice, user, "regality-vs-religion")
    response = alice.get(url, {"game": 2})
    assert response.status_code == 302 and response["Location"] == reverse(
        "simulation-game", args=[pk, 2]
    )
    assert alice.get(url, {"game": 3}).status_code == 400


@pytest.mark.parametrize("game", GAMES)
def test_a_test_hands_walk_shows_the_same_table_from_the_players_seat(alice, user, game):
    deck = _deck(user, game)
    page = alice.get(
        reverse("deck-test-hands", args=[deck.pk]), {"seed": 4, "kept": "on", "turns": 1}
    )
    assert page.status_code == 200
    table = page.context["table"]
    assert table is not None and 'data-testid="table"' in page.content.decode()
    assert table["viewer"] == page.context["walk"].seat
    assert any(seat["name"] == "You" for seat in table["seats"])
