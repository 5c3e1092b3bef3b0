"""``manage.py load_game_data [--game SLUG] [--prune]``: load every game's data idempotently.

The cards first, then what other apps registered in ``cards.loaders`` (formats, for one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.gamedata import (
    GameDataError,
    available_games,
    fixtures_dir_for,
    registered_fixtures_games,
)
from cards.loaders import game_data_loaders
from cards.services import game_data_load


class Command(BaseCommand):
    help = "Validate and load game data from fixtures/<game>/ (safe to run again: idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", help="Game slug (repeatable); default all.")
        parser.add_argument(
            "--fixtures", type=Path, default=None, help="Fixtures folder (default: fixtures/)."
        )
        parser.add_argument(
            "--prune",
            action="store_true",
            help="Delete cards no longer in the files (cards used by decks are kept).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = options["fixtures"]
        fixtures_dir = chosen or Path(settings.FIXTURES_DIR)
        slugs = options["game"] or available_games(fixtures_dir)
        if chosen is None and not options["game"]:
            # games registered with their own data folder (cards.gamedata.register_fixtures_dir)
            slugs = sorted({*slugs, *registered_fixtures_games()})
        if not slugs:
            raise CommandError(f"no game data found under {fixtures_dir}")
        failed = False
        for slug in slugs:
            folder = chosen or fixtures_dir_for(slug, fixtures_dir)
            try:
                report = game_data_load(slug=slug, fixtures_dir=folder, prune=options["prune"])
            except GameDataError as exc:
                failed = True
                self.stderr.write(f"{slug}: {len(exc.problems)} problem(s), nothing loaded:")
                for problem in exc.problems:
                    self.stderr.write(f"  - {problem}")
                continue
            self.stdout.write(report.summary())
            for what, loader in game_data_loaders():
                try:
                    summary = loader(slug=slug, fixtures_dir=folder)
                except GameDataError as exc:
                    failed = True
                    self.stderr.write(f"{slug}: {what} not loaded, {len(exc.problems)} problem(s):")
                    for problem in exc.problems:
                        self.stderr.write(f"  - {problem}")
                    continue
                if summary is not None:
                    self.stdout.write(summary)
        if failed:
            raise CommandError("some game data is invalid (see above); the rest was loaded")
