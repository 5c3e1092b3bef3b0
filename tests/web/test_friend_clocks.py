"""Connections come and go (issue 35 item 3): the AI plays for a player away on their move once
the table's ``takeover_after`` has passed, only while they are away, and gives the chair back
when they reconnect; chess-style clocks charged only for one's own decisions, with the
increment; a flag fall ending a two-player game (stored, replayable) and stopping the clocks;
bad settings refused with clear messages.

Time is injected: the services take ``now``, and the ``clock`` fixture replaces
``tables.clocks.clock_now`` (and the consumer's) by a fixed clock the test moves on by hand.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tables.clocks import TableSettings, seat_presence, table_clocks
from tables.models import FriendSeat, FriendTable
from tables.selectors import friend_seat_names
from tables.services import (
    TableRefused,
    friend_table_create,
    friend_table_fill_with_ai,
    friend_table_move,
    tables_deadlines_enforce,
)
from tests.web.conftest import sample
from tests.web.test_friend_tables import ACTION, FACTIONS, Player, ra_deck
from tests.web.test_matchup_runs import RVR, rvr_deck
from web.friends import seat_message, spectator_update_at, table_position

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _keep_test_connection(monkeypatch) -> None:
    # as in test_friend_tables: channels' clean-up would close the test's database connection
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)


@pytest.fixture
def bob_client(other_user) -> Client:
    bob = Client()
    bob.force_login(other_user)
    return bob


class FixedClock:
    """A clock that reads what the test says."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, seconds: float) -> datetime:
        """Set the clock to ``seconds`` after T0 and read it."""
        self.now = T0 + timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FixedClock:
    fixed = FixedClock()
    monkeypatch.setattr("tables.clocks.clock_now", fixed)
    monkeypatch.setattr("web.consumers.clock_now", fixed)
    return fixed


def set_table(alice, bob_client, user, other_user, **settings: str) -> FriendTable:
    """An RvR table opened by alice with ``settings`` (the form's fields), bob joined: the game
    starts at the clock's time."""
    regality = rvr_deck(user, "King's Court", sample(RVR, "legal-regality-standard"))
    religion = rvr_deck(other_user, "Temple Guard", sample(RVR, "legal-religion-standard"))
    answer = alice.post(reverse("friend-new"), {"deck": regality.pk, **settings})
    assert answer.status_code == 302, answer.content.decode()[:400]
    table = FriendTable.objects.latest("pk")
    join = reverse("friend-join", args=[table.invite_token])
    assert bob_client.post(join, {"deck": religion.pk}).status_code == 302
    table.refresh_from_db()
    assert table.status == FriendTable.Status.ACTIVE
    return table


def deciding(table: FriendTable) -> FriendSeat:
    """The person whose decision it is."""
    table.refresh_from_db()
    assert table.turn_seat is not None
    return table.seats.select_related("user").get(engine_seat=table.turn_seat)


def other(table: FriendTable, seat: FriendSeat) -> FriendSeat:
    return table.seats.select_related("user").exclude(pk=seat.pk).get()


def first_move(table: FriendTable, seat: FriendSeat, now: datetime) -> None:
    table.refresh_from_db()
    assert seat.user is not None
    friend_table_move(table_pk=table.pk, user=seat.user, index=0, seen=len(table.actions), now=now)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"takeover_after": "-60"}, "The time before the AI takes over cannot be negative."),
        ({"takeover_after": "999999"}, "must be from 10 seconds to 60 minutes, or never"),
        ({"takeover_after": "soon"}, "must be a whole number"),
        ({"clock_minutes": "-5"}, "The clock's minutes per player cannot be negative."),
        ({"clock_minutes": "0"}, "must be from 1 to 180, or no clock"),
        ({"clock_minutes": "100000"}, "must be from 1 to 180, or no clock"),
        ({"clock_minutes": "5", "clock_increment": "3600"}, "must be from 0 to 60 seconds"),
        ({"clock_minutes": "5", "clock_increment": "-1"}, "increment cannot be negative"),
        ({"clock_increment": "5"}, "An increment needs a clock"),
    ],
)
def test_bad_settings_are_refused_with_a_message_and_open_no_table(alice, user, fields, message):
    deck = rvr_deck(user, "Court", sample(RVR, "legal-regality-standard"))
    refused = alice.post(reverse("friend-new"), {"deck": deck.pk, **fields})
    assert refused.status_code == 400
    assert message.replace("'", "&#x27;") in refused.content.decode()
    assert not FriendTable.objects.exists()


