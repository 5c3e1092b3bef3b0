"""Reign Absolute: Umbrous Edition: hidden units on a shared grid, combat and Doom."""

from rules.engines.core import register_plugin
from rules.engines.reign_absolute.cards import CardSpec, card_specs, fixture_records
from rules.engines.reign_absolute.game import ReignAbsoluteGame
from rules.engines.reign_absolute.plugin import ReignAbsolutePlugin
from rules.engines.reign_absolute.state import ReignState

PLUGIN = register_plugin(ReignAbsolutePlugin())

__all__ = [
    "PLUGIN",
    "CardSpec",
    "ReignAbsoluteGame",
    "ReignAbsolutePlugin",
    "ReignState",
    "card_specs",
    "fixture_records",
]
