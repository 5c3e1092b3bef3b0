"""Evaluation weights as data (``rules.engines.core.weights``): the file the evaluation reads,
and agents that decide with weights of their own (the tuning script's candidates)."""

from __future__ import annotations

import json

import pytest

from rules.engines.core import Action, plugin_for, plugins
from rules.engines.core.weights import WeightedAgent, installed, load_weights, save_weights
from rules.engines.revolt_n_reign import state as revolt_state


def test_the_evaluation_reads_the_weights_its_file_holds():
    found = plugin_for("revolt-n-reign").weights()
    assert found is not None
    table, path = found
    assert table is revolt_state.WEIGHTS
    assert load_weights(path) == table
    assert json.loads(path.read_text())["tuned"]["method"]  # the file says how it was found


def test_weights_round_trip_and_a_broken_file_names_itself(tmp_path):
    path = tmp_path / "weights.json"
    save_weights(path, {"lp": 0.35, "ua": -0.25}, {"method": "by hand, in a test"})
    assert load_weights(path) == {"lp": 0.35, "ua": -0.25}
    path.write_text('{"weights": {"lp": "heavy"}}')
    with pytest.raises(ValueError, match=r"weights\.json: no evaluation weights"):
        load_weights(path)


def test_installed_weights_are_restored_even_when_the_block_fails():
    table = {"lp": 1.0, "ua": 2.0}
    with pytest.raises(RuntimeError), installed(table, {"lp": 9.0}):
        assert table == {"lp": 9.0, "ua": 2.0}
        raise RuntimeError
    assert table == {"lp": 1.0, "ua": 2.0}


def test_a_weighted_agent_decides_with_its_own_weights_and_leaves_the_games_alone():
    table = {"lp": 1.0}
    seen: list[float] = []

    class Recorder:
        name = "recorder"

        def act(self, state):
            seen.append(table["lp"])
            return Action("end")

    from tests.rules.test_revolt_n_reign import table as position

    agent = WeightedAgent(Recorder(), table, {"lp": 0.5})
    assert agent.act(position()) == Action("end")
    assert seen == [0.5] and table == {"lp": 1.0}


def test_other_weights_change_how_a_position_scores():
    # The hook is live: the same position scored with the life-point weight doubled differs.
    from tests.rules.test_revolt_n_reign import table

    state = table()
    state.lp[0] = 60
    before = state.evaluate(0)
    with installed(revolt_state.WEIGHTS, {"lp": 2 * revolt_state.WEIGHTS["lp"]}):
        after = state.evaluate(0)
    assert after != before and state.evaluate(0) == before


def _engines():
    """The plugins of the engines in the tree (not a test's toy game)."""
    return [p for p in plugins() if type(p).__module__.startswith("rules.engines.")]


def _weighted_plugins():
    return [p for p in _engines() if p.evaluation_weights is not None]


def test_every_game_keeps_its_evaluation_weights_as_data():
    # Issue 28: each game's evaluation weights are a file the evaluation reads, which says how
    # they were found; none is set in code.
    assert len(_engines()) >= 5
    assert {p.slug for p in _weighted_plugins()} == {p.slug for p in _engines()}
    for plugin in _weighted_plugins():
        found = plugin.weights()
        assert found is not None
        table, path = found
        assert path.name == "weights.json" and load_weights(path) == table
        assert json.loads(path.read_text())["tuned"]["method"], path


def _scores(state):
    seats = range(len(state.returns()))
    return [(state.evaluate(p), state.rollout_value(p)) for p in seats]


@pytest.mark.parametrize("slug", [p.slug for p in _weighted_plugins()])
def test_every_weight_in_a_games_file_changes_how_some_position_scores(slug):
    # A weight the evaluation never read would tune nothing: for each one, some position of
    # the game's sample setups (random play from each) scores differently with it doubled, as
    # the agents score it (``evaluate``, and ``rollout_value`` where playouts stop). A game
    # policy's weights (``policy_...``) are the next test's.
    from tests.rules.test_table_hidden_info import random_position

    plugin = plugin_for(slug)
    table, _ = plugin.weights()
    positions = [
        random_position(slug, index, seed, actions)
        for index in range(len(plugin.game().example_setups()))
        for seed in range(4)
        for actions in (10, 25, 45, 70, 100, 140)
    ]
    positions = [s for s in positions if not s.is_terminal()]
    unread = []
    for name, value in table.items():
        if name.startswith(POLICY_PREFIX):
            continue
        changed = False
        for state in positions:
            before = _scores(state)
            with installed(table, {name: 2 * value if value else 1.0}):
                after = _scores(state)
            if after != before:
                changed = True
                break
        if not changed:
            unread.append(name)
    assert not unread, f"{slug}: no position scores differently with {unread} doubled"


