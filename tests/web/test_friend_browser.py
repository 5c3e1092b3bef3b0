"""Play a friend in two browsers (issue 35, "Tests"): alice opens a Regality vs Religion table
(and, in a second test, a Revolt N Reign one) on /play/, bob opens her invite link in a browser
context of his own and joins with his deck, and the two play the whole game by clicking the
table, each move travelling over the table's WebSocket and each page showing its own seat only
(a spectator's page, in a third browser, the public view and log to the end).
A Reign Absolute table of three chairs (alice and bob by the link, the AI seated by alice in the
last chair) played by clicking for a few turns; and a clocked table: both clocks shown, the
running one counting down on the page, the mover's clock standing at what the server charged
plus the increment once the move passed on.

pytest-django's live server speaks WSGI only, so the site is served here by daphne (the ASGI
server of ``make run`` and ``make serve``) in a thread of this process, with the application
``deckwright/asgi.py`` builds: HTTP to Django (static files through Django's ASGI static
handler, as runserver does), WebSockets to the consumer behind the session's user and the
allowed-hosts origin check. Twisted's reactor runs once per process: one module uses it.
"""

from __future__ import annotations

import gc
import random
import re
import threading
import time
from collections.abc import Iterator
from urllib.request import urlopen

import pytest
from django.db import connection
from django.urls import reverse

from tables.clocks import clock_words
from tables.models import FriendSeat, FriendTable
from tables.spectators import spectator_settings_set
from tests.sqlite_reads import committed_wait
from tests.web.browser import ARTIFACTS, BROWSER_TESTS, TIMEOUT_MS, expect, log_in, sync_api
from tests.web.conftest import RNR, make_deck, sample
from tests.web.test_friend_tables import FACTIONS, RA, ra_deck
from tests.web.test_matchup_runs import RVR, rvr_deck

pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def asgi_url() -> Iterator[str]:
    """The site served by daphne on a free loopback port, for this module's tests."""
    from channels.auth import AuthMiddlewareStack
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from daphne.server import Server
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application
    from twisted.internet import reactor

    from web.routing import websocket_urlpatterns

    application = ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(get_asgi_application()),
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
    server = Server(
        application, endpoints=["tcp:port=0:interface=127.0.0.1"], signal_handlers=False
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.listening_addresses and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.listening_addresses, "daphne did not start listening"
    host, port = server.listening_addresses[0]
    yield f"http://{host}:{port}"
    reactor.callFromThread(reactor.stop)  # type: ignore[misc]  # twisted types reactor as a module
    thread.join(timeout=10)


#: how long a move (the AI's and chance's replies included) may take to reach every page
MOVE_MS = 90_000


def _status(tab) -> str:
    return tab.get_by_test_id("play-status").inner_text()


def _seen(tab) -> str | None:
    return tab.get_attribute("#play-area", "data-seen")


def _in_step(tabs) -> None:
    """Wait until every page shows the same move count: each seat has been sent the newest
    position (a page behind waits for its message, never a fixed time)."""
    newest = max(int(_seen(tab) or 0) for tab in tabs)
    for tab in tabs:
        tab.wait_for_function(
            "s => Number(document.querySelector('#play-area').getAttribute('data-seen')) >= s",
            arg=newest,
            timeout=MOVE_MS,
        )


def _closed(tabs) -> None:
    """Close every browser context, then wait until the server has counted each table socket
    closed (its disconnect writes the seat's presence) and committed that: a write still running
    in the server's thread would lock SQLite under the test database's teardown. The count is
    read committed: read without locks it showed the closing write before the transaction that
    holds the tables had ended."""
    for tab in tabs:
        tab.context.close()
    committed_wait(
        lambda: not FriendSeat.objects.filter(connections__gt=0).exists(),
        60,
        "the server never counted the sockets closed",
    )


def _seated_browsers(browser, asgi_url, people, password) -> list:
    """A browser context of each person's own, signed in."""
    tabs = []
    for person in people:
        context = browser.new_context(base_url=asgi_url, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        tab = context.new_page()
        log_in(tab, person, password)
        tabs.append(tab)
    return tabs


def _rvr_players(browser, asgi_url, people, password) -> list:
    """alice and bob, each with a Regality vs Religion deck (Regality's and Religion's sample),
    each signed in a browser context of their own."""
    alice, bob = people
    rvr_deck(alice, "King's Court", sample(RVR, "legal-regality-standard"))
    rvr_deck(bob, "Temple Guard", sample(RVR, "legal-religion-standard"))
    return _seated_browsers(browser, asgi_url, people, password)


def _open_and_join(alice, bob, game: str) -> None:
    """alice opens a table of ``game`` on /play/; bob opens her invite link and joins."""
    alice.goto(f"/play/?game={game}")
    alice.get_by_test_id("friend-new").click()
    invite = alice.get_by_test_id("invite-link").input_value()
    bob.goto(invite)
    bob.get_by_test_id("friend-join").click()
    # alice's page, waiting, shows the game as soon as bob sits down (no reload by hand)
    for tab in (alice, bob):
        expect(tab.get_by_test_id("friend-connection")).to_contain_text("Connected")
        expect(tab.get_by_test_id("play-status")).not_to_contain_text("Loading")


def _play_to_the_end(tabs, chooser: random.Random, most_moves: int) -> int:
    """Both seats play by clicking their table, a random one of the moves each page offers
    (its clicks on the table when the move has a path of them, else its word button), until
    both pages say the game is over; the number of moves clicked."""
    for moves in range(most_moves):
        _in_step(tabs)
        statuses = [_status(tab) for tab in tabs]
        if all("Game over" in text for text in statuses):
            return moves
        movers = [tab for tab, text in zip(tabs, statuses, strict=True) if text == "Your move."]
        assert len(movers) == 1, statuses
        tab = movers[0]
        for other in tabs:  # the other seat has no choices: nothing to click while it waits
            if other is not tab:
                assert other.locator("#play-area button[data-action]").count() == 0
        seen = _seen(tab)
        paths = tab.eval_on_selector_all(
            "#play-area button[data-action]", "bs => bs.map(b => b.getAttribute('data-path'))"
        )
        index = chooser.randrange(len(paths))
        if paths[index]:
            for pick in paths[index].split(" "):
                tab.locator(f'#play-area [data-pick="{pick}"]:visible').first.click()
        else:
            tab.locator("#play-area button[data-action]").nth(index).click()
        for each in tabs:  # both seats are sent the new position
            try:
                each.wait_for_function(
                    "s => document.querySelector('#play-area').getAttribute('data-seen') != s",
                    arg=seen,
                    timeout=MOVE_MS,
                )
            except sync_api.TimeoutError as late:
                said = tab.locator("#play-area .pick-message").all_inner_texts()
                raise AssertionError(f"no new position after {paths[index]!r}: {said}") from late
    raise AssertionError(f"the game did not end in {most_moves} moves")


def _log_shown(tab, log) -> None:
    """``tab``, whose messages carried only the log's groups it did not hold, shows every
    heading and line of ``log`` (a fresh connection's whole log), in order."""
    headings = [group["heading"] for group in log]
    lines = ["".join(p["text"] for p in line["parts"]) for g in log for line in g["lines"]]
    assert len(headings) > 3
    shown = "[data-friend-log] > [data-log-group]"
    assert tab.eval_on_selector_all(f"{shown} > h3", "hs => hs.map(h => h.textContent)") == (
        headings
    )
    assert tab.eval_on_selector_all(f"{shown} li", "ls => ls.map(l => l.textContent)") == lines


def _whole_log_shown(tabs, people) -> None:
    """Each seat's page shows the whole log of its seat."""
    from rules.play import play_position
    from web.friends import seat_update

    table = FriendTable.objects.latest("pk")
    for tab, person in zip(tabs, people, strict=True):
        _log_shown(tab, seat_update(table, play_position(table), table.seats.get(user=person))[1])


def _spectator(browser, asgi_url):
    """A third browser, signed in as nobody, watching the latest table by its spectator link
    (the table opened to spectators with no delay)."""
    table = FriendTable.objects.latest("pk")
    spectator_settings_set(table, spectators=FriendTable.Spectators.LINK, delay=0)
    context = browser.new_context(base_url=asgi_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    tab.goto(reverse("friend-watch", args=[table.pk, table.spectator_token]))
    expect(tab.get_by_test_id("friend-connection")).to_contain_text("Connected")
    return tab


def _spectator_saw_the_whole_game(tab) -> None:
    """The spectator's page, sent the log's new groups only, ends at the game's end showing
    the whole public log, as a fresh spectator's connection is sent it."""
    from web.friends import spectator_update_at

    expect(tab.get_by_test_id("play-status")).to_contain_text("Game over", timeout=MOVE_MS)
    table = FriendTable.objects.latest("pk")
    _log_shown(tab, spectator_update_at(table, time.time())[1])
    tab.context.close()


def _game_over_and_replayable(tabs, shot_name: str) -> None:
    endings = sorted(_status(tab) for tab in tabs)
    assert all(text.startswith("Game over") for text in endings), endings
    assert any("you won" in text for text in endings) or all("draw" in t for t in endings)
    ARTIFACTS.mkdir(exist_ok=True)
    tabs[0].screenshot(path=str(ARTIFACTS / shot_name), full_page=True)
    # and the game is listed on both players' pages, replayable
    for tab in tabs:
        tab.goto("/play/")
        tab.get_by_test_id("friend-tables").get_by_role("link", name="Replay").click()
        expect(tab.get_by_test_id("replay-result")).to_contain_text(
            "Seen from your seat: not every player chose to show their cards"
        )
    _closed(tabs)


def test_two_browsers_play_a_whole_game_by_clicking_the_table(
    browser, asgi_url, live_server, user, other_user, password
):
    # given alice and bob, each signed in a browser context of their own, each with a deck
    tabs = _rvr_players(browser, asgi_url, (user, other_user), password)
    # when alice opens a table and bob joins by its invite link, and a spectator watches
    _open_and_join(*tabs, RVR)
    watching = _spectator(browser, asgi_url)
    # then they play the whole game by clicking the table, one move at a time
    _play_to_the_end(tabs, random.Random(35), 200)
    _whole_log_shown(tabs, (user, other_user))
    _spectator_saw_the_whole_game(watching)
    _game_over_and_replayable(tabs, "play-friend-alice.png")


def _position_sent_again(table_pk: int) -> None:
    """The server sends every seat of the table its view as it stands, no move made since (as it
    does when a player is back at the table). Sent from daphne's own event loop, where the
    table's sockets listen."""
    import asyncio

    from channels.layers import get_channel_layer
    from twisted.internet import reactor

    from web.consumers import group_name

    layer = get_channel_layer()
    assert layer is not None
    reactor.callFromThread(
        lambda: asyncio.ensure_future(
            layer.group_send(group_name(table_pk), {"type": "table.changed"})
        )
    )


def test_a_position_sent_again_mid_move_keeps_the_picks_clicked_so_far(
    browser, asgi_url, live_server, user, other_user, password
):
    # given alice and bob at a Regality vs Religion table, the mover's page offering a move
    # made of two clicks on the table
    tabs = _rvr_players(browser, asgi_url, (user, other_user), password)
    _open_and_join(*tabs, RVR)
    _in_step(tabs)
    mover = next(tab for tab in tabs if _status(tab) == "Your move.")
    paths = mover.eval_on_selector_all(
        "#play-area button[data-action]", "bs => bs.map(b => b.getAttribute('data-path'))"
    )
    first, second = next(p for p in paths if p and len(p.split(" ")) == 2).split(" ")
    seen = _seen(mover)
    # when the mover clicks the move's first pick
    mover.locator(f'#play-area [data-pick="{first}"]:visible').first.click()
    expect(mover.get_by_test_id("pick-message")).to_contain_text("picked")
    # and the server sends both seats the same position again before the second click
    for tab in tabs:
        tab.eval_on_selector("#play-area", "a => a.firstElementChild.setAttribute('data-old', '')")
    _position_sent_again(FriendTable.objects.latest("pk").pk)
    for tab in tabs:
        expect(tab.locator("#play-area > [data-old]")).to_have_count(0)  # drawn anew
    # then the redrawn table still holds the first pick, and says so
    assert _seen(mover) == seen
    chosen = mover.locator("#play-area .pick-chosen")
    expect(chosen).to_have_count(1)
    assert chosen.get_attribute("data-pick") == first
    expect(mover.get_by_test_id("pick-message")).to_contain_text("picked")
    # and the second click plays the move: both seats are sent the new position, picks cleared
    mover.locator(f'#play-area [data-pick="{second}"]:visible').first.click()
    for tab in tabs:
        expect(tab.locator("#play-area")).not_to_have_attribute("data-seen", seen or "")
        expect(tab.locator("#play-area .pick-chosen")).to_have_count(0)
    assert len(FriendTable.objects.latest("pk").actions) > int(seen or 0)
    _closed(tabs)


def test_two_browsers_play_a_whole_revolt_n_reign_game(
    browser, asgi_url, live_server, user, other_user, password
):
    """Revolt N Reign is the long game of the five: the two play random moves of those offered
    (Eagles against Bisons, the sample decks). Played so, its games end by an attack victory or
    a deck running out after 40 to 150 moves of the players' (measured over seeds of this
    pairing), so a whole game is clicked through in a few minutes; 600 is only a safety cap."""
    # given alice and bob with a Revolt N Reign deck each
    make_deck(user, name="Eagles")
    make_deck(other_user, name="Bisons", sample_name="legal-bison-pressure")
    tabs = _seated_browsers(browser, asgi_url, (user, other_user), password)
    # when alice opens a table and bob joins by its invite link
    _open_and_join(*tabs, RNR)
    # then they play the whole game by clicking the table, until both are told it is over
    moves = _play_to_the_end(tabs, random.Random(35), 600)
    assert moves > 0
    _whole_log_shown(tabs, (user, other_user))
    _game_over_and_replayable(tabs, "play-friend-revolt-n-reign.png")


def _game_shown(tabs) -> None:
    for tab in tabs:
        expect(tab.get_by_test_id("friend-connection")).to_contain_text("Connected")
        expect(tab.get_by_test_id("play-status")).not_to_contain_text("Loading")


def _click_a_move(tab, chooser: random.Random, tabs) -> FriendTable:
    """Click one of the word buttons ``tab`` offers; wait until every page shows the position
    the server stored after it (the AI's and chance's replies included) and return the table."""
    seen = tab.get_attribute("#play-area", "data-seen")
    actions = tab.eval_on_selector_all(
        "#play-area button[data-action]", "bs => bs.map(b => b.getAttribute('data-action'))"
    )
    assert actions, _status(tab)
    tab.locator(f'#play-area button[data-action="{chooser.choice(actions)}"]').click()
    for each in tabs:  # every seat is sent the new position
        each.wait_for_function(
            "s => document.querySelector('#play-area').getAttribute('data-seen') != s",
            arg=seen,
            timeout=MOVE_MS,
        )
    table = FriendTable.objects.latest("pk")
    for each in tabs:
        expect(each.locator("#play-area")).to_have_attribute(
            "data-seen", str(len(table.actions)), timeout=MOVE_MS
        )
    return table


#: a seat's status line while a Reign Absolute table of alice, bob and the AI is in play
RA_STATUS = re.compile(
    r"^(Your move|Waiting for (alice|bob)'s move|Waiting for the AI playing Azuma-Shogunate"
    r"|Waiting for the game to go on)\.$"
)


def test_three_chairs_two_people_and_the_ai_play_reign_absolute_by_clicking(
    browser, asgi_url, live_server, user, other_user, password
):
    # given alice with two Reign Absolute decks (hers and the AI's), bob with a third faction
    legion, azuma = ra_deck(user, FACTIONS[0]), ra_deck(user, FACTIONS[2])
    elves = ra_deck(other_user, FACTIONS[1])
    tabs = _seated_browsers(browser, asgi_url, (user, other_user), password)
    alice, bob = tabs
    # when alice opens a table of three chairs on /play/
    alice.goto(f"/play/?game={RA}")
    alice.locator("#play-deck").select_option(str(legion.pk))
    alice.get_by_test_id("friend-chairs").select_option("3")
    alice.get_by_test_id("friend-new").click()
    expect(alice.get_by_test_id("friend-chair")).to_have_count(3)
    expect(alice.get_by_test_id("friend-waiting-words")).to_have_text("Waiting for 2 more players.")
    # and bob takes a chair by the invite link
    bob.goto(alice.get_by_test_id("invite-link").input_value())
    bob.locator("#join-deck").select_option(str(elves.pk))
    bob.get_by_test_id("friend-join").click()
    expect(bob.get_by_test_id("friend-waiting-words")).to_have_text("Waiting for 1 more player.")
    # alice's waiting page lists him on its own, and she seats the AI in the last free chair
    expect(alice.get_by_test_id("friend-chair").nth(1)).to_contain_text("bob, playing Elves")
    expect(alice.get_by_test_id("friend-waiting-words")).to_have_text("Waiting for 1 more player.")
    alice.locator("#ai-deck").select_option(str(azuma.pk))
    alice.get_by_test_id("friend-ai").click()
    # then both pages show the game, with the two people and the AI in the chairs
    _game_shown(tabs)
    for tab in tabs:
        expect(tab.get_by_test_id("friend-chair")).to_have_text(
            [
                re.compile(r"^Chair 1: alice( \(you\))?, playing Empire-Legion$"),
                re.compile(r"^Chair 2: bob( \(you\))?, playing Elves-Grove$"),
                "Chair 3: The AI, playing Azuma-Shogunate",
            ]
        )
    table = FriendTable.objects.latest("pk")
    assert table.status == FriendTable.Status.ACTIVE and table.chairs == 3
    assert sorted(s.engine_seat for s in table.seats.all()) == [0, 1, 2]
    # and they play by clicking the word buttons, each move reaching the other page, until the
    # move has passed between the two people three times (the AI's turn came between)
    chooser = random.Random(35)
    movers_seen: list = []
    for _ in range(40):
        statuses = [_status(tab) for tab in tabs]
        for text in statuses:
            assert RA_STATUS.match(text), statuses
        movers = [tab for tab, text in zip(tabs, statuses, strict=True) if text == "Your move."]
        assert len(movers) == 1, statuses  # the AI's and chance's turns are played server-side
        mover = movers[0]
        if not movers_seen or movers_seen[-1] is not mover:
            movers_seen.append(mover)
        if len(movers_seen) > 3:
            break
        other = bob if mover is alice else alice
        assert other.locator("#play-area button[data-action]").count() == 0
        seen = int(other.get_attribute("#play-area", "data-seen") or 0)
        table = _click_a_move(mover, chooser, tabs)
        assert int(other.get_attribute("#play-area", "data-seen") or 0) > seen
        if table.status != FriendTable.Status.ACTIVE:
            break
    assert len(movers_seen) > 3 and table.status == FriendTable.Status.ACTIVE
    for tab in tabs:  # the AI's moves are in the log both people read
        expect(
            tab.get_by_test_id("play-log").filter(has_text="Azuma-Shogunate (AI)")
        ).not_to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "play-friend-three-chairs-bob.png"), full_page=True)
    _closed(tabs)


def _clock_seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def _ms_between(start, end) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


def test_clocks_count_down_on_the_page_and_the_mover_gets_the_increment(
    browser, asgi_url, live_server, user, other_user, password
):
    # given alice's Regality vs Religion table with a clock of 1 minute plus 2 seconds a move
    tabs = _rvr_players(browser, asgi_url, (user, other_user), password)
    alice, bob = tabs
    alice.goto(f"/play/?game={RVR}")
    alice.get_by_label("Clock: minutes per player").fill("1")
    alice.get_by_label("Seconds added after each move").fill("2")
    alice.get_by_test_id("friend-new").click()
    expect(alice.get_by_test_id("friend-settings-words")).to_contain_text(
        "Clocks: 1 minute each, plus 2 seconds after each move."
    )
    bob.goto(alice.get_by_test_id("invite-link").input_value())
    bob.get_by_test_id("friend-join").click()
    _game_shown(tabs)
    table = FriendTable.objects.latest("pk")
    assert (table.clock_seconds, table.clock_increment) == (60, 2)
    # then each page shows both clocks, one running: the clock of the seat to move
    statuses = [_status(tab) for tab in tabs]
    movers = [tab for tab, text in zip(tabs, statuses, strict=True) if text == "Your move."]
    assert len(movers) == 1, statuses
    mover = movers[0]
    for tab in tabs:
        expect(tab.get_by_test_id("friend-clocks").locator("[data-clock]")).to_have_count(2)
        expect(tab.locator("[data-clock][data-running]")).to_have_count(1)
    expect(mover.locator("[data-clock][data-running]")).to_contain_text("You:")
    # and the running clock counts down on the page between the server's messages
    running = mover.locator("[data-clock][data-running] [data-clock-text]")
    first = running.inner_text()
    expect(running).not_to_have_text(first, timeout=MOVE_MS)
    second = running.inner_text()
    assert _clock_seconds(second) < _clock_seconds(first) <= 60, (first, second)
    # when the mover moves until the move passes to the other seat
    chooser = random.Random(35)
    for _ in range(40):
        seat = table.seats.get(engine_seat=table.turn_seat)
        before_left, before_started = seat.clock_left_ms, table.turn_started_at
        assert seat.user is not None and before_started is not None
        table = _click_a_move(mover, chooser, tabs)
        seat.refresh_from_db()
        handed_on = table.turn_seat != seat.engine_seat
        # the server charged the mover the time from its decision's start to the move (when
        # the next decision began), and added the increment once the move passed on
        charged = _ms_between(before_started, table.turn_started_at)
        expected = before_left - charged + (2000 if handed_on else 0)
        assert abs(seat.clock_left_ms - expected) <= 1, (seat.clock_left_ms, expected)
        assert 0 < seat.clock_left_ms <= 60_000 + 2_000
        if handed_on or table.status != FriendTable.Status.ACTIVE:
            break
    assert handed_on and table.status == FriendTable.Status.ACTIVE
    assert seat.clock_left_ms > before_left - charged  # the increment was added
    # then the mover's clock stands still at what the server holds, on both pages
    for tab in tabs:
        stopped = tab.locator("[data-clock]:not([data-running])")
        expect(stopped).to_have_count(1)
        expect(stopped).to_have_attribute("data-left-ms", str(seat.clock_left_ms))
        expect(stopped.locator("[data-clock-text]")).to_have_text(clock_words(seat.clock_left_ms))
    expect(mover.locator("[data-clock]:not([data-running])")).to_contain_text("You:")
    other = bob if mover is alice else alice
    expect(other.get_by_test_id("play-status")).to_have_text("Your move.")
    expect(other.locator("[data-clock][data-running]")).to_contain_text("You:")
    _closed(tabs)


def test_pages_served_over_asgi_leave_no_database_connection_open(browser, asgi_url, live_server):
    """Under ASGI each request runs in a thread that ends with it, so its connection has to
    close with it (``CONN_MAX_AGE`` 0 in tests/conftest.py): kept for a next request that
    never comes, 12 page loads left 12 sessions open, as many as the garbage collector had not
    yet reaped, and a run of the suite once had PostgreSQL refuse clients. Last in the module,
    with its neighbours' fixtures: the module's daphne (Twisted's reactor) starts once."""
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's sessions; SQLite has none to leave open")

    def other_sessions() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return int(cursor.fetchone()[0])

    gc.collect()
    gc.disable()  # only closing can end a session here, not the collector
    try:
        before = other_sessions()
        for _ in range(12):
            with urlopen(f"{asgi_url}/cards/", timeout=30) as response:
                assert response.status == 200 and b"card" in response.read()
        left = other_sessions() - before
    finally:
        gc.enable()
    assert left <= 1, f"{left} database sessions left open by 12 page loads"
