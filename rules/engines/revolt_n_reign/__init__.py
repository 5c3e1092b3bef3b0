"""Revolt N Reign: the engine, its effect language, the card check and the rules-text renderer."""

from rules.engines.core import register_plugin
from rules.engines.revolt_n_reign.cards import (
    CardDataError,
    CardSpec,
    card_problems,
    card_spec,
    deck_records,
    fixture_records,
    read_decklist,
    sample_decks,
)
from rules.engines.revolt_n_reign.game import RevoltNReignGame
from rules.engines.revolt_n_reign.plugin import RevoltNReignPlugin
from rules.engines.revolt_n_reign.render import rules_text
from rules.engines.revolt_n_reign.state import RevoltState

PLUGIN = register_plugin(RevoltNReignPlugin())

__all__ = [
    "PLUGIN",
    "CardDataError",
    "CardSpec",
    "RevoltNReignGame",
    "RevoltNReignPlugin",
    "RevoltState",
    "card_problems",
    "card_spec",
    "deck_records",
    "fixture_records",
    "read_decklist",
    "rules_text",
    "sample_decks",
]
