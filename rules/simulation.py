"""Many games between agents, summarised: who wins (with Wilson 95% intervals), how long, how.

Pure Python (no Django), so a Celery task, the ``simulate`` command and tests share it. The same
game, setup, agents, number of games and seed give the same report, byte for byte.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rules.agents import Agent, make_agent
from rules.engines.core import CHANCE, Action, Game, Rng, State, find_plugin, get_game
from rules.engines.core.intervals import wilson_interval
from rules.engines.core.plugin import swap_decks

AgentSpec = str | Callable[[int], Agent]


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
    moved_first: int = 0
    """Games this side moved first in (engines with a ``first_player()`` hook)."""
    first_wins: int = 0
    """Of those, the games it won."""


@dataclass
class SeatResult:
    """One seat's results, whoever sat there (with rotating seats every side takes its turn)."""

    seat: int
    name: str
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
class FirstPlayerResult:
    """How whoever moved first fared (engines with a ``first_player()`` hook)."""

    games: int
    wins: int
    losses: int
    draws: int
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
    alternate_seats: bool = False
    """When true, side ``i`` is ``agents[i]`` (with deck ``i``) wherever it sat: game ``k`` seats
    side ``(s + k) mod N`` in seat ``s`` (two players: odd games swap)."""
    seats: list[SeatResult] = field(default_factory=list)
    """Wins by seat (seat 0 first): with fixed seats the same figures as ``sides``."""
    turns_mean: float | None = None
    turns_min: int | None = None
    turns_max: int | None = None
    """Turns per game, for engines with a ``turn_count()`` hook (``None`` otherwise)."""
    end_reasons_by_side: dict[str, dict[str, int]] = field(default_factory=dict)
    """Side name (or ``draw``) to how its games ended, e.g. ``{"player 0": {"lp-victory": 3}}``."""
    first_player: FirstPlayerResult | None = None
    game_log: dict[str, Any] | None = None
    """The logged game (``log_game``): seed, setup, actions, events; not part of ``as_dict``."""
    game_summaries: list[dict[str, Any]] = field(default_factory=list)
    """One entry per game, in order: ``winner`` (side), ``length`` (actions), ``turns``,
    ``end_reason`` and ``first_player`` (seat); enough to list every game. Not part of
    ``as_dict`` (it grows with the number of games)."""

    def as_dict(self) -> dict[str, Any]:
        """Return plain data (without ``game_log`` and ``game_summaries``)."""
        data = asdict(self)
        data.pop("game_log", None)
        data.pop("game_summaries", None)
        return data

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


def _rotated(engine: Game, setup: dict[str, Any], shift: int, players: int) -> dict[str, Any]:
    """The setup with the side of seat ``(s + shift) mod N`` in seat ``s`` (rotating seats): the
    game's plugin says how (by default its decks move round the table)."""
    plugin = find_plugin(engine.slug)
    if plugin is not None:
        return plugin.rotate_seats(setup, shift, players)
    return swap_decks(setup) if players == 2 and shift % 2 else dict(setup)


def seat_order(players: int, index: int, *, rotate: bool) -> list[int]:
    """Per seat, the side sitting there in game ``index``: with ``rotate`` side ``(s + index)
    mod players`` sits in seat ``s``, so over any ``players`` games in a row every side sits in
    every seat (and moves first) once; without, side ``s`` always sits in seat ``s``."""
    shift = index % players if rotate else 0
    return [(seat + shift) % players for seat in range(players)]


def game_record(
    engine: Game, index: int, game_seed: int, setup: Mapping[str, Any], state: Any, seats: list[int]
) -> dict[str, Any]:
    """A finished game as JSON-ready data that ``replay_record`` plays again to the same end."""
    return {
        "game": engine.slug,
        "index": index,
        "seed": game_seed,
        "setup": dict(setup),
        "seats": seats,
        "actions": [{"player": player, "action": str(action)} for player, action in state.history],
        "events": [event.as_dict() for event in state.events],
        "returns": list(state.returns()),
        "winner": state.winner(),
        "end_reason": state.end_reason(),
        "turns": state.turn_count(),
        "first_player": state.first_player(),
    }


def replay_record(record: Mapping[str, Any], game: Game | None = None) -> Any:
    """Rebuild the final state of a ``game_record`` from its seed, setup and action list."""
    engine = game or get_game(str(record["game"]))
    actions = [Action.parse(str(item["action"])) for item in record["actions"]]
    return engine.replay(int(record["seed"]), record["setup"], actions)


def _sides_cards(
    engine: Game, state: Any, order: Sequence[int]
) -> list[dict[str, list[str]]] | None:
    """The finished game's card sightings by side (seat ``s`` is side ``order[s]``), as sorted
    name lists in each side's own names (``GamePlugin.seat_sightings``); None where the engine
    does not tell."""
    sightings = state.card_sightings()
    if sightings is None:
        return None
    plugin = find_plugin(engine.slug)
    sides: list[dict[str, list[str]]] = [{} for _ in order]
    for seat, seen in enumerate(sightings):
        if plugin is not None:
            seen = plugin.seat_sightings(engine, seen, seat, order[seat])
        sides[order[seat]] = {
            "deck": sorted(seen.deck),
            "drew": sorted(seen.drew),
            "played": sorted(seen.played),
        }
    return sides


