"""``manage.py tables_tick``: act on every friend table past a deadline (the AI taking over for
a player away on their move, a clock run out) and tell its players, for cron (docs/deploy.md).

The table pages do it too whenever a table is loaded and on their pings; this command moves on
the games where nobody has a page open. ``--every N`` repeats every N seconds until stopped.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.services import tables_deadlines_enforce
from web.consumers import table_changed_notify


class Command(BaseCommand):
    help = "Act on the friend tables past a deadline: AI takeovers and flag falls."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every", type=int, default=0, help="repeat every N seconds (0: once, for cron)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        every = max(0, int(options["every"]))
        while True:
            changed = tables_deadlines_enforce()
            for pk in changed:
                table_changed_notify(pk)
            if options["verbosity"] > 1 or changed:
                self.stdout.write(f"{len(changed)} table(s) past a deadline acted on")
            if not every:
                return
            time.sleep(every)