POLICY_PREFIX = "policy_"


def _policy_weighted_plugins():
    return [
        p for p in _weighted_plugins() if any(n.startswith(POLICY_PREFIX) for n in p.weights()[0])
    ]


def test_reggae_revolutions_team_policy_reads_its_numbers_from_its_weights():
    # Issue 28: a default agent's numbers are data too. Reggae Revolution's default is its team
    # policy, so the numbers it weighs its choices by are weights of the game's file, tuned by
    # self-play like the evaluation's (Rival Realms' policy chooses by rules: docs/agents.md).
    assert {p.slug for p in _policy_weighted_plugins()} == {"reggae-revolution"}
    table, _ = plugin_for("reggae-revolution").weights()
    assert len([n for n in table if n.startswith(POLICY_PREFIX)]) >= 10


@pytest.mark.parametrize("slug", [p.slug for p in _policy_weighted_plugins()])
def test_every_policy_weight_changes_some_choice_of_the_policy(slug):
    # A policy weight nobody read would tune nothing: for each one, doubled or halved (1 or -1
    # when 0), the game's policy chooses differently at some decision of its own seeded games
    # (every seat played by it, each sample setup), and the game's weights are its own again
    # afterwards. Both ways: a wild card's worth doubled only widens the lead it already has.
    plugin = plugin_for(slug)
    engine = plugin.game()
    policy = plugin.policy()
    table, path = plugin.weights()
    positions = []
    for setup in engine.example_setups():
        for seed in range(3):
            state = engine.new_initial_state(seed, setup).quiet()
            while not state.is_terminal():
                positions.append(state.clone())
                state.apply(policy(state))
    choices = [policy(state) for state in positions]
    unread = []
    for name, value in table.items():
        if not name.startswith(POLICY_PREFIX):
            continue
        changed = False
        for moved in (2 * value, value / 2) if value else (1.0, -1.0):
            with installed(table, {name: moved}):
                changed = changed or any(
                    policy(s) != c for s, c in zip(positions, choices, strict=True)
                )
        if not changed:
            unread.append(name)
    assert not unread, f"{slug}: the policy chooses alike everywhere with {unread} moved"
    assert load_weights(path) == table


def test_an_agent_named_with_a_weights_file_decides_with_those_weights(tmp_path):
    # bench/defaults.py plays each game's default against the baseline: the same agent with
    # the weights the game had before tuning (``greedy(weights=FILE)``).
    from rules.agents import web_agent
    from tests.rules.test_revolt_n_reign import table

    plugin = plugin_for("revolt-n-reign")
    doubled = {name: 2 * value for name, value in revolt_state.WEIGHTS.items()}
    path = tmp_path / "weights.json"
    save_weights(path, doubled, {"method": "doubled, in a test"})
    agent = web_agent(f"greedy(weights={path})", plugin)(3)
    seen = []

    class Spy:  # the weighted agent's inner agent, watched (a compiled agent's act is fixed)
        name = "spy"

        def __init__(self, inner):
            self.inner = inner

        def act(self, state):
            seen.append(dict(revolt_state.WEIGHTS))
            return self.inner.act(state)

    agent.agent = Spy(agent.agent)
    state = table()
    assert agent.act(state) in state.legal_actions()
    assert seen == [doubled]  # its own weights while it decided
    assert load_weights(plugin.weights()[1]) == revolt_state.WEIGHTS  # the game's own again


def test_a_weights_file_that_does_not_fit_the_game_is_refused_before_any_game(tmp_path):
    from rules.agents import web_agent

    path = tmp_path / "weights.json"
    save_weights(path, {"lp": 0.35}, {"method": "too few, in a test"})
    with pytest.raises(ValueError, match="not the game's"):
        web_agent(f"greedy(weights={path})", plugin_for("revolt-n-reign"))
    with pytest.raises(ValueError, match="no weights to replace"):
        web_agent(f"greedy(weights={path})")
    with pytest.raises(ValueError, match="no evaluation weights"):
        web_agent(f"greedy(weights={tmp_path / 'missing.json'})", plugin_for("reign-absolute"))
