"""The rules app: engines, agents, simulation, matchups, test hands and the lab (``rules.lab``)."""

from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        """Wire every game's plug-in in: card checks, validation module, face style, data."""
        from rules.plugins import plugins_wire

        plugins_wire()
