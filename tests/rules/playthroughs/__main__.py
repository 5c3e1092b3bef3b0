"""Check or rewrite the golden playthroughs (see ``tests/rules/playthroughs/__init__.py``).

    .venv/bin/python -m tests.rules.playthroughs                  # check; print unified diffs
    .venv/bin/python -m tests.rules.playthroughs --write          # rewrite every kept file
    .venv/bin/python -m tests.rules.playthroughs --write --game reign-absolute
    .venv/bin/python -m tests.rules.playthroughs --write --fresh --game reign-absolute

``--write`` keeps each game's cases (the file names) and gives a game without files new ones;
``--fresh`` drops the game's files and picks its cases again. Without ``--write`` the exit
status is 1 when a file differs from the game played now or a game has no file.
"""

from __future__ import annotations

import argparse
import sys

from rules.engines.core import registered_games
from tests.rules.playthroughs import (
    FOLDER,
    REGENERATE,
    Case,
    cases,
    diff,
    pick_cases,
    play,
    stray_files,
    write,
)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tests.rules.playthroughs", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the files on purpose")
    parser.add_argument("--fresh", action="store_true", help="with --write: pick new cases")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    options = parser.parse_args(argv)
    known = registered_games()
    slugs = options.game or known
    unknown = sorted(set(slugs) - set(known))
    if unknown:
        parser.error(f"no game {', '.join(unknown)} (known: {', '.join(known)})")
    if options.fresh and not options.write:
        parser.error("--fresh goes with --write")
    if options.write:
        return _write(slugs, fresh=options.fresh)
    return _check(slugs, known)


def _write(slugs: list[str], *, fresh: bool) -> int:
    total = 0
    for slug in slugs:
        kept = cases(slug)
        if fresh:
            for case in kept:
                (FOLDER / case.filename).unlink()
            kept = []
        made: list[tuple[Case, str]] = (
            [(case, play(case)) for case in kept] if kept else pick_cases(slug)
        )
        for case, text in made:
            path = write(case, text)
            size = path.stat().st_size
            total += size
            print(f"wrote {path.relative_to(FOLDER.parents[2])} ({size / 1000:.0f} KB)")
    print(f"{total / 1000:.0f} KB written")
    return 0


def _check(slugs: list[str], known: list[str]) -> int:
    failed: list[str] = []
    for slug in slugs:
        kept = cases(slug)
        if not kept:
            failed.append(slug)
            print(f"{slug}: no golden playthrough; create them with `{REGENERATE} --game {slug}`")
        for case in kept:
            text = diff(case)
            if text:
                failed.append(slug)
                sys.stdout.write(text)
            else:
                print(f"{case.filename}: unchanged")
    for path in stray_files(known):
        print(f"{path.name}: not a playthrough of a registered game (delete it by hand)")
    if failed:
        games = " ".join(f"--game {slug}" for slug in dict.fromkeys(failed))
        print(f"\nIf the change is intended, regenerate on purpose: {REGENERATE} {games}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
