"""Playing against the AI by clicking the table (issue 34, item 1, "Click the table"): a game
of each of the five games, from the demo pair /play/ offers first, against the easy AI, where
every move is made by clicking cards, units, squares and the table's control chips, never a word
button. The paths are read from the page (each word button's ``data-path``), one is picked at
random, and its picks are clicked one after the other; the page must outline the next pick
after each click and post the move after the last one. A click on a card no action uses must
say why. Screenshots at desktop width and at 375 px go to ``test-artifacts/play-click-*.png``.

Every game is played whole: it must end within ``MOVES`` of the player's moves (random clicks
end each of these games in far fewer: 10 to 150 moves). Only Revolt N Reign and Rival Realms,
whose random play could run towards the engine's turn limit, may stop at ``MOVES`` instead of
ending (the test prints when it does); measured, they ended too.

The page deals each game from a random seed; here every game is dealt from ``DEAL_SEED``, so the
clicks (``random.Random(34)``) and the AI's replies (seeded from the deal) make the same game on
every run. With random deals the length had a long tail: one CI run's Reign Absolute deal was
still in play after 400 clicked moves, and the same play off the page (a random legal action a
move against the easy AI, the game's first sample setup) took 41 moves at the median and 326 at
most over 60 deals. Dealt from ``DEAL_SEED`` the five games end after 7 to 78 clicked moves, on
the compiled and the pure-Python engines alike.
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from decks.demo import demo_load
from rules.engines.core import registered_games
from rules.models import PlayedGame
from tests.decks.conftest import SAMPLES_DIR
from tests.web.browser import ARTIFACTS, BROWSER_TESTS, expect, log_in, shot, sync_api

pytestmark = BROWSER_TESTS

GAMES = registered_games()
#: the most moves of the player's a game is clicked through (see the module docstring)
MOVES = 400
#: games that may stop at ``MOVES`` rather than end
CAPPED = {"revolt-n-reign", "rival-realms"}
#: the seed every game is dealt from (see the module docstring)
DEAL_SEED = 1


def _version(tab) -> str | None:
    return tab.evaluate(
        "() => { const v = document.querySelector('#play-area [name=version]');"
        " return v ? v.value : null; }"
    )


def _click_path(tab, path: list[str]) -> None:
    """Click each pick of ``path`` on the table; after each but the last, the next is outlined."""
    before = _version(tab)
    for number, pick in enumerate(path):
        target = tab.locator(f'#play-area [data-pick="{pick}"]:visible').first
        expect(target).to_have_class(re.compile(r"\bpick-live\b"))
        target.click()
        if number + 1 < len(path):
            expect(tab.get_by_test_id("pick-message")).to_contain_text("picked")
    try:
        tab.wait_for_function(
            "v => { const e = document.querySelector('#play-area [name=version]');"
            " return !e || e.value != v; }",
            arg=before,
        )
    except sync_api.TimeoutError:
        # say what the page showed, so a move that was never posted can be told from a slow one
        # all_inner_texts() does not wait for an element the page may not show
        message = " ".join(tab.get_by_test_id("pick-message").all_inner_texts())
        status = " ".join(tab.get_by_test_id("play-status").all_inner_texts())
        error = " ".join(tab.get_by_test_id("play-error").all_inner_texts())
        pytest.fail(
            f"the move {' '.join(path)!r} did not reach the table (version still {before}); "
            f"pick message {message!r}, status {status!r}, error {error!r}"
        )


def _says_why_on_an_unusable_card(tab) -> bool:
    """Click a card of the table that starts no path, if there is one: the page says why and
    posts nothing. Returns whether one was found."""
    starts = tab.evaluate(
        "() => Array.from(document.querySelectorAll('#play-area button[data-path]'))"
        ".map(b => b.dataset.path.split(' ')[0])"
    )
    unusable = tab.evaluate(
        "starts => { const e = Array.from(document.querySelectorAll("
        "'#play-area .tcard[data-pick]')).find(e => !starts.includes(e.dataset.pick)"
        " && e.offsetParent); return e ? e.dataset.pick : null; }",
        starts,
    )
    if unusable is None:
        return False
    before = _version(tab)
    tab.locator(f'#play-area [data-pick="{unusable}"]').first.click()
    expect(tab.get_by_test_id("pick-message")).to_contain_text("none of your legal actions")
    assert _version(tab) == before
    return True


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_played_by_clicking_the_table_only(
    page, user, password, settings, monkeypatch, game
):
    # the same deal on every run (the live server runs in this process)
    monkeypatch.setattr("rules.play.secrets", SimpleNamespace(randbelow=lambda bound: DEAL_SEED))
    # a game clicked through at test speed outruns the per-minute limit on moves
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "play_move": "100000/minute"},
    }
    # given the demo set, and a game started with the pair /play/ offers first, against easy
    demo_load(samples_dir=SAMPLES_DIR)
    log_in(page, user, password)
    page.goto(f"/play/?game={game}")
    page.get_by_label("AI", exact=True).select_option("easy")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    status = page.get_by_test_id("play-status")
    rng = random.Random(34)
    said_why = False
    moves = 0
    # when the player clicks a random path of table elements for each move
    while moves < MOVES:
        if "Game over" in status.inner_text():
            break
        go_on = page.get_by_test_id("play-continue")
        if go_on.count():
            go_on.click()
            continue
        expect(status).to_contain_text("Your move")
        # the page's script has read this page (a click before it would open a card's page)
        page.wait_for_selector("#play-area[data-picks-ready]", state="attached")
        paths = page.eval_on_selector_all(
            "#play-area button[data-path]", "buttons => buttons.map(b => b.dataset.path)"
        )
        assert paths, "every choice has a click path"
        if moves == 2:
            shot(page, f"play-click-{game}-desktop")
            # the window as a player sees it: the sticky bar at its bottom
            page.screenshot(path=str(ARTIFACTS / f"play-click-{game}-desktop-window.png"))
            page.set_viewport_size({"width": 375, "height": 740})
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375 + 1, width
            shot(page, f"play-click-{game}-375")
            page.screenshot(path=str(ARTIFACTS / f"play-click-{game}-375-window.png"))
            page.set_viewport_size({"width": 1280, "height": 900})
        if not said_why:
            said_why = _says_why_on_an_unusable_card(page)
        _click_path(page, rng.choice(paths).split(" "))
        moves += 1
    played = PlayedGame.objects.get()
    print(f"{game}: {moves} moves clicked, {played.status}")
    assert int(played.seed) == DEAL_SEED
    # then the game went on by the clicks alone, to its end unless the game may be capped
    assert len(played.actions) > moves
    if game not in CAPPED or played.status == PlayedGame.Status.FINISHED:
        expect(status).to_contain_text("Game over")
        assert played.status == PlayedGame.Status.FINISHED
    else:
        print(f"{game}: stopped after {moves} clicked moves (MOVES), the game still in play")
    shot(page, f"play-click-{game}-end")
    page.set_viewport_size({"width": 375, "height": 740})
    shot(page, f"play-click-{game}-end-375")


#: a table where one action targets the same card twice (Revolt N Reign's Seize the Powder can
#: name one card as both of its targets) beside one that names two cards
_TWICE = """
<div id="play-area" data-play-table>
  <p class="pick-message" data-testid="pick-message"></p>
  <span class="tcard" data-pick="hand0:seize-the-powder">Seize the Powder</span>
  <span class="tcard" data-pick="card:40"><span class="tcard-label">Musket Store</span></span>
  <span class="tcard" data-pick="card:41"><span class="tcard-label">Powder Cart</span></span>
  <button type="button" data-path="hand0:seize-the-powder card:40 card:40"
    onclick="window.played = 'twice'">Seize 40 and 40</button>
  <button type="button" data-path="hand0:seize-the-powder card:40 card:41"
    onclick="window.played = 'both'">Seize 40 and 41</button>
