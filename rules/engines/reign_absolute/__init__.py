"""Reign Absolute: Umbrous Edition: hidden units on a shared grid, combat and Doom."""

from rules.engines.reign_absolute.cards import CardSpec, card_specs, fixture_records
from rules.engines.reign_absolute.game import ReignAbsoluteGame
from rules.engines.reign_absolute.state import ReignState

__all__ = ["CardSpec", "ReignAbsoluteGame", "ReignState", "card_specs", "fixture_records"]
