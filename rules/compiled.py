"""The engines compiled from their own source, and the choice between that build and pure Python.

The engines (``rules/engines``: the core and the five games, the solver included), the agents
(``rules/agents``) and the per-deck work of deck validation (``decks/validation``: matching a
decklist to cards, each game's construction rules, a format's lists; not the modules that read
the database) are typed Python that mypyc compiles to C extension modules, built in place beside
their ``.py`` files from those very files: there is no second implementation of any rule.

- ``manage.py engines --build`` (``make install`` runs the same build) compiles them when a C compiler
  and mypyc are present, and otherwise says why the engines stay pure Python; a failed build is
  a message and a log, never a broken install (the partial build is removed).
- ``manage.py engines --info`` says which build is in use.
- At import, ``rules/__init__.py`` calls :func:`choose`: the compiled modules are used only when
  their build stamp matches the source files byte for byte; a stale build (an engine edited
  since) is ignored with a warning, so an edit never runs old code. A fresh build runs by
  default; ``DECKWRIGHT_ENGINES=python`` runs pure Python (CI runs the suite both ways, one
  build on each database). The validation modules are in ``decks``, below this app: Django
  imports every app's package (so this one, and the choice) before any app's models or
  ``ready()``, which are what first import ``decks.validation``; a process that imports them
  before the choice is warned.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

RULES = Path(__file__).resolve().parent
ROOT = RULES.parent
#: the packages compiled, every module in them but those ``LEFT_OUT``
PACKAGES = ("rules/engines", "rules/agents", "decks/validation")
#: modules left interpreted: command-line tools that nothing hot calls; validation's modules that
#: read the database (the entry point, the cached card index and format snapshots)
LEFT_OUT = (
    "rules/engines/regality_vs_religion/solve_tool.py",
    "decks/validation/__init__.py",
    "decks/validation/base.py",
    "decks/validation/formats.py",
    "decks/validation/index.py",
)
STAMP = RULES / ".compiled-build.json"
LOG = ROOT / "var" / "engines-build.log"
#: DECKWRIGHT_ENGINES: "python" for pure Python; anything else (or unset) uses a fresh build
ENV = "DECKWRIGHT_ENGINES"
_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def sources() -> list[Path]:
    """The ``.py`` files that are compiled, sorted."""
    left_out = {ROOT / path for path in LEFT_OUT}
    found = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if path not in left_out and "__pycache__" not in path.parts
    ]
    return sorted(found)


def source_digest() -> str:
    """SHA-256 over the compiled files' paths and contents (and the Python version)."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sources():
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def built_modules() -> list[Path]:
    """Extension files of the build (beside the sources, and the shared library at the root)."""
    found = [
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.name.endswith(_EXTENSION_SUFFIXES)
    ]
    found += [path for path in ROOT.glob("*__mypyc*") if path.name.endswith(_EXTENSION_SUFFIXES)]
    return sorted(found)


def fresh_build() -> bool:
    """True when there is a compiled build, and of this very source."""
    return bool(built_modules()) and _stamp().get("source") == source_digest()


def build_failed() -> bool:
    """Whether the last build tried of this very source failed (the engines then run as Python)."""
    stamp = _stamp()
    return bool(stamp.get("failed")) and stamp.get("source") == source_digest()


def _stamp() -> dict[str, object]:
    try:
        loaded = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds the compiled packages' modules as ``.py`` files, never as extension modules."""

    def __init__(self, packages: Sequence[str]) -> None:
        self.prefixes = tuple(package.replace("/", ".") for package in packages)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not any(fullname == p or fullname.startswith(p + ".") for p in self.prefixes):
            return None
        name = fullname.rpartition(".")[2]
        for folder in path or sys.path:
            package = Path(folder) / name / "__init__.py"
            if package.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, package, submodule_search_locations=[str(package.parent)]
                )
            module = Path(folder) / f"{name}.py"
            if module.is_file():
                return importlib.util.spec_from_file_location(fullname, module)
        return None


#: what this process runs: "compiled", "python" or "python (reason)"
chosen = "python"


def python_reason(has_build: bool, env_value: str, stamp_source: object, digest: str) -> str | None:
    """Why a process must run pure Python, or None when the compiled build runs: the
    environment does not ask for pure Python, there is a build, and it is of this very source."""
    if env_value.lower() == "python":
        return f"{ENV}=python asks for it"
    if not has_build:
        return "no compiled build: make install builds one where a C compiler is"
    if stamp_source != digest:
        return "the compiled build is older than the engines' source: make install"
    return None


