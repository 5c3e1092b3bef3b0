"""Benchmark: the Revolt N Reign engine; print random games/s, actions/s and search speeds.

    .venv/bin/python bench/revolt_n_reign.py [--games 300] [--seed 1] [--mcts-moves 10]
    .venv/bin/python bench/revolt_n_reign.py --strength 200 [--opponents random,greedy] [--jobs 2]
    .venv/bin/python bench/revolt_n_reign.py --strength 360 --agent greedy --opponents greedy
    .venv/bin/python bench/revolt_n_reign.py --strength 200 --agent plan --web-budget --jobs 2

Random games use the three legal sample decks in turn (the conformance setups). "search loop"
games run the way agents and simulations drive the engine (``quiet()`` states,
``apply_unchecked``); "checked" games use ``apply`` (legality checked) with the event log on.
Pure Python, no database. Figures only, never a pass/fail timing.

``--strength GAMES`` measures playing strength instead: ``make_agent("mcts")`` against each
opponent over GAMES seeded games. Game ``i`` (seed ``seed + i``) uses deck pairing ``i % 9``:
every ordered pair of the three sample decks (MCTS's deck, the opponent's deck, mirrors
included), so each deck is played by both sides equally often; MCTS takes seat 0 and seat 1 in
turn within a pairing. It prints wins, draws and losses with 95% Wilson intervals per opponent,
per pairing and per MCTS deck. Games are independent, so ``--jobs`` spreads them over processes
with the same result. ``--agent`` puts another agent in MCTS's place (``--agent plan``: the
turn-plan search); with the same agent on both sides (``--agent greedy --opponents greedy``)
the run measures the sample decks instead of an agent, and the report adds each deck's win rate
against each other deck over both orientations (the balance figures in ``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
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
    from rules.agents.base import Agent
    from rules.engines.core import get_game

    game = get_game("revolt-n-reign")
    state = game.new_initial_state(seed, game.example_setups()[0])
    options: dict[str, Any] = (
        {"rollout_turns": None, "rollout_policy": False} if full_rollouts else {}
    )
    agents: list[Agent] = [
        MCTSAgent(seed=seed, iterations=iterations, **options),
        RandomAgent(seed=seed),
    ]
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


SAMPLE_DECKS = ("legal-bison-pressure", "legal-eagle-control", "legal-scroll-petitions")
#: (MCTS's deck, the opponent's deck): every ordered pair, mirrors included
PAIRINGS = tuple((mine, theirs) for mine in SAMPLE_DECKS for theirs in SAMPLE_DECKS)


@dataclass(frozen=True)
class StrengthGame:
    """One finished strength game, from the measured agent's side (MCTS unless ``--agent``)."""

    opponent: str
    index: int
    pairing: tuple[str, str]
    seat: int  # the measured agent's
    outcome: int  # +1 the measured agent won, 0 draw, -1 it lost
    reason: str
    turns: int
    seconds: float


