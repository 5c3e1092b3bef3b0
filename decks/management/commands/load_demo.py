"""``manage.py load_demo``: the demo set a fresh install shows (``decks.demo``), idempotently.

``make run`` and ``make data`` run it after ``load_game_data`` unless ``DEMO=0`` is given (or
``DECKWRIGHT_DEMO=0`` is in the environment, which this command also obeys: it then loads nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.demo import DemoError, demo_load


class Command(BaseCommand):
    help = (
        "Load the demo set: public sample decks of every game under a demo user who cannot log "
        "in, and an example event. Safe to run again: it creates only what is missing and never "
        "changes what exists, unless --refresh. Off when DECKWRIGHT_DEMO=0."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--samples",
            type=Path,
            default=None,
            help="Folder of sample decklists, <game>/legal-*.txt (default: fixtures/decks/).",
        )
        parser.add_argument(
            "--refresh",
            action="store_true",
            help=(
                "Give the demo decks that exist their sample's cards (a new version of each deck "
                "whose cards differ; earlier versions are kept). Without it they are left alone."
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEMO_DATA:
            self.stdout.write("demo: off (DECKWRIGHT_DEMO=0), nothing loaded")
            return
        samples = options["samples"] or Path(settings.FIXTURES_DIR) / "decks"
        try:
            report = demo_load(samples_dir=samples, refresh=options["refresh"])
        except DemoError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(report.summary())
