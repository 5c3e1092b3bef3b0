"""A game's strength ladder: a round robin between its agents, rated on one scale.

Every agent a game offers plays every other over the game's sample decks (``example_setups``
seating two), four games a cycle: each agent on each deck of a pair (mirrored decks) and in each
seat, so neither a deck nor a seat favours anyone. A co-operative game has no rival agent: each
agent plays the team's games against the game itself, which takes part in the ladder as the
participant ``THE_GAME``.

Ratings are Bradley-Terry strengths on the Elo scale (a 400-point gap is 10:1 odds), fitted by
maximum likelihood with random fixed at 0; a draw is half a win to each side, and every pairing
starts with one virtual draw (``PRIOR_DRAWS``), so an agent that won every game has a finite
rating. The 95% interval of each rating is the normal one from the curvature of the likelihood
at its maximum (with random held at 0, so random's own interval is the point 0).

Each decision an agent takes is timed in CPU seconds (``time.process_time``: the process runs
one game at a time on one core), and the ladder reports the mean and the 95th percentile per
agent. Games are independent and seeded by their index, so ``jobs`` spreads them over processes
without changing a result. No Django here: ``manage.py ladder`` and ``bench/ladder.py`` both call
``play_ladder``; ``rules/ladders/<game>.json`` holds the published ladder the pages show.
"""

from __future__ import annotations

import json
import math
import platform
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

from rules.agents import AGENTS, Agent, parse_entrant, web_agent
from rules.engines.core import GamePlugin, Rng, State, plugin_for
from rules.engines.core.intervals import Z_95, wilson_interval
from rules.simulation import play_out

#: the participant a co-operative game's teams play against
THE_GAME = "the game"
#: the participant rated 0 (every game offers it)
ANCHOR = "random"
#: virtual draws every pairing starts with (keeps a clean sweep's rating finite)
PRIOR_DRAWS = 1.0
#: Elo points per natural-log unit of odds
ELO = 400 / math.log(10)
#: the published ladders, one JSON file per game slug
PUBLISHED = Path(__file__).resolve().parent / "ladders"