def _imported_before_choice() -> list[str]:
    """Compiled modules already imported (which build they came from was not chosen)."""
    prefixes = tuple(package.replace("/", ".") for package in PACKAGES)
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith(prefixes)
        and (getattr(module, "__file__", "") or "").endswith(_EXTENSION_SUFFIXES)
    )


def choose() -> str:
    """Decide, once per process and before any engine is imported, which build runs."""
    global chosen
    if any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        return chosen
    has_build = bool(built_modules())
    reason = python_reason(
        has_build,
        os.environ.get(ENV, ""),
        _stamp().get("source") if has_build else None,
        source_digest() if has_build else "",
    )
    early = _imported_before_choice()
    if early:
        warnings.warn(
            f"{', '.join(early)} imported before the build was chosen: import rules first",
            RuntimeWarning,
            stacklevel=2,
        )
    if reason is None:
        chosen = "compiled"
        return chosen
    chosen = f"python ({reason})"
    if reason.startswith("the compiled build is older"):
        warnings.warn(
            "the compiled engines were built from other source files; running pure Python. "
            "Run `make install` (or manage.py engines --build) to rebuild.",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _SourceOnly(PACKAGES))
    return chosen


def info() -> dict[str, object]:
    """What a user or a page may want to know about the build in use."""
    from decks.validation import resolved
    from rules.engines.core import api

    stamp = _stamp()
    return {
        "in_use": chosen,
        "engine_module": Path(api.__file__ or "").name,
        "validation_module": Path(resolved.__file__ or "").name,
        "compiled_modules": len(built_modules()),
        "source_files": len(sources()),
        "built_at": stamp.get("built_at"),
        "built_with": stamp.get("mypyc"),
        "build_seconds": stamp.get("seconds"),
    }


def _compiler() -> str | None:
    command = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(command)


def clean() -> int:
    """Remove every built extension and the stamp; returns how many files went."""
    gone = 0
    for path in built_modules():
        path.unlink()
        gone += 1
    STAMP.unlink(missing_ok=True)
    return gone


def build(force: bool = False) -> int:
    """Compile the engines in place unless a build of this very source was tried; returns 0
    whether it worked or fell back to pure Python (an install never fails for it)."""
    digest = source_digest()
    stamp = _stamp()
    if not force and stamp.get("source") == digest:
        if stamp.get("failed"):
            print(
                f"Compiled engines: the last build of this source failed (log: "
                f"{LOG.relative_to(ROOT)}); pure Python. manage.py engines --build tries again"
            )
        else:
            print("Compiled engines: up to date with their source")
        return 0
    if os.environ.get(ENV, "").lower() in {"python", "interpreted"}:
        print(f"Compiled engines: not built ({ENV}={os.environ[ENV]}); the engines run as Python")
        return 0
    if _compiler() is None:
        print("Compiled engines: no C compiler found; the engines run as pure Python")
        return 0
    if importlib.util.find_spec("mypyc") is None:
        print("Compiled engines: mypyc is not installed (pip install mypy); pure Python")
        return 0
    clean()
    LOG.parent.mkdir(parents=True, exist_ok=True)
    work = ROOT / "var" / "engines-build"
    targets = [str(path.relative_to(ROOT)) for path in sources()]
    # pyproject's mypy section names modules outside these files: not an error for the build
    flags = ["--no-warn-unused-configs"]
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "setup(name='deckwright-engines', script_args=['build_ext', '--inplace',"
        f" '--build-temp', {str(work / 'temp')!r}, '--parallel', '{os.cpu_count() or 1}'],"
        # one C file per module (not one for all), so the compiler runs on every core
        f" ext_modules=mypycify({flags + targets!r}, opt_level='3', multi_file=True,"
        f" target_dir={str(work)!r}))\n"
    )
    print(f"Compiled engines: compiling {len(targets)} modules with mypyc (a few minutes)...")
    started = time.monotonic()
    with LOG.open("w") as log:
        result = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
    seconds = time.monotonic() - started
    if result.returncode != 0 or not built_modules():
        clean()
        STAMP.write_text(json.dumps({"source": digest, "failed": True}) + "\n")
        print(
            f"Compiled engines: the build failed after {seconds:.0f} s (log: "
            f"{LOG.relative_to(ROOT)}); the engines run as pure Python"
        )
        return 0
    import mypy.version

    STAMP.write_text(
        json.dumps(
            {
                "source": digest,
                "built_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                "mypyc": mypy.version.__version__,
                "seconds": round(seconds),
                "modules": len(built_modules()),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"Compiled engines: {len(built_modules())} extension modules built in {seconds:.0f} s")
    return 0
