"""Spectators of a friend table (issue 35 item 4): the public view is built from what no seat
holds privately (re-dealing everything hidden from any seat leaves a spectator's message
unchanged, for the three two-player games played at tables), the delay shows the actions stored
long enough ago (the time is given, not read), a wrong spectator link and a table that lets
nobody watch are refused, a spectator's move is refused and changes nothing, every hand is
shown after the game only when every seated person agreed, and a spectator's page, sent the log's
new groups only, shows the whole log a fresh connection would.

The consumers run in this thread as in tests/web/test_friend_tables.py (whose fixtures and
scripted client are reused)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, Rng
from rules.play import play_position
from tables.models import FriendTable
from tables.services import friend_table_create, friend_table_join, friend_table_move
from tables.spectators import (
    reveal_after_set,
    spectator_settings_set,
    visible_action_count,
)
from tests.web.conftest import make_deck, sample
from tests.web.test_friend_tables import (  # noqa: F401
    ACTION,
    FACTIONS,
    LOG,
    LOG_GROUP,
    RA,
    REGGAE,
    SOCKET_GONE,
    Player,
    _keep_test_connection,
    bob_client,
    closing_socket,
    page_after,
    ra_deck,
    reggae_deck,
)
from tests.web.test_matchup_runs import RELIGION_STANDARD, RVR, rvr_deck
from web import friends
from web.consumers import group_name
from web.friends import spectator_message, spectator_update, spectator_update_at, table_position
from web.routing import websocket_urlpatterns
from web.watch import FriendSpectatorConsumer

pytestmark = pytest.mark.django_db

#: every game at a table of two, with Regality vs Religion's secret draft (tiles kept secret),
#: Reign Absolute's rivals and a Reggae Revolution team of two
GAMES = ["revolt-n-reign", RVR, f"{RVR}:secret-draft", "rival-realms", RA, REGGAE]
#: the name of the first deck of each, which finds a table of it again
FIRST_DECK = {
    "revolt-n-reign": "Eagles",
    RVR: "King's Court",
    f"{RVR}:secret-draft": "Secret Court",
    "rival-realms": "Court",
    RA: "Empire-Legion",
    REGGAE: "Roots",
}


def decks(game: str, user, other_user) -> tuple[Any, Any]:
    if game == "revolt-n-reign":
        return make_deck(user, name="Eagles"), make_deck(
            other_user, name="Bisons", sample_name="legal-bison-pressure"
        )
    if game == f"{RVR}:secret-draft":
        return (
            rvr_deck(
                user,
                "Secret Court",
                sample(RVR, "legal-regality-secret-draft"),
                variant="secret-draft",
            ),
            rvr_deck(
                other_user,
                "Secret Temple",
                sample(RVR, "legal-religion-secret-draft"),
                variant="secret-draft",
            ),
        )
    if game == RVR:
        return (
            rvr_deck(user, "King's Court", sample(RVR, "legal-regality-standard")),
            rvr_deck(other_user, "Temple Guard", RELIGION_STANDARD),
        )
    if game == RA:
        return ra_deck(user, FACTIONS[0]), ra_deck(other_user, FACTIONS[1])
    if game == REGGAE:
        return reggae_deck(user, "Roots"), reggae_deck(other_user, "Dub")
    return (
        make_deck(user, game=game, sample_name="legal-arcane-court", name="Court"),
        make_deck(other_user, game=game, sample_name="legal-knights-and-keeps", name="Keeps"),
    )


def started(game: str, user, other_user, *, spectators: str = "link", delay: int = 0):
    mine, theirs = decks(game, user, other_user)
    table = friend_table_create(owner=user, deck=mine)
    spectator_settings_set(table, spectators=spectators, delay=delay)
    return friend_table_join(
        table_pk=table.pk, token=table.invite_token, user=other_user, deck=theirs
    )


def people_move(table: FriendTable, users: dict[int, Any], moves: int, seed: int = 3) -> None:
    """``moves`` random legal moves by the people of ``table`` (fewer if the game ends)."""
    chooser = random.Random(seed)
    for _ in range(moves):
        table.refresh_from_db()
        if table.status != FriendTable.Status.ACTIVE:
            return
        state = table_position(table)
        friend_table_move(
            table_pk=table.pk,
            user=users[state.current_player()],
            index=chooser.randrange(len(state.legal_actions())),
            seen=len(table.actions),
        )


def seat_users(table: FriendTable) -> dict[int, Any]:
    users: dict[int, Any] = {}
    for seat in table.seats.select_related("user"):
        assert seat.engine_seat is not None  # a started table seats everyone
        users[seat.engine_seat] = seat.user
    return users


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 120), resample=st.integers(0, 99))
def test_a_spectators_message_is_unchanged_when_anything_hidden_is_dealt_again(
    user, other_user, game, seed, actions, resample
):
    found = FriendTable.objects.filter(seats__label=FIRST_DECK[game]).first()
    table = found or started(game, user, other_user)
    # given a position some random moves into the game
    state = table_position(table)
    agent = RandomAgent(seed)
    for _ in range(actions):
        player = state.current_player()
        if player == TERMINAL:
            break
        state.apply(state.sample_chance() if player == CHANCE else agent.act(state))
    message = spectator_message(table, state)
    # when what one seat cannot see is dealt again, and then what the other cannot see
    once = state.determinise(0, Rng(resample))
    twice = once.determinise(1, Rng(resample + 1))
    for redealt in (once, twice):
        if state.event_log() and not redealt.events:
            # a re-deal may start its log afresh (Regality vs Religion: its history names tiles
            # kept secret; Rival Realms: a quiet state): the history of play is carried over
            redealt.events = list(state.event_log())
    # then a spectator is sent exactly the same message, whole or after half the log
    assert spectator_message(table, once) == message
    assert spectator_message(table, twice) == message
    log = spectator_update(table, state)[1]
    held = log[: len(log) // 2]
    for redealt in (once, twice):
        assert spectator_update(table, redealt, log_shown=held) == spectator_update(
            table, state, log_shown=held
        )


def test_the_public_view_shows_hands_as_backs(user, other_user):
    table = started("revolt-n-reign", user, other_user)
    state = table_position(table)
    html = spectator_message(table, state)["html"]
    for seat in (0, 1):
        for card in state.hand[seat]:
            assert f'data-card="{state.table[card].key}"' not in html
    assert "as spectators see it" in html


def test_the_delay_shows_the_actions_stored_long_enough_ago(user, other_user):
    table = started("revolt-n-reign", user, other_user, delay=60)
    people_move(table, seat_users(table), 6)
    table.refresh_from_db()
    assert len(table.action_times) == len(table.actions)  # every action is timed
    total = len(table.actions)
    assert total > 4
    # given the first four actions stored at 1000 and the rest at 1100 (seconds)
    table.action_times = [1000.0] * 4 + [1100.0] * (total - 4)
    table.save()
    # then a minute's delay shows four actions until 1160, then all of them
    assert visible_action_count(table, 1059.0) == 0
    assert visible_action_count(table, 1060.0) == 4
    assert visible_action_count(table, 1159.0) == 4
    assert visible_action_count(table, 1160.0) == total
    message = spectator_update_at(table, 1100.0)[0]
    assert message["refresh_in"] == 60.0
    assert message == spectator_message(table, play_position(table, 4), refresh_in=60.0)
    assert spectator_update_at(table, 2000.0)[0]["refresh_in"] is None
    assert spectator_update_at(table, 2000.0)[0] == spectator_message(table, table_position(table))


class Spectator:
    def __init__(self, table: FriendTable, token: str = "") -> None:
        query = f"?token={token}" if token else ""
        self.socket = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/play/friends/{table.pk}/watch/{query}"
        )


def test_a_wrong_token_and_a_table_without_spectators_are_refused(client, user, other_user):
    table = started(RVR, user, other_user)
    closed = started("revolt-n-reign", user, other_user, spectators="none")
    right = reverse("friend-watch", args=[table.pk, table.spectator_token])
    assert client.get(right).status_code == 200
    wrong = reverse("friend-watch", args=[table.pk, table.spectator_token + "x"])
    assert "not valid" in client.get(wrong).content.decode()
    assert client.get(wrong).status_code == 404
    assert client.get(reverse("friend-watch-public", args=[table.pk])).status_code == 404
    for url in (
        reverse("friend-watch", args=[closed.pk, closed.spectator_token]),
        reverse("friend-watch-public", args=[closed.pk]),
    ):
        answer = client.get(url)
        assert answer.status_code == 404
        assert "do not let anyone watch" in answer.content.decode()

    async def connect_all() -> list[tuple[bool, int | str | None]]:
        results = []
        for which, token in [
            (table, table.spectator_token + "x"),
            (table, ""),
            (closed, closed.spectator_token),
        ]:
            spectator = Spectator(which, token)
            results.append(await spectator.socket.connect())
            await spectator.socket.disconnect()
        return results

    assert async_to_sync(connect_all)() == [(False, 4403)] * 3


def test_a_public_table_is_watched_without_a_token(client, user, other_user):
    table = started(RVR, user, other_user, spectators="public")
    answer = client.get(reverse("friend-watch-public", args=[table.pk]))
    assert answer.status_code == 200
    assert "You are a spectator" in answer.content.decode()


def test_a_spectators_move_is_refused_changes_nothing_and_the_players_see_the_count(
    user, other_user
):
    table = started(RVR, user, other_user)
    before = list(table.actions)

    async def watch() -> tuple[dict, dict, dict, int]:
        spectator = Spectator(table, table.spectator_token)
        connected, _ = await spectator.socket.connect()
        assert connected
        first = await spectator.socket.receive_json_from(timeout=20)
        counted = await FriendTable.objects.aget(pk=table.pk)
        await spectator.socket.send_json_to({"type": "move", "action": 0, "seen": len(before)})
        refused = await spectator.socket.receive_json_from(timeout=20)
        await spectator.socket.send_json_to({"type": "refresh"})
        again = await spectator.socket.receive_json_from(timeout=20)
        assert await spectator.socket.receive_nothing(timeout=0.2)
        await spectator.socket.disconnect()
        return first, refused, again, counted.watching

    first, refused, again, watching = async_to_sync(watch)()
    assert first["type"] == "position"
    assert refused == {"type": "refused", "message": FriendSpectatorConsumer.SPECTATORS_REFUSED}
    # the page shows that view already: it is told only that there is nothing to wait for
    assert again == {"type": "wait", "refresh_in": None}
    assert watching == 1
    table.refresh_from_db()
    assert table.actions == before
    assert table.watching == 0


@SOCKET_GONE
def test_a_spectator_gone_while_the_table_pushes_it_a_view_is_no_longer_counted(
    user, other_user, gone
):
    """A spectator's tab closes as the table pushes it the view (the server's send fails before
    the close reaches the consumer): the players' pages stop counting it."""
    table = started(RVR, user, other_user)
    users = seat_users(table)

    async def watch() -> tuple[int, int]:
        closed = asyncio.Event()
        path = f"/ws/play/friends/{table.pk}/watch/?token={table.spectator_token}"
        spectator = closing_socket(path, closed, gone)
        assert (await spectator.connect())[0]
        await spectator.receive_json_from(timeout=20)
        counted = (await FriendTable.objects.aget(pk=table.pk)).watching
        closed.set()
        # a move changes what the spectator is shown, so the table pushes it the new view
        await sync_to_async(people_move)(table, users, 1)
        layer = get_channel_layer()
        assert layer is not None
        await layer.group_send(group_name(table.pk), {"type": "table.changed"})
        await spectator.wait(timeout=20)  # re-raises the consumer's error, if it ended with one
        # the failed send ended the connection (a wait that ran out would have cancelled it)
        assert not spectator.future.cancelled()
        return counted, (await FriendTable.objects.aget(pk=table.pk)).watching

    assert async_to_sync(watch)() == (1, 0)


