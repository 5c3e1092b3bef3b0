"""Evaluation weights as data (``rules.engines.core.weights``): the file the evaluation reads,
and agents that decide with weights of their own (the tuning script's candidates)."""

from __future__ import annotations

import json

import pytest

from rules.engines.core import Action, plugin_for
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

    agent = WeightedAgent(Recorder(), table, {"lp": 0.5})
    assert agent.act(None) == Action("end")
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
