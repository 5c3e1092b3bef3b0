"""The common engine API: ``Game``, ``State``, ``Action``, the seeded ``Rng``, the registry."""

from rules.engines.core.api import (
    CHANCE,
    TERMINAL,
    Action,
    Event,
    Game,
    IllegalActionError,
    Information,
    SetupError,
    State,
)
from rules.engines.core.records import CardRecord, card_key, engine_records, freeze, thaw
from rules.engines.core.registry import discover_engines, get_game, register_game, registered_games
from rules.engines.core.rng import Rng

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "CardRecord",
    "Event",
    "Game",
    "IllegalActionError",
    "Information",
    "Rng",
    "SetupError",
    "State",
    "card_key",
    "discover_engines",
    "engine_records",
    "freeze",
    "get_game",
    "register_game",
    "registered_games",
    "thaw",
]
