"""Tune a game's evaluation weights by self-play: coordinate ascent against the incumbent.

    .venv/bin/python bench/tune.py --game revolt-n-reign --agent greedy --games 48 --rounds 2 --jobs 2
    .venv/bin/python bench/tune.py --game revolt-n-reign --write   # store the winner
    .venv/bin/python bench/tune.py --game revolt-n-reign --compare OLD.json --agent plan --games 400

The incumbent is the game's ``weights.json`` (``GamePlugin.evaluation_weights``). Each round
visits every weight in turn and tries it ``(1 + step)`` and ``(1 - step)`` times as large (a
zero weight moves by ``step`` times the mean size of the others); a candidate plays ``--games``
games against the incumbent, ``--agent`` deciding for both sides at the web budget, each side
with its own weights (``rules.engines.core.weights.WeightedAgent``), in the ladder's fair
cycles (each side on each deck of a pair, from each seat; the same seeds for every
candidate). A candidate whose score reaches ``--accept`` becomes the incumbent; with
``--confirm`` it first plays as many games again on other seeds and takes over only if it
reaches ``--accept`` over both sets (over 100 games an equal candidate passes a 57% bar about
one time in ten, so a lucky set alone would often replace the incumbent). The step halves
after each round. ``--write`` stores the final weights with how they were found.

In a co-operative game (Reggae Revolution) the candidate and the incumbent each play the same
deals with a team of their own against the game; a deal the candidate wins and the incumbent
loses is a point to the candidate, and a deal they fare alike on is half a point each. Its
team policy's weights (``policy_...``, the game's default ``team``) are tuned with
``--agent team --only policy_``.

``--compare FILE`` plays the current weights against those of FILE (a ``weights.json`` kept
from before) and prints the score with its Wilson 95% interval: the check that tuned weights
beat the old ones over many games (400 or more). Figures only, nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents import Agent, web_agent
from rules.engines.core import GamePlugin, plugin_for
from rules.engines.core.intervals import wilson_interval
from rules.engines.core.weights import WeightedAgent, load_weights, save_weights
from rules.ladder import needs_open_play, play_pairing_game

#: the seed offset of a candidate's confirming games (``--confirm``)
CONFIRM_SEEDS = 1000


def weighted(plugin: GamePlugin, agent: str, values: Mapping[str, float], seed: int) -> Agent:
    """``agent`` at the web budget, deciding with ``values`` as the game's weights."""
    found = plugin.weights()
    assert found is not None
    return WeightedAgent(web_agent(agent, plugin)(seed), found[0], values)


def one_game(task: tuple[str, str, dict[str, float], dict[str, float], int, int]) -> float:
    """The candidate's points in game ``index`` against the incumbent. In a co-operative game
    each plays game ``index`` (the same deal) with a team of its own against the game, and the
    candidate's points are half a point plus half the difference of the two results: 1 when it
    wins where the incumbent loses, 0.5 when they fare alike."""
    slug, agent, candidate, incumbent, index, seed = task
    plugin = plugin_for(slug)
    mine = partial(weighted, plugin, agent, candidate)
    theirs = partial(weighted, plugin, agent, incumbent)
    if plugin.cooperative:
        won = play_pairing_game(plugin, mine, None, index, seed).points
        rival = play_pairing_game(plugin, theirs, None, index, seed).points
        return 0.5 + (won - rival) / 2
    # an agent that reads the whole position (alpha-beta) plays the open setups only
    open_only = needs_open_play([agent])
    return play_pairing_game(plugin, mine, theirs, index, seed, open_only).points


def score(
    slug: str,
    agent: str,
    candidate: Mapping[str, float],
    incumbent: Mapping[str, float],
    games: int,
    seed: int,
    pool: ProcessPoolExecutor | None,
) -> float:
    """The candidate's share of the points over ``games`` games against the incumbent."""
    tasks = [(slug, agent, dict(candidate), dict(incumbent), i, seed) for i in range(games)]
    points = list(pool.map(one_game, tasks, chunksize=4)) if pool else list(map(one_game, tasks))
    return sum(points) / games


def neighbours(weights: Mapping[str, float], name: str, step: float) -> list[dict[str, float]]:
    """``weights`` with ``name`` moved up and down by ``step`` (relative; absolute for 0)."""
    value = weights[name]
    if value:
        moved = [value * (1 + step), value * (1 - step)]
    else:
        sizes = [abs(v) for v in weights.values() if v]
        size = step * (sum(sizes) / len(sizes) if sizes else 1.0)
        moved = [size, -size]
    return [{**weights, name: new} for new in moved]


