"""``manage.py validate_decks --game SLUG [--format SLUG] [--as-of DATE] [--json] [--csv PATH] PATH...``

Validates decklist files (text, JSON or CSV; folders are searched for them) and prints a verdict
per deck with every violation, then a summary line. Exit status: 0 when every deck is legal, 1
when any is illegal, 2 when any input cannot be read (or the game or format is unknown).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.decklist import (
    DecklistParseError,
    decklist_entries,
    decklist_read,
    decklist_settings,
    guess_kind,
)
from decks.validation import UnknownFormatError, UnknownVariantError, validate
from decks.validation.report import legality_csv_rows, legality_csv_write

DECKLIST_SUFFIXES = (".txt", ".dek", ".deck", ".json", ".csv")
EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _files(paths: list[str]) -> list[tuple[Path, str | None]]:
    """Every decklist file named or found under a named folder, with a problem if missing."""
    found: list[tuple[Path, str | None]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in DECKLIST_SUFFIXES
            )
            if not files:
                found.append((path, "the folder holds no decklist files"))
            found.extend((p, None) for p in files)
        elif path.is_file():
            found.append((path, None))
        else:
            found.append((path, "no such file or folder"))
    return found


class Command(BaseCommand):
    help = "Validate decklist files against a game's rules and a format; exit 0/1/2."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
        parser.add_argument("--game", required=True, help="Game slug, e.g. revolt-n-reign.")
        parser.add_argument("--format", dest="format_slug", help="Format slug, e.g. standard.")
        parser.add_argument(
            "--as-of", type=dt.date.fromisoformat, help="Judge the format as of YYYY-MM-DD."
        )
        parser.add_argument("--variant", help="Game variant (where the game has several).")
        parser.add_argument("--json", action="store_true", help="Print one JSON document.")
        parser.add_argument("--csv", type=Path, help="Also write one row per violation here.")

    def handle(self, *args: Any, **options: Any) -> None:
        from django.db import DatabaseError

        try:
            code = self._run(options)
        except DatabaseError as error:
            # A database that was never migrated or loaded: say what to do, not a traceback.
            code = self._fail(
                f"the card database is not ready ({error}); run `make data` "
                "(or `manage.py migrate` then `manage.py load_game_data`) first"
            )
        if code:
            sys.exit(code)

    def _fail(self, message: str) -> int:
        self.stderr.write(f"validate_decks: {message}")
        return EXIT_UNREADABLE

    def _run(self, options: dict[str, Any]) -> int:
        from cards.models import Game

        game = options["game"]
        if not Game.objects.filter(slug=game).exists():
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none loaded"
            return self._fail(f"unknown game {game!r} (games: {known})")
        results: list[dict[str, Any]] = []
        for path, problem in _files(options["paths"]):
            results.append(self._one(path, problem, game, options))
            if isinstance(results[-1].get("fatal"), str):
                return self._fail(results[-1]["fatal"])
        legal = sum(1 for r in results if r.get("report", {}).get("legal") is True)
        illegal = sum(1 for r in results if r.get("report", {}).get("legal") is False)
        unreadable = sum(1 for r in results if "errors" in r)
        summary = {
            "decks": len(results),
            "legal": legal,
            "illegal": illegal,
            "unreadable": unreadable,
        }
        if options["json"]:
            self.stdout.write(json.dumps({"results": results, "summary": summary}, indent=2))
        else:
            for result in results:
                self._print(result)
            self.stdout.write(
                f"{len(results)} deck(s): {legal} legal, {illegal} illegal, {unreadable} unreadable"
            )
        if options["csv"]:
            self._write_csv(options["csv"], results)
        if unreadable:
            return EXIT_UNREADABLE
        return EXIT_ILLEGAL if illegal else EXIT_LEGAL

    def _one(
        self, path: Path, problem: str | None, game: str, options: dict[str, Any]
    ) -> dict[str, Any]:
        name = str(path)
        if problem:
            return {"file": name, "errors": [problem]}
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            return {"file": name, "errors": [f"cannot be read: {exc}"]}
        try:
            decklist = decklist_read(text, guess_kind(path.name, text))
        except DecklistParseError as exc:
            return {"file": name, "errors": [str(p) for p in exc.problems]}
        try:
            own = decklist_settings(decklist, game)
        except DecklistParseError as exc:
            return {"file": name, "errors": [str(p) for p in exc.problems]}
        format_slug = options["format_slug"] or own.format
        variant = options["variant"] or own.variant
        as_of = options["as_of"] or own.as_of
        try:
            entries = decklist_entries(game, decklist)
        except DecklistParseError as exc:
            return {"file": name, "errors": [str(p) for p in exc.problems]}
        try:
            report = validate(
                game,
                entries,
                format=format_slug,
                as_of=as_of,
                variant=variant,
            )
        except (UnknownFormatError, UnknownVariantError) as exc:
            if options["format_slug"] == format_slug and isinstance(exc, UnknownFormatError):
                return {"file": name, "fatal": str(exc)}
            return {"file": name, "errors": [str(exc)]}
        return {
            "file": name,
            "name": decklist.metadata.get("name", path.stem),
            "report": report.to_dict(),
        }

    def _print(self, result: dict[str, Any]) -> None:
        if "errors" in result:
            self.stdout.write(f"{result['file']}: UNREADABLE")
            for error in result["errors"]:
                self.stdout.write(f"  ! {error}")
            return
        report = result["report"]
        verdict = "LEGAL" if report["legal"] else "ILLEGAL"
        self.stdout.write(f"{result['file']}: {verdict} ({report['card_count']} cards)")
        for violation in report["violations"]:
            self.stdout.write(f"  - [{violation['code']}] {violation['message']}")
        for warning in report["warnings"]:
            self.stdout.write(f"  ~ [{warning['code']}] {warning['message']}")

    def _write_csv(self, path: Path, results: list[dict[str, Any]]) -> None:
        rows = [
            row
            for result in results
            for row in legality_csv_rows(
                result["file"], result.get("report"), result.get("errors", ())
            )
        ]
        with path.open("w", newline="", encoding="utf-8") as handle:
            legality_csv_write(handle, rows, name_column="file")
