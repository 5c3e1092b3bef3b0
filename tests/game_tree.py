"""A second project tree for tests: a game planted at the conventional paths of a temporary
folder and found by the real discovery (``discover_engines``), with no hand registration.

``project_tree(folder)`` copies the project's data folders (``fixtures/``, ``docs/rules/``) into
``folder``; ``manage.py startgame --root folder`` (or a test) then writes a game's pieces there.
``planted(folder, settings)`` puts the tree's ``rules/engines``, ``decks/validation`` and
``cards/images/styles`` folders on those packages' paths (as if the files sat in the project),
points ``FIXTURES_DIR`` and ``RULINGS_DIR`` at the tree, runs discovery again and wires in every
game it found; on leaving, the games are unwired and the tree's modules forgotten.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings

from rules.engines.core import discover_engines, plugin_for, registered_games
from rules.plugins import plugin_unwire, plugin_wire

#: the packages whose folders a game adds a module or package to
PIECE_PACKAGES = ("rules.engines", "decks.validation", "cards.images.styles")


def project_tree(folder: Path) -> Path:
    """``folder`` holding a copy of the project's data folders; returns it."""
    shutil.copytree(Path(django_settings.FIXTURES_DIR), folder / "fixtures")
    shutil.copytree(Path(django_settings.RULINGS_DIR), folder / "docs" / "rules")
    return folder


@contextmanager
def planted(tree: Path, settings: Any) -> Iterator[list[str]]:
    """Discover and wire the games of ``tree``; yields their slugs (see the module docstring)."""
    added = []
    for name in PIECE_PACKAGES:
        package = importlib.import_module(name)
        folder = str(tree.joinpath(*name.split(".")))
        package.__path__.append(folder)
        added.append((package, folder))
    importlib.invalidate_caches()
    settings.FIXTURES_DIR = tree / "fixtures"
    settings.RULINGS_DIR = tree / "docs" / "rules"
    before = set(registered_games())
    new: list[str] = []
    try:
        discover_engines(again=True)
        new = sorted(set(registered_games()) - before)
        for slug in new:
            plugin_wire(plugin_for(slug))
        yield new
    finally:
        for slug in new:
            plugin_unwire(slug)
        for package, folder in added:
            package.__path__.remove(folder)
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", "") or "").startswith(str(tree)):
                del sys.modules[name]
        importlib.invalidate_caches()
