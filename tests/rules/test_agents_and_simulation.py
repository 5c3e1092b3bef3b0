"""Agents play through the common API only; simulations are reproducible reports."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, make_agent
from rules.engines.core import Rng, get_game, registered_games
from rules.simulation import run, wilson_interval
from tests.rules.differential import spies_on_methods
from tests.rules.rvr_helpers import GAME, play, position


@pytest.mark.parametrize("name", ["random", "greedy", "mcts", "plan"])
@pytest.mark.parametrize("slug", registered_games())
def test_every_agent_plays_legal_moves_in_every_engine(name, slug):
    game = get_game(slug)
    setup = game.example_setups()[0]
    state = game.new_initial_state(2, setup)
    options = {"mcts": {"iterations": 8}, "plan": {"samples": 12, "plan_nodes": 30}}.get(name, {})
    agent = make_agent(name, seed=1, **options)
    for _ in range(6):
        if state.is_terminal():
            break
        if state.current_player() < 0:
            state.apply(state.sample_chance())
            continue
        action = agent.act(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_alpha_beta_takes_the_winning_turn():
    text = (
        "a1=citizen/reg b1=king/rel c1=queen/reg a2=hierophant/rel b2=castle/reg c2=cardinal/rel "
        "a3=general/reg b3=paladin/rel | minister | bishop | - | reg"
    )
    state = position(text, "old-style")
    agent = AlphaBetaAgent(depth=3)
    play(state, str(agent.act(state)))
    play(state, str(agent.act(state)))
    assert state.is_terminal() and state.winner() == 0


def test_alpha_beta_refuses_hidden_information():
    state = GAME.new_initial_state(0, {"variant": "secret-random"})
    with pytest.raises(ValueError, match="perfect-information"):
        AlphaBetaAgent().act(state)


@spies_on_methods
def test_mcts_searches_determinisations_not_the_real_hidden_state(monkeypatch):
    state = GAME.new_initial_state(4, {"variant": "secret-random"})
    play(state, "place citizen b2")
    calls = []
    original = type(state).determinise

    def spy(self, player, rng):
        calls.append(player)
        return original(self, player, rng)

    monkeypatch.setattr(type(state), "determinise", spy)
    action = MCTSAgent(seed=3, iterations=20).act(state)
    assert action in state.legal_actions()
    assert calls and set(calls) == {1}


def test_agents_with_the_same_seed_choose_alike():
    state = GAME.new_initial_state(1)
    play(state, "place citizen a1")
    for cls in (RandomAgent, GreedyAgent):
        assert cls(seed=9).act(state.clone()) == cls(seed=9).act(state.clone())


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_simulation_report_sums_up_and_repeats_byte_for_byte():
    first = run("regality-vs-religion", {"variant": "draft"}, ["random", "greedy"], 30, seed=8)
    second = run("regality-vs-religion", {"variant": "draft"}, ["random", "greedy"], 30, seed=8)
    assert first.to_json() == second.to_json()
    assert sum(side.wins for side in first.sides) + first.draws == 30
    assert sum(first.length_histogram.values()) == 30
    assert sum(first.end_reasons.values()) == 30
    for side in first.sides:
        assert side.ci_low <= side.win_rate <= side.ci_high
    other = run("regality-vs-religion", {"variant": "draft"}, ["random", "greedy"], 30, seed=9)
    assert other.results != first.results


def test_simulate_command_json_is_reproducible():
    def simulate() -> str:
        out = io.StringIO()
        call_command(
            "simulate",
            "--game",
            "regality-vs-religion",
            "--games",
            "12",
            "--seed",
            "5",
            "--variant",
            "secret-random",
            "--json",
            stdout=out,
        )
        return out.getvalue()

    text = simulate()
    assert text == simulate()
    assert json.loads(text)["games"] == 12


def test_simulate_command_explains_bad_input():
    with pytest.raises(CommandError, match="no engine"):
        call_command("simulate", "--game", "chess", stdout=io.StringIO())
    with pytest.raises(CommandError, match="unknown agent"):
        call_command(
            "simulate",
            "--game",
            "regality-vs-religion",
            "--agents",
            "random,oracle",
            stdout=io.StringIO(),
        )
    with pytest.raises(CommandError, match="unknown variant"):
        call_command(
            "simulate",
            "--game",
            "regality-vs-religion",
            "--variant",
            "chess",
            stdout=io.StringIO(),
        )


def test_rng_is_reproducible_and_unbiased_enough():
    a, b = Rng(3), Rng(3)
    assert [a.randrange(6) for _ in range(50)] == [b.randrange(6) for _ in range(50)]
    counts = [0] * 4
    rng = Rng(1)
    for _ in range(4000):
        counts[rng.randrange(4)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_cooperative_simulation_reports_the_team_result() -> None:
    from rules.simulation import run

    report = run("reggae-revolution", {"players": 2}, ["team", "team"], games=12, seed=11)

    assert report.team is not None
    assert report.team.wins + report.team.losses == report.games  # no co-op game is a "draw"
    assert report.team.ci_low <= report.team.win_rate <= report.team.ci_high
    assert report.as_dict()["team"]["wins"] == report.team.wins


def test_competitive_simulation_has_no_team_result() -> None:
    from rules.simulation import run

    report = run("regality-vs-religion", {"variant": "old-style"}, ["random", "random"], 4, seed=3)
    assert report.team is None
