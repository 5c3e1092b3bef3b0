"""``manage.py engines --info``: which build of the engines this installation runs.

The engines and agents are compiled with mypyc by ``make install`` where a C compiler is
(``rules/compiled.py``); ``--build`` and ``--clean`` do the same by hand.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import compiled


class Command(BaseCommand):
    help = "Say whether the engines run compiled or as pure Python; build or remove the build."

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--info", action="store_true", help="say which build runs (default)")
        what.add_argument("--build", action="store_true", help="compile the engines now")
        what.add_argument("--clean", action="store_true", help="remove the compiled build")
        parser.add_argument(
            "--strict",
            action="store_true",
            help="exit with an error when the last build of this source failed (CI: a build "
            "that falls back to pure Python is otherwise silent)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["build"]:
            compiled.build(force=True)
            self.stdout.write("The new build is used by processes started from now on.")
            return
        if options["clean"]:
            gone = compiled.clean()
            self.stdout.write(f"Removed {gone} compiled files; new processes run pure Python.")
            return
        details = compiled.info()
        self.stdout.write(f"Engines: {details['in_use']}")
        self.stdout.write(
            f"  rules.engines.core.api is loaded from {details['engine_module']}, "
            f"decks.validation.resolved from {details['validation_module']}; "
            f"{details['compiled_modules']} compiled modules for {details['source_files']} "
            "source files"
        )
        if details["built_at"]:
            self.stdout.write(
                f"  built {details['built_at']} with mypyc {details['built_with']} "
                f"in {details['build_seconds']} s"
            )
        if options["strict"] and compiled.build_failed():
            raise CommandError(
                f"the compiled build of this source failed (log: {compiled.LOG}); the engines "
                "run as pure Python"
            )
