"""Many games between agents, summarised: who wins (with Wilson 95% intervals), how long, how.

Pure Python (no Django), so a Celery task, the ``simulate`` command and tests share it. The same
game, setup, agents, number of games and seed give the same report, byte for byte.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rules.agents import Agent, make_agent
from rules.engines.core import CHANCE, Game, Rng, get_game

AgentSpec = str | Callable[[int], Agent]
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SideResult:
    """One seat's results."""

    player: int
    name: str
    agent: str
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float


@dataclass
class TeamResult:
    """A co-operative game's results: the whole table wins or loses together."""

    wins: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float


@dataclass
class SimulationReport:
    """The summary of a simulation run (JSON-ready through ``as_dict``)."""

    game: str
    setup: dict[str, Any]
    games: int
    seed: int
    sides: list[SideResult]
    draws: int
    length_mean: float
    length_min: int
    length_max: int
    length_histogram: dict[str, int]
    end_reasons: dict[str, int]
    results: list[int | None] = field(default_factory=list)
    team: TeamResult | None = None
    """Set for co-operative games, where ``sides`` and ``draws`` say little on their own."""

    def as_dict(self) -> dict[str, Any]:
        """Return plain data."""
        return asdict(self)

    def to_json(self) -> str:
        """Return canonical JSON (sorted keys), identical for identical runs."""
        return json.dumps(self.as_dict(), sort_keys=True, indent=2)


def _agent(spec: AgentSpec, seed: int) -> Agent:
    if isinstance(spec, str):
        return make_agent(spec, seed=seed)
    return spec(seed)


def _bucket(length: int, width: int) -> str:
    low = (length // width) * width
    return f"{low:04d}-{low + width - 1:04d}"


def run(
    game: Game | str,
    decks_or_setup: Mapping[str, Any] | Sequence[Any] | None,
    agents: Sequence[AgentSpec],
    games: int,
    seed: int,
    bucket_width: int = 5,
) -> SimulationReport:
    """Play ``games`` games from ``decks_or_setup`` (a setup mapping, or a list of decks passed
    as ``{"decks": [...]}``) between ``agents`` (names or ``seed -> Agent`` factories, one per
    seat) and summarise them. Game ``i`` uses seeds drawn from one ``Rng(seed)``."""
    engine = get_game(game) if isinstance(game, str) else game
    if decks_or_setup is None:
        setup: dict[str, Any] = {}
    elif isinstance(decks_or_setup, Mapping):
        setup = dict(decks_or_setup)
    else:
        setup = {"decks": list(decks_or_setup)}
    players = engine.num_players(setup)
    if len(agents) != players:
        raise ValueError(f"{engine.slug} needs {players} agents, got {len(agents)}")
    if games < 1:
        raise ValueError("games must be at least 1")
    seeds = Rng(seed)
    wins = [0] * players
    draws = 0
    lengths: list[int] = []
    reasons: Counter[str] = Counter()
    results: list[int | None] = []
    team_wins = team_losses = 0
    for _ in range(games):
        game_seed = seeds.next_u64() >> 1
        state = engine.new_initial_state(game_seed, setup)
        seats = [_agent(spec, (game_seed + 1 + i) & 0xFFFFFFFF) for i, spec in enumerate(agents)]
        actions = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance())
                continue
            state.apply(seats[player].act(state))
            actions += 1
        if engine.cooperative:
            outcome = state.returns()[0]
            team_wins += outcome > 0
            team_losses += outcome < 0
        winner = state.winner()
        results.append(winner)
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        lengths.append(actions)
        reasons[state.end_reason() or "ended"] += 1
    names = list(getattr(engine, "player_names", ())) or [f"player {i}" for i in range(players)]
    sides = []
    for player in range(players):
        low, high = wilson_interval(wins[player], games)
        label = (
            agents[player]
            if isinstance(agents[player], str)
            else getattr(agents[player], "__name__", "custom")
        )
        sides.append(
            SideResult(
                player,
                names[player],
                str(label),
                wins[player],
                round(wins[player] / games, 6),
                round(low, 6),
                round(high, 6),
            )
        )
    histogram = Counter(_bucket(length, bucket_width) for length in lengths)
    team = None
    if engine.cooperative:
        low, high = wilson_interval(team_wins, games)
        team = TeamResult(
            team_wins, team_losses, round(team_wins / games, 6), round(low, 6), round(high, 6)
        )
    return SimulationReport(
        game=engine.slug,
        setup=setup,
        games=games,
        seed=seed,
        sides=sides,
        draws=draws,
        length_mean=round(sum(lengths) / games, 6),
        length_min=min(lengths),
        length_max=max(lengths),
        length_histogram=dict(sorted(histogram.items())),
        end_reasons=dict(sorted(reasons.items())),
        results=results,
        team=team,
    )
