"""Playing against the AI in the browser (issue 18, point 4): a game of every game starts and
takes a legal move, the page shows only the player's side of hidden information, and a stale,
out-of-range or foreign move is refused with a 4xx without touching the stored game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.models import PlayedGame
from rules.play import play_position
from tests.web.test_matchup_runs import GAMES, two_decks

pytestmark = pytest.mark.django_db

#: per game, a fast agent the plugin offers
FAST = {
    "revolt-n-reign": "random",
    "rival-realms": "random",
    "reign-absolute": "random",
    "regality-vs-religion": "random",
    "reggae-revolution": "random",
}


def start(client, a, b, agent: str) -> PlayedGame:
    page = client.post(
        reverse("play-new"), {"deck": a.pk, "opponent": b.pk if b else "", "agent": agent}
    )
    assert page.status_code == 302, page.content.decode()[:500]
    return PlayedGame.objects.latest("pk")


def move(client, game: PlayedGame, index: int = 0, version: int | None = None):
    return client.post(
        reverse("play-move", args=[game.pk]),
        {"action": index, "version": game.version if version is None else version},
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_game_starts_shows_choices_and_takes_a_legal_move(alice, user, game):
    # given a new game against the AI
    a, b = two_decks(user, game)
    played = start(alice, a, b, FAST[game])
    page = alice.get(reverse("play-game", args=[played.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-testid="table"' in body
    choices = page.context["choices"]
    assert choices, "the player is to act after the AI's reply"
    assert all(choice["text"] and "_" not in choice["text"] for choice in choices)
    # when the player takes their first choice
    before = len(played.actions)
    answer = move(alice, played)
    # then it is stored with the AI's reply and the page shows the new position
    assert answer.status_code == 302
    played.refresh_from_db()
    assert played.version == 1
    assert len(played.actions) > before
    assert alice.get(reverse("play-game", args=[played.pk])).status_code == 200
    # and the game is listed with resume and replay links
    home = alice.get(reverse("play-home")).content.decode()
    assert reverse("play-game", args=[played.pk]) in home
    assert reverse("play-replay", args=[played.pk]) in home
    assert alice.get(reverse("play-replay", args=[played.pk]), {"step": 1}).status_code == 200


def test_stale_out_of_range_and_foreign_moves_are_refused_and_change_nothing(
    alice, user, client, other_user
):
    a, b = two_decks(user, "regality-vs-religion")
    played = start(alice, a, b, "random")
    assert move(alice, played).status_code == 302
    played.refresh_from_db()
    stored = (list(played.actions), played.version)
    # a double submit: the same form (version 0) posted again
    stale = move(alice, played, version=0)
    assert stale.status_code == 409
    assert "older position" in stale.content.decode()
    # an index past the last legal action
    out = move(alice, played, index=999)
    assert out.status_code == 400
    assert "no action 1000" in out.content.decode()
    # not a number
    assert alice.post(reverse("play-move", args=[played.pk]), {"action": "x"}).status_code == 400
    # another user's game
    client.force_login(other_user)
    assert move(client, played).status_code == 404
    assert client.get(reverse("play-game", args=[played.pk])).status_code == 404
    played.refresh_from_db()
    assert (played.actions, played.version) == stored


def test_an_agent_the_game_does_not_offer_is_refused(alice, user):
    a, b = two_decks(user, "reign-absolute")
    page = alice.post(reverse("play-new"), {"deck": a.pk, "opponent": b.pk, "agent": "plan"})
    assert page.status_code == 400
    assert not PlayedGame.objects.exists()


def _names_in(tables: list[dict]) -> list[str]:
    names = []
    for table in tables:
        holders = [*table["shared"], *(z for s in table["seats"] for z in s["zones"])]
        holders += table["grid"]["cells"] if table["grid"] else []
        names += [c["name"] for h in holders for c in h["cards"] if c["name"]]
    return names


@pytest.mark.parametrize("game", ["revolt-n-reign", "reign-absolute"])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(moves=st.integers(min_value=0, max_value=6), pick=st.integers(min_value=0, max_value=50))
def test_the_play_page_never_names_a_card_hidden_from_the_player(alice, user, game, moves, pick):
    # given a game some moves in
    from rules.engines.core import find_plugin

    a, b = two_decks(user, game)
    played = start(alice, a, b, "random")
    for _ in range(moves):
        page = alice.get(reverse("play-game", args=[played.pk]))
        if not page.context["choices"]:
            break
        move(alice, played, pick % len(page.context["choices"]))
        played.refresh_from_db()
    # when the player's page is drawn
    body = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    text = re.sub(r"<[^>]+>", " ", body)
    # then no card the rival holds unseen is named, unless the player can see one like it or
    # it was named in the open by an event that is not a hidden draw
    state = play_position(played)
    plugin = find_plugin(game)
    mine = set(_names_in([plugin.table(state, played.seat)]))
    rival = 1 - played.seat
    theirs = set(_names_in([plugin.table(state, rival)]))
    public = {
        str(v)
        for e in state.event_log()
        if not (e.kind == "draw" and e.player != played.seat)
        for v in e.as_dict().values()
    }
    from web.narration import card_pages

    pages = card_pages(game)
    for key, card in pages.items():
        if card.name in theirs and card.name not in mine and key not in public:
            key_name = key.replace("-", " ").title()
            assert card.name not in text and key_name not in text, card.name