def test_settings_are_stored_and_shown_on_the_table_page(alice, user):
    deck = rvr_deck(user, "Court", sample(RVR, "legal-regality-standard"))
    fields = {"takeover_after": "120", "clock_minutes": "5", "clock_increment": "3"}
    assert alice.post(reverse("friend-new"), {"deck": deck.pk, **fields}).status_code == 302
    table = FriendTable.objects.get()
    assert (table.takeover_after, table.clock_seconds, table.clock_increment) == (120, 300, 3)
    page = alice.get(reverse("friend-table", args=[table.pk])).content.decode()
    assert "away for 2 minutes on their move" in page
    assert "Clocks: 5 minutes each, plus 3 seconds after each move." in page
    # the form offers the settings; "never" and an empty clock are no takeover and no clock
    assert (
        'name="takeover_after"' in alice.get(reverse("play-home"), {"game": RVR}).content.decode()
    )
    fields = {"takeover_after": "never", "clock_minutes": "", "clock_increment": "0"}
    assert alice.post(reverse("friend-new"), {"deck": deck.pk, **fields}).status_code == 302
    table = FriendTable.objects.latest("pk")
    assert (table.takeover_after, table.clock_seconds, table.clock_increment) == (None, None, 0)


def test_the_ai_takes_over_only_after_the_timeout_only_while_away_and_gives_the_chair_back(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, takeover_after="60")
    away = deciding(table)
    present = other(table, away)
    assert table.turn_started_at == T0
    # while connected (and pinging) the player may think as long as they like
    assert seat_presence(table.pk, away.user, 1, clock.at(0)) is False
    for second in (40, 80, 120):
        seat_presence(table.pk, away.user, 0, clock.at(second))
        assert tables_deadlines_enforce(clock.now) == []
    before = len(FriendTable.objects.get(pk=table.pk).actions)
    # when they leave at 130 s, the AI waits the 60 s from then, not from the turn's start
    seat_presence(table.pk, away.user, -1, clock.at(130))
    assert tables_deadlines_enforce(clock.at(189.9)) == []
    assert tables_deadlines_enforce(clock.at(190)) == [table.pk]
    table.refresh_from_db()
    seat = FriendSeat.objects.get(pk=away.pk)
    assert seat.stand_in
    assert len(table.actions) > before, "the AI moved for the player away"
    who = away.user.get_username()
    assert f"{who} left; the AI plays for {who} until {who} returns." in table.notes
    # the seat messages say so
    message = seat_message(table, table_position(table), present)
    assert f"the AI plays for {who} until {who} returns" in message["html"]
    assert table.status == FriendTable.Status.ACTIVE
    # the AI keeps playing for them: after the other player's move, the decision is theirs again
    assert deciding(table).pk == present.pk
    first_move(table, present, clock.at(200))
    assert deciding(table).pk == present.pk

    # when they reconnect (the page's WebSocket), the chair is theirs again, and everyone told
    async def back() -> dict[str, Any]:
        again = Player(table, away.user)
        message = await again.connect()
        await again.socket.disconnect()
        return message

    clock.at(300)
    message = async_to_sync(back)()
    assert f"{who} is back and plays again." in message["html"]
    seat.refresh_from_db()
    assert not seat.stand_in
    assert (seat.connections, seat.left_at) == (0, clock.now)  # the test's socket closed again
    # the AI no longer moves for them: the other's moves lead to their decision, and it waits
    for second in range(301, 340):
        if deciding(table).pk == seat.pk:
            break
        first_move(table, present, clock.at(second))
    assert deciding(table).pk == seat.pk
    actions = len(table.actions)
    assert tables_deadlines_enforce(clock.at(second + 30)) == []
    table.refresh_from_db()
    assert len(table.actions) == actions


def test_a_connection_counted_open_but_silent_counts_as_away_once_stale(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, takeover_after="60")
    away = deciding(table)
    seat_presence(table.pk, away.user, 1, clock.at(0))  # its server process dies: never closed
    assert tables_deadlines_enforce(clock.at(104.9)) == []
    assert tables_deadlines_enforce(clock.at(105)) == [table.pk]  # 45 s silent, then 60 s
    assert FriendSeat.objects.get(pk=away.pk).stand_in


def test_several_tabs_keep_a_seat_connected_until_the_last_closes(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, takeover_after="60")

    async def tabs() -> list[tuple[int, datetime | None]]:
        one, two = Player(table, user), Player(table, user)
        await one.connect()
        await two.connect()
        counts = []
        for tab, second in ((one, 10), (two, 20)):
            clock.at(second)
            await tab.socket.disconnect()
            seat = await FriendSeat.objects.aget(table=table, user=user)
            counts.append((seat.connections, seat.left_at))
        return counts

    assert async_to_sync(tabs)() == [(1, None), (0, T0 + timedelta(seconds=20))]