class Timed:
    """An agent whose every decision is timed in CPU seconds."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds: list[float] = []

    def act(self, state: State) -> Any:
        start = time.process_time()
        action = self.agent.act(state)
        self.seconds.append(time.process_time() - start)
        return action


@dataclass(frozen=True)
class GameOutcome:
    """One ladder game: the points of the first entrant of its pairing (1, 0.5 or 0), how it
    ended, which seat won, each entrant's decision times, the seat that moved first (None
    when the engine does not say, or in a co-operative game) and the first entrant's seat
    (None in a co-operative game)."""

    points: float
    end_reason: str
    winning_seat: int | None
    seconds: tuple[tuple[float, ...], tuple[float, ...]]
    first_mover: int | None = None
    seat: int | None = None


@dataclass(frozen=True)
class SeatScores:
    """The first entrant's points and games from each seat, and moving first or second (a
    game whose engine does not say who moved first counts in neither of those)."""

    seats: tuple[tuple[float, int], tuple[float, int]]
    moving: tuple[tuple[float, int], tuple[float, int]]

    @classmethod
    def of(cls, outcomes: Iterable[GameOutcome]) -> SeatScores:
        """Tally two-seat ``outcomes`` (a co-operative game's, seatless, are left out)."""
        seated = [o for o in outcomes if o.seat is not None]
        moved = [o for o in seated if o.first_mover is not None]
        return cls(
            (_tally(o for o in seated if o.seat == 0), _tally(o for o in seated if o.seat == 1)),
            (
                _tally(o for o in moved if o.first_mover == o.seat),
                _tally(o for o in moved if o.first_mover != o.seat),
            ),
        )

    def sentence(self, who: str) -> str:
        """How ``who`` (the first entrant) scored by seat and by moving first or second, each
        share with its Wilson 95% interval; empty when no game had seats."""
        if not self.seats[0][1] + self.seats[1][1]:
            return ""
        text = (
            f"{who} scored {_share(*self.seats[0])} from seat 0 and "
            f"{_share(*self.seats[1])} from seat 1"
        )
        if self.moving[0][1] + self.moving[1][1]:
            text += (
                f"; {_share(*self.moving[0])} moving first and "
                f"{_share(*self.moving[1])} moving second"
            )
        return text + "."


def _tally(outcomes: Iterable[GameOutcome]) -> tuple[float, int]:
    played = list(outcomes)
    return sum(o.points for o in played), len(played)


def _share(points: float, games: int) -> str:
    return f"{points:g}/{games} ({share_interval(points, games)})" if games else "0/0"


def share_interval(points: float, games: int, digits: int = 1) -> str:
    """``points`` of ``games`` as a share with its Wilson 95% interval, to ``digits`` decimals:
    "53.8%, 95% interval 51.0% to 56.6%"."""
    low, high = wilson_interval(points, games)
    return f"{points / games:.{digits}%}, 95% interval {low:.{digits}%} to {high:.{digits}%}"


def two_seat_setups(plugin: GamePlugin, open_only: bool = False) -> list[dict[str, Any]]:
    """The sample setups a ladder plays: those seating two (a co-operative game: all of them);
    with ``open_only``, only those that hide nothing (an entrant reads the whole position)."""
    engine = plugin.game()
    setups = [dict(setup) for setup in engine.example_setups()]
    if not engine.cooperative:
        setups = [setup for setup in setups if engine.num_players(setup) == 2]
    if open_only:
        setups = [
            setup for setup in setups if engine.new_initial_state(0, setup).is_perfect_information()
        ]
    if not setups:
        raise ValueError(f"{plugin.name} has no sample setup these agents can all play")
    return setups


def needs_open_play(entrants: Iterable[str]) -> bool:
    """Whether an entrant reads the whole position (alpha-beta), so hidden variants are out."""
    return any(
        getattr(AGENTS[parse_entrant(spec)[0]], "needs_perfect_information", False)
        for spec in entrants
    )


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed: the same in every pairing (common random numbers)."""
    return Rng(seed * 1_000_003 + index).next_u64() >> 1


def play_one(
    slug: str, first: str, second: str, index: int, seed: int, open_only: bool = False
) -> GameOutcome:
    """Game ``index`` of the pairing ``first`` vs ``second`` (``second`` is ``THE_GAME`` for a
    co-operative game), each at the web's budget (``play_pairing_game``)."""
    plugin = plugin_for(slug)
    return play_pairing_game(
        plugin,
        web_agent(first, plugin),
        None if second == THE_GAME else web_agent(second, plugin),
        index,
        seed,
        open_only,
    )


def dealt(
    plugin: GamePlugin,
    index: int,
    open_only: bool = False,
    setups: Sequence[dict[str, Any]] | None = None,
) -> tuple[int, dict[str, Any], int]:
    """How game ``index`` of a pairing is dealt: the number of its sample setup, the setup as
    dealt (``two_seat_setups``, or ``setups`` where the caller has them, walked through in
    cycles of four, the sides swapped with the plugin's ``swap_seats`` in the second half of
    each cycle; a co-operative game's as it is) and the seat of the pairing's first entrant
    (alternating)."""
    if setups is None:
        setups = two_seat_setups(plugin, open_only)
    number = (index // 4) % len(setups)
    setup = setups[number]
    if (index // 2) % 2 and not plugin.cooperative:
        setup = plugin.swap_seats(setup)
    return number, setup, index % 2


def play_pairing_game(
    plugin: GamePlugin,
    first: Callable[[int], Agent],
    second: Callable[[int], Agent] | None,
    index: int,
    seed: int,
    open_only: bool = False,
) -> GameOutcome:
    """Game ``index`` between two ``seed -> Agent`` factories (``second`` None: ``first``'s
    team against a co-operative game). In a cycle of four, ``first`` takes each deck of the
    pair (mirrored with the plugin's ``swap_seats``) and each seat; the cycles walk through
    the sample setups."""
    engine = plugin.game()
    _, setup, first_seat = dealt(plugin, index, open_only)
    number = game_seed(seed, index)
    if second is None:
        players = engine.num_players(setup)
        seats = [Timed(first((number + 1 + seat) & 0xFFFFFFFF)) for seat in range(players)]
        state = engine.new_initial_state(number, setup).quiet()
        play_out(state, seats)
        outcome = state.returns()[0]
        points = 1.0 if outcome > 0 else 0.0 if outcome < 0 else 0.5
        times = tuple(t for agent in seats for t in agent.seconds)
        return GameOutcome(points, state.end_reason() or "ended", None, (times, ()))
    makers = [second, second]
    makers[first_seat] = first
    seats = [Timed(make((number + 1 + seat) & 0xFFFFFFFF)) for seat, make in enumerate(makers)]
    state = engine.new_initial_state(number, setup).quiet()
    play_out(state, seats)
    winner = state.winner()
    points = 0.5 if winner is None else float(winner == first_seat)
    return GameOutcome(
        points,
        state.end_reason() or "ended",
        winner,
        (tuple(seats[first_seat].seconds), tuple(seats[1 - first_seat].seconds)),
        state.first_player(),
        first_seat,
    )


@dataclass(frozen=True)
class Pairing:
    """The games of two entrants: the first entrant's points (a draw is half a point)."""

    first: str
    second: str
    games: int
    points: float
    draws: int
    cutoffs: int
    #: wins by seat (seat 0, seat 1); empty for a co-operative game
    seat_wins: tuple[int, ...] = ()
    #: the games with a winner whose engine said which seat moved first, and how many of them
    #: that seat won; 0 and 0 in a co-operative game or a ladder stored before they were counted
    first_mover_games: int = 0
    first_mover_wins: int = 0

    @property
    def score(self) -> float:
        """The first entrant's share of the points."""
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True)
class Rating:
    """An entrant's place on the ladder."""

    entrant: str
    elo: float
    low: float
    high: float
    games: int
    points: float
    decisions: int
    cpu_mean_ms: float
    cpu_p95_ms: float


@dataclass
class Ladder:
    """A game's ladder: every pairing's games and the ratings fitted to them."""

    game: str
    games_per_pairing: int
    seed: int
    setups: int
    pairings: list[Pairing]
    ratings: list[Rating]
    cooperative: bool = False
    played_on: str = field(default_factory=lambda: date.today().isoformat())
    machine: str = field(default_factory=lambda: describe_machine())
    #: the CPU seconds all decisions of all games took
    decision_seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ladder:
        values = dict(data)
        values["pairings"] = [
            Pairing(**{**p, "seat_wins": tuple(p.get("seat_wins", ()))}) for p in data["pairings"]
        ]
        values["ratings"] = [Rating(**r) for r in data["ratings"]]
        return cls(**values)

    def rating_of(self, entrant: str) -> Rating | None:
        return next((r for r in self.ratings if r.entrant == entrant), None)

    def table(self) -> str:
        """The ladder as a Markdown table, strongest first, then each pairing."""
        rows = [
            "| Rank | Agent | Elo (random = 0) | 95% interval | Games | Score | "
            "CPU per decision: mean | p95 |",
            "|---:|---|---:|---|---:|---:|---:|---:|",
        ]
        for rank, rating in enumerate(self.ratings, 1):
            timing = (
                (f"{rating.cpu_mean_ms:.1f} ms", f"{rating.cpu_p95_ms:.1f} ms")
                if rating.decisions
                else ("n/a", "n/a")
            )
            interval = (
                "fixed"
                if rating.low == rating.high
                else f"{signed(rating.low)} to {signed(rating.high)}"
            )
            score = f"{rating.points / rating.games:.1%}" if rating.games else "n/a"
            rows.append(
                f"| {rank} | {rating.entrant} | {signed(rating.elo)} | {interval} | "
                f"{rating.games} | {score} | {timing[0]} | {timing[1]} |"
            )
        head = "| Pairing | Games | Score of the first | Draws | Cut-off endings |"
        rule = "|---|---:|---:|---:|---:|"
        if not self.cooperative:
            head += " Wins by seat (0 / 1) | Won by the first mover |"
            rule += "---:|---:|"
        rows += ["", head, rule]
        for p in self.pairings:
            row = (
                f"| {p.first} vs {p.second} | {p.games} | {p.score:.1%} | {p.draws} | {p.cutoffs} |"
            )
            if not self.cooperative:
                first = (
                    f"{p.first_mover_wins} of {p.first_mover_games}"
                    if p.first_mover_games
                    else "n/a"
                )
                row += f" {p.seat_wins[0]} / {p.seat_wins[1]} | {first} |"
            rows.append(row)
        summary = self.seat_summary()
        if summary:
            rows += ["", summary]
        return "\n".join(rows)

    def first_mover(self) -> tuple[int, int] | None:
        """(games won by whoever moved first, games with a winner whose first mover is known)
        over every pairing; None for a co-operative game, a ladder stored before it was
        counted, or one whose every game was drawn."""
        movers = sum(p.first_mover_games for p in self.pairings)
        if self.cooperative or not movers:
            return None
        return sum(p.first_mover_wins for p in self.pairings), movers

    def seat_summary(self) -> str:
        """A sentence on how the seats fared over every pairing: the wins from each seat, and
        how often whoever moved first won, with its Wilson 95% interval (empty where
        ``first_mover`` is None)."""
        first = self.first_mover()
        if first is None:
            return ""
        won, movers = first
        games = sum(p.games for p in self.pairings)
        seat_wins = [sum(p.seat_wins[seat] for p in self.pairings) for seat in (0, 1)]
        return (
            f"By seat, over all {games} games: seat 0 won {seat_wins[0]}, seat 1 won "
            f"{seat_wins[1]}, {games - sum(seat_wins)} drawn; whoever moved first won {won} of "
            f"the {movers} won games ({share_interval(won, movers)})."
        )


def signed(points: float) -> str:
    """Elo points with their sign, rounded to a whole point ("+0", never "-0")."""
    return f"{round(points):+d}"


def describe_machine() -> str:
    """The machine a ladder ran on, in a line."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, Python {platform.python_version()}"


def fit_ratings(
    pairings: Iterable[Pairing], anchor: str = ANCHOR, prior_draws: float = PRIOR_DRAWS
) -> dict[str, tuple[float, float, float]]:
    """Bradley-Terry ratings on the Elo scale: entrant -> (rating, low, high) of the 95%
    interval, ``anchor`` fixed at 0 (or the first entrant when the anchor did not play).

    Raises ``ValueError`` when the pairings do not connect every entrant to the anchor."""
    wins: dict[tuple[str, str], float] = {}
    entrants: list[str] = []
    for p in pairings:
        for name in (p.first, p.second):
            if name not in entrants:
                entrants.append(name)
        a, b = p.first, p.second
        wins[a, b] = wins.get((a, b), 0.0) + p.points + prior_draws / 2
        wins[b, a] = wins.get((b, a), 0.0) + (p.games - p.points) + prior_draws / 2
    if not entrants:
        return {}
    fixed = anchor if anchor in entrants else entrants[0]
    _check_connected(entrants, wins, fixed)
    free = [name for name in entrants if name != fixed]
    theta = dict.fromkeys(entrants, 0.0)
    hessian: list[list[float]] = []
    for _ in range(200):
        gradient, hessian = _derivatives(free, theta, wins)
        step = _solve(hessian, gradient)
        for name, delta in zip(free, step, strict=True):
            theta[name] += delta
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    covariance = _inverse(hessian) if free else []
    fitted = {fixed: (0.0, 0.0, 0.0)}
    for i, name in enumerate(free):
        half = Z_95 * math.sqrt(max(covariance[i][i], 0.0)) * ELO
        centre = theta[name] * ELO
        fitted[name] = (centre, centre - half, centre + half)
    return fitted


def _check_connected(
    entrants: Sequence[str], wins: Mapping[tuple[str, str], float], fixed: str
) -> None:
    reached = {fixed}
    frontier = [fixed]
    while frontier:
        name = frontier.pop()
        for a, b in wins:
            if a == name and b not in reached:
                reached.add(b)
                frontier.append(b)
    missing = [name for name in entrants if name not in reached]
    if missing:
        raise ValueError(f"no games connect {', '.join(missing)} to {fixed}")


def _derivatives(
    free: Sequence[str], theta: Mapping[str, float], wins: Mapping[tuple[str, str], float]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its negated Hessian over the free entrants."""
    index = {name: i for i, name in enumerate(free)}
    gradient = [0.0] * len(free)
    curvature = [[0.0] * len(free) for _ in free]
    seen: set[frozenset[str]] = set()
    for a, b in wins:
        pair = frozenset((a, b))
        if pair in seen:
            continue
        seen.add(pair)
        games = wins[a, b] + wins[b, a]
        p = 1 / (1 + math.exp(theta[b] - theta[a]))
        weight = games * p * (1 - p)
        surplus = wins[a, b] - games * p
        for name, sign in ((a, 1.0), (b, -1.0)):
            if name in index:
                gradient[index[name]] += sign * surplus
                curvature[index[name]][index[name]] += weight
        if a in index and b in index:
            curvature[index[a]][index[b]] -= weight
            curvature[index[b]][index[a]] -= weight
    return gradient, curvature


def _solve(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gaussian elimination, partial pivoting)."""
    n = len(vector)
    rows = [[*map(float, matrix[i]), float(vector[i])] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-300:
            raise ValueError("the ratings are not determined by these games")
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                if factor:
                    rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [float(i == j) for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0-1) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def entrants_of(plugin: GamePlugin) -> list[str]:
    """The agents a game's ladder rates: every agent its matchups offer, then each difficulty
    level's entrant that is not already one of them."""
    names = list(plugin.matchup_agents)
    if ANCHOR not in names:
        names.append(ANCHOR)
    for level in plugin.difficulty_levels.values():
        if level.agent not in names:
            names.append(level.agent)
    return names


def play_ladder(
    slug: str,
    games: int,
    seed: int = 1,
    *,
    entrants: Sequence[str] | None = None,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
) -> Ladder:
    """Play a game's ladder: ``games`` games for each pair of entrants (each against the game
    itself for a co-operative game), then fit the ratings. ``entrants`` default to
    ``entrants_of`` the game's plugin."""
    if games < 1:
        raise ValueError("a ladder needs at least one game a pairing")
    plugin = plugin_for(slug)
    names = list(entrants or entrants_of(plugin))
    for name in names:
        web_agent(name, plugin)  # refuse an unknown agent before playing anything
    cooperative = plugin.game().cooperative
    pairs = [(name, THE_GAME) for name in names] if cooperative else list(combinations(names, 2))
    open_only = needs_open_play(names)
    tasks = [(slug, a, b, index, seed, open_only) for a, b in pairs for index in range(games)]
    outcomes = play_tasks(tasks, jobs, progress)
    return summarise(plugin, names, pairs, outcomes, games, seed)


#: one game to play: (slug, first, second, index, seed, open_only), as ``play_one`` takes them
Task = tuple[str, str, str, int, int, bool]


def play_tasks(
    tasks: Sequence[Task], jobs: int = 1, progress: Callable[[str], None] | None = None
) -> list[GameOutcome]:
    """Play ``tasks`` (``play_one``'s arguments) over ``jobs`` processes; the outcomes are in
    the order of the tasks and do not depend on ``jobs``."""
    outcomes: list[GameOutcome] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, outcome in enumerate(pool.map(_play_task, tasks, chunksize=4), 1):
                outcomes.append(outcome)
                _report(progress, done, len(tasks), tasks[done - 1])
    else:
        for done, task in enumerate(tasks, 1):
            outcomes.append(_play_task(task))
            _report(progress, done, len(tasks), task)
    return outcomes


def _play_task(task: Task) -> GameOutcome:
    return play_one(*task)


def _report(
    progress: Callable[[str], None] | None, done: int, total: int, task: tuple[Any, ...]
) -> None:
    if progress is not None and (done == total or done % 20 == 0):
        progress(f"{done}/{total} games (last: {task[1]} vs {task[2]})")


def summarise(
    plugin: GamePlugin,
    names: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    outcomes: Sequence[GameOutcome],
    games: int,
    seed: int,
) -> Ladder:
    """The ladder of played games (``games`` outcomes per pair, in the order of ``pairs``)."""
    cooperative = plugin.game().cooperative
    pairings: list[Pairing] = []
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for number, (a, b) in enumerate(pairs):
        chunk = outcomes[number * games : (number + 1) * games]
        seat_wins = [0, 0]
        movers = [o for o in chunk if o.first_mover is not None and o.winning_seat is not None]
        for outcome in chunk:
            if outcome.winning_seat is not None:
                seat_wins[outcome.winning_seat] += 1
            seconds[a].extend(outcome.seconds[0])
            if b in seconds:
                seconds[b].extend(outcome.seconds[1])
        pairings.append(
            Pairing(
                a,
                b,
                len(chunk),
                sum(o.points for o in chunk),
                sum(o.points == 0.5 for o in chunk),
                sum(o.end_reason in plugin.cutoff_reasons for o in chunk),
                () if cooperative else tuple(seat_wins),
                len(movers),
                sum(o.winning_seat == o.first_mover for o in movers),
            )
        )
    fitted = fit_ratings(pairings)
    ratings = []
    for name in [*names, *([THE_GAME] if cooperative else [])]:
        played = [p for p in pairings if name in (p.first, p.second)]
        points = sum(p.points if p.first == name else p.games - p.points for p in played)
        times = seconds.get(name, [])
        elo, low, high = fitted[name]
        ratings.append(
            Rating(
                name,
                round(elo, 1),
                round(low, 1),
                round(high, 1),
                sum(p.games for p in played),
                points,
                len(times),
                round(1000 * sum(times) / len(times), 3) if times else 0.0,
                round(1000 * percentile(times, 0.95), 3),
            )
        )
    ratings.sort(key=lambda r: -r.elo)
    return Ladder(
        plugin.slug,
        games,
        seed,
        len(two_seat_setups(plugin, needs_open_play(names))),
        pairings,
        ratings,
        cooperative=cooperative,
        decision_seconds=round(sum(sum(t) for t in seconds.values()), 1),
    )


def write_published(ladder: Ladder, directory: Path | None = None) -> Path:
    """Store ``ladder`` as its game's published ladder (in ``PUBLISHED``); return the file."""
    directory = directory or PUBLISHED
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{ladder.game}.json"
    path.write_text(json.dumps(ladder.as_dict(), indent=1, sort_keys=True) + "\n")
    return path


def published(slug: str, directory: Path | None = None) -> Ladder | None:
    """A game's published ladder, or None when it has none (or the file does not read); read
    once per version of the file."""
    path = (directory or PUBLISHED) / f"{slug}.json"
    try:
        return _read(path, path.stat().st_mtime_ns)
    except OSError:
        return None


@lru_cache(maxsize=32)
def _read(path: Path, version: int) -> Ladder | None:
    try:
        return Ladder.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None


#: the page that publishes every game's ladder; each game's table sits between two markers
DOCS = PUBLISHED.parent.parent / "docs" / "agents.md"


def publish(ladder: Ladder, command: str) -> None:
    """Store ``ladder`` for the pages (``rules/ladders/<game>.json``) and put its table, date,
    machine and ``command`` in the game's block of ``docs/agents.md`` (added when missing)."""
    write_published(ladder)
    opponents = "against the game" if ladder.cooperative else "a pairing"
    block = "\n".join(
        [
            f"### {plugin_for(ladder.game).name}",
            "",
            f"Measured {ladder.played_on} on {ladder.machine}: {ladder.games_per_pairing} games "
            f"{opponents} over {ladder.setups} sample setups, {ladder.decision_seconds:,.0f} CPU "
            f"seconds of decisions, with `{command}`.",
            "",
            ladder.table(),
        ]
    )
    write_block(DOCS, f"ladder:{ladder.game}", block)


def write_block(doc: Path, key: str, block: str, section: str | None = None) -> None:
    """Put ``block`` between the markers ``<!-- key -->`` and ``<!-- /key -->`` of ``doc``,
    replacing what they held; when they are missing, add them at the end of ``section`` (a
    "## " heading's text, which must be there) or else of the page."""
    start, end = f"<!-- {key} -->", f"<!-- /{key} -->"
    framed = f"{start}\n{block}\n{end}"
    text = doc.read_text() if doc.exists() else "# Agents\n"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        text = before + framed + rest.split(end, 1)[1]
    elif section is not None:
        heading = f"## {section}\n"
        if heading not in text:
            raise ValueError(f"{doc} has no section {section!r}")
        head, tail = text.split(heading, 1)
        body, marker, rest = tail.partition("\n## ")
        text = head + heading + body.rstrip("\n") + "\n\n" + framed + "\n" + marker + rest
    else:
        text = text.rstrip("\n") + "\n\n" + framed + "\n"
    doc.write_text(text)


def add_arguments(parser: Any) -> None:
    """The options of ``manage.py ladder`` and ``bench/ladder.py`` (an argparse parser)."""
    parser.add_argument("--game", required=True, help="The game's slug.")
    parser.add_argument("--games", type=int, default=40, help="Games a pairing (default 40).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="Processes playing games.")
    parser.add_argument(
        "--agents",
        help="Comma-separated entrants (default: every agent the game offers and its "
        "difficulty levels); options in brackets replace the web budget: 'mcts(iterations=200)'.",
    )
    parser.add_argument("--json", action="store_true", help="Print the ladder as JSON.")
    parser.add_argument(
        "--publish",
        action="store_true",
        help="Store it for the pages (rules/ladders/) and in docs/agents.md.",
    )


def run_ladder(options: Any, command: str, say: Callable[[str], None]) -> Ladder:
    """Play and print (and with ``--publish``, publish) the ladder ``options`` ask for."""
    entrants = _split_entrants(options.agents) if options.agents else None
    ladder = play_ladder(
        options.game,
        options.games,
        options.seed,
        entrants=entrants,
        jobs=options.jobs,
        progress=say,
    )
    say(json.dumps(ladder.as_dict(), indent=1) if options.json else ladder.table())
    if options.publish:
        publish(ladder, command)
        say(f"published rules/ladders/{ladder.game}.json and docs/agents.md")
    return ladder


def _split_entrants(text: str) -> list[str]:
    """Entrants separated by commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return [part for part in parts if part]