def finished(game: str, user, other_user) -> FriendTable:
    table = started(game, user, other_user)
    people_move(table, seat_users(table), 400)
    table.refresh_from_db()
    assert table.status == FriendTable.Status.FINISHED
    return table


def test_every_hand_is_open_only_after_the_game_and_only_when_everyone_agreed(
    user,
    other_user,
    alice,
    bob_client,  # noqa: F811
):
    table = finished(RVR, user, other_user)
    replay = reverse("friend-replay", args=[table.pk])
    assert spectator_update_at(table, 0.0)[0]["revealed"] is False
    assert "Every hand is open" not in alice.get(replay).content.decode()
    # one player agreeing is not enough
    alice.post(reverse("friend-reveal", args=[table.pk]), {"reveal": "on"})
    table.refresh_from_db()
    assert spectator_update_at(table, 0.0)[0]["revealed"] is False
    assert "Every hand is open" not in bob_client.get(replay).content.decode()
    watch_replay = reverse("friend-watch-replay", args=[table.pk, table.spectator_token])
    public_replay = alice.get(watch_replay, {"step": 3}).content.decode()
    assert "Only what was public" in public_replay
    assert "as spectators see it" in public_replay
    # every player agreeing opens every hand, for spectators and players
    bob_client.post(reverse("friend-reveal", args=[table.pk]), {"reveal": "on"})
    table.refresh_from_db()
    message = spectator_update_at(table, 0.0)[0]
    assert message["revealed"] is True
    assert "every hand open" in message["html"]
    assert "Every hand is open" in alice.get(replay).content.decode()
    assert "Every hand is open" in alice.get(watch_replay, {"step": 3}).content.decode()
    # and taking it back hides them again
    alice.post(reverse("friend-reveal", args=[table.pk]), {})
    table.refresh_from_db()
    assert spectator_update_at(table, 0.0)[0]["revealed"] is False


