"""Seeded games of every game with every agent it offers, printed as JSON game records.

    python tests/rules/differential.py [--games N]

``test_compiled_engines.py`` runs it on the compiled engines and as pure Python
(``DECKWRIGHT_ENGINES=python``), both at once, and requires the two outputs to be identical byte for byte. Each
agent plays every seat of its games with the web's options for the game, its search sizes cut to
a quarter (``differential_options``: the same code searching smaller trees, a game to the end in
a fraction of the time; search budgets are counted in nodes and playouts, never in seconds, so
both builds search the same trees); the seeds and sample decks are fixed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import compiled
from rules.agents import make_agent, web_options
from rules.engines.core import GamePlugin, find_plugin, get_game, registered_games
from rules.simulation import game_record, play_out

ROOT = Path(__file__).resolve().parents[2]

#: a test that spies on an engine's or agent's method by replacing it on the class: a compiled
#: class's methods cannot be replaced, so it runs on the pure-Python build only (CI runs the
#: suite pure Python on one database), while this module holds the compiled build to the same
#: games
spies_on_methods = pytest.mark.skipif(
    compiled.chosen == "compiled",
    reason="a spy cannot replace a compiled class's method; test_compiled_engines.py holds the "
    "compiled build to the same games as the pure-Python one",
)


def run_scripts(
    script: Path, builds: Sequence[str | None]
) -> list[tuple[dict[str, str], list[str]]]:
    """Run a differential ``script`` once on each of ``builds`` ("compiled", "python", or None
    for the default), each in its own process (the build is chosen as a process starts), all at
    once (a core each where there are two); for each build, the JSON header it printed first
    (which build ran) and its other lines."""
    with ExitStack() as stack:
        running = []
        for build in builds:
            env = {key: value for key, value in os.environ.items() if key != compiled.ENV}
            if build is not None:
                env[compiled.ENV] = build
            # files, not pipes: a process whose pipe filled would wait for the one read first
            out = stack.enter_context(tempfile.TemporaryFile("w+"))
            err = stack.enter_context(tempfile.TemporaryFile("w+"))
            process = subprocess.Popen(
                [sys.executable, str(script)], cwd=ROOT, env=env, stdout=out, stderr=err, text=True
            )
            running.append((process, out, err))
        printed = []
        for process, out, err in running:
            returncode = process.wait()
            out.seek(0)
            err.seek(0)
            assert returncode == 0, err.read()
            header, *lines = out.read().splitlines()
            printed.append((json.loads(header), lines))
    return printed


#: the options an agent's search size is counted in (playouts, nodes, sampled deals and plans,
#: replies played on): the differential plays a quarter of the web's, and at least 2 of each so
#: that every loop over them still runs more than once
SEARCH_SIZES = frozenset({"iterations", "max_nodes", "samples", "plan_nodes", "replies"})


def differential_options(name: str, plugin: GamePlugin | None) -> dict[str, Any]:
    """Agent ``name``'s web options for ``plugin``'s game, each search size a quarter of it."""
    return {
        key: max(2, value // 4) if key in SEARCH_SIZES and type(value) is int else value
        for key, value in web_options(name, plugin).items()
    }


def records(games: int) -> list[dict[str, object]]:
    played = []
    for slug in sorted(registered_games()):
        engine = get_game(slug)
        plugin = find_plugin(slug)
        setup = engine.example_setups()[0]
        players = engine.num_players(setup)
        for name in plugin.matchup_agents if plugin is not None else ("random",):
            options = differential_options(name, plugin)
            for index in range(games):
                seed = 1000 * index + 17
                state = engine.new_initial_state(seed, setup)
                play_out(
                    state, [make_agent(name, seed + seat, **options) for seat in range(players)]
                )
                record = game_record(engine, index, seed, setup, state, list(range(players)))
                played.append({"agent": name, **record})
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game and agent")
    options = parser.parse_args()
    print(json.dumps({"engines": compiled.chosen}))
    for record in records(options.games):
        print(json.dumps(record, sort_keys=True))


if __name__ == "__main__":
    main()