def play_out(state: State, seats: Sequence[Agent]) -> int:
    """Play ``state`` to its end, chance sampled and each seat's agent deciding for it; return
    how many decisions the agents took."""
    actions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance())
            continue
        state.apply(seats[player].act(state))
        actions += 1
    return actions


def _setup_of(decks_or_setup: Mapping[str, Any] | Sequence[Any] | None) -> dict[str, Any]:
    """A run's setup: a mapping as given, a list of decks as ``{"decks": [...]}``, or none."""
    if decks_or_setup is None:
        return {}
    if isinstance(decks_or_setup, Mapping):
        return dict(decks_or_setup)
    return {"decks": list(decks_or_setup)}


def _side_names(
    engine: Game, players: int, rotate: bool, side_names: Sequence[str] | None
) -> list[str]:
    """The sides' labels: the caller's, else the engine's seat names (``side i`` when seats
    rotate, since a side then sits in every seat)."""
    if side_names is not None:
        if len(side_names) != players:
            raise ValueError(f"side_names needs {players} names, got {len(side_names)}")
        return [str(name) for name in side_names]
    if rotate:
        return [f"side {i}" for i in range(players)]
    return list(engine.player_names) or [f"player {i}" for i in range(players)]


def _rounded_interval(wins: int, games: int) -> tuple[float, float, float]:
    """The share ``wins / games`` and its Wilson 95% interval, rounded as reports print them."""
    low, high = wilson_interval(wins, games)
    return round(wins / games, 6), round(low, 6), round(high, 6)


class _Tally:
    """What ``run`` counts as its games end; ``report`` turns the counts into the report."""

    def __init__(self, engine: Game, players: int, names: list[str]) -> None:
        self.engine = engine
        self.players = players
        self.names = names
        self.wins = [0] * players
        self.seat_wins = [0] * players
        self.moved_first = [0] * players
        self.first_side_wins = [0] * players
        self.draws = 0
        self.lengths: list[int] = []
        self.turns: list[int] = []
        self.reasons: Counter[str] = Counter()
        self.by_side: dict[str, Counter[str]] = {}
        self.results: list[int | None] = []
        self.team_wins = 0
        self.team_losses = 0
        self.first_games = 0
        self.first_wins = 0
        self.first_losses = 0
        self.summaries: list[dict[str, Any]] = []

    def add(self, state: Any, order: list[int], actions: int, card_sightings: bool) -> None:
        """Count one finished game, whose seat ``s`` was played by side ``order[s]``."""
        if self.engine.cooperative:
            outcome = state.returns()[0]
            self.team_wins += outcome > 0
            self.team_losses += outcome < 0
        seat_winner = state.winner()
        winner = None if seat_winner is None else order[seat_winner]
        self.results.append(winner)
        reason = state.end_reason() or "ended"
        if seat_winner is None or winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
            self.seat_wins[seat_winner] += 1
        self.lengths.append(actions)
        self.reasons[reason] += 1
        side = "draw" if winner is None else self.names[winner]
        self.by_side.setdefault(side, Counter())[reason] += 1
        turn_count = state.turn_count()
        if turn_count is not None:
            self.turns.append(turn_count)
        first = state.first_player()
        summary: dict[str, Any] = {
            "winner": winner,
            "length": actions,
            "turns": turn_count,
            "end_reason": reason,
            "first_player": first,
            "first_side": None if first is None else order[first],
            "seats": order,
        }
        if card_sightings:
            summary["cards"] = _sides_cards(self.engine, state, order)
        self.summaries.append(summary)
        if first is not None:
            self.moved_first[order[first]] += 1
            self.first_side_wins[order[first]] += seat_winner == first
            self.first_games += 1
            self.first_wins += seat_winner == first
            self.first_losses += seat_winner is not None and seat_winner != first

    def report(
        self,
        *,
        setup: dict[str, Any],
        games: int,
        seed: int,
        agents: Sequence[AgentSpec],
        seat_names: list[str],
        rotate: bool,
        bucket_width: int,
        game_log: dict[str, Any] | None,
    ) -> SimulationReport:
        """The report of the games counted so far (``games`` of them)."""
        sides = []
        for player in range(self.players):
            spec = agents[player]
            label = spec if isinstance(spec, str) else getattr(spec, "__name__", "custom")
            share, low, high = _rounded_interval(self.wins[player], games)
            sides.append(
                SideResult(
                    player,
                    self.names[player],
                    str(label),
                    self.wins[player],
                    share,
                    low,
                    high,
                    self.moved_first[player],
                    self.first_side_wins[player],
                )
            )
        seat_results = [
            SeatResult(
                seat,
                seat_names[seat],
                self.seat_wins[seat],
                *_rounded_interval(self.seat_wins[seat], games),
            )
            for seat in range(self.players)
        ]
        team = None
        if self.engine.cooperative:
            team = TeamResult(
                self.team_wins, self.team_losses, *_rounded_interval(self.team_wins, games)
            )
        first_result = None
        if self.first_games:
            first_result = FirstPlayerResult(
                self.first_games,
                self.first_wins,
                self.first_losses,
                self.first_games - self.first_wins - self.first_losses,
                *_rounded_interval(self.first_wins, self.first_games),
            )
        lengths, turns = self.lengths, self.turns
        histogram = Counter(_bucket(length, bucket_width) for length in lengths)
        return SimulationReport(
            game=self.engine.slug,
            setup=setup,
            games=games,
            seed=seed,
            sides=sides,
            draws=self.draws,
            length_mean=round(sum(lengths) / games, 6),
            length_min=min(lengths),
            length_max=max(lengths),
            length_histogram=dict(sorted(histogram.items())),
            end_reasons=dict(sorted(self.reasons.items())),
            results=self.results,
            team=team,
            alternate_seats=rotate,
            seats=seat_results,
            turns_mean=round(sum(turns) / len(turns), 6) if turns else None,
            turns_min=min(turns) if turns else None,
            turns_max=max(turns) if turns else None,
            end_reasons_by_side={
                side: dict(sorted(counts.items())) for side, counts in sorted(self.by_side.items())
            },
            first_player=first_result,
            game_log=game_log,
            game_summaries=self.summaries,
        )


