"""What a friend table sends a seat never depends on what that seat cannot see (issue 35,
"Tests"): the message for a seat (``seat_message``, everything its WebSocket is sent) is the
same when everything that seat cannot see is dealt again (``State.determinise``, the re-deal
of tests/rules/test_table_hidden_info.py), at random positions of a game between people.

For Revolt N Reign the table is opened and joined as players do; for every game (the five,
at two to four chairs where the game seats that many) the table and its chairs are stored
directly from the engine's example setups, so the property holds whatever the rules for
opening a table of that game are."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Game
from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, Rng, State, get_game
from tables.models import FriendSeat, FriendTable
from tables.services import friend_table_create, friend_table_join
from tests.web.conftest import make_deck
from web.friends import log_unchanged, seat_message, seat_update, table_position

pytestmark = pytest.mark.django_db


@pytest.fixture
def rnr_table(user, other_user) -> FriendTable:
    table = friend_table_create(owner=user, deck=make_deck(user, name="Eagles"))
    bisons = make_deck(other_user, name="Bisons", sample_name="legal-bison-pressure")
    return friend_table_join(
        table_pk=table.pk, token=table.invite_token, user=other_user, deck=bisons
    )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 150), resample=st.integers(0, 99))
def test_a_seats_message_is_unchanged_when_what_it_cannot_see_is_dealt_again(
    rnr_table, seed, actions, resample
):
    # given a position some random moves into the game
    state = table_position(rnr_table)
    agent = RandomAgent(seed)
    for _ in range(actions):
        player = state.current_player()
        if player == TERMINAL:
            break
        state.apply(state.sample_chance() if player == CHANCE else agent.act(state))
    for seat in rnr_table.seats.all():
        viewer = seat.engine_seat
        message = seat_message(rnr_table, state, seat)
        # when the rival's hand and every pile the seat cannot see are dealt again
        redealt = state.determinise(viewer, Rng(resample))
        # then the seat is sent exactly the same message
        assert seat_message(rnr_table, redealt, seat) == message


def test_the_rivals_hand_reaches_a_seat_as_backs_only(rnr_table):
    state = table_position(rnr_table)
    seats = {s.engine_seat: s for s in rnr_table.seats.all()}
    rival_cards = {state.table[c].key for c in state.hand[1]}
    own_cards = {state.table[c].key for c in state.hand[0]}
    html = seat_message(rnr_table, state, seats[0])["html"]
    assert rival_cards - own_cards, "the rival holds cards seat 0 does not"
    for key in rival_cards - own_cards:
        assert f'data-card="{key}"' not in html


#: (game, example setup index, chairs) of every game: its hidden cards differ by game (hands,
#: draw piles, secret tiles, face-down piles of a co-operative team)
EVERY_GAME = [
    ("revolt-n-reign", 0, 2),
    ("rival-realms", 0, 2),
    ("regality-vs-religion", 3, 2),  # secret-random: each side's secret tiles
    ("regality-vs-religion", 5, 2),  # secret-draft
    ("reign-absolute", 0, 2),
    ("reign-absolute", 3, 4),
    ("reggae-revolution", 1, 2),
    ("reggae-revolution", 2, 4),
]


def dealt_again(state: State, viewer: int, seed: int) -> State:
    """``state`` with everything ``viewer`` cannot see dealt again. Some engines' re-deal is a
    copy for search that records no events (``quiet``): the past stays what it was (the log a
    seat reads is filtered by ``events_for_player``), so such a copy is given the game's log."""
    redealt = state.determinise(viewer, Rng(seed))
    if redealt.events is None or len(redealt.events) != len(state.event_log()):
        redealt.events = list(state.event_log())
    return redealt


def stored_table(slug: str, index: int, chairs: int, users: list) -> FriendTable:
    """A started table of ``slug`` (example setup ``index``) with a person in each of
    ``chairs`` chairs, the engine seats in the reverse order of the chairs (so a chair is
    never mistaken for its seat)."""
    game = get_game(slug)
    setup = game.example_setups()[index]
    assert game.num_players(setup) == chairs
    table = FriendTable.objects.create(
        game=Game.objects.get(slug=slug),
        owner=users[0],
        setup=setup,
        seed=0,
        status=FriendTable.Status.ACTIVE,
    )
    for chair in range(chairs):
        FriendSeat.objects.create(
            table=table,
            chair=chair,
            user=users[chair],
            label=f"Deck {chair}",
            engine_seat=chairs - 1 - chair,
        )
    return table


@pytest.fixture
def four_people(django_user_model) -> list:
    return [
        django_user_model.objects.create_user(name, f"{name}@example.com", "x-long-pass-35")
        for name in ("ann", "ben", "cat", "dan")
    ]


@pytest.mark.parametrize(("slug", "index", "chairs"), EVERY_GAME)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 120), resample=st.integers(0, 99))
def test_every_games_seat_message_is_unchanged_when_what_it_cannot_see_is_dealt_again(
    four_people, slug, index, chairs, seed, actions, resample
):
    # given a table of the game, stored, and a position some random legal moves in
    table = stored_table(slug, index, chairs, four_people)
    table.seed = seed
    state = table_position(table)
    agent = RandomAgent(seed + 1)
    for _ in range(actions):
        player = state.current_player()
        if player == TERMINAL:
            break
        action = state.sample_chance() if player == CHANCE else agent.act(state)
        state.apply(action)
        table.actions.append(str(action))
    if state.is_terminal():
        table.status = FriendTable.Status.FINISHED
        table.winner = state.winner()
        table.end_reason = state.end_reason() or ""
    # the stored actions lead to that very position (what the consumer would replay)
    assert seat_message(table, table_position(table), table.seats.all()[0]) == seat_message(
        table, state, table.seats.all()[0]
    )
    for seat in table.seats.all():
        message, log = seat_update(table, state, seat)
        assert message == seat_message(table, state, seat)
        # when everything the seat cannot see is dealt again
        redealt = dealt_again(state, seat.engine_seat, resample)
        # then the seat is sent exactly the same message, whole or after the log a page holds
        assert seat_update(table, redealt, seat) == (message, log)
        held = log[: len(log) // 2]
        assert seat_update(table, redealt, seat, log_shown=held) == seat_update(
            table, state, seat, log_shown=held
        )


LOG_GROUP = st.fixed_dictionaries(
    {
        "heading": st.sampled_from(["Turn 1", "Turn 2"]),
        "lines": st.lists(st.integers(0, 2), max_size=2),
    }
)


@given(log=st.lists(LOG_GROUP, max_size=6), shown=st.lists(LOG_GROUP, max_size=6))
def test_a_page_keeps_exactly_the_log_groups_it_holds_already(log, shown):
    """The groups before ``log_unchanged``'s index are the page's own, unchanged; from there on
    the message sends them (the first is new, or changed: the last group grown by a line)."""
    kept = log_unchanged(log, shown)
    assert log[:kept] == shown[:kept]
    assert kept == len(log) or kept == len(shown) or log[kept] != shown[kept]
    assert log_unchanged(log, log) == len(log)
    assert log_unchanged(log, []) == 0
