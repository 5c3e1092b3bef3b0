"""``manage.py export_cards --game SLUG [--output FILE]``: a game's cards as JSON for other tools."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.models import Game
from cards.selectors import card_export


class Command(BaseCommand):
    help = "Write one game's cards as a JSON array (one object per card, sorted by name)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="Game slug, e.g. revolt-n-reign.")
        parser.add_argument("--output", "-o", help="Write to this file instead of standard output.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = Game.objects.get(slug=options["game"])
        except Game.DoesNotExist as exc:
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none loaded"
            raise CommandError(f"unknown game {options['game']!r} (known: {known})") from exc
        cards = card_export(game)
        payload = json.dumps(cards, indent=2, ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(payload + "\n")
            self.stderr.write(f"{game.slug}: {len(cards)} cards written to {options['output']}")
        else:
            self.stdout.write(payload)