def test_an_agreement_opens_nothing_while_the_game_is_in_play(user, other_user):
    table = started("revolt-n-reign", user, other_user)
    for person in (user, other_user):
        reveal_after_set(table_pk=table.pk, user=person, reveal=True)
    table.refresh_from_db()
    message = spectator_update_at(table, 0.0)[0]
    assert message["revealed"] is False
    assert "as spectators see it" in message["html"]


def test_the_replay_waits_for_the_end_of_the_game(client, user, other_user):
    table = started(RVR, user, other_user)
    answer = client.get(reverse("friend-watch-replay", args=[table.pk, table.spectator_token]))
    assert answer.status_code == 404
    assert "once it is over" in answer.content.decode()


def test_spectators_and_delay_are_chosen_when_the_table_is_opened(alice, user):
    deck = make_deck(user, name="Eagles")
    answer = alice.post(
        reverse("friend-new"), {"deck": deck.pk, "spectators": "link", "spectator_delay": "180"}
    )
    assert answer.status_code == 302
    table = FriendTable.objects.latest("pk")
    assert (table.spectators, table.spectator_delay) == ("link", 180)
    assert table.spectator_token != table.invite_token
    page = alice.get(reverse("friend-table", args=[table.pk])).content.decode()
    assert reverse("friend-watch", args=[table.pk, table.spectator_token]) in page
    assert "3 minutes behind the game" in page
    refused = alice.post(
        reverse("friend-new"), {"deck": deck.pk, "spectators": "link", "spectator_delay": "7"}
    )
    assert refused.status_code == 400
    assert FriendTable.objects.count() == 1


