"""Loaders of the data other apps keep in a game's fixtures folder, run after its cards.

``fixtures/<game>/`` holds the cards (``game.yaml``, ``cards/``), which this app loads, and data
that belongs to apps above it (the decks app's ``formats.yaml``). Those apps register a loader
here, so ``load_game_data`` loads a whole game folder while the card database imports nothing
from them. A loader takes the game's slug and the fixtures folder, writes its own data
idempotently, and returns a one-line summary (or None when the game has no such data); it raises
``GameDataError`` listing every problem, having written nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class GameDataLoader(Protocol):
    """``loader(slug=..., fixtures_dir=...) -> summary line | None``; raises GameDataError."""

    def __call__(self, *, slug: str, fixtures_dir: Path) -> str | None: ...


_LOADERS: dict[str, GameDataLoader] = {}


def register_game_data_loader(what: str) -> Callable[[GameDataLoader], GameDataLoader]:
    """Decorator: load ``what`` (a plural noun, "formats") after each game's cards.

    Loaders run in registration order; registering the same name again replaces the loader.
    """

    def decorator(loader: GameDataLoader) -> GameDataLoader:
        _LOADERS[what] = loader
        return loader

    return decorator


def game_data_loaders() -> list[tuple[str, GameDataLoader]]:
    """Return the registered (what, loader) pairs in registration order."""
    return list(_LOADERS.items())
