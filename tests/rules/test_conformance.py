"""One suite for every registered engine: the invariants of the common API (docs/engines.md).

New engines are picked up automatically from the registry, with every setup their
``example_setups()`` lists. ``-m slow`` plays many more games.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, Action, Rng, get_game, registered_games

MAX_ACTIONS = 20_000
CASES = [
    pytest.param(slug, index, id=f"{slug}-{index}")
    for slug in registered_games()
    for index, _ in enumerate(get_game(slug).example_setups())
]


def _setup(slug: str, index: int):
    game = get_game(slug)
    return game, game.example_setups()[index]


def _snapshot(state, players: int) -> str:
    return json.dumps(
        [state.observation(p) for p in range(players)] + [[str(a) for _, a in state.history]],
        sort_keys=True,
        default=str,
    )


def _playout(game, setup, seed: int, check=None):
    """Play a seeded random game; call ``check(state)`` before every action."""
    state = game.new_initial_state(seed, setup)
    agent = RandomAgent(seed + 7)
    for _ in range(MAX_ACTIONS):
        if check is not None:
            check(state)
        player = state.current_player()
        if player == TERMINAL:
            return state
        state.apply(state.sample_chance() if player == CHANCE else agent.act(state))
    raise AssertionError(f"{game.slug} did not end within {MAX_ACTIONS} actions")


@pytest.mark.parametrize(("slug", "index"), CASES)
def test_random_playouts_keep_every_invariant(slug, index):
    game, setup = _setup(slug, index)
    players = game.num_players(setup)
    for seed in range(3):
        start = game.new_initial_state(seed, setup)
        total = sum(start.zone_counts().values())

        def check(state, total=total):
            actions = state.legal_actions()
            # terminal exactly when there is no legal action
            assert state.is_terminal() == (not actions) == (state.current_player() == TERMINAL)
            # cards or tiles are conserved across zones
            assert sum(state.zone_counts().values()) == total
            # actions are small, hashable values that read back from their text
            assert len(set(actions)) == len(actions)
            for action in actions[:20]:
                assert isinstance(action, Action) and Action.parse(str(action)) == action
            for player in range(players):
                json.dumps(state.observation(player), default=str)

        final = _playout(game, setup, seed, check)
        results = final.returns()
        assert len(results) == players
        assert final.winner() is None or results[final.winner()] == max(results)
        assert final.end_reason()


@pytest.mark.parametrize(("slug", "index"), CASES)
def test_a_clone_is_independent_of_its_original(slug, index):
    game, setup = _setup(slug, index)
    players = game.num_players(setup)
    state = game.new_initial_state(1, setup)
    agent = RandomAgent(1)
    for _ in range(12):
        if state.is_terminal():
            break
        before = _snapshot(state, players)
        copy = state.clone()
        assert _snapshot(copy, players) == before
        copy.apply(agent.act(copy))
        assert _snapshot(state, players) == before
        state.apply(agent.act(state))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), case=st.sampled_from(CASES))
def test_replaying_the_seed_and_actions_reproduces_the_game(seed, case):
    slug, index = case.values
    game, setup = _setup(slug, index)
    played = _playout(game, setup, seed)
    replayed = game.replay(seed, setup, [action for _, action in played.history])
    players = game.num_players(setup)
    assert _snapshot(replayed, players) == _snapshot(played, players)
    assert [e.as_dict() for e in replayed.events] == [e.as_dict() for e in played.events]


@pytest.mark.parametrize(("slug", "index"), CASES)
def test_the_global_random_module_has_no_influence(slug, index):
    game, setup = _setup(slug, index)
    players = game.num_players(setup)
    random.seed(1)
    first = _playout(game, setup, 42)
    random.seed(999)
    [random.random() for _ in range(1000)]
    second = _playout(game, setup, 42)
    assert _snapshot(first, players) == _snapshot(second, players)


@pytest.mark.parametrize(("slug", "index"), CASES)
def test_determinisations_agree_with_what_the_player_sees(slug, index):
    game, setup = _setup(slug, index)
    state = game.new_initial_state(3, setup)
    agent = RandomAgent(3)
    for _ in range(30):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            guess = state.determinise(player, Rng(5))
            assert guess.observation(player) == state.observation(player)
            assert guess.legal_actions() == state.legal_actions()
            state.apply(agent.act(state))
        else:
            state.apply(state.sample_chance())


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "index"), CASES)
def test_many_random_playouts(slug, index, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("runs only when asked for with -m slow")
    game, setup = _setup(slug, index)
    for seed in range(200):
        _playout(game, setup, seed)
