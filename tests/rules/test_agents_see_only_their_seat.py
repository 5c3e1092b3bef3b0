"""Agents decide from what their seat sees (issue 28, point 3).

A property over random positions of the games with hidden cards: with the agent's own seed
fixed, dealing again everything the deciding seat cannot see (``State.determinise`` from that
seat) leaves the agent's decision unchanged. An agent that peeked at the rival's hand or at the
order of a draw pile would decide differently on the re-dealt position.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import make_agent
from rules.engines.core import CHANCE, TERMINAL, Rng
from tests.rules.test_table_hidden_info import HIDDEN, random_position

#: search agents at small budgets (the property does not depend on the budget), by test id:
#: the agent's name and its options; greedy with replies plays the rivals' turns on its deals
#: (here through two of them, as the default does through four in Reign Absolute); greedy
#: with advice takes the engine's rule of thumb where it gives one (Rival Realms' web greedy)
AGENTS: dict[str, tuple[str, dict[str, int]]] = {
    "greedy": ("greedy", {"max_nodes": 60}),
    "greedy-advice": ("greedy", {"max_nodes": 60, "advice": True}),
    "greedy-replies": ("greedy", {"max_nodes": 20, "samples": 2, "replies": 3, "reply_turns": 2}),
    "mcts": ("mcts", {"iterations": 12}),
    "plan": ("plan", {"samples": 6, "plan_nodes": 20}),
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize(("slug", "index"), HIDDEN)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 150), resample=st.integers(0, 99))
def test_a_decision_never_depends_on_cards_the_seat_cannot_see(
    slug: str, index: int, agent: str, seed: int, actions: int, resample: int
) -> None:
    state = random_position(slug, index, seed, actions)
    seat = state.current_player()
    if seat in (TERMINAL, CHANCE):
        return
    redealt = state.determinise(seat, Rng(resample))
    assert redealt.observation(seat) == state.observation(seat)
    name, options = AGENTS[agent]
    chosen = make_agent(name, seed=5, **options).act(state.clone())
    again = make_agent(name, seed=5, **options).act(redealt)
    assert chosen == again


@pytest.mark.parametrize(
    ("policy", "lookahead"),
    [("", 100), ("", 0), ("plain", 0)],
    ids=["team-default", "team-no-lookahead", "team-plain"],
)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 150), resample=st.integers(0, 99))
def test_rival_realms_policies_decide_from_their_seat_alone(
    policy: str, lookahead: int, seed: int, actions: int, resample: int
) -> None:
    """The game's own policy, with the default's look-ahead before an attack and without, and
    the plain policy the baseline plays (``team(policy=plain)``) too."""
    state = random_position("rival-realms", 0, seed, actions)
    seat = state.current_player()
    if seat in (TERMINAL, CHANCE):
        return
    redealt = state.determinise(seat, Rng(resample))
    options = {"policy": policy, "lookahead": lookahead}
    chosen = make_agent("team", seed=5, **options).act(state.clone())
    assert chosen == make_agent("team", seed=5, **options).act(redealt)
