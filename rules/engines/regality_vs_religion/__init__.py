"""Regality vs Religion: Revolution - the engine, its tile powers as data, notation and solver."""

from rules.engines.core import register_plugin
from rules.engines.regality_vs_religion.game import RvRGame, RvRState
from rules.engines.regality_vs_religion.plugin import RegalityVsReligionPlugin
from rules.engines.regality_vs_religion.solver import endgame_action

PLUGIN = register_plugin(RegalityVsReligionPlugin())

__all__ = ["PLUGIN", "RegalityVsReligionPlugin", "RvRGame", "RvRState", "endgame_action"]