def test_a_players_move_is_pushed_to_the_spectator_and_the_players_see_the_count(user, other_user):
    table = started(RVR, user, other_user)

    async def watch() -> tuple[dict, dict, dict]:
        spectator = Spectator(table, table.spectator_token)
        assert (await spectator.socket.connect())[0]
        first = await spectator.socket.receive_json_from(timeout=20)
        players = [Player(table, user), Player(table, other_user)]
        views = [await p.connect() for p in players]
        mover = 0 if views[0]["your_move"] else 1
        assert ACTION.findall(views[mover]["html"])
        await players[mover].move(0, views[mover]["seen"])
        pushed = await spectator.socket.receive_json_from(timeout=20)
        for p in players:
            await p.receive()
            await p.socket.disconnect()
        await spectator.socket.disconnect()
        return first, pushed, views[mover]

    first, pushed, player_view = async_to_sync(watch)()
    assert pushed["type"] == "position"
    assert pushed["html"] != first["html"]
    assert "1 spectator watching." in player_view["html"]


def test_the_socket_sends_the_delayed_view_by_its_clock(user, other_user, monkeypatch):
    table = started("revolt-n-reign", user, other_user, delay=180)
    people_move(table, seat_users(table), 3)
    table.refresh_from_db()
    table.action_times = [500.0] + [900.0] * (len(table.actions) - 1)
    table.save()
    monkeypatch.setattr(FriendSpectatorConsumer, "clock", staticmethod(lambda: 700.0))

    async def watch() -> dict:
        spectator = Spectator(table, table.spectator_token)
        assert (await spectator.socket.connect())[0]
        message = await spectator.socket.receive_json_from(timeout=20)
        await spectator.socket.disconnect()
        return message

    message = async_to_sync(watch)()
    table.refresh_from_db()
    assert message == spectator_message(table, play_position(table, 1), refresh_in=380.0)