def tune(options: argparse.Namespace, pool: ProcessPoolExecutor | None) -> dict[str, float]:
    """Coordinate ascent from the stored weights; returns the final incumbent."""
    plugin = plugin_for(options.game)
    found = plugin.weights()
    if found is None:
        raise SystemExit(f"{plugin.name} has no tuned evaluation weights to start from")
    incumbent = load_weights(found[1])
    step = options.step
    for round_number in range(1, options.rounds + 1):
        for name in sorted(n for n in incumbent if n.startswith(options.only)):
            for candidate in neighbours(incumbent, name, step):
                result = score(
                    plugin.slug,
                    options.agent,
                    candidate,
                    incumbent,
                    options.games,
                    options.seed + round_number,
                    pool,
                )
                taken = result >= options.accept
                if taken and options.confirm:
                    # a second set of games on other seeds: a lucky first set is not enough
                    again = score(
                        plugin.slug,
                        options.agent,
                        candidate,
                        incumbent,
                        options.games,
                        options.seed + CONFIRM_SEEDS + round_number,
                        pool,
                    )
                    result = (result + again) / 2
                    taken = result >= options.accept
                verdict = "taken" if taken else "kept the incumbent"
                print(
                    f"round {round_number} step {step:.3f}: {name} "
                    f"{incumbent[name]:+.4f} -> {candidate[name]:+.4f}: "
                    f"{result:.1%} of the points ({verdict})",
                    flush=True,
                )
                if taken:
                    incumbent = candidate
                    break
        step /= 2
    return incumbent


def compare(options: argparse.Namespace, pool: ProcessPoolExecutor | None) -> None:
    """Print how the current weights score against those of ``--compare``."""
    plugin = plugin_for(options.game)
    found = plugin.weights()
    if found is None:
        raise SystemExit(f"{plugin.name} has no tuned evaluation weights")
    current, old = load_weights(found[1]), load_weights(Path(options.compare))
    result = score(plugin.slug, options.agent, current, old, options.games, options.seed, pool)
    points = result * options.games
    low, high = wilson_interval(points, options.games)
    print(
        f"{plugin.slug}: {options.agent} with {found[1].name} against {options.compare}: "
        f"{points:g}/{options.games} points = {result:.1%} [95% CI {low:.1%} - {high:.1%}]"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Tune (or compare) the weights asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--agent", default="greedy", help="The agent both sides play (web budget).")
    parser.add_argument("--games", type=int, default=48, help="Games a candidate (default 48).")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--step", type=float, default=0.5, help="First relative step (0.5).")
    parser.add_argument("--accept", type=float, default=0.56, help="Score that takes over.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="A candidate that reaches --accept plays as many games again on other seeds, and "
        "takes over only if it reaches --accept over both sets.",
    )
    parser.add_argument(
        "--only",
        default="",
        help="Tune only the weights whose names start with this (policy_: Reggae Revolution's "
        "team policy); the others are kept as they are.",
    )
    parser.add_argument("--write", action="store_true", help="Store the tuned weights.")
    parser.add_argument("--compare", help="A weights.json to play the current weights against.")
    options = parser.parse_args(argv)
    pool = ProcessPoolExecutor(max_workers=options.jobs) if options.jobs > 1 else None
    try:
        if options.compare:
            compare(options, pool)
            return
        final = tune(options, pool)
    finally:
        if pool is not None:
            pool.shutdown()
    print("tuned weights:", ", ".join(f"{k}={v:.4g}" for k, v in sorted(final.items())))
    if options.write:
        plugin = plugin_for(options.game)
        found = plugin.weights()
        assert found is not None
        tuned: dict[str, Any] = {
            "method": "coordinate ascent by self-play (bench/tune.py)",
            "date": date.today().isoformat(),
            "command": "bench/tune.py " + " ".join(sys.argv[1:] if argv is None else argv),
            "agent": options.agent,
            "games_a_candidate": options.games,
            "rounds": options.rounds,
            "accept": options.accept,
            "confirm": options.confirm,
        }
        if options.only:
            # the other weights are as they were: so is the record of how they were found
            tuned["only"] = options.only
            tuned["before"] = json.loads(found[1].read_text()).get("tuned", {})
        save_weights(found[1], final, tuned)
        print(f"stored in {found[1]}")


if __name__ == "__main__":
    main()
