"""Revolt N Reign's race against Scroll Petitions: how often can a sample deck win it at all?

Against random play, the default agent loses mostly to Scroll Petitions reaching Petition
Victory (*PETITION -& PETITION VICTORY*), and an Attack cannot hit a Petition (*Attack Targeting
(Default Rule)*), so the other decks must win first. This script times both sides of that race
apart, each against a rival who never acts (a "goldfish": it ends every window, plays nothing,
answers nothing):

* each attacking deck, played by ``--agent`` (the default, at the web budget), against a goldfish
  holding Scroll Petitions: the number of its own turns until it wins (its rival's three UAs
  destroyed, *VICTORY CONDITIONS (4 TOTAL)*);
* Scroll Petitions, played by random, against a goldfish holding the attacking deck: its own
  turns until it wins.

    .venv/bin/python bench/revolt_n_reign_race.py --games 100 --jobs 2
    .venv/bin/python bench/revolt_n_reign_race.py --against-random plan --jobs 2

If the two were independent, the attacking deck wins the race when it needs no more own turns
than Scroll Petitions (moving first) or fewer (moving second). The script prints, for each
attacking deck, the share of races it would lose so, over every pair of the two samples and both
seat orders. That share is an estimate, not a bound: in a real game the agent can also exile a
Petition or take its rival's LP below 20, and random Scroll Petitions also plays Defenses that
slow the attack.

``--against-random AGENT`` plays the real thing instead: the games of ``bench/defaults.py``'s
400-game measure against random (same seed, same deals and seats) in which random holds Scroll
Petitions, with ``AGENT`` on the other side, and prints its wins by deck and how it lost the
others; a quick check of a candidate on the games the default loses most. Figures only,
nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents import web_agent
from rules.engines.core import CHANCE, State, plugin_for
from rules.engines.revolt_n_reign.game import EXAMPLE_PAIRS
from rules.engines.revolt_n_reign.state import END, PASS, RevoltState
from rules.ladder import ANCHOR, dealt, game_seed, play_tasks, two_seat_setups

SLUG = "revolt-n-reign"
SCROLL = "legal-scroll-petitions"


def goldfish(state: State) -> None:
    """The rival's move: end the window or pass; a forced choice takes the first option."""
    actions = state.legal_actions()
    state.apply(END if END in actions else PASS if PASS in actions else actions[0])


def sample_decks() -> dict[str, list[Any]]:
    """The sample decks by fixture name, as the sample setups deal them."""
    setups = two_seat_setups(plugin_for(SLUG))
    decks: dict[str, list[Any]] = {}
    for setup, names in zip(setups, EXAMPLE_PAIRS, strict=True):
        for name, deck in zip(names, setup["decks"], strict=True):
            decks[name] = deck
    return decks


def solo(task: tuple[str, str, str, int, int]) -> int | None:
    """The own turns ``deck`` (played by ``agent``, seat 0, moving first) takes to win against
    a goldfish holding ``rival``; None when it did not win."""
    agent, deck, rival, index, seed = task
    decks = sample_decks()
    plugin = plugin_for(SLUG)
    number = game_seed(seed, index)
    setup = {"decks": [decks[deck], decks[rival]], "first_player": 0}
    state = plugin.game().new_initial_state(number, setup).quiet()
    assert isinstance(state, RevoltState)
    player = web_agent(agent, plugin)(number & 0xFFFFFFFF)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(state.sample_chance())
        elif seat == 0:
            state.apply(player.act(state))
        else:
            goldfish(state)
    if state.winner() != 0:
        return None
    return (state.turn + 1) // 2  # global turns 1, 3, 5 ... are the first player's


def lost_races(attacker: Sequence[int | None], scroll: Sequence[int | None]) -> float:
    """The share of (attacker, Scroll Petitions) pairs, over both seat orders, where Scroll
    Petitions wins first; a side that never won takes forever."""
    never = 10**9
    lost = 0
    for a in attacker:
        for b in scroll:
            mine, theirs = never if a is None else a, never if b is None else b
            lost += (theirs < mine) + (theirs <= mine)  # attacker first, then second
    return lost / (2 * len(attacker) * len(scroll))


def against_random(agent: str, games: int, seed: int, jobs: int) -> None:
    """``agent`` against random in the measure's games where random holds Scroll Petitions."""
    plugin = plugin_for(SLUG)
    scroll_first_card = sample_decks()[SCROLL][0]["name"]
    picked = []
    for index in range(games):
        _, setup, seat = dealt(plugin, index)
        if setup["decks"][1 - seat][0]["name"] == scroll_first_card:
            picked.append((setup["decks"][seat][0]["name"], index))
    tasks = [(SLUG, agent, ANCHOR, index, seed, False) for _, index in picked]
    outcomes = play_tasks(tasks, jobs)
    names = {deck[0]["name"]: name for name, deck in sample_decks().items()}
    rows: dict[str, list[float]] = {}
    losses: dict[str, Counter[str]] = {}
    for (first_card, _), outcome in zip(picked, outcomes, strict=True):
        deck = names[first_card]
        rows.setdefault(deck, []).append(outcome.points)
        if outcome.points < 1:
            losses.setdefault(deck, Counter())[outcome.end_reason] += 1
    won = sum(points == 1 for row in rows.values() for points in row)
    times = [t for outcome in outcomes for t in outcome.seconds[0]]
    print(f"{agent} against random's {SCROLL}: won {won} of {len(tasks)} (games 0-{games - 1})")
    for deck, row in rows.items():
        wins = sum(points == 1 for points in row)
        print(f"  on {deck}: won {wins} of {len(row)}; lost {dict(losses.get(deck, {}))}")
    print(f"  CPU a decision: mean {1000 * sum(times) / max(1, len(times)):.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        help="solo games a side (100); with --against-random, of the measure (400)",
    )
    parser.add_argument("--seed", type=int, help="5; with --against-random, the measure's 1")
    parser.add_argument("--agent", default="plan", help="the attacking decks' agent")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--against-random",
        metavar="AGENT",
        help="play AGENT against random in the measure's Scroll Petitions games instead",
    )
    options = parser.parse_args(argv)
    if options.against_random:
        games, seed = options.games or 400, 1 if options.seed is None else options.seed
        against_random(options.against_random, games, seed, options.jobs)
        return
    options.games = options.games or 100
    options.seed = 5 if options.seed is None else options.seed
    attackers = [name for name in sample_decks() if name != SCROLL]
    tasks = [
        (options.agent, deck, SCROLL, index, options.seed)
        for deck in attackers
        for index in range(options.games)
    ]
    tasks += [
        ("random", SCROLL, deck, index, options.seed)
        for deck in attackers
        for index in range(options.games)
    ]
    with ProcessPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        turns = list(pool.map(solo, tasks, chunksize=4))
    runs: dict[tuple[str, str], list[int | None]] = {}
    for (_, deck, rival, _, _), took in zip(tasks, turns, strict=True):
        runs.setdefault((deck, rival), []).append(took)

    def describe(times: Sequence[int | None]) -> str:
        won = [t for t in times if t is not None]
        middle = f"median {median(won):.0f}, fastest {min(won)}" if won else "no win"
        return f"won {len(won)} of {len(times)}, own turns {middle}"

    for deck in attackers:
        attack, petitions = runs[(deck, SCROLL)], runs[(SCROLL, deck)]
        print(f"{deck} ({options.agent}) against a goldfish: {describe(attack)}")
        print(f"  {SCROLL} (random) against its goldfish: {describe(petitions)}")
        print(f"  races Scroll Petitions would win first: {lost_races(attack, petitions):.1%}")


if __name__ == "__main__":
    main()
