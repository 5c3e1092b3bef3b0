"""``manage.py validate_decks``: verdicts, every violation, a summary, and exit codes 0/1/2."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.decks.conftest import RNR, SAMPLES_DIR

pytestmark = pytest.mark.django_db
RNR_SAMPLES = SAMPLES_DIR / RNR


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("validate_decks", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        assert isinstance(exc.code, int)
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_all_legal_files_exit_zero_with_a_summary():
    code, out, _ = run("--game", RNR, str(RNR_SAMPLES / "legal-eagle-control.txt"))

    assert code == 0
    assert "legal-eagle-control.txt: LEGAL (60 cards)" in out
    assert out.strip().endswith("1 deck(s): 1 legal, 0 illegal, 0 unreadable")


def test_a_folder_with_an_illegal_deck_exits_one_and_lists_every_violation():
    code, out, _ = run("--game", RNR, "--as-of", "2026-10-01", str(RNR_SAMPLES))

    assert code == 1
    assert "illegal-rights-cap.txt: ILLEGAL (60 cards)" in out
    assert (
        "  - [rights-cap] Rights cap: 13 Rights cards, the rulebook allows 12 (Rights Cards)" in out
    )
    assert "[banned] Banned: Writs of Assistance" in out  # the file's own "# format: standard"
    legal = len(list(RNR_SAMPLES.glob("legal-*.txt")))
    illegal = len(list(RNR_SAMPLES.glob("illegal-*.txt")))
    assert out.strip().endswith(
        f"{legal + illegal} deck(s): {legal} legal, {illegal} illegal, 0 unreadable"
    )


def test_unreadable_input_exits_two(tmp_path: Path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2 Stamp Act\n0 Tea Act\n")

    code, out, _ = run("--game", RNR, str(bad), str(RNR_SAMPLES / "illegal-bill-cap.txt"))

    assert code == 2
    assert "bad.txt: UNREADABLE" in out
    assert "  ! line 2: quantity 0 is not between 1 and 999" in out
    assert "1 illegal, 1 unreadable" in out


def test_a_missing_file_and_an_unknown_game_exit_two(tmp_path: Path):
    assert run("--game", RNR, str(tmp_path / "nope.txt"))[0] == 2
    code, _, err = run("--game", "chess", str(RNR_SAMPLES))
    assert code == 2
    assert "unknown game 'chess'" in err


def test_an_unknown_format_on_the_command_line_exits_two():
    code, _, err = run(
        "--game", RNR, "--format", "modern", str(RNR_SAMPLES / "legal-eagle-control.txt")
    )

    assert code == 2
    assert "no format 'modern'" in err


def test_json_output_holds_every_report(tmp_path: Path):
    code, out, _ = run(
        "--game",
        RNR,
        "--json",
        str(RNR_SAMPLES / "legal-eagle-control.txt"),
        str(RNR_SAMPLES / "illegal-ua-count.txt"),
    )
    data = json.loads(out)

    assert code == 1
    assert data["summary"] == {"decks": 2, "legal": 1, "illegal": 1, "unreadable": 0}
    assert data["results"][1]["report"]["violations"][0]["code"] == "ua-count"


def test_csv_output_has_one_row_per_violation(tmp_path: Path):
    target = tmp_path / "verdicts.csv"

    run("--game", RNR, "--csv", str(target), str(RNR_SAMPLES / "illegal-duplicate-names.txt"),
        str(RNR_SAMPLES / "legal-eagle-control.txt"))  # fmt: skip

    rows = list(csv.DictReader(target.open()))
    assert [(r["verdict"], r["code"]) for r in rows] == [
        ("illegal", "duplicate-names"),
        ("legal", ""),
    ]
    assert rows[0]["cards"].count(";") == 4


def test_other_games_and_variants_from_the_command_line():
    code, out, _ = run("--game", "rival-realms", str(SAMPLES_DIR / "rival-realms"))

    assert code == 1
    assert "[copies-in-set]" in out


def test_an_unmigrated_database_gets_a_clear_message_not_a_traceback(tmp_path):
    empty = tmp_path / "never-migrated.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{empty}"}
    result = subprocess.run(
        [sys.executable, "manage.py", "validate_decks", "--game", RNR, str(RNR_SAMPLES)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "the card database is not ready" in result.stderr
    assert "make data" in result.stderr
