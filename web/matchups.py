"""Matchups on the web: which games and agents the matchup form offers, and a matchup job's
table (``rules.lab.selectors.simulation_job_matchup``) as the page shows it.

Every game with an engine has matchups. The game's plugin seats the decks
(``GamePlugin.matchup_setup``, through ``rules.lab.plans.matchup_plan``): competitive games seat two
decks (Reign Absolute two to four), each played by its own agent, and the seats rotate from game
to game unless the user asks for fixed seats (deck A then always moves first); a co-operative game
seats a team: one starting deck for every player, all played by deck A's agent, or one deck (and
agent) per player. The result is each deck's win rate, each seat's, and how whoever moved first
fared; for a team, the team's win rate. A matchup is a ``SimulationJob(kind="matchup")`` like any
other job (``rules.lab.jobs``); this module only reads its outputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engines.core import GamePlugin, PageWords, find_plugin, plugins
from rules.lab.selectors import MatchupTable
from rules.matchups import agent_label
from web.charts import bar_chart, bucket_points


def matchup_plugins() -> list[GamePlugin]:
    """The plugins of every game with matchups (every game whose engine plugs in)."""
    return plugins()


def matchup_games() -> list[str]:
    """The slugs of every game with matchups."""
    return [plugin.slug for plugin in matchup_plugins()]


def matchups_available(game_slug: str) -> bool:
    """Whether decks of this game can be played by the engine."""
    return find_plugin(game_slug) is not None


def matchup_agent_choices() -> tuple[dict[str, str], dict[str, list[str]]]:
    """Every agent some game's matchups offer, with its shared label (in the order the games
    list them), and per game slug the agents its plugin offers, its default first."""
    offers = {plugin.slug: list(plugin.matchup_agents) for plugin in matchup_plugins()}
    names = dict.fromkeys(name for names in offers.values() for name in names)
    return {name: agent_label(name) for name in names}, offers


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideSummary:
    """A deck's (or a seat's, or the team's) results: wins and win rate with its Wilson 95%
    interval; for a deck, how often it moved first and won then."""

    label: str
    agent: str
    wins: int
    rate: float
    low: float
    high: float
    moved_first: int | None = None
    first_wins: int | None = None


def _summary(label: str, agent: str, wins: int, games: int, **first: int | None) -> SideSummary:
    from rules.engines.core.intervals import wilson_interval

    low, high = wilson_interval(wins, games)
    return SideSummary(label, agent, wins, wins / games if games else 0.0, low, high, **first)


def seat_names(run: MatchupTable) -> list[str]:
    """What the page calls each seat: its number, and the engine's name for it where it has one
    (Regality vs Religion's seats are its two alignments)."""
    plugin = find_plugin(run.game.slug)
    names = list(plugin.game.player_names) if plugin is not None else []
    return [
        f"Seat {seat + 1}" + (f" ({names[seat].title()})" if seat < len(names) else "")
        for seat in range(len(run.sides))
    ]


def matchup_summary(run: MatchupTable) -> dict[str, Any]:
    """Win rates with Wilson 95% intervals by deck and by seat (or the team's), how whoever moved
    first fared, mean length and chart points."""
    totals = run.totals
    games = totals.get("games", 0)
    sides = []
    seats = []
    slug = run.game.slug
    if run.cooperative:
        label = run.title
        agents = ", ".join(dict.fromkeys(agent_label(name, slug) for name in run.agents))
        sides.append(_summary(label, agents, totals.get("team_wins", 0), games))
    else:
        wins = totals.get("wins", [])
        moved = totals.get("moved_first")
        first_wins = totals.get("first_side_wins")
        for side, count in enumerate(wins):
            sides.append(
                _summary(
                    run.labels[side],
                    agent_label(run.agents[side], slug),
                    count,
                    games,
                    moved_first=moved[side] if moved else None,
                    first_wins=first_wins[side] if first_wins else None,
                )
            )
        # matchups stored before seats rotated kept every deck in its seat: by seat is by deck
        by_seat = totals.get("seat_wins", wins)
        for seat, (name, count) in enumerate(zip(seat_names(run), by_seat, strict=False)):
            agent = agent_label(run.agents[seat], slug) if run.fixed_seats else "each deck in turn"
            seats.append(_summary(name, agent, count, games))
    first_games = totals.get("first_games", 0)
    first_won = totals.get("first_wins", 0)
    first = _summary("Moved first", "", first_won, first_games) if first_games else None
    return {
        "games": games,
        "sides": sides,
        "seats": seats,
        "first": first,
        "first_games": first_games,
        "show_moved_first": any(side.moved_first is not None for side in sides) and first_games,
        "draws": totals.get("draws", 0),
        "losses": totals.get("team_losses", 0),
        "length_mean": totals.get("length_total", 0) / games if games else 0.0,
        "length_points": bucket_points(totals.get("histogram", {})),
        "reason_points": [
            (end_reason_text(slug, code), count)
            for code, count in sorted(totals.get("end_reasons", {}).items(), key=lambda kv: -kv[1])
        ],
        "first_rate": first_won / first_games if first_games else None,
    }


@dataclass(frozen=True)
class GameRow:
    """One game of a matchup, as the list of games shows it."""

    number: int
    outcome: str
    length: int
    turns: int | None
    end_reason: str
    first: str


def game_rows(run: MatchupTable, start: int, stop: int) -> list[GameRow]:
    """The stored games ``start`` to ``stop`` (0-based positions in the list of stored games,
    stop excluded) of a matchup, for the list of games."""
    rows = []
    for index, game in zip(run.numbers[start:stop], run.results[start:stop], strict=True):
        rows.append(
            GameRow(
                number=index + 1,
                outcome=outcome_text(run, game.get("winner")),
                length=game.get("length", 0),
                turns=game.get("turns"),
                end_reason=end_reason_text(run.game.slug, str(game.get("end_reason", ""))),
                first=""
                if run.cooperative or game.get("first_player") is None
                else run.seat_label(run.side_in_seat(game, game["first_player"])),
            )
        )
    return rows


def end_reason_text(game_slug: str, code: str) -> str:
    """How a game ended, in the game's own words (its plugin's), else the code with spaces."""
    plugin = find_plugin(game_slug)
    words = plugin.words if plugin is not None else PageWords()
    return words.end_reason(code)


def outcome_text(run: MatchupTable, winner: int | None) -> str:
    if run.cooperative:
        return "Team won" if winner is not None else "Team lost"
    if winner is None:
        return "Draw"
    return f"{run.seat_label(winner)} won"


GAMES_PER_PAGE = 25


def matchup_context(run: MatchupTable, page_number: Any = 1) -> dict[str, Any]:
    """What a matchup job's page shows besides its progress: the seats and their agents, the
    results so far (by deck, by seat, the charts) and, once it has ended, a page of its games.
    Raises ``django.core.paginator.InvalidPage`` for a page of games it does not have."""
    from django.core.paginator import Paginator

    done = run.played
    slug = run.game.slug
    context: dict[str, Any] = {
        "run": run,
        "done": done,
        "seats": list(zip(run.labels, [agent_label(n, slug) for n in run.agents], strict=True)),
    }
    if done:
        summary = matchup_summary(run)
        context["summary"] = summary
        context["length_chart"] = bar_chart(
            summary["length_points"],
            title="Game length",
            x_label="Actions",
            y_label="Games",
            numeric=True,
        )
        # a tick has room for the words before their explanation ("LP Victory"); the list of
        # games says them in full
        short = [(words.split(" (")[0], count) for words, count in summary["reason_points"]]
        context["reason_chart"] = bar_chart(
            short, title="How games ended", x_label="End", y_label="Games"
        )
    if run.finished and done:
        paginator = Paginator(range(done), GAMES_PER_PAGE)
        page = paginator.page(page_number)
        context["games_page"] = page
        context["game_rows"] = game_rows(run, page.start_index() - 1, page.end_index())
        # engines with a ``first_player`` hook say who moved first in each game
        context["show_first"] = any(row.first for row in context["game_rows"])
    return context
