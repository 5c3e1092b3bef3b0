"""The strength ladder of a game's agents, without Django (``rules.ladder``).

    .venv/bin/python bench/ladder.py --game revolt-n-reign --games 40 --jobs 2
    .venv/bin/python bench/ladder.py --game rival-realms --agents 'team,random,mcts(iterations=200)'
    .venv/bin/python bench/ladder.py --game reign-absolute --games 200 --jobs 2 --publish

Every entrant (by default every agent the game offers, random included) plays every other
``--games`` games over the game's sample decks seating two, decks mirrored and seats balanced
(a co-operative game: each entrant's team against the game). It prints Bradley-Terry ratings
on the Elo scale (random = 0) with 95% intervals, CPU per decision (mean, p95) and each
pairing's score, draws and turn-limit endings. ``--publish`` stores the ladder the pages show
(``rules/ladders/<game>.json``) and its table in ``docs/agents.md``. Run long ladders with
``nice -n 10``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.ladder import add_arguments, run_ladder


def main(argv: Sequence[str] | None = None) -> None:
    """Play the ladder asked for and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    options = parser.parse_args(argv)
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        run_ladder(
            options, "bench/ladder.py " + " ".join(words), lambda line: print(line, flush=True)
        )
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
