"""Agents as the web offers them: how often their games end by the rulebook, who wins, how fast.

    .venv/bin/python bench/agents.py [--game SLUG ...] [--games 200] [--seed 1]
    .venv/bin/python bench/agents.py --game reign-absolute --pair greedy:greedy --players 3
    .venv/bin/python bench/agents.py --game reign-absolute --players 2 --setup 1  # Azuma, Umbrous

For each game (every registered one, or each ``--game``) and each agent pairing (``A:B``; by
default each agent of the plugin's ``matchup_agents`` against itself and against random, and
greedy against greedy), it plays ``--games`` seeded games between the game's sample decks
(``Game.example_setups()``: the first setup seating ``--players``, or the ``--setup``-th).
Two seats alternate (``rules.simulation.run(..., alternate_seats=True)``: side 0 is agent A
with the setup's first deck); more seats rotate the decks round the table, game ``i`` moving every deck ``i`` seats on
(side 0, agent A, against sides played by agent B). A co-operative game plays agent A in every
seat and reports the team's results.

It prints, per pairing: the share of games ending by a rulebook ending (a victory or a draw the
rulebook names) against an engine cut-off (``GamePlugin.cutoff_reasons``: a turn limit ...)
with its Wilson 95% interval; the end reasons; win rates by seat and by deck (side); and CPU
seconds a game (``time.process_time``, mean and slowest). Agents play with the web's budgets
(``rules.agents.web_options``: the shared budget under the plugin's ``agent_budgets``). Figures only, nothing is
asserted; run long measurements with ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents import Agent, make_agent, web_options
from rules.engines.core import CHANCE, Game, GamePlugin, Rng, plugin_for, plugins
from rules.engines.core.intervals import wilson_interval
from rules.simulation import run


class Clock:
    """CPU seconds a game: agents are built at the start of each game, so the time between two
    builds of the seat-0 agent is one game (its setup included)."""

    def __init__(self) -> None:
        self.marks: list[float] = []

    def mark(self) -> None:
        """A game starts now."""
        self.marks.append(time.process_time())

    def per_game(self, end: float) -> list[float]:
        """Each game's CPU seconds, the last one ending at ``end``."""
        stops = [*self.marks[1:], end]
        return [stop - start for start, stop in zip(self.marks, stops, strict=True)]


def factory(plugin: GamePlugin, name: str, clock: Clock | None = None) -> Callable[[int], Agent]:
    """A ``seed -> Agent`` for ``name`` with the web's budget; with ``clock``, each build marks
    the start of a game."""
    options = web_options(name, plugin)

    def make(seed: int) -> Agent:
        if clock is not None:
            clock.mark()
        return make_agent(name, seed=seed, **options)

    return make


def pick_setup(engine: Game, players: int | None, index: int = 0) -> dict[str, Any]:
    """Sample setup number ``index`` among those seating ``players`` (any, when None)."""
    fitting = [
        dict(setup)
        for setup in engine.example_setups()
        if players is None or engine.num_players(setup) == players
    ]
    if index < len(fitting):
        return fitting[index]
    counted = [dict(setup) for setup in engine.example_setups() if "players" in setup]
    if players is not None and index == 0 and counted:
        return {**counted[0], "players": players}  # a table size the samples skip
    raise SystemExit(f"{engine.slug} has no sample setup {index} for {players} players")


def rotated(setup: dict[str, Any], shift: int) -> dict[str, Any]:
    """The setup with its decks (or factions) moved ``shift`` seats on: seat ``s`` holds the
    deck of side ``(s - shift) % n``."""
    key = "factions" if "factions" in setup else "decks"
    if not shift or key not in setup:
        return setup
    decks = list(setup[key])
    n = len(decks)
    return {**setup, key: [decks[(seat - shift) % n] for seat in range(n)]}


def play_rotating(
    plugin: GamePlugin, setup: dict[str, Any], pair: tuple[str, str], games: int, seed: int
) -> list[dict[str, Any]]:
    """Play games of three or more seats, rotating the decks, or co-operative games (agent A in
    every seat, ``team``: whether the team won); one summary per game."""
    engine = plugin.game()
    n = engine.num_players(setup)
    if engine.cooperative:
        pair = (pair[0], pair[0])
    seeds = Rng(seed)
    out = []
    for index in range(games):
        game_seed = seeds.next_u64() >> 1
        shift = 0 if engine.cooperative else index % n
        start = time.process_time()
        state = engine.new_initial_state(game_seed, rotated(setup, shift)).quiet()
        side_of = [(seat - shift) % n for seat in range(n)]
        seats = [
            factory(plugin, pair[0] if side_of[seat] == 0 else pair[1])(
                (game_seed + 1 + seat) & 0xFFFFFFFF
            )
            for seat in range(n)
        ]
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance())
                continue
            state.apply_unchecked(seats[player].act(state))
        seat_winner = state.winner()
        out.append(
            {
                "first": state.first_player(),
                "team": state.returns()[0] > 0,
                "side": None if seat_winner is None else side_of[seat_winner],
                "seat": seat_winner,
                "end_reason": state.end_reason() or "ended",
                "cpu": time.process_time() - start,
            }
        )
    return out


