"""Test hands: sample opening hands, mulligans and goldfish games of a deck, for every game.

Each game's ``GamePlugin`` names its test-hands model (``hands_module``), a module that follows
the protocol of ``rules.engines.core.hands`` (``MULLIGAN_POLICIES``, ``DEFAULT_POLICY``,
``sample``, ``walk``). This module is the stable entry point: it finds the model by game slug,
importing it only when first asked, and lists a game only when its model imports. A model that
plays agents (``hands_use_agents``) gets ``rules.agents.make_agent``: agents sit above the
engines, so the model never imports them. A deck is one ``Card.record()`` dict per physical copy,
each with a ``"zone"`` key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from rules.engines.core import find_plugin, plugins
from rules.engines.core.hands import HandSummary, HandWalk, resolve_policy

__all__ = [
    "HandSummary",
    "HandWalk",
    "available",
    "default_policy",
    "games",
    "hands_module",
    "policies",
    "sample",
    "walk",
]

_loaded: dict[str, ModuleType | None] = {}


def hands_module(game: str) -> ModuleType | None:
    """Return the game's hands module, or None when it has none (or no engine plugs it in)."""
    if game not in _loaded:
        plugin = find_plugin(game)
        _loaded[game] = plugin.hands() if plugin is not None else None
    return _loaded[game]


def _extras(game: str) -> dict[str, Any]:
    """What the game's model needs besides the deck: the agents, when it plays them."""
    plugin = find_plugin(game)
    if plugin is not None and plugin.hands_use_agents:
        from rules.agents import make_agent

        return {"make_agent": make_agent}
    return {}


def available(game: str) -> bool:
    """Whether the game has a test-hands model."""
    return hands_module(game) is not None


def games() -> list[str]:
    """The slugs of every game with a test-hands model, sorted."""
    return sorted(plugin.slug for plugin in plugins() if available(plugin.slug))


def _module(game: str) -> ModuleType:
    module = hands_module(game)
    if module is None:
        known = ", ".join(games()) or "none"
        raise KeyError(f"no test-hands model for {game!r} (games with one: {known})")
    return module


def policies(game: str) -> list[str]:
    """The game's mulligan policies by name, the default first (only "never" without mulligans)."""
    module = _module(game)
    names = list(module.MULLIGAN_POLICIES)
    default = module.DEFAULT_POLICY
    return [default, *(name for name in names if name != default)]


def default_policy(game: str) -> str:
    """The mulligan policy the game's model uses unless told otherwise."""
    return str(_module(game).DEFAULT_POLICY)


def sample(
    deck: Sequence[Mapping[str, Any]],
    n: int = 100,
    seed: int = 0,
    mulligan_policy: str | Callable[..., bool] | None = None,
    *,
    game: str,
) -> HandSummary:
    """Deal ``n`` seeded goldfish games of ``deck`` with the game's model and report.

    ``mulligan_policy`` is a policy name of that game (or a callable its model accepts); None
    means the game's default. Raises ``KeyError`` for a game without a model, ``ValueError`` for
    an unknown policy name and ``rules.engines.core.SetupError`` for a deck the engine refuses.
    """
    module = _module(game)
    policy = module.DEFAULT_POLICY if mulligan_policy is None else mulligan_policy
    resolve_policy(module.MULLIGAN_POLICIES, policy)  # an unknown name fails before any game
    report: HandSummary = module.sample(
        deck, n=n, seed=seed, mulligan_policy=policy, **_extras(game)
    )
    return report


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
    result: HandWalk = _module(game).walk(
        deck, seed=seed, mulligans=mulligans, kept=kept, turns=turns, **_extras(game)
    )
    return result
