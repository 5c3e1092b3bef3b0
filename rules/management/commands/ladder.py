"""``manage.py ladder --game G``: the strength ladder of a game's agents (``rules.ladder``).

Every agent the game offers (random included) plays every other ``--games`` games over the
game's sample decks, decks mirrored and seats balanced; the command prints the Bradley-Terry
ratings (Elo scale, random = 0) with their 95% intervals, each agent's CPU time per decision
(mean and 95th percentile) and every pairing's score. ``--publish`` stores the ladder that the
/play/ and simulation forms show next to each agent, and its table in ``docs/agents.md``.
"""

from __future__ import annotations

import argparse
import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engines.core import find_plugin
from rules.ladder import add_arguments, run_ladder


class Command(BaseCommand):
    """Play a game's ladder and print it."""

    help = "Round robin of a game's agents: ratings with 95% intervals and CPU per decision."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        add_arguments(parser)

    def handle(self, *args: object, **options: object) -> None:
        """Play the ladder; a game without an engine or a bad entrant is a clear error."""
        namespace = argparse.Namespace(**options)
        if find_plugin(str(options["game"])) is None:
            raise CommandError(f"no game with an engine is called {options['game']!r}")
        if int(str(options["games"])) < 1:
            raise CommandError("--games must be at least 1")
        try:
            run_ladder(namespace, "manage.py " + " ".join(sys.argv[2:]), self.stdout.write)
        except ValueError as error:
            raise CommandError(str(error)) from error
