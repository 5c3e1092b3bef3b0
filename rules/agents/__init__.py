"""Agents that play any engine through the common API: random, greedy, MCTS, turn plans, alpha-beta,
and ``team``, which plays a game's own policy where its plugin supplies one."""

from __future__ import annotations

from typing import Any

from rules.agents.alphabeta import AlphaBeta, AlphaBetaAgent, SearchResult
from rules.agents.base import Agent
from rules.agents.greedy import GreedyAgent
from rules.agents.mcts import MCTSAgent
from rules.agents.plan import PlanAgent
from rules.agents.random_agent import RandomAgent
from rules.agents.team import TeamAgent, game_policy

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "plan": PlanAgent,
    "alphabeta": AlphaBetaAgent,
    "team": TeamAgent,
}


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """Build an agent by name (``random``, ``greedy``, ``mcts``, ``plan``, ``alphabeta``, ``team``)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None
    return cls(seed=seed, **options)


__all__ = [
    "AGENTS",
    "Agent",
    "AlphaBeta",
    "AlphaBetaAgent",
    "GreedyAgent",
    "MCTSAgent",
    "PlanAgent",
    "RandomAgent",
    "SearchResult",
    "TeamAgent",
    "game_policy",
    "make_agent",
]
