"""Matchups on the web: decks turned into an engine setup, a run's totals into what the page shows.

Every game with an engine has matchups. The game's plugin seats the decks
(``GamePlugin.matchup_setup``, through ``rules.matchups.seat_plan``, the function the command line
uses too): competitive games seat two decks (Reign Absolute two to four), each played by its own
agent, and the seats rotate from game to game unless the user asks for fixed seats (deck A then
always moves first); a co-operative game seats a team: one starting deck for every player, all
played by deck A's agent, or one deck (and agent) per player. The result is each deck's win rate,
each seat's, and how whoever moved first fared; for a team, the team's win rate. A run itself (chunks, seeds, storage, replays) is
``rules.services``; this module only prepares its inputs and reads its outputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from decks.models import Deck
from decks.services import deck_hash
from rules.engines.core import GamePlugin, PageWords, SetupError, find_plugin, plugins
from rules.matchups import (
    PlayRefused,
    agent_label,
    deck_cards,
    play_agents_check,
    play_decks_legal,
    play_plugin,
    play_setup_check,
    seat_plan,
)
from rules.models import MatchupRun
from web.charts import bucket_points

#: decks that cannot be played against each other; the message says why, for the page (the
#: checks are ``rules.matchups``', shared with simulation jobs)
MatchupSetupError = PlayRefused


@dataclass(frozen=True)
class MatchupPlan:
    """What a run needs from the decks: the setup, and per seat its deck and agent."""

    setup: dict[str, Any]
    decks: list[Deck]
    agents: list[str]
    cooperative: bool
    #: per seat (of the first game), which deck sits there: 0 for deck A, 1 for B ...
    letters: tuple[int, ...] = ()

    def sides(self) -> list[dict[str, Any]]:
        """Per side, in its seat of the first game: the deck's label, id, version and content
        hash at the start of the run."""
        labels = [deck.name for deck in self.decks]
        if not self.cooperative and len(set(labels)) < len(labels):
            letters = self.letters or tuple(range(len(labels)))
            labels = [f"{label} ({'ABCD'[letters[seat]]})" for seat, label in enumerate(labels)]
        hashes: dict[int, str] = {}
        sides = []
        for seat, deck in enumerate(self.decks):
            if deck.pk not in hashes:
                rows = deck.cards.select_related("card")
                hashes[deck.pk] = deck_hash([(r.card.name, r.quantity, r.zone) for r in rows])
            label = labels[seat]
            if self.cooperative:
                label = f"{deck.name}, player {seat + 1}"
            sides.append(
                {
                    "label": label,
                    "deck": deck.pk,
                    "deck_name": deck.name,
                    "version": deck.version,
                    "hash": hashes[deck.pk],
                    "agent": self.agents[seat],
                }
            )
        return sides


def matchup_plugins() -> list[GamePlugin]:
    """The plugins of every game with matchups (every game whose engine plugs in)."""
    return plugins()


def matchup_games() -> list[str]:
    """The slugs of every game with matchups."""
    return [plugin.slug for plugin in matchup_plugins()]


def matchups_available(game_slug: str) -> bool:
    """Whether decks of this game can be played by the engine."""
    return find_plugin(game_slug) is not None


def matchup_plan(
    a: Deck,
    b: Deck | None,
    agents: list[str],
    players: int = 2,
    *,
    check: bool = True,
    more: Sequence[Deck | None] = (),
) -> MatchupPlan:
    """The engine setup of deck ``a`` against deck ``b`` (and decks C and D of ``more`` where the
    game seats more players, each played by its agent of ``agents``), or of a co-operative team:
    ``players`` players all with deck ``a``, or one player per deck given. Deck A sits in seat 0
    of the first game (runs rotate the seats from there); with ``check``, the engine deals one
    game from the setup so a deck it cannot play is refused before the run starts.

    Raises ``MatchupSetupError`` with a message for the page."""
    slug = a.game.slug
    plugin = play_plugin([a])
    decks = [deck for deck in [a, b, *more] if deck is not None]
    if len(decks) < plugin.min_decks:
        raise MatchupSetupError(f"{a.game.name} is played by two decks: pick deck B as well.")
    if len(decks) > plugin.max_decks:
        most = "one deck" if plugin.max_decks == 1 else f"at most {plugin.max_decks} decks"
        raise MatchupSetupError(f"{a.game.name} is played by {most}, not {len(decks)}.")
    play_plugin(decks)  # all of one game
    play_agents_check(plugin, agents[: len(decks)])
    play_decks_legal(plugin, decks)
    if plugin.cooperative and len(decks) > 1:
        players = len(decks)  # one player per deck
    try:
        plan = seat_plan(slug, [deck_cards(deck) for deck in decks], players=players, first=0)
    except SetupError as error:
        raise MatchupSetupError(str(error)) from error
    result = MatchupPlan(
        plan.setup,
        [decks[index] for index in plan.seats],
        [agents[index] for index in plan.seats],
        plugin.cooperative,
        tuple(plan.seats),
    )
    if check:
        play_setup_check(slug, result.setup, result.agents)
    return result


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


def seat_names(run: MatchupRun) -> list[str]:
    """What the page calls each seat: its number, and the engine's name for it where it has one
    (Regality vs Religion's seats are its two alignments)."""
    plugin = find_plugin(run.game.slug)
    names = list(plugin.game.player_names) if plugin is not None else []
    return [
        f"Seat {seat + 1}" + (f" ({names[seat].title()})" if seat < len(names) else "")
        for seat in range(len(run.sides))
    ]


def matchup_summary(run: MatchupRun) -> dict[str, Any]:
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
        # runs stored before seats rotated kept every deck in its seat: by seat is by deck
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
    """One game of a run, as the list of games shows it."""

    number: int
    outcome: str
    length: int
    turns: int | None
    end_reason: str
    first: str


def game_rows(run: MatchupRun, start: int, stop: int) -> list[GameRow]:
    """Games ``start`` to ``stop`` (0-based, stop excluded) of a run, for the list of games."""
    rows = []
    for index, game in enumerate(run.results[start:stop], start=start):
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


def outcome_text(run: MatchupRun, winner: int | None) -> str:
    if run.cooperative:
        return "Team won" if winner is not None else "Team lost"
    if winner is None:
        return "Draw"
    return f"{run.seat_label(winner)} won"
