"""``manage.py startgame``: a new game's skeleton, written into a temporary project tree, is
found by the real discovery and keeps the whole game contract as written."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.contract import check_game_wiring
from rules.engines.core import plugin_for, registered_games
from rules.engines.core.contract import check_game
from rules.scaffold import TEMPLATE
from tests.game_tree import planted, project_tree

ROOT = Path(__file__).resolve().parents[2]
SLUG = "star-duel"


def startgame(*args: str) -> str:
    out = io.StringIO()
    call_command("startgame", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return project_tree(tmp_path / "project")


def test_the_skeleton_has_every_piece_at_its_conventional_path(tree: Path) -> None:
    said = startgame(SLUG, "--name", "Star Duel", "--root", str(tree))
    written = {line for line in said.splitlines() if not line.startswith("Wrote")}
    module = "star_duel"
    for piece in (
        f"rules/engines/{module}/__init__.py",
        f"rules/engines/{module}/game.py",
        f"rules/engines/{module}/plugin.py",
        f"rules/engines/{module}/hands.py",
        f"rules/engines/{module}/narration.py",
        f"decks/validation/{module}.py",
        f"cards/images/styles/{module}.py",
        f"fixtures/{SLUG}/game.yaml",
        f"fixtures/{SLUG}/formats.yaml",
        f"fixtures/{SLUG}/cards/cards.yaml",
        f"docs/rules/{SLUG}.md",
        f"tests/rules/test_{module}.py",
    ):
        assert piece in written and (tree / piece).is_file(), piece
    assert any(p.startswith(f"fixtures/decks/{SLUG}/legal-") for p in written)
    assert any(p.startswith(f"fixtures/decks/{SLUG}/illegal-") for p in written)
    # no placeholder is left, and the rulings stub has real headings
    for path in tree.rglob("*"):
        if path.is_file() and (module in str(path) or SLUG in str(path)):
            assert "__SLUG__" not in path.read_text(encoding="utf-8"), path
            assert "__CLASS__" not in path.read_text(encoding="utf-8"), path
    headings = (tree / f"docs/rules/{SLUG}.md").read_text(encoding="utf-8").splitlines()
    assert "# Star Duel: data model, deck rules and rulings" in headings
    assert {"## Validation codes", "## Rulings"} <= set(headings)


@pytest.mark.django_db
def test_the_skeleton_is_discovered_and_keeps_the_contract(tree: Path, settings) -> None:
    startgame(SLUG, "--name", "Star Duel", "--root", str(tree))
    assert SLUG not in registered_games()
    with planted(tree, settings) as found:
        assert found == [SLUG]
        call_command("load_game_data", "--game", SLUG, stdout=io.StringIO())
        check_game(plugin_for(SLUG))
        check_game_wiring(SLUG)
    assert SLUG not in registered_games()


def test_the_skeletons_python_is_lint_clean_and_its_compiled_modules_type_check(tree) -> None:
    startgame(SLUG, "--root", str(tree))
    files = [str(path) for path in tree.rglob("*.py")]
    tools = Path(sys.executable).parent
    runs = [
        [tools / "ruff", "check", "--config", ROOT / "pyproject.toml", *files],
        [tools / "ruff", "format", "--check", "--config", ROOT / "pyproject.toml", *files],
        # what make typecheck (and mypyc) would see: the engine package, the validation module
        [tools / "mypy", tree / "rules" / "engines" / "star_duel"],
        [tools / "mypy", tree / "decks" / "validation" / "star_duel.py"],
    ]
    for command in runs:
        done = subprocess.run(
            [str(part) for part in command], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("rival-realms", "exists already"),
        ("Star_Duel", "is not a game slug"),
        ("9-lives", "is not a game slug"),
        ("star--duel", "is not a game slug"),
        ("core", "reserved name"),
        ("class", "reserved name"),
    ],
)
def test_a_taken_or_bad_slug_is_refused_and_nothing_is_written(
    tree: Path, slug: str, message: str
) -> None:
    before = sorted(tree.rglob("*"))
    with pytest.raises(CommandError, match=message):
        startgame(slug, "--root", str(tree))
    assert sorted(tree.rglob("*")) == before


def test_a_second_skeleton_of_the_same_slug_is_refused(tree: Path) -> None:
    startgame(SLUG, "--root", str(tree))
    with pytest.raises(CommandError, match="has pieces already"):
        startgame(SLUG, "--root", str(tree))


def test_a_bad_name_is_refused(tree: Path) -> None:
    with pytest.raises(CommandError, match="is not a game name"):
        startgame(SLUG, "--name", 'Star "Duel"', "--root", str(tree))


def test_the_template_names_no_game() -> None:
    for path in TEMPLATE.rglob("*.tmpl"):
        text = path.read_text(encoding="utf-8").casefold()
        assert "star duel" not in text and "toy duel" not in text, path
