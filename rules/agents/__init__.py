"""Agents that play any engine through the common API: random, greedy, MCTS, turn plans, alpha-beta,
and ``team``, which plays a game's own policy where its plugin supplies one."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.agents.alphabeta import AlphaBeta, AlphaBetaAgent, SearchResult
from rules.agents.base import Agent
from rules.agents.greedy import GreedyAgent
from rules.agents.mcts import MCTSAgent
from rules.agents.plan import PlanAgent
from rules.agents.random_agent import RandomAgent
from rules.agents.team import TeamAgent, game_policy
from rules.engines.core.weights import WeightedAgent, load_weights

if TYPE_CHECKING:
    from rules.engines.core import GamePlugin

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "plan": PlanAgent,
    "alphabeta": AlphaBetaAgent,
    "team": TeamAgent,
}


#: the search budgets the web gives every game's agents (a game's plugin may raise or replace
#: them with ``GamePlugin.agent_budgets``), so a web run stays reasonable
WEB_BUDGETS: dict[str, dict[str, Any]] = {
    "greedy": {"max_nodes": 100},
    "mcts": {"iterations": 40},
}


def make_agent(name: str, seed: int = 0, **options: Any) -> Agent:
    """Build an agent by name (``random``, ``greedy``, ``mcts``, ``plan``, ``alphabeta``, ``team``)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None
    return cls(seed=seed, **options)


def web_options(name: str, plugin: GamePlugin | None = None) -> dict[str, Any]:
    """The options agent ``name`` plays with on the web: the shared budget, with ``plugin``'s
    own budget for it on top."""
    shared = dict(WEB_BUDGETS.get(name, {}))
    return plugin.agent_options(name, shared) if plugin is not None else shared


def parse_entrant(spec: str) -> tuple[str, dict[str, Any]]:
    """An agent written ``name`` or ``name(option=value, ...)``: its name and the options that
    replace its web budget (``mcts(iterations=400)``). Values are ints, floats, ``true`` or
    ``false`` (``greedy(advice=false)``), or words."""
    name, _, rest = spec.partition("(")
    name = name.strip()
    options: dict[str, Any] = {}
    if rest:
        if not rest.endswith(")"):
            raise ValueError(f"{spec!r}: an agent's options end with ')'")
        for part in filter(None, (item.strip() for item in rest[:-1].split(","))):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"{spec!r}: write each option as name=value")
            options[key.strip()] = _option(value.strip())
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    return name, options


#: the option a TypeError names, as pure Python ("unexpected keyword argument 'x'") and a
#: compiled class ("'x' is an invalid keyword argument") word it
_UNKNOWN_OPTION = re.compile(r"unexpected keyword argument '(\w+)'|'(\w+)' is an invalid keyword")


def _option_error(name: str, error: TypeError) -> str:
    """What is wrong with an agent's options, in the same words whichever build runs."""
    found = _UNKNOWN_OPTION.search(str(error))
    if found is None:
        return str(error)
    return f"{name} has no option {found.group(1) or found.group(2)!r}"


def _option(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def web_agent(spec: str, plugin: GamePlugin | None = None) -> Callable[[int], Agent]:
    """A ``seed -> Agent`` playing ``spec`` (``name`` or ``name(option=value, ...)``) at the
    web's budget for ``plugin``'s game, the spec's own options on top. The option
    ``weights=FILE`` has the agent decide with the evaluation weights of that ``weights.json``
    instead of the game's own (``greedy(weights=bench/baselines/reign-absolute.json)``: the
    agent as it played before a tuning run). An unknown agent or option, or weights that do not
    fit the game's evaluation, raise ``ValueError`` here, before any game."""
    name, options = parse_entrant(spec)
    weights_file = options.pop("weights", None)
    merged = {**web_options(name, plugin), **options}
    try:
        make_agent(name, seed=0, **merged)
    except TypeError as error:
        raise ValueError(f"{spec!r}: {_option_error(name, error)}") from None
    build: Callable[[int], Agent] = partial(make_agent, name, **merged)
    if weights_file is None:
        return build
    found = plugin.weights() if plugin is not None else None
    if found is None:
        raise ValueError(f"{spec!r}: this game's evaluation has no weights to replace")
    values = load_weights(Path(str(weights_file)))
    if set(values) != set(found[0]):
        raise ValueError(
            f"{spec!r}: {weights_file} weighs {', '.join(sorted(values))}, not the game's "
            f"{', '.join(sorted(found[0]))}"
        )
    weighted: Callable[[int], Agent] = partial(_weighted, build, found[0], values)
    return weighted


def _weighted(
    build: Callable[[int], Agent], table: dict[str, float], values: dict[str, float], seed: int
) -> Agent:
    return WeightedAgent(build(seed), table, values)


__all__ = [
    "AGENTS",
    "WEB_BUDGETS",
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
    "parse_entrant",
    "web_agent",
    "web_options",
]
