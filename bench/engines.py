"""Engine speed on one core: random playouts per engine, solver nodes/s, python-chess as anchor.

    .venv/bin/python bench/engines.py [--seconds 2]

Prints figures only (nothing is asserted). The anchor is python-chess's perft(3) from the start
position (8,902 leaves): our random-playout actions/s are printed as a ratio to its nodes/s, so
numbers from different machines can be compared.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
        start = time.perf_counter()
        nodes = perft(chess.Board(), 3)
        best = max(best, nodes / (time.perf_counter() - start))
    return nodes, best


def playout_rate(slug: str, seconds: float) -> tuple[int, int, float]:
    """Play seeded random games for about ``seconds``; return (games, actions, elapsed)."""
    game = get_game(slug)
    setup = game.example_setups()[0]
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(games, setup).quiet()
        agent = RandomAgent(games)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance())
            else:
                state.apply_unchecked(agent.act(state))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def solver_rate(seconds: float) -> str:
    """Solve a fixed four-empty Regality vs Religion position with the reference decision-level
    solver and with the turn-level fast solver the command uses (both time-boxed)."""
    from rules.engines.regality_vs_religion.solver import Solver, make_solver

    game = get_game("regality-vs-religion")
    lines = []
    for label, build in (
        ("reference solver", lambda s: Solver(time_limit=max(seconds * 30, 60))),
        ("fast solver", lambda s: make_solver(s, time_limit=max(seconds * 30, 60))),
    ):
        state = game.new_initial_state(0, {"variant": "old-style", "position": SOLVER_POSITION})
        solution = build(state).solve(state)
        outcome = f"{solution.winner} by {solution.margin}" if solution.complete else "unfinished"
        lines.append(
            f"rvr {label} (4 empty cells): {outcome}, {solution.nodes} nodes in "
            f"{solution.seconds:.2f} s = {solution.nodes_per_second:,.0f} nodes/s"
        )
    return "\n".join(lines)


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="Playout time per engine.")
    parser.add_argument("--no-solver", action="store_true")
    options = parser.parse_args()
    anchor = chess_perft_rate()
    if anchor is None:
        print("python-chess not installed: no anchor (pip install 'chess>=1.11,<2')")
    else:
        print(f"python-chess perft(3): {anchor[0]} leaves, {anchor[1]:,.0f} nodes/s (anchor)")
    for slug in registered_games():
        games, actions, elapsed = playout_rate(slug, options.seconds)
        line = f"{slug:24s} {games / elapsed:9.1f} games/s {actions / elapsed:11,.0f} actions/s"
        if anchor is not None:
            line += f"   ratio to chess perft: {actions / elapsed / anchor[1]:.3f}"
        print(line)
    if not options.no_solver:
        print(solver_rate(options.seconds))


if __name__ == "__main__":
    main()
