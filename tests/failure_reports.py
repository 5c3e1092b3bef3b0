"""A failing test is reported even when Python 3.11 cannot draw its traceback.

pytest draws a failure's traceback with ``ast.parse`` (the statement around each line). CPython
3.11's AST builder keeps its depth count in state every thread shares, and each parse sets it to
its own thread's stack depth first (see CPython gh-106905): a parse in the test's thread while
another thread parses too (the browser tests' live server formatting a traceback: 3.11 parses the
line it underlines) fails with ``SystemError: AST constructor recursion depth mismatch``.
pytest then stopped the whole run with an INTERNALERROR, the failing test unnamed (a CI run of
2026-12-06: 2,120 passed, then nothing). Here the report is drawn again, and, if that fails too,
written without the parser: each frame's file, line and source, then the exception, so the run
goes on and names the test.
"""

from __future__ import annotations

import linecache
import traceback
from collections.abc import Generator

import pytest

AST_RACE = "AST constructor recursion depth mismatch"

NOTE = (
    "(pytest could not draw this traceback: Python's AST builder raced with another thread's,"
    " CPython gh-106905; it is written here without the source parser)"
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    try:
        return (yield)
    except SystemError as exc:
        if AST_RACE not in str(exc) or call.excinfo is None:
            raise
    try:
        return pytest.TestReport.from_item_and_call(item, call)
    except SystemError as exc:
        if AST_RACE not in str(exc):
            raise
    return plain_report(item, call)


def plain_report(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    """The failed report of ``call`` with a traceback drawn without ``ast``: every frame's file,
    line number, function and source line from the test's own file on (pytest's frames before it
    left out, as pytest does), then the exception's type and message."""
    excinfo, when = call.excinfo, call.when
    assert excinfo is not None and when != "collect"
    frames = list(traceback.walk_tb(excinfo.tb))
    own = str(item.path)
    first = next((i for i, (frame, _) in enumerate(frames) if frame.f_code.co_filename == own), 0)
    lines = [NOTE]
    for frame, lineno in frames[first:]:
        code = frame.f_code
        lines.append(f"{code.co_filename}:{lineno}: in {code.co_name}")
        source = linecache.getline(code.co_filename, lineno).strip()
        if source:
            lines.append(f"    {source}")
    lines.append(f"{excinfo.typename}: {excinfo.value}")
    return pytest.TestReport(
        nodeid=item.nodeid,
        location=item.location,
        keywords=dict.fromkeys(item.keywords, 1),
        outcome="failed",
        longrepr="\n".join(lines),
        when=when,
        duration=call.duration,
        start=call.start,
        stop=call.stop,
        user_properties=item.user_properties,
    )
