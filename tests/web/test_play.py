"""Playing against the AI in the browser (issue 18, point 4): a game of every game starts and
takes a legal move, the page shows only the player's side of hidden information, and a stale,
out-of-range or foreign move is refused with a 4xx without touching the stored game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.core import find_plugin
from rules.models import PlayedGame
from rules.play import play_position
from tests.web.test_matchup_runs import GAMES, game_some_moves_in, two_decks
from web.narration import card_links, card_pages

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
    # a version the game has not reached (a crafted form) is said as such
    ahead = move(alice, played, version=played.version + 5)
    assert ahead.status_code == 409
    assert f"position {played.version + 5}, which the game has not reached" in (
        ahead.content.decode()
    )
    # an index past the last legal action
    out = move(alice, played, index=999)
    assert out.status_code == 400
    assert "Action 999 is not one of the" in out.content.decode()
    # not a number, or none at all
    assert alice.post(reverse("play-move", args=[played.pk]), {"action": "x"}).status_code == 400
    missing = alice.post(reverse("play-move", args=[played.pk]), {"version": played.version})
    assert missing.status_code == 400 and "action is missing" in missing.content.decode()
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
    empty = alice.post(reverse("play-new"), {"deck": a.pk, "opponent": b.pk, "agent": ""})
    assert empty.status_code == 400
    assert "Pick the AI that plays Reign Absolute" in empty.content.decode()
    assert not PlayedGame.objects.exists()


def _keys_in(table: dict) -> set[str]:
    holders = [*table["shared"], *(z for s in table["seats"] for z in s["zones"])]
    holders += table["grid"]["cells"] if table["grid"] else []
    return {c["key"] for h in holders for c in h["cards"] if c["key"]}


@pytest.mark.parametrize("game", ["revolt-n-reign", "reign-absolute"])
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    moves=st.integers(min_value=14, max_value=24),
)
def test_the_play_page_never_names_a_card_hidden_from_the_player(alice, user, game, seed, moves):
    # given a game some random moves in
    played = game_some_moves_in(user, game, seed, moves)
    # when the player's page is drawn
    body = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    text = re.sub(r"<[^>]+>", " ", body)
    # then it names no card the rival holds unseen (their hand) or drew unseen (Reinforcements),
    # unless the player sees a copy or a copy was named in the open (played, discarded ...)
    state = play_position(played)
    plugin = find_plugin(game)
    mine = _keys_in(plugin.table(state, played.seat))
    choice = getattr(state, "choice", None)  # Revolt N Reign's pending choice of a card's effect
    if choice is not None and choice[0] == played.seat and choice[1] == "discard":
        # the effect has the player pick the rival's discards: the player looks at that hand
        mine |= {str(key) for key in choice[3]}
    theirs = _keys_in(plugin.table(state, 1 - played.seat))
    public = " ".join(
        str(event.as_dict())
        for event in state.event_log()
        if event.kind != "draw" or event.player == played.seat  # a draw names a hidden card
    )
    drawn = {
        str(event.as_dict().get("card"))
        for event in state.event_log()
        if event.kind == "draw" and event.player != played.seat
    }
    pages = card_pages(game)
    hidden = [
        pages[key].name
        for key in (theirs | drawn) - mine
        if key in pages and key not in public and pages[key].name not in public
    ]
    for name in hidden:
        assert name not in text, name


def test_a_reply_the_ai_left_unfinished_goes_on_at_the_players_request(alice, user, monkeypatch):
    # given a game whose AI stops after one action of each reply
    import rules.play

    a, b = two_decks(user, "rival-realms")
    played = start(alice, a, b, "random")
    monkeypatch.setattr(rules.play, "MAX_REPLY_ACTIONS", 1)
    while True:
        before = PlayedGame.objects.get(pk=played.pk)
        assert move(alice, before).status_code == 302
        after = PlayedGame.objects.get(pk=played.pk)
        if after.status != PlayedGame.Status.ACTIVE:
            pytest.skip("the game ended before the AI had a reply of two actions")
        if play_position(after).current_player() != after.seat:
            break
    # then the page offers to let the AI go on, and no move of the player's
    page = alice.get(reverse("play-game", args=[played.pk]))
    assert page.context["waiting"] and not page.context["choices"]
    assert 'data-testid="play-continue"' in page.content.decode()
    # a stale request changes nothing
    stale = alice.post(reverse("play-continue", args=[played.pk]), {"version": after.version - 1})
    assert stale.status_code == 409
    assert PlayedGame.objects.get(pk=played.pk).actions == after.actions
    # when the AI is let go on with the whole budget
    monkeypatch.setattr(rules.play, "MAX_REPLY_ACTIONS", 2000)
    done = alice.post(reverse("play-continue", args=[played.pk]), {"version": after.version})
    assert done.status_code == 302
    # then it is the player's turn again (or the game is over), one version later
    resumed = PlayedGame.objects.get(pk=played.pk)
    assert resumed.version == after.version + 1
    assert len(resumed.actions) > len(after.actions)
    state = play_position(resumed)
    assert state.is_terminal() or state.current_player() == resumed.seat
    # and asking again when it is the player's turn is refused, changing nothing
    if not state.is_terminal():
        again = alice.post(reverse("play-continue", args=[played.pk]), {"version": resumed.version})
        assert again.status_code == 400
        assert PlayedGame.objects.get(pk=played.pk).version == resumed.version


@pytest.mark.parametrize("game", GAMES)
def test_difficulty_levels_are_offered_with_their_ladder_ratings(alice, user, game):
    # given a game's /play/ form
    plugin = find_plugin(game)
    assert list(plugin.difficulty_levels) == ["easy", "normal", "hard"]
    two_decks(user, game)
    body = alice.get(reverse("play-home"), {"game": game}).content.decode()
    # then each level is offered, normal first selected, each with its rating on the ladder
    # the game publishes (rules/ladders/), and so is every agent of the lab
    options = dict(re.findall(r'<option value="([a-z]+)"( selected)?>', body))
    assert options["normal"] == " selected" and "easy" in options and "hard" in options
    for value in (*plugin.difficulty_levels, *plugin.matchup_agents):
        label = re.search(rf'<option value="{value}"[^>]*>([^<]*)</option>', body)
        assert label is not None and (
            "rated +" in label[1]
            or "rated -" in label[1]
            or (value == "random" and "anchor" in label[1])
        ), (value, label)
    assert reverse("agents-help") in body


def test_a_rating_reads_as_elo_over_random_with_its_interval(alice, user, tmp_path, monkeypatch):
    from rules import ladder

    monkeypatch.setattr(ladder, "PUBLISHED", tmp_path)
    two_decks(user, "revolt-n-reign")
    result = ladder.summarise(
        find_plugin("revolt-n-reign"),
        ["random", "greedy"],
        [("greedy", "random")],
        [ladder.GameOutcome(1.0, "lp-victory", 0, ((0.01,), (0.0,)))] * 30,
        30,
        1,
    )
    ladder.write_published(result)
    body = alice.get(reverse("play-home"), {"game": "revolt-n-reign"}).content.decode()
    greedy = result.rating_of("greedy")
    half = (greedy.high - greedy.low) / 2
    assert f"rated {round(greedy.elo):+d} ± {half:.0f} over random" in body
    assert "rated 0 (the ladder&#x27;s anchor)" in body or "rated 0 (the ladder's anchor)" in body


def test_a_game_against_a_level_plays_its_agent_and_shows_the_thinking_time(alice, user):
    # given a game against the easy level
    a, b = two_decks(user, "regality-vs-religion")
    played = start(alice, a, b, "easy")
    assert played.agent == "easy"
    # when the player moves until the AI has replied
    for _ in range(3):
        if played.reply_ms is not None:
            break
        assert move(alice, played).status_code == 302
        played.refresh_from_db()
    # then the page says which AI it is and how long it thought
    assert played.reply_ms is not None
    page = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    assert "The AI (Easy: " in page and "of CPU time over its last reply" in page


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_on_the_page_has_a_click_path_on_its_table(alice, user, game):
    """Click the table (issue 34, item 1): each word button carries the picks its action is
    taken by, and each pick is an element of the page's table or a chip of the sticky bar."""
    # given a game some random moves in, the player to act
    played = game_some_moves_in(user, game, 34, 4)
    page = alice.get(reverse("play-game", args=[played.pk]))
    body = page.content.decode()
    if not page.context["choices"]:
        pytest.skip("the game ended within the random moves")
    # then every word button has a path, and the paths are one per button, none beginning another
    paths = re.findall(r'data-path="([^"]*)" data-testid="play-choice"', body)
    assert len(paths) == len(page.context["choices"])
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert not any(other.startswith(path + " ") for other in paths), path
    # and every pick of a path is on the page: a table element or a control chip
    on_page = set(re.findall(r'data-pick="([^"]*)"', body))
    for path in paths:
        for pick in path.split(" "):
            assert pick in on_page, (path, pick)
    # the hand sits in the sticky bar beside the choices, and the page links to the help
    assert 'data-testid="play-bar"' in body
    assert f'href="{reverse("play-help")}"' in body


