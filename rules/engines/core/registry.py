"""Engines by game slug, and the one loop that finds every game.

An engine package registers its ``GamePlugin`` (and with it its ``Game`` class) when imported;
``discover_engines`` imports every package under ``rules.engines`` once. Everything else that
finds games by slug (test hands, matchups, card checks, validation modules, card-face styles)
asks the plugins this loop registered, so there is no second discovery loop.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from rules.engines.core.api import Game

#: the folder (and package) whose sub-packages are the engines, one a game
ENGINES_FOLDER = Path(__file__).resolve().parent.parent
ENGINES_PACKAGE = "rules.engines"

G = TypeVar("G", bound=type[Game])

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register_game(cls: G) -> G:
    """Make ``cls`` available under ``cls.slug``; returns it.

    Engines call it after their class (``register_game(MyGame)``) rather than as a decorator: a
    decorated class would not compile to a native class in the compiled build."""
    if not cls.slug:
        raise ValueError(f"{cls.__name__} has no slug")
    existing = _GAMES.get(cls.slug)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise ValueError(f"two engines claim the slug {cls.slug!r}")
    _GAMES[cls.slug] = cls
    return cls


def unregister_game(slug: str) -> None:
    """Forget the engine of ``slug`` (tests that plug a game in for a while)."""
    _GAMES.pop(slug, None)


def discover_engines() -> None:
    """Import every engine package under ``rules.engines`` so each registers itself."""
    global _discovered
    if _discovered:
        return
    # The folder is walked, not the ``rules.engines`` package imported: this module is part of
    # that package's own import (no circle), and the compiled build keeps the same folders.
    for module in pkgutil.iter_modules([str(ENGINES_FOLDER)]):
        if module.ispkg and module.name != "core":
            importlib.import_module(f"{ENGINES_PACKAGE}.{module.name}")
    _discovered = True


def registered_games() -> list[str]:
    """Return the slugs of every registered engine, sorted."""
    discover_engines()
    return sorted(_GAMES)


def get_game(slug: str, records: Sequence[Mapping[str, Any]] | None = None) -> Game:
    """Return a ``Game`` for ``slug``, playing with ``records`` (default: the built-in records)."""
    discover_engines()
    try:
        cls = _GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"no engine for {slug!r} (known: {known})") from None
    return cls(records)
