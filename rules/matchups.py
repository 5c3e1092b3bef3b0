"""Matchups from decklist files: read, validate and turn two decks into an engine setup.

The Django side of ``manage.py simulate --deck-a FILE --deck-b FILE``: a file is read with
``decks.decklist`` (text, JSON or CSV, guessed from the name), its names are matched to the
game's cards, and ``decks.validation.validate`` must find it legal before an engine plays it.
Engines take a deck as a list of card names (one per physical card), so the setup stays plain,
JSON-ready data that ``Game.replay`` accepts again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decks.decklist import DecklistParseError, decklist_entries, decklist_read, guess_kind
from decks.validation import validate


class DeckFileError(ValueError):
    """A decklist file that cannot be read, names unknown cards or breaks the game's rules."""


@dataclass(frozen=True)
class DeckFile:
    """A legal deck read from a file: its label and its cards, one name per physical card."""

    path: str
    label: str
    cards: tuple[str, ...]


def read_deck_file(game_slug: str, path: str | Path) -> DeckFile:
    """Read and validate one decklist file; raise ``DeckFileError`` naming the file (and line)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckFileError(f"{file}: cannot read the file ({exc})") from exc
    try:
        decklist = decklist_read(text, guess_kind(file.name, text))
        declared = decklist.metadata.get("game")
        if declared and declared != game_slug:
            raise DeckFileError(f"{file}: the decklist is for {declared!r}, not {game_slug!r}")
        entries = decklist_entries(game_slug, decklist)
    except DecklistParseError as exc:
        problems = "; ".join(str(problem) for problem in exc.problems)
        raise DeckFileError(f"{file}: {problems}") from exc
    report = validate(game_slug, entries)
    if not report.legal:
        lines = "; ".join(_violation_text(entries, violation) for violation in report.violations)
        raise DeckFileError(f"{file}: illegal deck: {lines}")
    cards: list[str] = []
    for entry in entries:
        cards.extend([entry.name] * entry.quantity)
    label = decklist.metadata.get("name") or file.stem
    return DeckFile(str(file), label, tuple(cards))


def _violation_text(entries: Sequence[Any], violation: Any) -> str:
    """A violation's message, with the lines of the cards it names when the message lacks them."""
    message = str(violation.message)
    if "line" in message:
        return f"{violation.code}: {message}"
    named = {str(card).casefold() for card in violation.cards}
    lines = sorted({entry.line for entry in entries if entry.name.casefold() in named})
    where = f" (line {', '.join(str(line) for line in lines)})" if lines else ""
    return f"{violation.code}: {message}{where}"


def matchup_setup(
    game_slug: str, paths: Sequence[str | Path], base: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[DeckFile]]:
    """Return an engine setup playing the decks of ``paths`` (seat order) and the decks read."""
    decks = [read_deck_file(game_slug, path) for path in paths]
    setup = dict(base or {})
    setup["decks"] = [list(deck.cards) for deck in decks]
    return setup, decks
