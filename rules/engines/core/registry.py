"""The one loop that finds every game: ``discover_engines``.

An engine package registers its ``GamePlugin`` (and with it its ``Game`` class: there is no
second registration) when imported; ``discover_engines`` imports every package on the
``rules.engines`` package's path once. Everything else that finds games by slug (the engines,
test hands, matchups, card checks, validation modules, card-face styles) asks the plugins this
loop registered (``rules.engines.core.plugin``), so there is no second discovery loop.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

#: the folder (and package) whose sub-packages are the engines, one a game
ENGINES_FOLDER = Path(__file__).resolve().parent.parent
ENGINES_PACKAGE = "rules.engines"

_discovered = False


def engine_folders() -> list[str]:
    """The folders whose sub-packages are engines: the ``rules.engines`` package's path (its
    own folder, and any folder a test tree adds to that path), or the folder alone while the
    package is still being imported."""
    package = sys.modules.get(ENGINES_PACKAGE)
    folders = [str(folder) for folder in getattr(package, "__path__", None) or []]
    return folders or [str(ENGINES_FOLDER)]


def discover_engines(*, again: bool = False) -> None:
    """Import every engine package under ``rules.engines`` so each registers its plugin; once
    per process, or once more with ``again`` (a test that has planted a game's folders)."""
    global _discovered
    if _discovered and not again:
        return
    # The folders are walked, not the ``rules.engines`` package imported: this module is part
    # of that package's own import (no circle), and the compiled build keeps the same folders.
    for module in pkgutil.iter_modules(engine_folders()):
        if module.ispkg and module.name != "core":
            importlib.import_module(f"{ENGINES_PACKAGE}.{module.name}")
    _discovered = True
