"""Regality vs Religion: Revolution - the engine, its tile powers as data, notation and solver."""

from rules.engines.regality_vs_religion.game import RvRGame, RvRState

__all__ = ["RvRGame", "RvRState"]
