"""The Django side of the game plug-ins: wire every game's pieces in, once, at start-up.

``rules.engines.core.plugins()`` is the one loop that finds games (each engine package registers
a ``GamePlugin``). For each plugin this module registers, with the apps below the rules layer:

- its card checks with the fixture loader (``cards.checks``), so a card its engine could not
  play fails ``load_game_data``;
- its validation module (``decks/validation/<module>.py`` or the plugin's ``validation_module``)
  and card-face style (``cards/images/styles/<module>.py`` or ``style_module``), imported so they
  register themselves by slug;
- its data folder, when the plugin keeps its fixtures outside the project's ``fixtures/``;
- its name and player counts, from its engine's ``Game`` class, which ``load_game_data`` writes
  on the game's row (``cards.gamedata.register_engine_facts``: ``game.yaml`` leaves them out).

``RulesConfig.ready`` calls ``plugins_wire()``; a test that plugs a game in calls
``plugin_wire(plugin)`` after ``register_plugin`` and ``plugin_unwire(slug)`` at the end.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

from cards.checks import register_card_check, unregister_card_checks
from cards.gamedata import (
    EngineFacts,
    register_engine_facts,
    register_fixtures_dir,
    unregister_engine_facts,
    unregister_fixtures_dir,
)
from rules.engines.core import GamePlugin, plugins, unregister_plugin

VALIDATION_PACKAGE = "decks.validation"
STYLE_PACKAGE = "cards.images.styles"


def _import_piece(path: str, slug: str, registered: Callable[[], list[str]]) -> None:
    """Import the module ``path`` so it registers ``slug``'s piece; a missing module is a game
    without that piece, but an error inside an existing module is a bug and is raised. A module
    imported before whose piece was unregistered since (``plugin_unwire``) is run again."""
    loaded = sys.modules.get(path)
    if loaded is not None:
        if slug not in registered():
            importlib.reload(loaded)
        return
    try:
        importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name is None or not path.startswith(exc.name):
            raise


def plugin_wire(plugin: GamePlugin) -> None:
    """Register one game's card checks, validation module, face style, data folder and what its
    engine says of it."""
    from cards.images.styles import registered_games as styled
    from decks.validation import registered_games as validated
    from decks.validation.base import deck_validators_forget

    register_card_check(plugin.slug)(plugin.card_problems)
    validation = plugin.validation_module or f"{VALIDATION_PACKAGE}.{plugin.module_name}"
    _import_piece(validation, plugin.slug, validated)
    deck_validators_forget()  # a validator kept for the slug holds the rules it had before
    style = plugin.style_module or f"{STYLE_PACKAGE}.{plugin.module_name}"
    _import_piece(style, plugin.slug, styled)
    if plugin.fixtures_dir is not None:
        register_fixtures_dir(plugin.slug, Path(plugin.fixtures_dir))
    engine = plugin.game
    register_engine_facts(
        plugin.slug, EngineFacts(engine.name, engine.min_players, engine.max_players)
    )


def plugin_unwire(slug: str) -> None:
    """Undo ``plugin_wire`` and ``register_plugin`` for ``slug`` (tests that plug a game in)."""
    from cards.images.styles import unregister_style
    from decks.validation.base import unregister

    unregister_card_checks(slug)
    unregister(slug)
    unregister_style(slug)
    unregister_fixtures_dir(slug)
    unregister_engine_facts(slug)
    unregister_plugin(slug)


def plugins_wire() -> None:
    """Wire in every registered game (once per process; repeating it changes nothing)."""
    for plugin in plugins():
        plugin_wire(plugin)
