"""``manage.py game_tool SLUG TOOL [options]``: run a command-line tool a game's plugin declares.

Tools belong to their game's engine package (``GamePlugin.tools``); this command only finds the
game and hands the remaining arguments over, so no shared command names a game.
``manage.py game_tool --list`` lists every game's tools.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engines.core import ToolError, find_plugin, plugins


class Command(BaseCommand):
    """Run one game's own tool (e.g. a solver) with the arguments that follow its name."""

    help = "Run a tool of a game's engine package: game_tool SLUG TOOL [options] (--list: all)."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options (everything after TOOL is the tool's own)."""
        parser.add_argument("game", nargs="?", help="Game slug.")
        parser.add_argument("tool", nargs="?", help="The game's tool (see --list).")
        parser.add_argument("tool_args", nargs=argparse.REMAINDER, help="The tool's own options.")
        parser.add_argument("--list", action="store_true", help="List every game's tools.")

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the command."""
        if options["list"] or not options["game"]:
            for listed in plugins():
                for name in sorted(listed.tools):
                    self.stdout.write(f"{listed.slug} {name}")
            return
        plugin = find_plugin(options["game"])
        if plugin is None:
            known = ", ".join(p.slug for p in plugins())
            raise CommandError(f"no game {options['game']!r} (known: {known})")
        name = options["tool"]
        if name not in plugin.tools:
            have = ", ".join(sorted(plugin.tools)) or "none"
            raise CommandError(f"{plugin.name} has no tool {name!r} (its tools: {have})")
        try:
            # the command's OutputWrapper passes every call on to the text stream it wraps
            plugin.tool(name)(list(options["tool_args"]), cast(TextIO, self.stdout))
        except ToolError as exc:
            raise CommandError(f"{plugin.slug} {name}: {exc}") from exc
