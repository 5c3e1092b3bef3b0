"""The layers import downwards only (DESIGN "Layout", "Engine contract"), read from the source.

- ``rules/engines/**``: pure Python: no Django, and nothing of ``rules`` outside ``rules.engines``
  (agents, simulation, test hands and the Django side sit above the engines and are passed in);
- ``cards/**``: what a card is: nothing from ``decks``, ``rules``, ``api`` or ``web``;
- ``decks/**``: nothing from ``rules``, ``api`` or ``web``; ``rules/**`` and ``tables/**`` (live
  tables between people): nothing from ``api`` or ``web`` (cards < decks < rules < tables < api,
  web);
- ``common/**`` (the request helpers every app shares): no app at all; ``accounts/**`` (accounts,
  lockout, tokens, throttles, the limit counters' table): ``common`` only, and none of cards to
  tables imports it (common < accounts < api, web); the surfaces ``api`` and ``web`` never
  import each other (issue 31);
- no app imports ``deckwright`` (settings, URLs, server entry points); of ``deckwright``, only the
  URLs and the entry points (``asgi``, ``wsgi``, ``celery``) import apps;
- no circle of imports anywhere: between apps, or between any two modules of the project;
- no module imports another's private (``_name``) names;
- ``rules/lab/**`` (the simulation lab): its modules import one another downwards only, in the
  order ``rules/lab/__init__.py`` gives, with no circle; nothing else of ``rules`` imports the
  lab but the management commands (rules < lab < api, web).

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
    if _top(module) in {"django", "rest_framework", "cards", "decks", "tables", "api", "web"}:
        return True
    below = module in ("rules", "rules.engines") or module.startswith("rules.engines.")
    return _top(module) == "rules" and not below


#: the project's packages: its apps and ``deckwright`` (settings, URLs, server entry points)
PROJECT = ["accounts", "api", "cards", "common", "decks", "deckwright", "rules", "tables", "web"]
APPS = [name for name in PROJECT if name != "deckwright"]

#: each app, with the apps it may not import (above it, or beside it: ``api`` and ``web``)
ABOVE = {
    "common": {"accounts", "cards", "decks", "rules", "tables", "api", "web"},
    "accounts": {"cards", "decks", "rules", "tables", "api", "web"},
    "cards": {"accounts", "decks", "rules", "tables", "api", "web"},
    "decks": {"accounts", "rules", "tables", "api", "web"},
    "rules": {"accounts", "tables", "api", "web"},
    "tables": {"accounts", "api", "web"},
    "api": {"web"},
    "web": {"api"},
}

#: the modules of ``deckwright`` that may import apps: the URLs and the server entry points
ENTRY_POINTS = {"deckwright.urls", "deckwright.asgi", "deckwright.wsgi", "deckwright.celery"}


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
    return project_circles([package], root)


def project_circles(packages: list[Path], root: Path = ROOT) -> list[list[str]]:
    """Every circle of imports among the modules of all of ``packages`` together."""
    modules = {
        module_name(path, root): path for package in packages for path in package.rglob("*.py")
    }
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges[name] = {
            target for _, target in imports(path, root) if target in modules and target != name
        }
    return circles(edges)


def app_circles(packages: list[str], root: Path = ROOT) -> list[list[str]]:
    """Every circle among ``packages`` themselves: one imports a module of the next."""
    edges: dict[str, set[str]] = {package: set() for package in packages}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            for _, target in imports(path, root):
                if _top(target) in edges and _top(target) != package:
                    edges[package].add(_top(target))
    return circles(edges)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node of the graph ``edges``, each
    sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
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
                    found.append(sorted(component))
    return sorted(found)


def test_the_rules_lab_and_its_engines_import_in_no_circle() -> None:
    # Issue 30: plans, jobs, the doctor, quotas and tasks import only downwards (the jobs play
    # what the plans describe; the doctor builds on the plans; the workers' task lives with the
    # jobs it plays). Reggae Revolution's state now holds its own evaluation and reads only the
    # weights from ``evaluation``, which imports no state: no circle is left, typing included.
    assert import_circles(ROOT / "rules") == []


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


@pytest.mark.parametrize("app", PROJECT)
def test_no_app_imports_in_a_circle(app: str) -> None:
    # Issue 31: the deck app's models imported the services that import them (eleven modules in
    # one circle); the admin's event form now makes the checks the model's ``clean`` made.
    assert import_circles(ROOT / app) == []


def test_no_modules_of_the_project_import_in_a_circle() -> None:
    # across apps too: a circle through two apps is a circle all the same
    assert project_circles([ROOT / package for package in PROJECT]) == []


def test_the_apps_import_one_another_in_no_circle() -> None:
    # Issue 31: ``api`` imported ``web``'s account guard and lockout, and ``web`` the API's
    # tokens and throttles; both now import them from ``accounts`` (and ``common``)
    assert app_circles(PROJECT) == []


def deckwright_breach(module: str) -> bool:
    return _top(module) == "deckwright"


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_the_project_package(app: str) -> None:
    # settings are read through ``django.conf.settings``, never imported
    assert breaches(app, deckwright_breach) == []


def entry_point_breaches(root: Path = ROOT) -> list[str]:
    """``path:line imports module`` for every import of an app by a module of ``deckwright``
    other than the URLs and the server entry points."""
    found = []
    for path in sorted((root / "deckwright").rglob("*.py")):
        if module_name(path, root) in ENTRY_POINTS:
            continue
        for line, module in sorted(imports(path, root)):
            if _top(module) in APPS:
                found.append(f"{path.relative_to(root)}:{line} imports {module}")
    return found


def test_only_the_urls_and_entry_points_of_the_project_package_import_apps() -> None:
    assert entry_point_breaches() == []


def private_imports(folders: list[str], root: Path = ROOT) -> list[str]:
    """``path:line imports module._name`` for every private name one module imports from
    another (``from module import _name``; dunders such as ``__version__`` are public)."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ImportFrom):
                    continue
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private:
                        where = f"{path.relative_to(root)}:{node.lineno}"
                        found.append(f"{where} imports {node.module or '.'}.{alias.name}")
    return found


