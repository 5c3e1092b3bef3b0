"""Engine speed on one core: random playouts per engine, solver nodes/s, python-chess as anchor.

    .venv/bin/python bench/engines.py [--seconds 2] [--builds both|current]

Prints figures only (nothing is asserted); times are CPU seconds of this process
(``time.process_time``), so other work on a shared machine disturbs them less. The anchor is
python-chess's perft(3) from the start position (8,902 leaves): our random-playout actions/s are
printed as a ratio to its nodes/s, so numbers from different machines can be compared. With ``--builds both`` (the default when a
compiled build is there, rules/compiled.py) each build is measured in its own process, the pure
Python one with ``DECKWRIGHT_ENGINES=python``, the anchor measured in each, and a last table
gives compiled / Python per engine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import compiled
from rules.agents import RandomAgent
from rules.engines.core import CHANCE, get_game, registered_games

SOLVER_POSITION = (
    "b1=king/reg c1=temple/rel a2=hierophant/rel c2=citizen/reg!reg c3=princess/reg | "
    "queen,minister,general,wizard,castle | cardinal,saint,bishop,paladin,monk | - | rel"
)


def chess_perft_rate() -> tuple[int, float] | None:
    """Return (nodes, nodes per second) of python-chess perft(3), or None if it is missing."""
    try:
        import chess
    except ImportError:
        return None

    def perft(board: chess.Board, depth: int) -> int:
        if depth == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    # Perft speed is quoted as leaves per second, as python-chess's own perft example does.
    best = 0.0
    nodes = 0
    for _ in range(3):
        start = time.process_time()
        nodes = perft(chess.Board(), 3)
        best = max(best, nodes / (time.process_time() - start))
    return nodes, best


def playout_rate(slug: str, seconds: float) -> tuple[int, int, float]:
    """Play seeded random games for about ``seconds``; return (games, actions, elapsed)."""
    game = get_game(slug)
    setup = game.example_setups()[0]
    games = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state(games, setup).quiet()
        agent = RandomAgent(games)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply_unchecked(agent.act(state))
            actions += 1
        games += 1
    return games, actions, time.process_time() - start


def solver_rate(seconds: float) -> str:
    """Solve a fixed four-empty Regality vs Religion position with the reference decision-level
    solver and with the turn-level fast solver the command uses (both time-boxed)."""
    from rules.engines.regality_vs_religion.game import RvRState
    from rules.engines.regality_vs_religion.solver import Solver, make_solver

    game = get_game("regality-vs-religion")
    lines = []
    for label, build in (
        ("reference solver", lambda s: Solver(time_limit=max(seconds * 30, 60))),
        ("fast solver", lambda s: make_solver(s, time_limit=max(seconds * 30, 60))),
    ):
        state = game.new_initial_state(0, {"variant": "old-style", "position": SOLVER_POSITION})
        assert isinstance(state, RvRState)
        solution = build(state).solve(state)
        outcome = f"{solution.winner} by {solution.margin}" if solution.complete else "unfinished"
        lines.append(
            f"rvr {label} (4 empty cells): {outcome}, {solution.nodes} nodes in "
            f"{solution.seconds:.2f} s = {solution.nodes_per_second:,.0f} nodes/s"
        )
    return "\n".join(lines)


def measure(seconds: float, solver: bool) -> dict[str, Any]:
    """Every figure of the build this process runs."""
    anchor = chess_perft_rate()
    engines = {}
    for slug in registered_games():
        games, actions, elapsed = playout_rate(slug, seconds)
        engines[slug] = {"games_s": games / elapsed, "actions_s": actions / elapsed}
    return {
        "build": compiled.chosen,
        "anchor": anchor[1] if anchor else None,
        "engines": engines,
        "solver": solver_rate(seconds) if solver else "",
    }


def report(figures: dict[str, Any]) -> None:
    anchor = figures["anchor"]
    print(f"== engines: {figures['build']}")
    if anchor is None:
        print("python-chess not installed: no anchor (pip install 'chess>=1.11,<2')")
    else:
        print(f"python-chess perft(3): {anchor:,.0f} nodes/s (anchor)")
    for slug, rate in figures["engines"].items():
        line = f"{slug:24s} {rate['games_s']:9.1f} games/s {rate['actions_s']:11,.0f} actions/s"
        if anchor:
            line += f"   ratio to chess perft: {rate['actions_s'] / anchor:.3f}"
        print(line)
    if figures["solver"]:
        print(figures["solver"])


def add_builds_option(parser: argparse.ArgumentParser) -> None:
    """``--builds both|current`` (both when a compiled build is there), and the hidden
    ``--json`` with which a run of one build hands its figures back."""
    parser.add_argument(
        "--builds",
        choices=("both", "current"),
        default="both" if compiled.built_modules() else "current",
        help="both builds, each in its own process, or only the one this process runs",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)


def figures_of_each_build(argv: list[str]) -> Iterator[dict[str, Any]]:
    """Run this script again with ``argv`` on the compiled build, then on pure Python, each in
    its own process (the build is chosen as a process starts), and yield the figures each
    printed as JSON on its last line."""
    for engines in ("compiled", "python"):
        env = dict(os.environ, **{compiled.ENV: engines})
        command = [sys.executable, sys.argv[0], "--builds", "current", "--json", *argv]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        yield json.loads(done.stdout.splitlines()[-1])


def both_builds_reported(
    argv: list[str], report: Callable[[dict[str, Any]], object]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The figures of the compiled build and of pure Python (``figures_of_each_build``), each
    reported as it comes."""
    runs = []
    for figures in figures_of_each_build(argv):
        runs.append(figures)
        report(figures)
        print()
    return runs[0], runs[1]


def main() -> None:
    """Print every figure, of one build or of both."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="Playout time per engine.")
    parser.add_argument("--no-solver", action="store_true")
    add_builds_option(parser)
    options = parser.parse_args()
    if options.builds == "current":
        figures = measure(options.seconds, not options.no_solver)
        if options.json:
            print(json.dumps(figures))
        else:
            report(figures)
        return
    argv = ["--seconds", str(options.seconds), *(["--no-solver"] if options.no_solver else [])]
    fast, slow = both_builds_reported(argv, report)
    print("== compiled / Python (actions/s), and the compiled build against the anchor")
    for slug, rate in fast["engines"].items():
        ratio = rate["actions_s"] / slow["engines"][slug]["actions_s"]
        anchored = f"{rate['actions_s'] / fast['anchor']:.3f}" if fast["anchor"] else "-"
        print(f"{slug:24s} {ratio:5.2f}x   compiled / chess perft: {anchored}")


if __name__ == "__main__":
    main()
