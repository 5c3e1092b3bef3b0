"""``manage.py startgame <slug> [--name NAME]``: write a new game's skeleton (``rules.scaffold``).

Every piece a game needs, from the template game, at the conventional paths; the skeleton passes
the game contract as written, so the first step of a new game is a passing test
(docs/engines.md, *How to add a game*).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.scaffold import SkeletonError, game_skeleton_write


class Command(BaseCommand):
    """Write a working skeleton of a new game."""

    help = "Write a new game's engine, plugin, data, sample decks, docs and tests: startgame SLUG."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        parser.add_argument("slug", help="The new game's slug, e.g. star-duel.")
        parser.add_argument("--name", help="The game's name (default: the slug in title case).")
        parser.add_argument(
            "--root",
            type=Path,
            default=None,
            help="The project folder to write into (default: this project's).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the skeleton, or say why not."""
        root = options["root"] or Path(settings.BASE_DIR)
        try:
            written = game_skeleton_write(slug=options["slug"], name=options["name"], root=root)
        except SkeletonError as exc:
            raise CommandError(str(exc)) from exc
        for path in written:
            self.stdout.write(str(path.relative_to(root)))
        slug = options["slug"]
        self.stdout.write(
            f"Wrote {len(written)} files. Next: manage.py load_game_data --game {slug}, then "
            f"pytest tests/rules/test_{slug.replace('-', '_')}.py (docs/engines.md, "
            "How to add a game)."
        )
