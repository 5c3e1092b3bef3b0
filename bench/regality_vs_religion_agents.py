"""Regality vs Religion agents over the engine's example setups, seats alternating.

    nice -n 10 .venv/bin/python bench/regality_vs_religion_agents.py [--games 200] [--seed 0]

For each matchup (alpha-beta at the web budget against random and against greedy, greedy against
greedy) plays ``--games`` seeded games spread evenly over ``RvRGame.example_setups()`` (alpha-beta
skips the secret variants, which it refuses), each setup through ``rules.simulation.run`` with
``alternate_seats=True``. Prints the share of games ended by a rulebook ending (anything but the
engine's placement limit), wins by side and by seat (the seat that moved first), and CPU seconds
a game (mean and slowest). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents import make_agent
from rules.engines.core import get_game
from rules.engines.regality_vs_religion.game import SECRET_VARIANTS, TURN_LIMIT
from rules.engines.regality_vs_religion.plugin import RegalityVsReligionPlugin
from rules.simulation import run

MATCHUPS = (("alphabeta", "greedy"), ("greedy", "greedy"), ("alphabeta", "random"))


class Timed:
    """An agent that adds its CPU time to the game it plays (keyed by the game's seed)."""

    def __init__(
        self, name: str, seed: int, spent: dict[int, float], games: dict[int, int]
    ) -> None:
        options = RegalityVsReligionPlugin.agent_budgets.get(name, {})
        self.agent = make_agent(name, seed=seed, **options)
        self.seed = seed
        self.spent = spent
        self.games = games

    def act(self, state: Any) -> Any:
        start = time.process_time()
        action = self.agent.act(state)
        # simulation.run seeds seat s with game_seed + 1 + s
        game = (self.seed - 1 - state.current_player()) & 0xFFFFFFFF
        self.spent[game] += time.process_time() - start
        # a match or point-system setup plays several games under one seed
        self.games[game] = max(self.games[game], state.games_played + 1)
        return action


def measure(pair: tuple[str, str], games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` games of ``pair`` over the example setups; return the figures."""
    game = get_game("regality-vs-religion")
    setups = [
        s
        for s in game.example_setups()
        if "alphabeta" not in pair or s.get("variant") not in SECRET_VARIANTS
    ]
    # an even number of games per setup, so each side sits in each seat equally often
    base = (games // len(setups)) // 2 * 2
    counts = [base] * len(setups)
    for index in range((games - base * len(setups)) // 2):
        counts[index] += 2
    spent: dict[int, float] = defaultdict(float)
    games_in: dict[int, int] = defaultdict(int)

    def timed(name: str) -> Callable[[int], Any]:
        return lambda agent_seed: Timed(name, agent_seed, spent, games_in)

    agents = [timed(name) for name in pair]
    played = rulebook = first_wins = first_decided = 0
    side_wins = [0, 0]
    seat_wins = [0, 0]
    draws = 0
    reasons: Counter[str] = Counter()
    per_setup: list[str] = []
    slowest_single = slowest_game = 0.0
    start = time.process_time()
    for setup, count in zip(setups, counts, strict=True):
        if not count:
            continue
        # every setup's run draws the same game seeds: the tallies start afresh
        spent.clear()
        games_in.clear()
        setup_start = time.process_time()
        report = run(game, setup, agents, count, seed, alternate_seats=True)
        setup_cpu = time.process_time() - setup_start
        played += count
        single = max((spent[key] / games_in[key] for key in spent), default=0.0)
        slowest = max(spent.values(), default=0.0)
        slowest_single = max(slowest_single, single)
        slowest_game = max(slowest_game, slowest)
        per_setup.append(
            f"  {setup}: {count} games, {setup_cpu / count:.3f} CPU s each, slowest "
            f"{slowest:.2f} s "
            f"({single:.2f} s a single game), ends {report.end_reasons}"
        )
        for index, summary in enumerate(report.game_summaries):
            reasons[summary["end_reason"]] += 1
            if summary["winner"] is not None:
                # odd games swap the seats; seat 0 is Regality
                seat_wins[summary["winner"] ^ (index % 2)] += 1
            rulebook += summary["end_reason"] != TURN_LIMIT
            winner = summary["winner"]
            if winner is None:
                draws += 1
            else:
                side_wins[winner] += 1
        if report.first_player is not None:
            first_wins += report.first_player.wins
            first_decided += report.first_player.wins + report.first_player.losses
    cpu = time.process_time() - start
    return {
        "pair": pair,
        "games": played,
        "rulebook_share": rulebook / played,
        "reasons": dict(sorted(reasons.items())),
        "side_wins": side_wins,
        "draws": draws,
        "seat_wins": seat_wins,
        "first_seat_wins": first_wins,
        "first_seat_decided": first_decided,
        "cpu_per_game": cpu / played,
        "slowest_agent_cpu": slowest_game,
        "slowest_single_game": slowest_single,
        "per_setup": per_setup,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=[f"{a}-{b}" for a, b in MATCHUPS])
    args = parser.parse_args()
    for pair in MATCHUPS:
        if args.only and args.only != f"{pair[0]}-{pair[1]}":
            continue
        f = measure(pair, args.games, args.seed)
        print(
            f"{pair[0]} vs {pair[1]}: {f['games']} games, rulebook ending "
            f"{f['rulebook_share']:.1%} {f['reasons']}; wins {pair[0]} {f['side_wins'][0]}, "
            f"{pair[1]} {f['side_wins'][1]}, draws {f['draws']}; by seat Regality "
            f"{f['seat_wins'][0]}, Religion {f['seat_wins'][1]}; the starting player won "
            f"{f['first_seat_wins']} of {f['first_seat_decided']} decided; "
            f"{f['cpu_per_game']:.3f} CPU s a game (slowest game's agents "
            f"{f['slowest_agent_cpu']:.2f} s; one game of a match at most "
            f"{f['slowest_single_game']:.2f} s)",
            flush=True,
        )
        print("\n".join(f["per_setup"]), flush=True)


if __name__ == "__main__":
    main()
