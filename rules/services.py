"""Playing the games of a simulation job (``rules.lab.jobs``), one at a time, and replaying one.

Game ``k`` of a job is one ``rules.simulation.run`` call of a single game seeded with
``game_seed(seed, k)``, so a game never depends on how the job was cut into chunks, on which
worker played it or in what order: any game can be played again on its own, with ``log_game``
keeping its full record for the replay (``rules.lab.selectors.matchup_game_record``).

Seats rotate unless a pairing asks for fixed seats: game ``k`` seats side ``(s + k) mod N`` in
seat ``s`` (``rules.simulation.seat_order``), so every deck sits in every seat, and moves first,
equally often; the totals count wins by side (deck) and by seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.agents import web_agent
from rules.agents.base import Agent
from rules.engines.core import Game, find_plugin
from rules.simulation import SimulationReport

#: the agents a web matchup can offer, with what the page calls them; each game's plugin says
#: which of them its matchups offer (``GamePlugin.matchup_agents``) and may label them its way
AGENT_LABELS = {
    "random": "Random",
    "greedy": "Greedy (one turn ahead, 100 positions a move)",
    "mcts": "MCTS (40 playouts a move)",
    "team": "Team policy (the game's own)",
    "alphabeta": "Alpha-beta (a few moves deep)",
    "plan": "Turn plans (sampled plans a turn)",
}
HISTOGRAM_BUCKET = 25


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a job: the same however the job is chunked."""
    return seed * 1_000_003 + index


def agent_spec(name: str, game_slug: str = "") -> Callable[[int], Agent]:
    """What ``rules.simulation.run`` takes for an agent name: the web's search budget, with the
    game's own budget for that agent on top (``GamePlugin.agent_budgets``). A difficulty level
    of the game (``GamePlugin.difficulty_levels``: "easy", "normal", "hard") is its agent."""
    plugin = find_plugin(game_slug) if game_slug else None
    level = plugin.difficulty_levels.get(name) if plugin is not None else None
    if level is not None:
        return web_agent(level.agent, plugin)
    if name not in AGENT_LABELS:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENT_LABELS)})")
    return web_agent(name, plugin)


def play_game(
    engine: Game,
    setup: dict[str, Any],
    agents: Sequence[str],
    seed: int,
    index: int,
    *,
    log: bool = False,
    fixed_seats: bool = False,
    card_sightings: bool = False,
) -> SimulationReport:
    """Play game ``index`` of a job (a report of one game; with ``log``, its full record), its
    seats rotated ``index`` places unless ``fixed_seats``.

    Raises ``rules.engines.core.SetupError`` (a ``ValueError``) for a setup the engine refuses."""
    from rules.simulation import run

    return run(
        engine,
        setup,
        [agent_spec(name, engine.slug) for name in agents],
        1,
        game_seed(seed, index),
        bucket_width=HISTOGRAM_BUCKET,
        log_game=0 if log else None,
        alternate_seats=not fixed_seats,
        start_index=index,
        card_sightings=card_sightings,
    )


def chunk_totals(report: SimulationReport) -> dict[str, Any]:
    """A game's (or a chunk's) counts as plain data, to add to a pairing's totals."""
    totals: dict[str, Any] = {
        "games": report.games,
        "wins": [side.wins for side in report.sides],
        "seat_wins": [seat.wins for seat in report.seats],
        "moved_first": [side.moved_first for side in report.sides],
        "first_side_wins": [side.first_wins for side in report.sides],
        "draws": report.draws,
        "length_total": sum(game["length"] for game in report.game_summaries),
        "histogram": dict(report.length_histogram),
        "end_reasons": dict(report.end_reasons),
        "first_games": report.first_player.games if report.first_player else 0,
        "first_wins": report.first_player.wins if report.first_player else 0,
    }
    if report.team is not None:
        totals["team_wins"] = report.team.wins
        totals["team_losses"] = report.team.losses
    return totals


def totals_add(totals: dict[str, Any], chunk: dict[str, Any]) -> dict[str, Any]:
    """Add a chunk's counts to a pairing's totals: numbers add, lists add by seat, dicts by key."""
    merged: dict[str, Any] = {}
    for key in sorted(set(totals) | set(chunk)):
        if key not in totals or key not in chunk:
            value = totals.get(key, chunk.get(key))
            merged[key] = dict(value) if isinstance(value, dict) else value
            continue
        old, new = totals[key], chunk[key]
        if isinstance(old, dict):
            merged[key] = dict(old)
            for name, count in new.items():
                merged[key][name] = merged[key].get(name, 0) + count
        elif isinstance(old, list):
            merged[key] = [x + y for x, y in zip(old, new, strict=True)]
        else:
            merged[key] = old + new
    return merged
