"""A seat's table never shows what that seat cannot see (issue 18, point 1).

Two properties over random positions of every game with hidden cards: the table a seat gets is
the same whatever the hidden cards are (the position with everything the seat cannot see dealt
again, ``State.determinise``), and the rival's private zones (hand, secret tiles) are backs.
The open view of a replay, by contrast, shows every hand.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, Rng, find_plugin, get_game
from rules.engines.core.table import table_keys

#: (game, example setup index) of the games with cards hidden from a rival
HIDDEN = [
    ("revolt-n-reign", 0),
    ("rival-realms", 0),
    ("regality-vs-religion", 3),  # secret-random: each side's secret tiles
    ("regality-vs-religion", 5),  # secret-draft
    ("reign-absolute", 0),
    ("reign-absolute", 2),  # three players
    ("reggae-revolution", 1),  # two players: hands open to the team, every pile face down
]
#: per game, the zone ids a seat holds privately (shown to that seat alone)
PRIVATE = {
    "revolt-n-reign": {"hand"},
    "rival-realms": {"hand"},
    "regality-vs-religion": set(),  # a side's area shows its known tiles; secret ones are backs
    "reign-absolute": set(),
    "reggae-revolution": set(),  # a co-operative team plays with open hands
}


def random_position(slug: str, index: int, seed: int, actions: int):
    """Setup ``index`` of ``slug``, then up to ``actions`` random moves (chance sampled)."""
    game = get_game(slug)
    state = game.new_initial_state(seed, game.example_setups()[index])
    agent = RandomAgent(seed + 1)
    for _ in range(actions):
        player = state.current_player()
        if player == TERMINAL:
            break
        state.apply(state.sample_chance() if player == CHANCE else agent.act(state))
    return state


@pytest.mark.parametrize(("slug", "index"), HIDDEN)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 120), resample=st.integers(0, 99))
def test_a_seats_table_never_depends_on_cards_it_cannot_see(slug, index, seed, actions, resample):
    state = random_position(slug, index, seed, actions)
    plugin = find_plugin(slug)
    for viewer in range(len(state.returns())):
        seen = plugin.table(state, viewer)
        json.dumps(seen)  # plain data
        # everything the seat cannot see, dealt again: the seat's table is unchanged
        other = state.determinise(viewer, Rng(resample))
        assert plugin.table(other, viewer) == seen
        for seat in seen["seats"]:
            if seat["seat"] == viewer:
                continue
            for zone in seat["zones"]:
                if zone["id"] in PRIVATE[slug]:
                    assert all(card["key"] is None for card in zone["cards"])
                    assert len(zone["cards"]) == zone["count"]


def test_the_open_view_shows_each_hand_and_a_seat_view_only_its_own():
    state = random_position("revolt-n-reign", 0, 3, 30)
    plugin = find_plugin("revolt-n-reign")
    open_view = plugin.table(state, None)
    seat_view = plugin.table(state, 0)
    rival_hand = [state.table[c].key for c in state.hand[1]]
    assert rival_hand, "the rival holds cards"
    open_hand = next(z for z in open_view["seats"][1]["zones"] if z["id"] == "hand")
    assert sorted(c["key"] for c in open_hand["cards"]) == sorted(rival_hand)
    assert len(table_keys(open_view)) - len(table_keys(seat_view)) == len(rival_hand)