def test_no_module_imports_private_names_of_another() -> None:
    # a name another module needs is part of its interface: public, without the underscore
    assert private_imports(PROJECT) == []


def test_the_surface_checkers_see_each_breach(tmp_path: Path) -> None:
    # given an API module reaching into the web pages, an app reading the settings module, a
    # settings helper importing an app, a private import, and two apps importing each other
    for folder in ("api", "web", "accounts", "deckwright"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "api" / "views.py").write_text(
        "def later():\n    from web.limits import heavy_page\n"
    )
    (tmp_path / "web" / "limits.py").write_text("from accounts.guard import _rate\n")
    (tmp_path / "accounts" / "guard.py").write_text(
        "from deckwright import settings\nfrom api import views\n"
    )
    (tmp_path / "deckwright" / "env.py").write_text("from accounts.guard import x\n")
    (tmp_path / "deckwright" / "urls.py").write_text("from web import limits\n")
    # when each is checked, then each breach is reported, and the URLs' import is not
    assert breaches("api", lambda module: _top(module) in ABOVE["api"], root=tmp_path) == [
        "api/views.py:2 imports web.limits",
        "api/views.py:2 imports web.limits.heavy_page",
    ]
    assert breaches("accounts", deckwright_breach, root=tmp_path) == [
        "accounts/guard.py:1 imports deckwright",
        "accounts/guard.py:1 imports deckwright.settings",
    ]
    assert entry_point_breaches(root=tmp_path) == [
        "deckwright/env.py:1 imports accounts.guard",
        "deckwright/env.py:1 imports accounts.guard.x",
    ]
    assert private_imports(["web"], root=tmp_path) == [
        "web/limits.py:1 imports accounts.guard._rate"
    ]
    assert app_circles(["accounts", "api", "web"], root=tmp_path) == [["accounts", "api", "web"]]
    packages = [tmp_path / name for name in ("accounts", "api", "web")]
    assert project_circles(packages, root=tmp_path) == [
        ["accounts.guard", "api.views", "web.limits"]
    ]