def test_the_clock_is_charged_only_on_ones_own_decisions_with_the_increment(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, clock_minutes="1", clock_increment="2")
    seats = {s.engine_seat: s for s in table.seats.select_related("user")}
    expected = dict.fromkeys(seats, 60000)
    assert {s.engine_seat: s.clock_left_ms for s in seats.values()} == expected
    started, second, handed_on = 0.0, 0.0, 0
    for thought in (3, 5, 1.5, 7, 2, 4, 6, 0.25):
        mover = deciding(table)
        # the clock shown counts down only the seat deciding
        shown = table_clocks(table, clock.at(second + thought / 2))
        for clock_shown in shown:
            running = clock_shown["engine_seat"] == mover.engine_seat
            assert clock_shown["running"] is running
            spent = int((second + thought / 2 - started) * 1000) if running else 0
            assert clock_shown["left_ms"] == expected[clock_shown["engine_seat"]] - spent
        second += thought
        first_move(table, mover, clock.at(second))
        table.refresh_from_db()
        expected[mover.engine_seat] -= int((second - started) * 1000)
        if table.turn_seat != mover.engine_seat:
            expected[mover.engine_seat] += 2000
            handed_on += 1
        started = second
        stored = {s.engine_seat: s.clock_left_ms for s in table.seats.all()}
        assert stored == expected
        assert table.turn_started_at == clock.now
        assert table.status == FriendTable.Status.ACTIVE
    assert handed_on >= 2, "the move passed between the players"


def test_a_flag_fall_ends_a_two_player_game_on_time_stored_and_replayable(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, clock_minutes="1")
    flagged = deciding(table)
    winner = other(table, flagged)
    actions = list(table.actions)
    assert table.deadline_at == T0 + timedelta(seconds=60)
    # a move arriving after the flag fell (before anything enforced it) changes nothing
    with pytest.raises(TableRefused, match="Your time ran out"):
        first_move(table, flagged, clock.at(61))
    clock.at(59.999)
    call_command("tables_tick")  # the cron command: not yet
    table.refresh_from_db()
    assert table.status == FriendTable.Status.ACTIVE
    clock.at(60)
    call_command("tables_tick")
    table.refresh_from_db()
    assert table.status == FriendTable.Status.FINISHED
    assert (table.winner, table.end_reason) == (winner.engine_seat, "time")
    assert table.actions == actions
    assert FriendSeat.objects.get(pk=flagged.pk).clock_left_ms == 0
    # nobody may move any more; both are told, with no choices left
    for seat in (flagged, winner):
        with pytest.raises(TableRefused, match="This game is over"):
            first_move(table, seat, clock.at(70))
    lost = seat_message(table, table_position(table), flagged)
    won = seat_message(table, table_position(table), winner)
    assert lost["finished"] and not lost["your_move"] and not ACTION.search(lost["html"])
    assert "Game over: you lost (out of time)." in lost["html"]
    assert "Game over: you won (out of time)." in won["html"]
    # and so are spectators, whose last position is the same one
    watched, _ = spectator_update_at(table, clock.at(70).timestamp())
    assert watched["finished"] and watched["refresh_in"] is None
    names = friend_seat_names(table, None)
    said = f"Game over: {names[winner.engine_seat]} won (out of time)."
    assert escape(said) in watched["html"]
    # and it replays, the result stored
    client = alice if flagged.user.pk == user.pk else bob_client
    page = client.get(reverse("friend-table", args=[table.pk])).content.decode()
    assert "Game over: you lost (out of time)." in page
    replay = client.get(reverse("friend-replay", args=[table.pk]), {"step": 2})
    assert replay.status_code == 200
    assert "not every player chose to show their cards" in replay.content.decode()
    # the clocks stopped: nothing runs nor is due, however late
    late = clock.at(100_000)
    assert tables_deadlines_enforce(late) == []
    assert all(not shown["running"] for shown in table_clocks(table, late))
    assert {shown["left_ms"] for shown in table_clocks(table, late)} == {0, 60_000}
    assert table.deadline_at is None


def test_a_game_played_to_its_end_stops_the_clocks(alice, bob_client, user, other_user, clock):
    table = set_table(alice, bob_client, user, other_user, clock_minutes="180")
    chooser = random.Random(35)
    for move in range(1, 2000):
        table.refresh_from_db()
        if table.status == FriendTable.Status.FINISHED:
            break
        mover = deciding(table)
        state = table_position(table)
        friend_table_move(
            table_pk=table.pk,
            user=mover.user,
            index=chooser.randrange(len(state.legal_actions())),
            seen=len(table.actions),
            now=clock.at(move),
        )
    assert table.status == FriendTable.Status.FINISHED and table.end_reason != "time"
    assert (table.turn_seat, table.turn_started_at, table.deadline_at) == (None, None, None)
    left = [shown["left_ms"] for shown in table_clocks(table, clock.at(10**6))]
    assert left == [shown["left_ms"] for shown in table_clocks(table, clock.at(10**7))]
    assert not any(shown["running"] for shown in table_clocks(table, clock.now))
    assert tables_deadlines_enforce(clock.now) == []


