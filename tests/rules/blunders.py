"""What every game's blunder suite shares (issue 28, point 4).

A suite is a table of positions, each named after its situation: a builder of the position,
the seat to decide and a check that the decision was right. The agents play at the web's
budget (``rules.services.agent_spec``) with fixed seeds, so a suite fails only when a choice
changes; each position must also be a real choice, which random play gets wrong for some seed
of 20 and right for another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from rules.engines.core import Action
from rules.services import agent_spec

#: situation -> (the position, the seat to decide, what choosing right leads to)
Positions = Mapping[str, tuple[Callable[[], Any], int, Callable[[Any], bool]]]
#: plays ``seat``'s decisions in a position with an agent and a seed: (state, seat, agent, seed)
Decide = Callable[[Any, int, str, int], object]


def decide_until(
    state: Any,
    seat: int,
    agent_name: str,
    seed: int,
    *,
    slug: str,
    done: Callable[[Any], bool],
    other: Callable[[Any], Action],
) -> list[Action]:
    """Let ``agent_name`` make every decision of ``seat`` until ``done`` or the game is over;
    the other seats decide with ``other``. Returns the actions the agent took."""
    agent = agent_spec(agent_name, slug)(seed)
    taken: list[Action] = []
    while not state.is_terminal() and not done(state):
        if state.current_player() == seat:
            action = agent.act(state)
            assert action in state.legal_actions()
            taken.append(action)
        else:
            action = other(state)
        state.apply(action)
    return taken


def turn_decider(slug: str, other: Callable[[Any], Action]) -> Decide:
    """A suite's ``decide_for``: the agent plays ``seat`` until the turn under way has passed
    on (or the game is over), the other seats decide with ``other``."""

    def decide(state: Any, seat: int, agent_name: str, seed: int = 3) -> list[Action]:
        done = turn_passed(state)
        return decide_until(state, seat, agent_name, seed, slug=slug, done=done, other=other)

    return decide


def turn_passed(state: Any) -> Callable[[Any], bool]:
    """``done`` for ``decide_until``: the turn under way in ``state`` has passed on."""
    start = state.turn
    return lambda now: now.turn != start


def solved(positions: Positions, decide: Decide, situation: str, agent: str, seed: int) -> bool:
    """Whether ``agent`` with ``seed`` chooses right in ``situation``."""
    build, seat, right = positions[situation]
    state = build()
    decide(state, seat, agent, seed)
    return right(state)


def random_outcomes(positions: Positions, decide: Decide, situation: str) -> set[bool]:
    """Whether random play got ``situation`` right, over seeds 0-19: {True, False} for a real
    choice (random blunders it for some seed, and right play is possible)."""
    return {solved(positions, decide, situation, "random", seed) for seed in range(20)}


def agent_cases(
    positions: Positions,
    agents: Sequence[str],
    known_limits: Mapping[tuple[str, str], str] | None = None,
) -> list[Any]:
    """Every (situation, agent) pair; those in ``known_limits`` are strict expected failures
    (an agent's known limit, which must keep failing until it is fixed)."""
    limits = known_limits or {}
    return [
        pytest.param(
            situation,
            agent,
            marks=[pytest.mark.xfail(strict=True, reason=limits[situation, agent])]
            if (situation, agent) in limits
            else [],
        )
        for situation in sorted(positions)
        for agent in agents
    ]


def failing_seeds(
    positions: Positions, decide: Decide, situation: str, agent: str, seeds: Iterable[int]
) -> list[int]:
    """The seeds of ``seeds`` with which ``agent`` chooses wrong in ``situation``."""
    return [seed for seed in seeds if not solved(positions, decide, situation, agent, seed)]