def play_pair(
    plugin: GamePlugin, setup: dict[str, Any], pair: tuple[str, str], games: int, seed: int
) -> list[dict[str, Any]]:
    """One summary per game: the winning side and seat (None: a draw), end reason, CPU seconds."""
    engine = plugin.game()
    n = engine.num_players(setup)
    if engine.cooperative or n > 2:
        return play_rotating(plugin, setup, pair, games, seed)
    clock = Clock()
    agents = [factory(plugin, pair[0], clock), factory(plugin, pair[1])]
    report = run(engine, setup, agents, games, seed, alternate_seats=True)
    cpu = clock.per_game(time.process_time())
    out = []
    for index, (summary, seconds) in enumerate(zip(report.game_summaries, cpu, strict=True)):
        side = summary["winner"]
        seat = None if side is None else (1 - side if index % 2 else side)
        out.append(
            {
                "side": side,
                "seat": seat,
                "first": summary["first_player"],
                "end_reason": summary["end_reason"],
                "cpu": seconds,
            }
        )
    return out


def interval(hits: int, total: int) -> str:
    """``hits`` of ``total`` as a share with its Wilson 95% interval."""
    low, high = wilson_interval(hits, total)
    return f"{hits / total:6.1%} [95% CI {low:.1%} - {high:.1%}]"


def setup_label(setup: dict[str, Any]) -> str:
    """The setup in a line: its options, and decks by size (a deck's card list is too long)."""
    parts = [
        f"{key}={value}" for key, value in setup.items() if key != "decks" and value is not None
    ]
    decks = setup.get("decks") or []
    if decks:
        parts.append("decks of " + "/".join(str(len(deck)) for deck in decks) + " cards")
    return ", ".join(parts) or "the default setup"


def describe(
    plugin: GamePlugin, setup: dict[str, Any], pair: tuple[str, str], rows: list[dict[str, Any]]
) -> str:
    """The figures of one pairing."""
    games = len(rows)
    reasons = Counter(row["end_reason"] for row in rows)
    cut = sum(count for reason, count in reasons.items() if reason in plugin.cutoff_reasons)
    cpu = [row["cpu"] for row in rows]
    sides = setup.get("factions") or [
        f"deck {chr(65 + i)}" for i in range(len(setup.get("decks", [])))
    ]
    lines = [
        f"{plugin.slug} {pair[0]} vs {pair[1]} ({games} games, {setup_label(setup)}):",
        f"  rulebook ending {interval(games - cut, games)}; engine cut-off {cut / games:.1%}",
        "  end reasons: " + ", ".join(f"{r} {c}" for r, c in reasons.most_common()),
    ]
    if plugin.cooperative:
        won = sum(row["team"] for row in rows)
        lines.append(f"  team wins {interval(won, games)}")
    else:
        n = len(sides) if sides else 2
        draws = sum(row["side"] is None for row in rows)
        seat_wins = Counter(row["seat"] for row in rows if row["seat"] is not None)
        side_wins = Counter(row["side"] for row in rows if row["side"] is not None)
        lines.append(
            "  by seat: "
            + "; ".join(f"seat {s} {interval(seat_wins[s], games)}" for s in range(n))
            + f"; draws {draws / games:.1%}"
        )
        lines.append(
            "  by deck: "
            + "; ".join(
                f"{sides[s] if sides else s} ({pair[0] if s == 0 else pair[1]}) "
                f"{interval(side_wins[s], games)}"
                for s in range(n)
            )
        )
    firsts = [row for row in rows if row.get("first") is not None]
    if firsts and not plugin.cooperative:
        won = sum(row["seat"] == row["first"] for row in firsts)
        lines.append(f"  the first player won {interval(won, len(firsts))} of {len(firsts)} games")
    lines.append(f"  CPU s/game: mean {sum(cpu) / games:.3f}, slowest {max(cpu):.3f}")
    return "\n".join(lines)


def default_pairs(plugin: GamePlugin) -> list[tuple[str, str]]:
    """Each offered agent against itself and against random, and greedy against greedy."""
    pairs: list[tuple[str, str]] = []
    for name in plugin.matchup_agents:
        for other in (name, "random"):
            if (name, other) not in pairs:
                pairs.append((name, other))
    if ("greedy", "greedy") not in pairs:
        pairs.append(("greedy", "greedy"))
    return pairs


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figures of every game and pairing asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="A game slug (repeatable; default all).")
    parser.add_argument("--pair", action="append", help="A pairing A:B (repeatable).")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players", type=int, help="Seats (the first sample setup seating so many)."
    )
    parser.add_argument(
        "--setup", type=int, default=0, help="Which of the fitting sample setups (default 0)."
    )
    options = parser.parse_args(argv)
    chosen = [plugin_for(slug) for slug in options.game] if options.game else plugins()
    for plugin in chosen:
        setup = pick_setup(plugin.game(), options.players, options.setup)
        pairs = (
            [tuple(p.split(":", 1)) for p in options.pair]
            if options.pair
            else default_pairs(plugin)
        )
        for pair in pairs:
            rows = play_pair(plugin, setup, (pair[0], pair[-1]), options.games, options.seed)
            print(describe(plugin, setup, (pair[0], pair[-1]), rows), flush=True)


if __name__ == "__main__":
    main()
