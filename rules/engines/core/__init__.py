"""The common engine API: ``Game``, ``State``, ``Action``, the seeded ``Rng``, the registry and
the ``GamePlugin`` each game declares itself with."""

from rules.engines.core.api import (
    CHANCE,
    TERMINAL,
    Action,
    CardSightings,
    Event,
    Game,
    IllegalActionError,
    Information,
    SetupError,
    State,
)
from rules.engines.core.plugin import (
    DeckCards,
    Difficulty,
    GamePlugin,
    HandWords,
    PageWords,
    SeatPlan,
    ToolError,
    find_plugin,
    plugin_for,
    plugins,
    register_plugin,
    unregister_plugin,
)
from rules.engines.core.records import CardRecord, card_key, engine_records, freeze, thaw
from rules.engines.core.registry import discover_engines, get_game, register_game, registered_games
from rules.engines.core.rng import Rng

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "CardRecord",
    "CardSightings",
    "DeckCards",
    "Difficulty",
    "Event",
    "Game",
    "GamePlugin",
    "HandWords",
    "IllegalActionError",
    "Information",
    "PageWords",
    "Rng",
    "SeatPlan",
    "SetupError",
    "State",
    "ToolError",
    "card_key",
    "discover_engines",
    "engine_records",
    "find_plugin",
    "freeze",
    "get_game",
    "plugin_for",
    "plugins",
    "register_game",
    "register_plugin",
    "registered_games",
    "thaw",
    "unregister_plugin",
]
