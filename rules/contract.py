"""A game's obligations on the Django side: ``check_game_wiring(slug)``.

The pure half, ``rules.engines.core.contract.check_game(plugin)``, plays the engine; this half
checks what the shared Django code needs of the game once its pieces are wired in
(``rules.plugins``) and its data loaded (``manage.py load_game_data``): the card data folder,
the game's row agreeing with its engine, every card playable, a validation module, a default
format, the sample decks it declares judged as their names say, and its rulings page naming
every validation code. It sits in ``rules`` (not under ``rules/engines``) because it reads the
database and the validation modules, which engines may not import; a game's author runs it from
a test (``tests/rules/test_game_contract.py`` runs both halves on every registered game).

Each check raises ``ContractError`` (the engine half's error) naming its check id, as
``docs/engines.md`` *How to add a game* lists it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings

from rules.engines.core import plugin_for
from rules.engines.core.contract import ContractError

#: check id -> the obligation it enforces (docs/engines.md lists the same ids)
WIRING_CHECKS: dict[str, str] = {
    "fixtures": "fixtures/<slug>/game.yaml and fixtures/<slug>/cards/*.yaml exist",
    "game-row": "the loaded game's row has its engine's name and player counts",
    "cards": "the game has cards, and its engine can play every one",
    "validation": "decks/validation/<module>.py registers the game's GameRules",
    "formats": "fixtures/<slug>/formats.yaml gives the game a default format",
    "sample-decks": "fixtures/decks/<slug>/ holds legal-*.txt and illegal-<code>.txt decks "
    "that validate as their names say (unless the plugin sets sample_decks = False)",
    "rulings": "docs/rules/<slug>.md exists and names every validation code",
}


def wiring_checks() -> Sequence[str]:
    """The check ids ``check_game_wiring`` runs, in order."""
    return list(WIRING_CHECKS)


def _fixtures_folder(slug: str) -> Path:
    from cards.gamedata import fixtures_dir_for

    return fixtures_dir_for(slug, Path(settings.FIXTURES_DIR)) / slug


def check_game_wiring(slug: str) -> None:
    """Check every Django-side obligation of the game ``slug`` (wired in, its data loaded);
    ``ContractError`` names the first one broken."""
    from cards.checks import card_check_errors
    from cards.models import Card, Game
    from decks.decklist import decklist_entries, decklist_read
    from decks.selectors import format_default
    from decks.validation import registered_games, rules_for, validate

    plugin = plugin_for(slug)
    engine = plugin.game

    def fail(check: str, detail: str) -> ContractError:
        return ContractError(slug, check, detail, WIRING_CHECKS[check])

    folder = _fixtures_folder(slug)
    if not (folder / "game.yaml").is_file():
        raise fail("fixtures", f"no {folder / 'game.yaml'}")
    if not list((folder / "cards").glob("*.yaml")):
        raise fail("fixtures", f"no card files in {folder / 'cards'}")

    row = Game.objects.filter(slug=slug).first()
    if row is None:
        raise fail("game-row", "no game row: run manage.py load_game_data --game " + slug)
    loaded = (row.name, row.min_players, row.max_players)
    declared = (engine.name, engine.min_players, engine.max_players)
    if loaded != declared:
        raise fail(
            "game-row",
            f"the game row says {loaded}, the engine {declared}: run manage.py load_game_data",
        )

    cards = list(Card.objects.filter(game=row).with_related())
    if not cards:
        raise fail("cards", "the game has no cards")
    for card in cards:
        problems = card_check_errors(slug, card.record())
        if problems:
            raise fail("cards", f"{card.name}: {'; '.join(problems)}")

    if slug not in registered_games():
        raise fail("validation", f"no GameRules registered for {slug!r}")
    codes = rules_for(slug).codes

    if format_default(slug) is None:
        raise fail("formats", "no default format (default: true in formats.yaml)")

    if plugin.sample_decks:
        samples = sorted((Path(settings.FIXTURES_DIR) / "decks" / slug).glob("*.txt"))
        if not any(path.name.startswith("legal-") for path in samples):
            raise fail("sample-decks", f"no legal-*.txt in fixtures/decks/{slug}/")
        for path in samples:
            decklist = decklist_read(path.read_text(encoding="utf-8"))
            meta = decklist.metadata
            as_of = dt.date.fromisoformat(meta["as_of"]) if "as_of" in meta else None
            report = validate(
                slug,
                decklist_entries(slug, decklist),
                format=meta.get("format"),
                as_of=as_of,
                variant=meta.get("variant"),
            )
            if path.stem.startswith("legal-") and not report.legal:
                raise fail("sample-decks", f"{path.name} is not legal: {report.codes}")
            if path.stem.startswith("illegal-"):
                named = path.stem.removeprefix("illegal-")
                if named not in report.codes:
                    raise fail("sample-decks", f"{path.name} reports {report.codes}, not {named}")

    doc = Path(settings.RULINGS_DIR) / f"{slug}.md"
    if not doc.is_file():
        raise fail("rulings", f"no {doc}")
    text = doc.read_text(encoding="utf-8")
    unnamed = sorted(code for code in codes if f"`{code}`" not in text)
    if unnamed:
        raise fail("rulings", f"{doc.name} does not name the codes {', '.join(unnamed)}")
