"""Every game's blunder suite, played (issue 28, point 4).

Each game's positions live in ``tests/rules/blunders_<game>.py`` (``POSITIONS``: situation ->
position, seat, check; ``AGENTS``: the web agents that must choose right, the game's default
first; ``decide_for``: how a seat's decisions are played; optionally ``SEEDS``, the seeds each
agent must choose right with, and ``KNOWN_LIMITS``, an agent's known miss as a strict expected
failure). Regality vs Religion's suite, checked against the solver, has its own file
(``test_blunders_regality_vs_religion.py``).
"""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.rules import (
    blunders,
    blunders_reggae_revolution,
    blunders_reign_absolute,
    blunders_revolt_n_reign,
    blunders_rival_realms,
)

SUITES: dict[str, ModuleType] = {
    suite.SLUG: suite
    for suite in (
        blunders_revolt_n_reign,
        blunders_rival_realms,
        blunders_reggae_revolution,
        blunders_reign_absolute,
    )
}


def agent_cases() -> list[object]:
    return [
        pytest.param(slug, *case.values, marks=case.marks, id=f"{slug}-{'-'.join(case.values)}")
        for slug, suite in SUITES.items()
        for case in blunders.agent_cases(
            suite.POSITIONS, suite.AGENTS, getattr(suite, "KNOWN_LIMITS", None)
        )
    ]


@pytest.mark.parametrize(("game", "situation", "agent"), agent_cases())
def test_blunder_suite_the_web_agents_choose_right(game: str, situation: str, agent: str) -> None:
    suite = SUITES[game]
    seeds = getattr(suite, "SEEDS", (3,))
    failed = blunders.failing_seeds(suite.POSITIONS, suite.decide_for, situation, agent, seeds)
    assert failed == []


@pytest.mark.parametrize(
    ("game", "situation"),
    [(slug, situation) for slug, suite in SUITES.items() for situation in sorted(suite.POSITIONS)],
)
def test_blunder_suite_each_position_is_a_real_test(game: str, situation: str) -> None:
    suite = SUITES[game]
    assert blunders.random_outcomes(suite.POSITIONS, suite.decide_for, situation) == {True, False}