@pytest.mark.parametrize("delay", [0, 180])
def test_a_spectator_is_sent_nothing_when_what_its_page_shows_has_not_changed(
    user, other_user, monkeypatch, delay
):
    # given a table watched with and without a delay, whose first action is shown at 700 s
    table = started("revolt-n-reign", user, other_user, delay=delay)
    people_move(table, seat_users(table), 3)
    table.refresh_from_db()
    table.action_times = [500.0] + [900.0] * (len(table.actions) - 1)
    table.save()
    monkeypatch.setattr(FriendSpectatorConsumer, "clock", staticmethod(lambda: 700.0))

    async def watch() -> list[Any]:
        watching = Spectator(table, table.spectator_token)
        assert (await watching.socket.connect())[0]
        seen = [await watching.socket.receive_json_from(timeout=20)]
        # when a second spectator arrives (the table's count changes)
        arriving = Spectator(table, table.spectator_token)
        assert (await arriving.socket.connect())[0]
        await arriving.socket.receive_json_from(timeout=20)
        seen.append(await watching.socket.receive_nothing(timeout=0.3))
        # and a player moves
        players = [Player(table, user), Player(table, other_user)]
        views = [await p.connect() for p in players]
        mover = 0 if views[0]["your_move"] else 1
        await players[mover].move(0, views[mover]["seen"])
        for p in players:
            await p.receive()
        seen.append(
            await watching.socket.receive_json_from(timeout=20)
            if delay == 0
            else await watching.socket.receive_nothing(timeout=0.3)
        )
        # and the page asks again when the message said
        await watching.socket.send_json_to({"type": "refresh"})
        seen.append(await watching.socket.receive_json_from(timeout=20))
        for socket in [p.socket for p in players] + [watching.socket, arriving.socket]:
            await socket.disconnect()
        return seen

    first, arrival, move, refresh = async_to_sync(watch)()
    # then the arrival sends the first spectator nothing: its page shows the same
    assert arrival is True
    if delay:
        # and with the delay, neither does a move it still hides; the refresh its page asks
        # for (early, here) is told only how long the next action is hidden still
        assert first["refresh_in"] == 380.0
        assert move is True
        assert refresh == {"type": "wait", "refresh_in": 380.0}
    else:
        # and without, the move is sent at once; a refresh after it sends nothing again
        assert first["refresh_in"] is None
        assert move["type"] == "position" and move["html"] != first["html"]
        assert page_after(page_after(None, first), move) != page_after(None, first)
        assert refresh == {"type": "wait", "refresh_in": None}


