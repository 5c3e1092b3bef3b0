"""Benchmark: the Revolt N Reign engine; print random games/s, actions/s and search speeds.

    .venv/bin/python bench/revolt_n_reign.py [--games 300] [--seed 1] [--mcts-moves 10]

Random games use the three legal sample decks in turn (the conformance setups). "search loop"
games run the way agents and simulations drive the engine (``quiet()`` states,
``apply_unchecked``); "checked" games use ``apply`` (legality checked) with the event log on.
Pure Python, no database. Figures only, never a pass/fail timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def random_games(games: int, seed: int, checked: bool) -> tuple[float, float, float]:
    """Return (games/s, actions/s, mean actions per game) for uniformly random play."""
    from rules.engines.core import Rng, get_game

    game = get_game("revolt-n-reign")
    setups = game.example_setups()
    actions = 0
    start = time.perf_counter()
    for index in range(games):
        state = game.new_initial_state(seed + index, setups[index % len(setups)])
        rng = Rng(seed + index)
        if not checked:
            state.quiet()
        while not state.is_terminal():
            choice = rng.choice(state.legal_actions())
            if checked:
                state.apply(choice)
            else:
                state.apply_unchecked(choice)
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, actions / games


def copies_per_second(seed: int, count: int = 20000) -> tuple[float, float]:
    """Return (clones/s, determinisations/s) on a mid-game position."""
    from rules.engines.core import Rng, get_game

    game = get_game("revolt-n-reign")
    state = game.new_initial_state(seed, game.example_setups()[0])
    rng = Rng(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    start = time.perf_counter()
    for _ in range(count):
        state.clone()
    clones = count / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(count):
        state.determinise(0, rng)
    return clones, count / (time.perf_counter() - start)


def mcts_decisions(moves: int, seed: int, iterations: int, full_rollouts: bool = False) -> float:
    """Return MCTS decisions/s (``iterations`` determinised playouts each) against random play.

    By default the agent uses the engine's search hooks (rollout policy, cut-off after
    ``rollout_turns()`` turn changes, ``rollout_value``); ``full_rollouts`` measures the plain
    agent: uniform random rollouts to the end of the game.
    """
    from rules.agents import MCTSAgent, RandomAgent
    from rules.engines.core import get_game

    game = get_game("revolt-n-reign")
    state = game.new_initial_state(seed, game.example_setups()[0])
    options: dict[str, Any] = (
        {"rollout_turns": None, "rollout_policy": False} if full_rollouts else {}
    )
    agents = [MCTSAgent(seed=seed, iterations=iterations, **options), RandomAgent(seed=seed)]
    decided = 0
    spent = 0.0
    while not state.is_terminal() and decided < moves:
        player = state.current_player()
        start = time.perf_counter()
        action = agents[player].act(state)
        if player == 0:
            spent += time.perf_counter() - start
            decided += 1
        state.apply(action)
    return decided / spent if spent else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mcts-moves", type=int, default=10)
    parser.add_argument("--mcts-iterations", type=int, default=100)
    args = parser.parse_args()
    rate, actions, length = random_games(args.games, args.seed, checked=False)
    print(f"random games (search loop): {rate:8.1f} games/s {actions:9.0f} actions/s")
    print(f"  mean game length:         {length:8.1f} actions")
    rate, actions, _ = random_games(max(1, args.games // 3), args.seed, checked=True)
    print(f"random games (checked):     {rate:8.1f} games/s {actions:9.0f} actions/s")
    clones, determinised = copies_per_second(args.seed)
    print(f"clone:                      {clones:8.0f} /s")
    print(f"determinise:                {determinised:8.0f} /s")
    decisions = mcts_decisions(args.mcts_moves, args.seed, args.mcts_iterations)
    print(f"MCTS ({args.mcts_iterations} iterations):      {decisions:8.2f} decisions/s")
    decisions = mcts_decisions(args.mcts_moves, args.seed, args.mcts_iterations, True)
    print(f"  full random rollouts:     {decisions:8.2f} decisions/s")


if __name__ == "__main__":
    main()
