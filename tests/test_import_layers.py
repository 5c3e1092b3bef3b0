"""The layers import downwards only (DESIGN "Layout", "Engine contract"), read from the source.

- ``rules/engines/**``: pure Python: no Django, and nothing of ``rules`` outside ``rules.engines``
  (agents, simulation, test hands and the Django side sit above the engines and are passed in);
- ``cards/**``: what a card is: nothing from ``decks``, ``rules``, ``api`` or ``web``;
- ``decks/**``: nothing from ``rules``, ``api`` or ``web``; ``rules/**``: nothing from ``api``
  or ``web`` (cards < decks < rules < api, web).

Every import counts, module level or inside a function, since a lazy import is still a
dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with its line (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.append((node.lineno, module))
            # ``from rules import agents`` imports rules.agents
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
    return found


def _top(module: str) -> str:
    return module.split(".")[0]


def engine_breach(module: str) -> bool:
    """An import the engine layer may not make."""
    if _top(module) in {"django", "rest_framework", "cards", "decks", "api", "web"}:
        return True
    below = module in ("rules", "rules.engines") or module.startswith("rules.engines.")
    return _top(module) == "rules" and not below


#: each app below the surface, with the apps above it that it may not import
ABOVE = {
    "cards": {"decks", "rules", "api", "web"},
    "decks": {"rules", "api", "web"},
    "rules": {"api", "web"},
}


def cards_breach(module: str) -> bool:
    """An import the cards app may not make."""
    return _top(module) in ABOVE["cards"]


def breaches(folder: str, breach: Callable[[str], bool], root: Path = ROOT) -> list[str]:
    """``path:line imports module`` for every import under ``root/folder`` that ``breach``es."""
    files = sorted((root / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}"
    found = []
    for path in files:
        for line, module in sorted(imports(path, root)):
            if breach(module):
                found.append(f"{path.relative_to(root)}:{line} imports {module}")
    return found


def test_engines_import_no_django_and_nothing_of_rules_above_them() -> None:
    assert breaches("rules/engines", engine_breach) == []


@pytest.mark.parametrize("app", sorted(ABOVE))
def test_an_app_imports_nothing_from_the_apps_above_it(app: str) -> None:
    assert breaches(app, lambda module: _top(module) in ABOVE[app]) == []


def test_the_checker_sees_lazy_relative_and_from_package_imports(tmp_path: Path) -> None:
    # given an engine module breaking the layer four ways (in a copy of the layout)
    folder = tmp_path / "rules" / "engines" / "probe"
    folder.mkdir(parents=True)
    (folder / "probe.py").write_text(
        "from rules import agents\n"
        "def later():\n"
        "    import django.conf\n"
        "from ... import simulation\n"
        "from rules.engines.core import Game\n"
        "from cards.models import Card\n",
        encoding="utf-8",
    )
    # when the engine layer is checked
    found = breaches("rules/engines", engine_breach, root=tmp_path)
    # then each breach is reported with its line, and the import from below is not
    assert found == [
        "rules/engines/probe/probe.py:1 imports rules.agents",
        "rules/engines/probe/probe.py:3 imports django.conf",
        "rules/engines/probe/probe.py:4 imports rules.simulation",
        "rules/engines/probe/probe.py:6 imports cards.models",
        "rules/engines/probe/probe.py:6 imports cards.models.Card",
    ]