def strength_game(
    opponent: str,
    index: int,
    seed: int,
    options: dict[str, Any] | None = None,
    agent: str = "mcts",
) -> StrengthGame:
    """Play strength game ``index``: ``agent`` (``options`` passed to ``make_agent``) against ``opponent``."""
    from rules.agents import make_agent
    from rules.engines.core import get_game
    from rules.engines.revolt_n_reign.game import RevoltNReignGame
    from rules.engines.revolt_n_reign.state import RevoltState

    game = get_game("revolt-n-reign")
    assert isinstance(game, RevoltNReignGame)  # its sample decks
    pairing = PAIRINGS[index % len(PAIRINGS)]
    seat = (index // len(PAIRINGS)) % 2
    decks = [game.sample_deck(pairing[0]), game.sample_deck(pairing[1])]
    if seat == 1:
        decks.reverse()
    game_seed = seed + index
    state = game.new_initial_state(game_seed, {"decks": decks})
    assert isinstance(state, RevoltState)  # its turn count
    mine = make_agent(agent, seed=game_seed, **(options or {}))
    theirs = make_agent(opponent, seed=game_seed + 7919)
    agents = [mine, theirs] if seat == 0 else [theirs, mine]
    start = time.perf_counter()
    while not state.is_terminal():
        state.apply(agents[state.current_player()].act(state))
    winner = state.winner()
    outcome = 0 if winner is None else (1 if winner == seat else -1)
    return StrengthGame(
        opponent,
        index,
        pairing,
        seat,
        outcome,
        state.end_reason(),
        state.turn_count(),
        time.perf_counter() - start,
    )


def web_budget(agent: str) -> dict[str, Any]:
    """The options ``agent`` gets in a web matchup of this game (the shared budget, then the
    plugin's own for it)."""
    from rules.agents import web_options
    from rules.engines.core import plugin_for

    return web_options(agent, plugin_for("revolt-n-reign"))


def strength_games(
    opponents: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    progress: bool = False,
    agent: str = "mcts",
) -> list[StrengthGame]:
    """Play ``games`` games of ``agent`` against each opponent (in ``jobs`` processes)."""
    # interleaved, so that a run cut short still has games against every opponent
    tasks = [
        (opponent, index, seed, options, agent) for index in range(games) for opponent in opponents
    ]
    results: list[StrengthGame] = []
    if jobs <= 1:
        for task in tasks:
            results.append(strength_game(*task))
            if progress:
                _progress(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for future in as_completed([pool.submit(strength_game, *task) for task in tasks]):
            results.append(future.result())
            if progress:
                _progress(results[-1])
    return sorted(results, key=lambda result: (opponents.index(result.opponent), result.index))


def _progress(result: StrengthGame) -> None:
    mark = {1: "W", 0: "D", -1: "L"}[result.outcome]
    print(
        f"  {result.opponent:6} #{result.index:3} {result.pairing[0][6:]:>16} vs "
        f"{result.pairing[1][6:]:<16} seat {result.seat} {mark} {result.reason:16} "
        f"{result.turns:3} turns {result.seconds:6.1f} s",
        flush=True,
    )


def _tally(results: Sequence[StrengthGame]) -> str:
    from rules.simulation import wilson_interval

    wins = sum(r.outcome == 1 for r in results)
    draws = sum(r.outcome == 0 for r in results)
    losses = len(results) - wins - draws
    low, high = wilson_interval(wins, len(results))
    rate = wins / len(results) if results else 0.0
    return (
        f"{wins:3}/{len(results):3} won {rate:6.1%} [95% CI {low:6.1%}-{high:6.1%}], "
        f"{draws} drawn, {losses} lost"
    )


def strength_report(results: Sequence[StrengthGame], agent: str = "mcts") -> list[str]:
    """Lines summarising ``results``: per opponent, then per pairing and per ``agent``'s deck.

    When ``agent`` also plays the opponent's side, a balance table follows: each deck's games
    against each other deck, whichever side played it.
    """
    lines = []
    for opponent in dict.fromkeys(r.opponent for r in results):
        mine = [r for r in results if r.opponent == opponent]
        seconds = sum(r.seconds for r in mine) / len(mine)
        lines.append(f"{agent} vs {opponent}: {_tally(mine)} ({seconds:.1f} s/game)")
        for pairing in PAIRINGS:
            games = [r for r in mine if r.pairing == pairing]
            if games:
                label = f"{pairing[0][6:]} vs {pairing[1][6:]}"
                lines.append(f"  {label:36} {_tally(games)}")
        for deck in SAMPLE_DECKS:
            games = [r for r in mine if r.pairing[0] == deck]
            if games:
                lines.append(f"  {agent} with {deck[6:]:26} {_tally(games)}")
        for seat in (0, 1):
            games = [r for r in mine if r.seat == seat]
            if games:
                lines.append(f"  {agent} in seat {seat}{'':23} {_tally(games)}")
        if opponent == agent:
            lines.extend(balance_report(mine))
    return lines


def balance_report(results: Sequence[StrengthGame]) -> list[str]:
    """Each sample deck's record against each other deck, both sides played by one agent."""
    lines = ["  deck balance (the row deck's games against the column deck, either side):"]
    for deck in SAMPLE_DECKS:
        cells = []
        for other in SAMPLE_DECKS:
            if other == deck:
                continue
            won = games = 0
            for result in results:
                if result.pairing == (deck, other):
                    games += 1
                    won += result.outcome == 1
                elif result.pairing == (other, deck):
                    games += 1
                    won += result.outcome == -1
            rate = won / games if games else 0.0
            cells.append(f"vs {other[6:]:17} {won:3}/{games:3} ({rate:4.0%})")
        lines.append(f"    {deck[6:]:17} " + "  ".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mcts-moves", type=int, default=10)
    parser.add_argument("--mcts-iterations", type=int, default=100)
    parser.add_argument("--strength", type=int, metavar="GAMES", help="measure strength instead")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--agent", default="mcts", help="the agent measured (default mcts)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="print every finished game")
    parser.add_argument(
        "--web-budget",
        action="store_true",
        help="the measured agent plays at the web matchups' budget (as bench/agents.py does)",
    )
    args = parser.parse_args()
    if args.strength:
        opponents = [name for name in args.opponents.split(",") if name]
        options = web_budget(args.agent) if args.web_budget else None
        results = strength_games(
            opponents,
            args.strength,
            args.seed,
            args.jobs,
            options,
            progress=args.progress,
            agent=args.agent,
        )
        print("\n".join(strength_report(results, args.agent)))
        return
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