def test_at_a_table_of_three_a_flag_fall_lets_the_ai_play_the_flagged_seat_to_the_end(
    user, clock
) -> None:
    decks = [ra_deck(user, faction) for faction in FACTIONS[:3]]
    table = friend_table_create(
        owner=user, deck=decks[0], chairs=3, settings=TableSettings(clock_seconds=60)
    )
    for deck in decks[1:]:
        friend_table_fill_with_ai(table_pk=table.pk, owner=user, deck=deck)
    table.refresh_from_db()
    mine = table.seats.get(user=user)
    assert table.status == FriendTable.Status.ACTIVE
    assert (table.turn_seat, table.turn_started_at) == (mine.engine_seat, T0)
    moves = len(table.actions)

    assert tables_deadlines_enforce(clock.at(59.9)) == []
    assert tables_deadlines_enforce(clock.at(60)) == [table.pk]

    table.refresh_from_db()
    mine.refresh_from_db()
    assert mine.flagged and mine.clock_left_ms == 0
    # the others play on, the AI in the flagged seat too, so the game is not lost on time
    assert table.status == FriendTable.Status.FINISHED and table.end_reason != "time"
    assert len(table.actions) > moves
    who = user.get_username()
    assert f"{who}'s clock ran out: the AI plays for {who} for the rest of the game." in (
        table.notes
    )


def test_a_ping_acts_on_a_passed_deadline_and_every_seat_is_told(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, clock_minutes="1")
    flagged = deciding(table)
    winner = other(table, flagged)

    async def ping() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        players = [Player(table, flagged.user), Player(table, winner.user)]
        first = [await p.connect() for p in players]
        clock.at(30)
        await players[1].socket.send_json_to({"type": "ping"})  # nothing due: no answer
        assert await players[1].socket.receive_nothing(timeout=0.1)
        clock.at(60)
        await players[1].socket.send_json_to({"type": "ping"})
        told = [await p.receive() for p in players]
        for p in players:
            await p.socket.disconnect()
        return first, told

    first, told = async_to_sync(ping)()
    # both clocks shown from the start, the one deciding running
    assert 'data-left-ms="60000" data-running' in first[0]["html"]
    assert "You: <strong data-clock-text>1:00</strong> (running)" in first[0]["html"]
    assert all(message["finished"] for message in told)
    assert "Game over: you lost (out of time)." in told[0]["html"]
    assert "Game over: you won (out of time)." in told[1]["html"]


def test_loading_the_table_page_acts_on_a_passed_deadline(
    alice, bob_client, user, other_user, clock
):
    table = set_table(alice, bob_client, user, other_user, takeover_after="60")
    away = deciding(table)
    client = bob_client if away.user.pk == user.pk else alice
    actions = len(table.actions)
    clock.at(59)
    assert client.get(reverse("friend-table", args=[table.pk])).status_code == 200
    table.refresh_from_db()
    assert len(table.actions) == actions
    clock.at(60)  # nobody of theirs connected since the turn began: the AI plays for them
    assert client.get(reverse("friend-table", args=[table.pk])).status_code == 200
    table.refresh_from_db()
    assert len(table.actions) > actions
    assert FriendSeat.objects.get(pk=away.pk).stand_in


def test_a_refused_table_shows_the_play_form_again_with_every_choice_kept(alice, user):
    """A setting refused (an increment without a clock) is said beside the friend settings on
    the /play/ form, which keeps the deck and every setting posted, rather than a separate page
    that loses them."""
    deck = rvr_deck(user, "Court", sample(RVR, "legal-regality-standard"))
    posted = {
        "deck": deck.pk,
        "takeover_after": "300",
        "clock_minutes": "",
        "clock_increment": "7",
        "spectators": "public",
        "spectator_delay": "180",
    }

    refused = alice.post(reverse("friend-new"), posted)

    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'data-testid="friend-error"' in page and "An increment needs a clock" in page
    assert 'aria-describedby="friend-error"' in page
    assert f'<option value="{deck.pk}" data-faces' in page and "selected>Court" in page
    assert '<option value="300" selected>5 minutes</option>' in page
    assert '<option value="public" selected>Anyone</option>' in page
    assert '<option value="180" selected>3 minutes behind</option>' in page
    assert 'name="clock_increment" type="number" min="0" max="60" step="1" value="7"' in page
    assert not FriendTable.objects.exists()