#: the lab's modules bottom up (``rules/lab/__init__.py``): each may import only those before it
LAB_ORDER = [
    "rules.lab.quotas",
    "rules.lab.runner",
    "rules.lab.plans",
    "rules.lab.doctor",
    "rules.lab.jobs",
    "rules.lab.selectors",
    "rules.lab.tasks",
]


def lab_upward_imports(
    order: list[str], package: str = "rules/lab", root: Path = ROOT
) -> list[str]:
    """``module:line imports module`` for every import, inside ``package``, of one of its modules
    that does not come before the importer in ``order``, and every module ``order`` leaves out."""
    prefix = package.replace("/", ".")
    paths = {module_name(path, root): path for path in (root / package).rglob("*.py")}
    found = []
    for name, path in sorted(paths.items()):
        if name == prefix:
            continue
        if name not in order:
            found.append(f"{name} has no place in the lab's import order")
            continue
        below = set(order[: order.index(name)])
        for line, target in sorted(imports(path, root)):
            # ``from rules.lab.plans import JobPlan`` also yields ``rules.lab.plans.JobPlan``
            if target in paths and target != prefix and target not in below:
                found.append(f"{name}:{line} imports {target}")
    return found


def test_the_lab_imports_in_no_circle() -> None:
    assert import_circles(ROOT / "rules" / "lab") == []


def test_the_lab_imports_only_downwards() -> None:
    assert lab_upward_imports(LAB_ORDER) == []


def lab_breach(module: str) -> bool:
    """An import of the lab, which only the surfaces above it may make."""
    return module == "rules.lab" or module.startswith("rules.lab.")


#: everything of ``rules`` below the lab: the pure layer (engines, agents, simulation and the
#: figures of metagames, gauntlets and ladders) and the Django side the lab builds on (models,
#: services, matchups, adapters, play ...); the management commands sit above the lab
BELOW_THE_LAB = sorted(
    path
    for path in (ROOT / "rules").rglob("*.py")
    if not {"lab", "management", "migrations"} & set(path.relative_to(ROOT / "rules").parts)
)


def test_nothing_of_rules_below_the_lab_imports_it() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in BELOW_THE_LAB}
    assert {"rules/simulation.py", "rules/engines/core/api.py", "rules/agents/__init__.py"} <= names
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in BELOW_THE_LAB
        for line, module in sorted(imports(path))
        if lab_breach(module)
    ]
    assert found == []


def test_the_pure_layer_imports_no_lab() -> None:
    # the engines, the agents and the simulation run in workers, tests and benchmarks alike
    assert breaches("rules/engines", lab_breach) == []
    assert breaches("rules/agents", lab_breach) == []
    simulation = ROOT / "rules" / "simulation.py"
    assert [module for _, module in imports(simulation) if lab_breach(module)] == []


def test_the_lab_checkers_see_an_upward_import_and_a_lab_import_below(tmp_path: Path) -> None:
    # given a lab whose plans reach up to the jobs lazily, and an engine that imports the lab
    lab = tmp_path / "rules" / "lab"
    lab.mkdir(parents=True)
    (lab / "__init__.py").write_text("")
    (lab / "plans.py").write_text("def later():\n    from rules.lab import jobs\n")
    (lab / "jobs.py").write_text("from rules.lab.plans import later\n")
    (lab / "extra.py").write_text("")
    engine = tmp_path / "rules" / "engines" / "probe.py"
    engine.parent.mkdir()
    engine.write_text("from rules.lab.jobs import later\n")
    # when each is checked, then each breach is reported, and the import downwards is not
    order = ["rules.lab.plans", "rules.lab.jobs"]
    assert lab_upward_imports(order, root=tmp_path) == [
        "rules.lab.extra has no place in the lab's import order",
        "rules.lab.plans:2 imports rules.lab.jobs",
    ]
    assert breaches("rules/engines", lab_breach, root=tmp_path) == [
        "rules/engines/probe.py:1 imports rules.lab.jobs",
        "rules/engines/probe.py:1 imports rules.lab.jobs.later",
    ]
