"""Rival Realms: supply, realms and units on two fields, four-step combat, card victories."""

from rules.engines.core import register_plugin
from rules.engines.rival_realms.cards import CardSpec, card_specs, fixture_records
from rules.engines.rival_realms.decklists import build_deck, fixture_decks, parse_decklist
from rules.engines.rival_realms.game import RivalRealmsGame
from rules.engines.rival_realms.plugin import RivalRealmsPlugin
from rules.engines.rival_realms.policy import play_action, winning_action
from rules.engines.rival_realms.state import RealmsState

PLUGIN = register_plugin(RivalRealmsPlugin())

__all__ = [
    "PLUGIN",
    "CardSpec",
    "RealmsState",
    "RivalRealmsGame",
    "RivalRealmsPlugin",
    "build_deck",
    "card_specs",
    "fixture_decks",
    "fixture_records",
    "parse_decklist",
    "play_action",
    "winning_action",
]