def test_a_spectators_page_sent_only_new_log_groups_shows_the_whole_log_to_the_end(
    user, other_user
):
    table = started(RVR, user, other_user)
    users = seat_users(table)
    chooser = random.Random(5)

    async def watch() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        spectator = Spectator(table, table.spectator_token)
        assert (await spectator.socket.connect())[0]
        messages = [await spectator.socket.receive_json_from(timeout=20)]
        layer = get_channel_layer()
        assert layer is not None
        while not messages[-1]["finished"]:
            await sync_to_async(people_move)(table, users, 1, seed=chooser.randrange(10**6))
            await layer.group_send(group_name(table.pk), {"type": "table.changed"})
            messages.append(await spectator.socket.receive_json_from(timeout=20))
        # every seated person agrees to show the cards: the log opens from its first hidden tile
        for person in (user, other_user):
            await sync_to_async(reveal_after_set)(table_pk=table.pk, user=person, reveal=True)
        await layer.group_send(group_name(table.pk), {"type": "table.changed"})
        revealed = await spectator.socket.receive_json_from(timeout=20)
        await spectator.socket.disconnect()
        # a spectator connecting now is sent the whole page at once
        fresh = Spectator(table, table.spectator_token)
        assert (await fresh.socket.connect())[0]
        whole = await fresh.socket.receive_json_from(timeout=20)
        await fresh.socket.disconnect()
        return messages[0], [*messages[1:], revealed], whole

    first, updates, whole = async_to_sync(watch)()
    assert len(updates) > 10  # a whole game, one message a move
    page = page_after(None, first)
    for message in updates:
        page = page_after(page, message)
    # then the page built from the messages is the whole page a fresh connection shows
    assert page == page_after(None, whole)
    assert updates[-1]["revealed"] and "every hand open" in updates[-1]["html"]
    assert len(page["log"]) > 5
    # and a message in play sends a part of the log only, not the whole of it
    before_end = updates[-3]
    start = LOG.search(before_end["html"])
    assert start is not None and int(start.group(1)) > 0
    assert len(before_end["html"]) < len(whole["html"])


def test_spectators_at_one_position_share_one_view_built_once(user, other_user, monkeypatch):
    table = started("revolt-n-reign", user, other_user)
    users = seat_users(table)
    people_move(table, users, 6)
    table.refresh_from_db()
    whole_view = spectator_message(table, table_position(table))
    built: list[int] = []
    build = friends.spectator_view

    def counted(*args: Any, **kwargs: Any) -> friends.SpectatorView:
        built.append(len(args[0].actions))
        return build(*args, **kwargs)

    monkeypatch.setattr(friends, "spectator_view", counted)
    now = time.time()
    # given ten spectators connecting at one position: one view is built, the same for all
    connected = [spectator_update_at(table, now) for _ in range(10)]
    assert built == [len(table.actions)]
    assert all(each == connected[0] for each in connected)
    assert connected[0][0] == whole_view
    # when a move is made, the view is built again once for the spectators in step
    people_move(table, users, 1, seed=9)
    table.refresh_from_db()
    in_step = [spectator_update_at(table, now, log_shown=connected[0][1]) for _ in range(10)]
    assert built == [len(table.actions) - 1, len(table.actions)]
    assert all(each == in_step[0] for each in in_step)
    whole = spectator_update_at(table, now)
    assert page_after(page_after(None, connected[0][0]), in_step[0][0]) == page_after(
        None, whole[0]
    )
    assert len(built) == 2  # a new page at the same position: the view as built, whole
    # and a card of the game saved (an edit in the admin, say) builds it again, at the same
    # position: the card's name or rules may have changed
    card = Card.objects.filter(game__slug="revolt-n-reign").order_by("pk").first()
    assert card is not None
    card.save()
    spectator_update_at(table, now)
    assert len(built) == 3
