"""Readable logs on the pages: a replay and a test-hands walk say every event in words, grouped
by turn, with every card named linking to its card page (issue 18, point 2)."""

from __future__ import annotations

import re

import pytest
from django.urls import resolve, reverse
from django.utils.html import escape

from cards.models import Card
from tests.web.test_matchup_runs import GAMES, poll_to_end, run_id, start, two_decks
from tests.web.test_test_hands_pages import _deck

pytestmark = pytest.mark.django_db

RAW = re.compile(r"[a-z]+_[a-z]+|-?\d+\s*,\s*-?\d+|\bNone\b|\btargets \d|\[")
LINK = re.compile(r'<a href="(/games/[^"]+/cards/[^"]+/)">([^<]+)</a>')


def _links_are_card_pages(body: str, game: str) -> int:
    links = LINK.findall(body)
    for url, name in links:
        match = resolve(url)
        assert match.url_name == "card-detail" and match.kwargs["game"] == game
        card = Card.objects.get(game__slug=game, slug=match.kwargs["slug"])
        assert card.name == name.replace("&#x27;", "'").replace("&amp;", "&")
    return len(links)


def _log(body: str, testid: str) -> str:
    start = body.index(f'data-testid="{testid}"')
    return body[start : body.index("</ol>", start)]


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_says_each_turn_in_words_with_card_links(alice, user, game):
    a, b = two_decks(user, game)
    pk = run_id(start(alice, a, b, games=1, players=3 if b is None else None))
    poll_to_end(alice, pk)
    url = reverse("simulation-game", args=[pk, 1])
    first = alice.get(url)
    total = first.context["total"]
    headings = first.context["headings"]
    # the steps are the setup (where the game has one) and then the turns, one by one
    turns = [h for h in headings if h != "Setup"]
    assert turns and all(h.startswith(f"Turn {n}: ") for n, h in enumerate(turns, 1))
    links = 0
    for step in range(1, total + 1):
        page = alice.get(url, {"step": step})
        body = page.content.decode()
        assert f"Step {step} of {total}: {escape(headings[step - 1])}" in body
        log = _log(body, "replay-log")
        text = re.sub(r"<[^>]+>", "", log.split(">", 1)[1])
        assert not RAW.search(text), text
        links += _links_are_card_pages(log, game)
    assert links, "a whole game names cards, each a link to its page"


@pytest.mark.parametrize("game", GAMES)
def test_a_test_hands_walk_shows_its_turns_under_their_own_headings(alice, user, game):
    deck = _deck(user, game)
    page = alice.get(
        reverse("deck-test-hands", args=[deck.pk]), {"seed": 4, "kept": "on", "turns": 2}
    )
    assert page.status_code == 200
    log = page.context["log"]
    assert log, "the walk's last turn is told"
    # the first group is your turn 2 (the engine counts both players' turns); any after it is
    # the rival's (or your partners') reply, each under its own heading
    assert log[0]["heading"].startswith("Turn ") and log[0]["heading"].endswith(": You")
    assert all(group["heading"].startswith("Turn ") for group in log)
    assert all(group["lines"] for group in log), "no turn is shown before anything happened in it"
    numbers = [group["turn"] for group in log]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    body = page.content.decode()
    start = body.index('data-testid="walk-log"')
    section = body[start : body.index("</details>", start)]
    for group in log:
        assert escape(group["heading"]) in section
    text = re.sub(r"<[^>]+>", "", section)
    assert not RAW.search(text), text
    _links_are_card_pages(section, game)
    # nor does the rest of the walk show a raw square ("at -2,-1")
    walk = body[body.index('data-testid="walk"') : start]
    assert not re.search(r"-?\d+,-?\d+", re.sub(r"<[^>]+>", "", walk))
