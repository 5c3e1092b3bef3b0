"""The compiled engines (rules/compiled.py) behave exactly as the Python they are built from.

The differential test needs a compiled build that matches the source (``make install`` makes one
where a C compiler is); without one it is skipped and says so. The other tests hold for both.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import compiled
from tests.rules.differential import run_scripts

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "rules" / "differential.py"


@pytest.mark.slow
@pytest.mark.skipif(
    not compiled.fresh_build(),
    reason="no compiled build of the engines matching their source (make install builds one "
    "where a C compiler is present)",
)
def test_compiled_and_python_engines_play_byte_identical_games() -> None:
    (compiled_header, compiled_games), (python_header, python_games) = run_scripts(
        SCRIPT, ["compiled", "python"]
    )
    assert compiled_header == {"engines": "compiled"}
    assert python_header["engines"].startswith("python")
    # every game, every agent it offers: 5 games, 18 agents in all
    played = {(json.loads(line)["game"], json.loads(line)["agent"]) for line in python_games}
    assert len({game for game, _ in played}) == 5
    assert len(played) == len(python_games) >= 18
    for compiled_line, python_line in zip(compiled_games, python_games, strict=True):
        if compiled_line != python_line:
            ours, theirs = json.loads(compiled_line), json.loads(python_line)
            where = next(
                (
                    index
                    for index, (a, b) in enumerate(
                        zip(ours["actions"], theirs["actions"], strict=False)
                    )
                    if a != b
                ),
                None,
            )
            pytest.fail(
                f"{theirs['game']} with {theirs['agent']}: the builds part at action {where} "
                f"(compiled {ours['actions'][where] if where is not None else '...'}, python "
                f"{theirs['actions'][where] if where is not None else '...'}); results "
                f"{ours['returns']} and {theirs['returns']}"
            )


def test_a_process_told_to_run_python_loads_no_compiled_module() -> None:
    env = {**os.environ, compiled.ENV: "python"}
    code = (
        "import rules.engines.core.api as api, rules.agents.mcts as mcts, rules.compiled as c;"
        "print(api.__file__, mcts.__file__, c.chosen, sep='|')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    api_file, mcts_file, chosen = done.stdout.strip().split("|")
    assert api_file.endswith("api.py") and mcts_file.endswith("mcts.py")
    assert chosen.startswith("python")


def test_only_a_build_of_this_very_source_runs_and_pure_python_when_asked() -> None:
    digest = compiled.source_digest()
    # a fresh build runs by default (and when asked for by name)
    assert compiled.python_reason(True, "", digest, digest) is None
    assert compiled.python_reason(True, "compiled", digest, digest) is None
    stale = compiled.python_reason(True, "", "0" * 64, digest)
    assert stale is not None and "older than the engines' source" in stale
    assert "no compiled build" in (compiled.python_reason(False, "", None, digest) or "")
    # pure Python when asked for, whatever the build
    assert "=python asks for it" in (compiled.python_reason(True, "python", digest, digest) or "")
    assert "=python" in (compiled.python_reason(True, "PYTHON", digest, digest) or "")


def test_editing_an_engine_changes_the_digest_a_build_is_checked_against(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = tmp_path / "rules" / "engines" / "game.py"
    engine.parent.mkdir(parents=True)
    engine.write_text("LIMIT = 1\n")
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    monkeypatch.setattr(compiled, "sources", lambda: [engine])
    before = compiled.source_digest()
    engine.write_text("LIMIT = 2\n")
    assert compiled.source_digest() != before


def test_the_build_falls_back_to_python_without_a_compiler(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(compiled, "STAMP", tmp_path / "stamp.json")
    monkeypatch.delenv(compiled.ENV, raising=False)
    monkeypatch.setattr(compiled, "_compiler", lambda: None)
    monkeypatch.setattr(compiled, "clean", lambda: pytest.fail("nothing may be removed"))
    assert compiled.build(force=True) == 0
    assert "no C compiler found; the engines run as pure Python" in capsys.readouterr().out


def test_ci_can_refuse_a_failed_build_that_fell_back_to_python(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``manage.py engines --strict`` (CI) fails on a failed build of this very source, and only
    then: a build of other source, or none tried, is not this source's failure."""
    from django.core.management import CommandError, call_command

    stamp = tmp_path / "stamp.json"
    monkeypatch.setattr(compiled, "STAMP", stamp)
    digest = compiled.source_digest()
    stamp.write_text(json.dumps({"source": digest, "failed": True}))
    with pytest.raises(CommandError, match="compiled build of this source failed"):
        call_command("engines", "--info", "--strict", stdout=io.StringIO())
    call_command("engines", "--info", stdout=io.StringIO())  # without --strict it only reports
    stamp.write_text(json.dumps({"source": "0" * 64, "failed": True}))
    call_command("engines", "--info", "--strict", stdout=io.StringIO())
    stamp.unlink()
    call_command("engines", "--info", "--strict", stdout=io.StringIO())
