"""Test hands: sample opening hands, mulligans and goldfish games of a deck, for every game.

Each game with a test-hands model has a module ``rules.engines.<package>.hands`` that follows the
protocol of ``rules.engines.core.hands`` (``MULLIGAN_POLICIES``, ``DEFAULT_POLICY``, ``sample``,
``walk``). This module is the stable entry point: it finds those modules by game slug, importing
them only when first asked, and lists a game only when its hands module imports and its engine
is registered. A deck is one ``Card.record()`` dict per physical copy, each with a ``"zone"`` key.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from rules.engines.core.hands import HandSummary, HandWalk, resolve_policy

__all__ = [
    "HAND_MODULES",
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

# Game slug -> the module holding its test-hands model. A game whose module is missing (or
# does not import) has no test hands; nothing else needs to change when one is added.
HAND_MODULES: dict[str, str] = {
    "revolt-n-reign": "rules.engines.revolt_n_reign.hands",
    "rival-realms": "rules.engines.rival_realms.hands",
    "reign-absolute": "rules.engines.reign_absolute.hands",
    "reggae-revolution": "rules.engines.reggae_revolution.hands",
    "regality-vs-religion": "rules.engines.regality_vs_religion.hands",
}
RNR = "revolt-n-reign"

_loaded: dict[str, ModuleType | None] = {}


def hands_module(game: str) -> ModuleType | None:
    """Return the game's hands module, or None when it has none (or its engine is missing)."""
    if game not in _loaded:
        _loaded[game] = _load(game)
    return _loaded[game]


def _load(game: str) -> ModuleType | None:
    path = HAND_MODULES.get(game)
    if path is None:
        return None
    try:
        module = importlib.import_module(path)
    except ImportError:
        return None
    from rules.engines.core import registered_games

    if game not in registered_games():
        return None
    needed = ("MULLIGAN_POLICIES", "DEFAULT_POLICY", "sample", "walk")
    return module if all(hasattr(module, name) for name in needed) else None


def available(game: str) -> bool:
    """Whether the game has a test-hands model."""
    return hands_module(game) is not None


def games() -> list[str]:
    """The slugs of every game with a test-hands model, sorted."""
    return sorted(slug for slug in HAND_MODULES if available(slug))


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
    game: str = RNR,
) -> HandSummary:
    """Deal ``n`` seeded goldfish games of ``deck`` with the game's model and report.

    ``mulligan_policy`` is a policy name of that game (or a callable its model accepts); None
    means the game's default. Raises ``KeyError`` for a game without a model, ``ValueError`` for
    an unknown policy name and ``rules.engines.core.SetupError`` for a deck the engine refuses.
    """
    module = _module(game)
    policy = module.DEFAULT_POLICY if mulligan_policy is None else mulligan_policy
    resolve_policy(module.MULLIGAN_POLICIES, policy)  # an unknown name fails before any game
    report: HandSummary = module.sample(deck, n=n, seed=seed, mulligan_policy=policy)
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
        deck, seed=seed, mulligans=mulligans, kept=kept, turns=turns
    )
    return result
