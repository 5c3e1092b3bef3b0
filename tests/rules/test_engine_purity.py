"""Engines are pure Python: nothing under rules/engines imports Django (DESIGN "Engine contract")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rules.engines

ENGINES = Path(rules.engines.__file__).parent
PURE = [ENGINES.parent / "agents", ENGINES.parent / "simulation.py", ENGINES]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_engine_agent_or_simulation_module_imports_django_or_an_app():
    files = [p for root in PURE for p in ([root] if root.is_file() else root.rglob("*.py"))]
    assert files
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in {"django", "rest_framework", "cards", "decks", "api"}, (path, name)


def test_every_engine_imports_and_plays_without_django_loaded():
    code = (
        "import sys\n"
        "from rules.engines.core import registered_games, get_game\n"
        "from rules.simulation import run\n"
        "for slug in registered_games():\n"
        "    run(slug, get_game(slug).example_setups()[0], ['random'] * get_game(slug).num_players(get_game(slug).example_setups()[0]), 1, 0)\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django'\n"
        "print(len(registered_games()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINES.parent.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 1