def test_the_play_help_page_explains_clicking_the_table(client):
    body = client.get(reverse("play-help")).content.decode()
    assert "Click the table" in body and "The bar at the bottom" in body
    assert "Escape" in body  # how to start a pick over


def test_the_card_names_of_logs_and_choices_are_read_once_until_a_card_changes():
    """Every log and choice a play page or friend table narrates names cards through
    ``card_pages`` and links them through ``card_links``: read from the database once, then
    kept until a card changes (a renamed card is named anew at once, as every process is
    told)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cards.models import Card
    from rules.engines.core import card_key

    game = "revolt-n-reign"
    pages = card_pages(game)
    links = card_links(game)
    assert len(pages) > 100
    with CaptureQueriesContext(connection) as queries:
        assert card_pages(game) is pages
        assert card_links(game) is links  # names and card-page addresses, as logs show them
    assert len(queries) == 0
    card = Card.objects.filter(game__slug=game).order_by("pk").first()
    old_key = card_key(card.name)
    card.name = "Renamed In The Test"
    card.save()
    renamed = card_pages(game)
    assert renamed[card_key("Renamed In The Test")].pk == card.pk
    assert old_key not in renamed
    new_links = card_links(game)
    assert new_links.names[card_key("Renamed In The Test")] == "Renamed In The Test"
    assert new_links.urls[card_key("Renamed In The Test")] == card.get_absolute_url()
    assert old_key not in new_links.names
    with pytest.raises(TypeError):  # one process's copy for every request: nobody changes it
        renamed["x"] = card


def test_a_game_the_site_does_not_have_is_said_above_the_picker(alice):
    """A mistyped or old link (?game=nope) says so, rather than show the game picker alone."""
    response = alice.get(reverse("play-home"), {"game": "nope"})

    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-testid="play-errors"' in page
    assert "There is no game &#x27;nope&#x27; to play here" in page
    assert 'name="game"' in page  # the picker is there to choose again
    assert alice.get(reverse("play-home"), {"game": "rival-realms"}).status_code == 200


@pytest.mark.parametrize("asked", ["RR", "rr", "Rival Realms"])
def test_a_game_named_by_its_short_name_or_name_opens_the_picker_on_it(alice, asked):
    """``/play/?game=RR`` is Rival Realms, as the API and ``g:`` read it, not a game missing."""
    response = alice.get(reverse("play-home"), {"game": asked})
    assert response.status_code == 200
    page = response.content.decode()
    assert "There is no game" not in page
    assert re.search(r'<option value="rival-realms"[^>]*selected', page), asked
