"""Matchups: two decks played against each other by agents, in chunks so a page can show progress.

``rules.simulation.run`` plays each chunk (its own seed, derived from the run's seed and the chunk
number, so a run is reproducible); the chunks' counts add up here into win rates with Wilson 95%
intervals, a game-length histogram and the end reasons. ``sample_game`` plays one game of the
matchup and keeps its event log for the replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from decks.models import Deck
from web.testhands import deck_records

AGENTS = {"random": "Random", "greedy": "Greedy (one move ahead)"}
# Games the agents play per request, so the progress bar moves every second or so.
CHUNK = {"random": 10, "greedy": 1}
MAX_GAMES = 200
HISTOGRAM_BUCKET = 25
MAX_REPLAY_ACTIONS = 20_000


def _rnr_setup(a: Deck, b: Deck) -> dict[str, Any]:
    return {"decks": [deck_records(a), deck_records(b)], "first_player": 0}


def _realms_setup(a: Deck, b: Deck) -> dict[str, Any]:
    def counts(deck: Deck) -> dict[str, int]:
        return {row.card.name: row.quantity for row in deck.cards.select_related("card")}

    return {"decks": [counts(a), counts(b)], "first_player": 0}


# How each game's engine takes two decks; a game missing here has no matchups yet.
SETUPS = {"revolt-n-reign": _rnr_setup, "rival-realms": _realms_setup}


def matchups_available(game_slug: str) -> bool:
    """Whether two decks of this game can be played against each other by the engine."""
    if game_slug not in SETUPS:
        return False
    from rules.engines.core import registered_games

    return game_slug in registered_games()


def matchup_setup(a: Deck, b: Deck) -> dict[str, Any]:
    """The engine setup of deck ``a`` (seat 0, moving first) against deck ``b``."""
    return SETUPS[a.game.slug](a, b)


def chunk_size(agents: list[str]) -> int:
    return min(CHUNK.get(agent, 1) for agent in agents)


def matchup_chunk(
    game_slug: str, setup: dict[str, Any], agents: list[str], games: int, seed: int
) -> dict[str, Any]:
    """Play ``games`` games and return their counts (plain data, to add to a run's totals).

    Raises ``rules.engines.core.SetupError`` for decks the engine cannot play."""
    from rules.adapters import engine_for
    from rules.simulation import run

    report = run(engine_for(game_slug), setup, agents, games, seed, bucket_width=HISTOGRAM_BUCKET)
    return {
        "games": report.games,
        "wins": [side.wins for side in report.sides],
        "draws": report.draws,
        "length_total": report.length_mean * report.games,
        "histogram": report.length_histogram,
        "end_reasons": report.end_reasons,
    }


def totals_add(totals: dict[str, Any], chunk: dict[str, Any]) -> dict[str, Any]:
    """Add a chunk's counts to a run's totals (both plain data)."""
    if not totals:
        return {
            **chunk,
            "histogram": dict(chunk["histogram"]),
            "end_reasons": dict(chunk["end_reasons"]),
        }
    merged = {
        "games": totals["games"] + chunk["games"],
        "wins": [x + y for x, y in zip(totals["wins"], chunk["wins"], strict=True)],
        "draws": totals["draws"] + chunk["draws"],
        "length_total": totals["length_total"] + chunk["length_total"],
        "histogram": dict(totals["histogram"]),
        "end_reasons": dict(totals["end_reasons"]),
    }
    for key in ("histogram", "end_reasons"):
        for name, count in chunk[key].items():
            merged[key][name] = merged[key].get(name, 0) + count
    return merged


@dataclass(frozen=True)
class SideSummary:
    label: str
    agent: str
    wins: int
    rate: float
    low: float
    high: float


def matchup_summary(totals: dict[str, Any], labels: list[str], agents: list[str]) -> dict[str, Any]:
    """Win rates with Wilson 95% intervals, mean length, and chart points from a run's totals."""
    from rules.simulation import wilson_interval

    games = totals.get("games", 0)
    sides = []
    for seat, wins in enumerate(totals.get("wins", [])):
        low, high = wilson_interval(wins, games)
        sides.append(
            SideSummary(
                labels[seat],
                AGENTS.get(agents[seat], agents[seat]),
                wins,
                wins / games if games else 0.0,
                low,
                high,
            )
        )
    histogram = sorted(totals.get("histogram", {}).items())
    return {
        "games": games,
        "sides": sides,
        "draws": totals.get("draws", 0),
        "length_mean": totals["length_total"] / games if games else 0.0,
        "length_points": [(_bucket_label(key), count) for key, count in histogram],
        "reason_points": sorted(totals.get("end_reasons", {}).items(), key=lambda kv: -kv[1]),
    }


def _bucket_label(key: str) -> str:
    low, _, high = key.partition("-")
    return f"{int(low)}-{int(high)}" if high else key


def sample_game(
    game_slug: str, setup: dict[str, Any], agents: list[str], seed: int
) -> dict[str, Any]:
    """Play one game of the matchup; return its result and its event log for the replay."""
    from rules.adapters import engine_for
    from rules.agents import make_agent
    from rules.engines.core import CHANCE

    state = engine_for(game_slug).new_initial_state(seed, setup)
    seats = [make_agent(name, seed=(seed + 1 + i) & 0xFFFFFFFF) for i, name in enumerate(agents)]
    actions = 0
    while not state.is_terminal() and actions < MAX_REPLAY_ACTIONS:
        player = state.current_player()
        state.apply(state.sample_chance() if player == CHANCE else seats[player].act(state))
        actions += 1
    events = [event_line(event.as_dict()) for event in state.events]
    return {
        "winner": state.winner() if state.is_terminal() else None,
        "end_reason": state.end_reason() if state.is_terminal() else "unfinished",
        "actions": actions,
        "events": events,
    }


def event_line(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the replay shows it: its kind, who, and its details in words."""
    detail = ", ".join(
        f"{key.replace('_', ' ')} {_text(value)}"
        for key, value in event.items()
        if key not in ("kind", "player") and value not in (None, "", [], {})
    )
    return {
        "kind": str(event.get("kind", "")).replace("_", " "),
        "player": event.get("player"),
        "detail": detail,
    }


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)