def run(
    game: Game | str,
    decks_or_setup: Mapping[str, Any] | Sequence[Any] | None,
    agents: Sequence[AgentSpec],
    games: int,
    seed: int,
    bucket_width: int = 5,
    *,
    alternate_seats: bool = False,
    log_game: int | None = None,
    side_names: Sequence[str] | None = None,
    start_index: int = 0,
    card_sightings: bool = False,
) -> SimulationReport:
    """Play ``games`` games from ``decks_or_setup`` (a setup mapping, or a list of decks passed
    as ``{"decks": [...]}``) between ``agents`` (names or ``seed -> Agent`` factories, one per
    seat) and summarise them. Game ``i`` uses seeds drawn from one ``Rng(seed)``.

    With ``alternate_seats`` the seats rotate: game ``k`` seats side ``(s + k) mod N`` (its agent
    and its deck) in seat ``s`` (two players: odd games swap), so with a fixed first seat every
    side moves first as often as the others, give or take one game; the report's sides still
    follow ``agents`` and ``seats`` counts the wins by seat. A co-operative game (the whole table
    wins together) is never rotated. ``start_index`` numbers the first game (a run played one
    game at a time rotates game ``k`` as game ``k``). ``log_game``
    (an index into ``results``) keeps that game's full record in ``report.game_log``.
    ``side_names`` label the sides (e.g. deck names) instead of the engine's seat names.
    With ``card_sightings`` each game's summary also holds ``cards``: per side, the cards of its
    deck, those it drew and those it played (``State.card_sightings``), or None where the
    engine does not tell.
    """
    engine = get_game(game) if isinstance(game, str) else game
    setup = _setup_of(decks_or_setup)
    players = engine.num_players(setup)
    if len(agents) != players:
        raise ValueError(f"{engine.slug} needs {players} agents, got {len(agents)}")
    if games < 1:
        raise ValueError("games must be at least 1")
    rotate = alternate_seats and not engine.cooperative and players > 1
    if log_game is not None and not 0 <= log_game < games:
        raise ValueError(f"log_game must be between 0 and {games - 1}")
    seat_names = list(engine.player_names) or [f"player {i}" for i in range(players)]
    tally = _Tally(engine, players, _side_names(engine, players, rotate, side_names))
    seeds = Rng(seed)
    game_log: dict[str, Any] | None = None
    for index in range(games):
        game_seed = seeds.next_u64() >> 1
        # seat s is played by side order[s]
        order = seat_order(players, start_index + index, rotate=rotate)
        game_setup = _rotated(engine, setup, order[0], players) if order[0] else setup
        state = engine.new_initial_state(game_seed, game_setup)
        seats = [
            _agent(agents[side], (game_seed + 1 + seat) & 0xFFFFFFFF)
            for seat, side in enumerate(order)
        ]
        tally.add(state, order, play_out(state, seats), card_sightings)
        if index == log_game:
            game_log = game_record(engine, index, game_seed, game_setup, state, order)
    return tally.report(
        setup=setup,
        games=games,
        seed=seed,
        agents=agents,
        seat_names=seat_names,
        rotate=rotate,
        bucket_width=bucket_width,
        game_log=game_log,
    )
