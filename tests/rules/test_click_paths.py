"""Every legal action can be taken by clicking the table (issue 34, item 1, "Click the table").

A property over random positions of all five games: for the seat to act, each legal action has
exactly one click path (``GamePlugin.click_paths``), no path is the same as another or begins
another (so the page's script, which matches clicks against the paths, always ends on one
action), every pick of a path is an element the seat's table shows or a labelled control chip,
and a control stands alone only where the table has nothing to click for it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.core import CHANCE, TERMINAL, find_plugin, get_game, plugin_for, registered_games
from rules.engines.core.picks import CONTROL, ambiguities, settle, table_picks
from tests.rules.test_table_hidden_info import random_position

#: the games that declare a table view (clicking the table is how /play/ takes an action)
GAMES = [slug for slug in registered_games() if plugin_for(slug).has_table]
#: (game, example setup index): every setup of every game
SETUPS = [(slug, index) for slug in GAMES for index in range(len(get_game(slug).example_setups()))]


def _to_act(slug: str, index: int, seed: int, actions: int):
    """A random position of setup ``index`` where a seat (not chance) is to act, or None."""
    state = random_position(slug, index, seed, actions)
    for _ in range(50):
        player = state.current_player()
        if player == TERMINAL:
            return None
        if player != CHANCE:
            return state
        state.apply(state.sample_chance())
    return None


@pytest.mark.parametrize(("slug", "index"), SETUPS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 200))
def test_every_legal_action_has_one_unambiguous_click_path(slug, index, seed, actions):
    # given a position where a seat is to act, and the table that seat sees
    state = _to_act(slug, index, seed, actions)
    if state is None:
        return
    plugin = find_plugin(slug)
    seat = state.current_player()
    table = plugin.table_with_picks(state, seat)
    shown = table_picks(table)
    # when the plugin maps the legal actions to click paths
    legal = state.legal_actions()
    paths = plugin.click_paths(state, seat, table)
    # then there is one path per action, and none is another or begins another
    assert len(paths) == len(legal)
    assert ambiguities(path for path, _ in paths) == []
    for action, (path, labels) in zip(legal, paths, strict=True):
        assert path, action
        for pick in path:
            assert " " not in pick, pick  # a page joins a path's picks with spaces
            if pick.startswith(CONTROL):
                # a control is a chip the page draws with words
                assert labels.get(pick), (str(action), pick)
            else:
                # anything else is on the table this seat sees
                assert pick in shown, (str(action), pick)


@pytest.mark.parametrize("slug", GAMES)
def test_most_actions_start_on_the_table_not_on_a_chip(slug):
    """The paths are about the table: across a few games, an action that names a card or a
    place starts with a click on it (a chip only where it has nothing to click)."""
    plugin = find_plugin(slug)
    with_args = on_table = 0
    for seed in range(4):
        for actions in (0, 20, 60, 120):
            state = _to_act(slug, 0, seed, actions)
            if state is None:
                continue
            seat = state.current_player()
            table = plugin.table_with_picks(state, seat)
            for action, (path, _) in zip(
                state.legal_actions(), plugin.click_paths(state, seat, table), strict=True
            ):
                if action.args:
                    with_args += 1
                    on_table += not path[0].startswith(CONTROL)
    assert with_args and on_table / with_args > 0.9, (on_table, with_args)


def test_settle_gives_a_chip_to_a_path_another_one_begins_with_or_repeats():
    # given two actions on one card and a third with the same card and a target
    paths = [("hand0:x",), ("hand0:x",), ("hand0:x", "card:3")]
    words = ["Play X", "Yay X", "Play X on 3"]
    # when the paths are settled against a table showing both picks
    settled = settle(paths, {"hand0:x", "card:3"}, lambda i: words[i])
    # then each of the first two ends with a chip of its own words, the third is kept
    assert settled[0] == (("hand0:x", "do:a0"), {"do:a0": "Play X"})
    assert settled[1] == (("hand0:x", "do:a1"), {"do:a1": "Yay X"})
    assert settled[2] == (("hand0:x", "card:3"), {})
    assert ambiguities(path for path, _ in settled) == []


def test_settle_cuts_a_path_at_what_the_table_does_not_show():
    settled = settle([("hand0:x", "hidden:y")], {"hand0:x"}, lambda i: "Discard Y")
    assert settled == [(("hand0:x", "do:a0"), {"do:a0": "Discard Y"})]
