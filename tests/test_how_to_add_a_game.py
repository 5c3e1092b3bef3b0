"""docs/engines.md, *How to add a game*, and the game contract cannot drift apart.

The section begins with ``manage.py startgame``; its checklist names every obligation by a
check id, and those ids are exactly the checks ``check_game`` and ``check_game_wiring`` run;
every piece the section's table lists is a file ``startgame`` writes.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.contract import wiring_checks
from rules.engines.core.contract import pure_checks
from rules.scaffold import game_names, skeleton_paths

ROOT = Path(__file__).resolve().parents[1]
SECTION = (
    (ROOT / "docs" / "engines.md")
    .read_text(encoding="utf-8")
    .split("## How to add a game\n", 1)[1]
    .split("\n## ", 1)[0]
)
CHECKLIST_ITEM = re.compile(r"^- \[ \] `([a-z-]+)`:", re.MULTILINE)


def test_the_section_begins_with_startgame() -> None:
    first_paragraph = SECTION.strip().split("\n\n", 1)[0]
    assert first_paragraph.startswith("Start with `manage.py startgame <slug>")


def test_every_obligation_listed_is_a_check_and_every_check_is_listed() -> None:
    listed = CHECKLIST_ITEM.findall(SECTION)
    assert len(listed) == len(set(listed)), "an obligation is listed twice"
    assert listed == [*pure_checks(), *wiring_checks()]


def test_the_obligations_the_issue_names_are_on_the_list() -> None:
    listed = set(CHECKLIST_ITEM.findall(SECTION))
    assert {"sample-decks", "narrator", "formats", "rulings"} <= listed
    assert "### Tests to extend" in SECTION


def test_every_piece_in_the_table_is_a_file_startgame_writes() -> None:
    names = game_names("star-duel")
    written = {target.relative_to(ROOT).as_posix() for _, target in skeleton_paths(names, ROOT)}
    rows = re.findall(r"^\| [^|]+ \| (.+) \|$", SECTION, re.MULTILINE)
    folder = ""
    paths = []
    for row in rows:
        for path in re.findall(r"`([^`]+)`", row):
            path = path.replace("<module>", names.module).replace("<slug>", names.slug)
            # a bare file name sits in the folder of the path before it
            path = path if "/" in path else f"{folder}/{path}"
            folder = path.rsplit("/", 1)[0]
            paths.append(path)
    assert len(paths) >= 13
    for path in paths:
        pattern = re.escape(path).replace(r"\*", ".*").replace(re.escape("<code>"), ".*")
        assert any(re.fullmatch(pattern, file) for file in written), path
