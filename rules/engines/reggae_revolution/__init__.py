"""Reggae Revolution: the co-operative deck builder's engine, effect language and team policy."""

from rules.engines.core import register_plugin
from rules.engines.reggae_revolution.cards import CardSpec, card_specs, fixture_records
from rules.engines.reggae_revolution.game import ReggaeRevolutionGame
from rules.engines.reggae_revolution.plugin import ReggaeRevolutionPlugin
from rules.engines.reggae_revolution.policy import Winnability, greedy_action, winnability
from rules.engines.reggae_revolution.state import ReggaeState, team_value

PLUGIN = register_plugin(ReggaeRevolutionPlugin())

__all__ = [
    "PLUGIN",
    "CardSpec",
    "ReggaeRevolutionGame",
    "ReggaeRevolutionPlugin",
    "ReggaeState",
    "Winnability",
    "card_specs",
    "fixture_records",
    "greedy_action",
    "team_value",
    "winnability",
]
