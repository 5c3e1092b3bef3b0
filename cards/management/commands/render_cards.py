"""``manage.py render_cards [--game SLUG] [--force]``: draw every card face into the image cache.

Cards whose images for the current digest are already on disk are skipped unless ``--force``.
The summary lists, per game, how many faces were drawn, how many needed smaller text to fit their
boxes (``-v 2`` names them) and, by name, every card whose text had to be cut with an ellipsis.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.images import ensure_card_images, face_for_card
from cards.models import Card, Game


class Command(BaseCommand):
    help = "Render card images (full size and thumbnail) into MEDIA_ROOT/card-images/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", help="Game slug (repeatable); default all.")
        parser.add_argument(
            "--force", action="store_true", help="Redraw even when the current images exist."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("sort_order", "name")
        if options["game"]:
            known = set(games.values_list("slug", flat=True))
            unknown = sorted(set(options["game"]) - known)
            if unknown:
                raise CommandError(
                    f"unknown game {', '.join(unknown)}; known: {', '.join(sorted(known)) or 'none'}"
                )
            games = games.filter(slug__in=options["game"])
        total_drawn = total_cards = 0
        started = time.perf_counter()
        for game in games:
            drawn, cards, shrunk, cut = 0, 0, [], []
            game_started = time.perf_counter()
            for card in Card.objects.for_game(game).with_related().order_by("name"):
                cards += 1
                _, rendered = ensure_card_images(face_for_card(card), force=options["force"])
                if rendered is None:
                    continue
                drawn += 1
                layout = rendered.layout
                if layout.ellipsized:
                    cut.append(f"{card.name} ({', '.join(t.role for t in layout.ellipsized)})")
                elif layout.shrunk:
                    shrunk.append(card.name)
            seconds = time.perf_counter() - game_started
            self.stdout.write(
                f"{game.slug}: {drawn} drawn, {cards - drawn} up to date, {seconds:.1f}s"
            )
            if shrunk:
                self.stdout.write(f"  smaller text to fit: {len(shrunk)} card(s)")
                if options["verbosity"] >= 2:
                    for name in shrunk:
                        self.stdout.write(f"    {name}")
            for entry in cut:
                self.stdout.write(f"  cut with an ellipsis: {entry}")
            total_drawn += drawn
            total_cards += cards
        self.stdout.write(
            f"{total_drawn} of {total_cards} card(s) drawn in {time.perf_counter() - started:.1f}s"
        )
