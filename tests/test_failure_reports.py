"""A failing test is named and its traceback shown even when Python's AST builder fails under
pytest (``tests.failure_reports``): a run of a small test file in a fresh pytest, where the
failures' tracebacks meet an ``ast.parse`` that raises the SystemError of CPython's race."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.failure_reports import AST_RACE, NOTE

REPO = Path(__file__).resolve().parent.parent

TESTS = f'''
import ast

import pytest

REAL_PARSE = ast.parse


@pytest.fixture
def parse_fails(request):
    """ast.parse raises the race's SystemError the given number of times (-1: always) until the
    test's teardown, which comes after its failure is reported."""
    left = [request.param]

    def parse(*args, **kwargs):
        if left[0] != 0:
            left[0] -= 1
            raise SystemError("{AST_RACE} (before=117, after=80)")
        return REAL_PARSE(*args, **kwargs)

    ast.parse = parse
    yield
    ast.parse = REAL_PARSE


@pytest.mark.parametrize("parse_fails", [1], indirect=True)
def test_fails_once(parse_fails):
    hand = ["Rights", "Freedom"]
    assert len(hand) == 3, "the hand is short"


@pytest.mark.parametrize("parse_fails", [-1], indirect=True)
def test_fails_always(parse_fails):
    deck = ["Bill"] * 13
    assert len(deck) <= 12, "a deck of thirteen Bills"


def test_after_them():
    assert True
'''


def _run(tmp_path: Path, *, guarded: bool) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_cards.py").write_text(textwrap.dedent(TESTS))
    if guarded:
        (tmp_path / "conftest.py").write_text(
            "from tests.failure_reports import pytest_runtest_makereport  # noqa: F401\n"
        )
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env["PYTHONPATH"] = str(REPO)
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider", "-rf"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_the_guard_the_race_stops_the_run(tmp_path):
    # given the failing tests and no guard: pytest's own reporting meets the SystemError
    run = _run(tmp_path, guarded=False)
    # then the run stops with an internal error and never reaches the test after them
    assert run.returncode == 3, run.stdout[-2000:]
    assert "INTERNALERROR" in run.stdout + run.stderr
    assert "1 passed" not in run.stdout


def test_the_guard_names_each_failure_and_the_run_goes_on(tmp_path):
    # given the same tests under the guard
    run = _run(tmp_path, guarded=True)
    out = run.stdout
    # then the run ends normally: two failures named, the test after them run
    assert run.returncode == 1, out[-3000:]
    assert "INTERNALERROR" not in out + run.stderr
    assert "2 failed, 1 passed" in out
    assert "FAILED test_cards.py::test_fails_once[1]" in out
    assert "FAILED test_cards.py::test_fails_always[-1]" in out
    once = out.split("test_fails_once", 1)[1].split("test_fails_always", 1)[0]
    always = out.split("___ test_fails_always", 1)[1].split("=====", 1)[0]
    # and a race that passes is drawn again in pytest's own way (source, message, values)
    assert NOTE not in once
    assert ">       assert len(hand) == 3" in once
    assert "AssertionError: the hand is short" in once
    # and one that lasts is written without the parser: the frame, its line, the exception
    assert NOTE in always
    assert "test_cards.py:" in always and "in test_fails_always" in always
    assert 'assert len(deck) <= 12, "a deck of thirteen Bills"' in always
    assert "AssertionError: a deck of thirteen Bills" in always
    # from the test's own frame on, as pytest draws a traceback
    assert "pluggy" not in always and "_pytest" not in always
