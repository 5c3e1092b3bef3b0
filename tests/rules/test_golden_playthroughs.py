"""Golden playthroughs: every registered game, played again from each kept file's case, must
write the same text as the file (``tests/rules/playthroughs/``; docs/engines.md, *Golden
playthroughs*). A change of behaviour fails here with a short unified diff; if it is intended,
regenerate the files on purpose and review their diff:

    .venv/bin/python -m tests.rules.playthroughs --write [--game SLUG]
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.engines.core import registered_games
from tests.rules import playthroughs
from tests.rules.playthroughs import REGENERATE, Case

#: reviewable files: at most this much text per file, and in all
MAX_FILE_BYTES = 300_000
MAX_TOTAL_BYTES = 2_000_000
DIFF_LINES = 40


@pytest.mark.parametrize("slug", registered_games())
def test_each_game_plays_its_golden_playthroughs_again(slug: str) -> None:
    kept = playthroughs.cases(slug)
    assert kept, (
        f"{slug} has no golden playthrough in {playthroughs.FOLDER}; create them with "
        f"`{REGENERATE} --game {slug}`, read them and commit them"
    )
    diffs = [text for case in kept if (text := playthroughs.diff(case, limit=DIFF_LINES))]
    if diffs:
        pytest.fail(
            "".join(diffs)
            + f"\nThe {slug} engine now plays differently from its golden playthroughs. If the "
            f"change is intended, regenerate on purpose with `{REGENERATE} --game {slug}` and "
            "review the files' diff.",
            pytrace=False,
        )


@pytest.mark.parametrize("slug", registered_games())
def test_a_playthrough_is_a_pure_function_of_its_case(slug: str) -> None:
    case = (playthroughs.cases(slug) or [Case(slug, 0, 0)])[0]
    random.seed(1)
    first = playthroughs.play(case)
    random.seed(999)
    [random.random() for _ in range(1000)]
    second = playthroughs.play(case)
    assert first == second
    assert f"seed: {case.seed}\n" in first


def test_every_kept_file_is_a_playthrough_of_a_registered_game() -> None:
    stray = playthroughs.stray_files(registered_games())
    assert stray == [], f"delete or rename: {[path.name for path in stray]}"


def test_the_kept_files_stay_reviewable() -> None:
    sizes = {path.name: path.stat().st_size for path in playthroughs.FOLDER.glob("*.txt")}
    too_big = {name: size for name, size in sizes.items() if size > MAX_FILE_BYTES}
    assert not too_big, (
        f"golden playthroughs over {MAX_FILE_BYTES} bytes: {too_big}; pick shorter games with "
        f"`{REGENERATE} --fresh --game SLUG`"
    )
    assert sum(sizes.values()) <= MAX_TOTAL_BYTES


def test_a_changed_line_fails_with_a_diff_naming_it(tmp_path: Path) -> None:
    # given a kept playthrough whose action line was edited
    case = Case(registered_games()[0], 0, 0)
    text = playthroughs.play(case)
    action = next(line for line in text.splitlines() if line.startswith("  action: "))
    playthroughs.write(case, text.replace(action, "  action: resign", 1), tmp_path)
    # when it is compared with the game played now
    found = playthroughs.diff(case, tmp_path, limit=DIFF_LINES)
    # then the diff shows the kept line and the played one
    assert "-  action: resign\n" in found
    assert f"+{action}\n" in found
    assert playthroughs.diff(case, tmp_path, limit=3).endswith("more diff lines\n")
    # and the same text kept unchanged compares equal
    playthroughs.write(case, text, tmp_path)
    assert playthroughs.diff(case, tmp_path) == ""


def test_a_game_without_files_has_no_cases(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a playthrough\n", encoding="utf-8")
    slug = registered_games()[0]
    assert playthroughs.cases(slug, tmp_path) == []
    assert playthroughs.stray_files([slug], tmp_path) == [tmp_path / "notes.txt"]


def test_a_case_reads_back_from_its_file_name() -> None:
    case = Case("reign-absolute", 2, 28)
    assert case.filename == "reign-absolute-setup2-seed28.txt"
    assert Case.from_filename(case.filename) == case
    assert Case.from_filename("reign-absolute-2.txt") is None


def test_observation_changes_name_what_changed() -> None:
    before = playthroughs.flatten(
        {"turn": 1, "hand": ["a", "b"], "board": [{"id": 1, "hp": 5}, {"id": 2, "hp": 3}]}
    )
    after = playthroughs.flatten(
        {"turn": 2, "board": [{"id": 1, "hp": 4}, {"id": 2, "hp": 3}, {"id": 3, "hp": 9}]}
    )
    assert list(playthroughs.changes(before, after)) == [
        'board[0] = {"hp": 4, "id": 1}',
        'board +[2] {"hp": 9, "id": 3}',
        "turn = 2",
        "- hand",
    ]
    assert list(playthroughs.changes(after, before))[:2] == [
        'board[0] = {"hp": 5, "id": 1}',
        'board -[2] {"hp": 9, "id": 3}',
    ]
    assert list(playthroughs.changes(after, after)) == []
    nested = playthroughs.plain({"p": [{"a": {"b": (1, {3, 2})}}]})
    assert playthroughs.flatten(nested) == {"p[0].a.b": "[1, [2, 3]]"}
