"""Test hands: sample opening hands, mulligans and goldfish games of a deck, for every game.

Each game's ``GamePlugin`` names its test-hands model (``hands_model``), a ``HandsModel``
subclass (``rules.engines.core.hands``) that ``GamePlugin.hands()`` makes. This module is the
stable entry point: it finds the model by game slug, importing it only when first asked, and
lists a game only when its model imports. A model that plays agents (``uses_agents``) gets
``rules.agents.make_agent``: agents sit above the engines, so the model never imports them. A
deck is one ``Card.record()`` dict per physical copy, each with a ``"zone"`` key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.core import find_plugin, plugins
from rules.engines.core.hands import (
    AgentFactory,
    HandsModel,
    HandSummary,
    HandWalk,
    MulliganPolicy,
)

__all__ = [
    "HandSummary",
    "HandWalk",
    "available",
    "default_policy",
    "games",
    "hands_model",
    "policies",
    "sample",
    "walk",
]

_loaded: dict[str, HandsModel | None] = {}


def hands_model(game: str) -> HandsModel | None:
    """Return the game's test-hands model, or None when it has none (or no engine plugs it in)."""
    if game not in _loaded:
        plugin = find_plugin(game)
        _loaded[game] = plugin.hands() if plugin is not None else None
    return _loaded[game]


def _agents(model: HandsModel) -> AgentFactory | None:
    """The agents the game's model plays, when it plays them."""
    if not model.uses_agents:
        return None
    from rules.agents import make_agent

    return make_agent


def available(game: str) -> bool:
    """Whether the game has a test-hands model."""
    return hands_model(game) is not None


def games() -> list[str]:
    """The slugs of every game with a test-hands model, sorted."""
    return sorted(plugin.slug for plugin in plugins() if available(plugin.slug))


def _model(game: str) -> HandsModel:
    model = hands_model(game)
    if model is None:
        known = ", ".join(games()) or "none"
        raise KeyError(f"no test-hands model for {game!r} (games with one: {known})")
    return model


def policies(game: str) -> list[str]:
    """The game's mulligan policies by name, the default first (only "never" without mulligans)."""
    return _model(game).policies()


def default_policy(game: str) -> str:
    """The mulligan policy the game's model uses unless told otherwise."""
    return _model(game).default_policy


def sample(
    deck: Sequence[Mapping[str, Any]],
    n: int = 100,
    seed: int = 0,
    mulligan_policy: str | MulliganPolicy | None = None,
    *,
    game: str,
) -> HandSummary:
    """Deal ``n`` seeded goldfish games of ``deck`` with the game's model and report.

    ``mulligan_policy`` is a policy name of that game (or a callable its model accepts); None
    means the game's default. Raises ``KeyError`` for a game without a model, ``ValueError`` for
    an unknown policy name and ``rules.engines.core.SetupError`` for a deck the engine refuses.
    """
    model = _model(game)
    return model.sample(deck, n, seed, mulligan_policy, make_agent=_agents(model))


def walk(
    game: str,
    deck: Sequence[Mapping[str, Any]],
    *,
    seed: int,
    mulligans: int = 0,
    kept: bool = False,
    turns: int = 0,
) -> HandWalk:
    """Replay one goldfish game of ``deck``: the opening, ``mulligans`` taken, kept, ``turns``."""
    model = _model(game)
    return model.walk(
        deck, seed=seed, mulligans=mulligans, kept=kept, turns=turns, make_agent=_agents(model)
    )