</div>
"""


def _table_script_page(tab):
    from pathlib import Path

    from django.conf import settings

    tab.set_content(_TWICE)
    tab.add_script_tag(path=str(Path(settings.BASE_DIR) / "static/js/play-table.js"))
    tab.wait_for_selector("#play-area[data-picks-ready]", state="attached")
    return tab


def test_a_path_that_clicks_one_card_twice_is_played_by_clicking_it_twice(page):
    # given a table where an action's path goes through one card twice
    tab = _table_script_page(page)
    # when the player clicks the spell, then that card, then the same card again
    for pick in ("hand0:seize-the-powder", "card:40", "card:40"):
        tab.locator(f'[data-pick="{pick}"]').click()
    # then the action that names it twice is played, not a start over
    assert tab.evaluate("window.played") == "twice"


def test_a_second_click_on_a_picked_card_no_path_goes_through_again_starts_over(page):
    # given the same table, the spell and a first target picked
    tab = _table_script_page(page)
    for pick in ("hand0:seize-the-powder", "card:40"):
        tab.locator(f'[data-pick="{pick}"]').click()
    # when the player clicks the spell again (no path goes through it twice)
    tab.locator('[data-pick="hand0:seize-the-powder"]').click()
    # then the picks start over and nothing is played
    expect(tab.get_by_test_id("pick-message")).to_contain_text("Started over")
    assert tab.evaluate("window.played") is None
    # and the other action is still played by its own clicks
    for pick in ("hand0:seize-the-powder", "card:40", "card:41"):
        tab.locator(f'[data-pick="{pick}"]').click()
    assert tab.evaluate("window.played") == "both"


def test_a_move_the_server_refuses_is_said_and_the_next_click_starts_afresh(
    page, user, password, settings, monkeypatch
):
    # given a game against the easy AI, and a limit of three requests an hour on moves (the
    # game's start is one of them; an hour's window hardly ever ends within the test)
    monkeypatch.setattr("rules.play.secrets", SimpleNamespace(randbelow=lambda bound: DEAL_SEED))
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "play_move": "3/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    demo_load(samples_dir=SAMPLES_DIR)
    log_in(page, user, password)
    page.goto("/play/?game=regality-vs-religion")
    page.get_by_label("AI", exact=True).select_option("easy")
    page.get_by_role("button", name="Start the game").click()
    message = page.get_by_test_id("pick-message")
    # when the player clicks moves until the server refuses one (the third request at most)
    refused = None
    for _ in range(3):
        expect(page.get_by_test_id("play-status")).to_contain_text("Your move")
        page.wait_for_selector("#play-area[data-picks-ready]", state="attached")
        path = page.eval_on_selector("#play-area button[data-path]", "b => b.dataset.path")
        before = _version(page)
        for pick in path.split(" "):
            page.locator(f'#play-area [data-pick="{pick}"]:visible').first.click()
        page.wait_for_function(
            "v => document.querySelector('#play-area [name=version]').value != v"
            " || /not played/.test(document.querySelector('#play-area .pick-message')"
            ".textContent)",
            arg=before,
        )
        if "not played" in message.inner_text():
            refused = (path, before)
            break
    assert refused is not None, "the limit of three requests refused none of them"
    path, before = refused
    # then the table says why, and the game stays where it was
    expect(message).to_contain_text("too many moves")
    assert _version(page) == before
    played = PlayedGame.objects.get()
    assert played.version == int(before)
    # and the refused move's picks are not kept: clicking its first pick again starts it anew
    page.eval_on_selector("#play-area .pick-message", "m => { m.textContent = ''; }")
    page.locator(f'#play-area [data-pick="{path.split(" ")[0]}"]:visible').first.click()
    # (a one-click move is sent, and refused, again; a longer one waits for its next pick)
    expect(message).to_have_text(re.compile(r"not played|picked"))
