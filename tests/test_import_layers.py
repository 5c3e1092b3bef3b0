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


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_circles(package: Path, root: Path = ROOT) -> list[list[str]]:
    """Every circle of imports among the modules of ``package`` (each circle listed once, its
    modules sorted), counting lazy and ``TYPE_CHECKING`` imports too, since each is still a
    dependency. An import of a package counts as one of its ``__init__``."""
    modules = {module_name(path, root): path for path in package.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges[name] = {
            target for _, target in imports(path, root) if target in modules and target != name
        }
    # Tarjan's strongly connected components, without recursion
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0
    for start in sorted(modules):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return sorted(circles)


#: the one circle left inside ``rules``: Reggae Revolution's evaluation names the state's class
#: in its annotations only (its ``TYPE_CHECKING`` import, which the compiled build needs to reach
#: the state's fields natively), while the state calls the evaluation
TYPING_ONLY_CIRCLES = [
    [
        "rules.engines.reggae_revolution.evaluation",
        "rules.engines.reggae_revolution.state",
    ]
]


def _typing_only(importer: Path, imported: str) -> bool:
    """True when every import of ``imported`` in ``importer`` sits under ``if TYPE_CHECKING``."""
    tree = ast.parse(importer.read_text(encoding="utf-8"))
    guarded = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == imported
    ]
    return bool(found) and all(id(node) in guarded for node in found)


def test_the_rules_lab_and_its_engines_import_in_no_circle() -> None:
    # Issue 30: plans, jobs, the doctor, quotas and tasks import only downwards (the jobs play
    # what the plans describe; the doctor builds on the plans; the workers' task lives with the
    # jobs it plays, and ``rules.tasks`` only exposes it to Celery).
    assert import_circles(ROOT / "rules") == TYPING_ONLY_CIRCLES
    evaluation = ROOT / "rules/engines/reggae_revolution/evaluation.py"
    assert _typing_only(evaluation, "rules.engines.reggae_revolution.state")


def test_the_circle_finder_sees_a_lazy_circle_and_ignores_a_chain(tmp_path: Path) -> None:
    package = tmp_path / "lab"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plans.py").write_text("X = 1\n")
    (package / "jobs.py").write_text(
        "from lab.plans import X\n\ndef f():\n    from lab import doctor\n"
    )
    (package / "doctor.py").write_text("from lab.plans import X\n")
    assert import_circles(package, tmp_path) == []
    (package / "doctor.py").write_text("def g():\n    from lab.jobs import f\n")
    assert import_circles(package, tmp_path) == [["lab.doctor", "lab.jobs"]]
