"""Matchups on the web: decks turned into an engine setup, a run's totals into what the page shows.

Every game with an engine has matchups. The game's plugin seats the decks
(``GamePlugin.matchup_setup``, through ``rules.matchups.seat_plan``, the function the command line
uses too): two-player games seat two decks, each played by an agent, deck A moving first; a
co-operative game seats one starting deck for a team, all played by the same agent, and the
result is the team's win rate. A run itself (chunks, seeds, storage, replays) is
``rules.services``; this module only prepares its inputs and reads its outputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from decks.models import Deck
from decks.services import deck_hash
from rules.engines.core import GamePlugin, PageWords, SetupError, find_plugin, plugins
from rules.matchups import deck_cards, seat_plan
from rules.models import MatchupRun
from rules.services import AGENT_LABELS


class MatchupSetupError(ValueError):
    """Decks that cannot be played against each other; the message says why, for the page."""


@dataclass(frozen=True)
class MatchupPlan:
    """What a run needs from the decks: the setup, and per seat its deck and agent."""

    setup: dict[str, Any]
    decks: list[Deck]
    agents: list[str]
    cooperative: bool

    def sides(self) -> list[dict[str, Any]]:
        """Per seat: the deck's label, id, version and content hash at the start of the run."""
        labels = [deck.name for deck in self.decks]
        if not self.cooperative and len(set(labels)) < len(labels):
            labels = [f"{label} ({'AB'[seat]})" for seat, label in enumerate(labels)]
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


def _legal(deck: Deck) -> None:
    """Refuse a deck that breaks its game's rules, where the engine plays what the deck stands
    for (a faction, a side, a setup) rather than its list, so the list must be right."""
    from decks.selectors import deck_validate

    report = deck_validate(deck)
    if not report.legal:
        problems = "; ".join(str(violation.message) for violation in report.violations)
        raise MatchupSetupError(f"{deck.name} is not a legal deck: {problems}")


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
    a: Deck, b: Deck | None, agents: list[str], players: int = 2, *, check: bool = True
) -> MatchupPlan:
    """The engine setup of deck ``a`` (moving first) against deck ``b``, or of a team of
    ``players`` with deck ``a`` (a co-operative game); with ``check``, the engine deals one game
    from it so a deck it cannot play is refused before the run starts.

    Raises ``MatchupSetupError`` with a message for the page."""
    slug = a.game.slug
    plugin = find_plugin(slug)
    if plugin is None:
        raise MatchupSetupError(f"Matchups are not available for {a.game.name}.")
    decks = [a] if plugin.max_decks == 1 else [a] if b is None else [a, b]
    if len(decks) < plugin.min_decks:
        raise MatchupSetupError(f"{a.game.name} is played by two decks: pick deck B as well.")
    if any(deck.game_id != a.game_id for deck in decks):
        raise MatchupSetupError("Both decks must be of the same game.")
    refused = [name for name in agents[: len(decks)] if name not in plugin.matchup_agents]
    if refused:
        raise MatchupSetupError(agents_refused(plugin, refused[0]))
    if plugin.needs_legal_decks:
        for deck in dict.fromkeys(decks):
            _legal(deck)
    try:
        plan = seat_plan(slug, [deck_cards(deck) for deck in decks], players=players, first=0)
    except SetupError as error:
        raise MatchupSetupError(str(error)) from error
    result = MatchupPlan(
        plan.setup,
        [decks[index] for index in plan.seats],
        [agents[index] for index in plan.seats],
        plugin.cooperative,
    )
    if check:
        from rules.adapters import engine_for

        try:
            state = engine_for(slug).new_initial_state(0, result.setup)
        except (SetupError, ValueError) as error:
            raise MatchupSetupError(f"The engine cannot play these decks: {error}") from error
        # an agent that reads the whole position (alpha-beta) cannot play hidden tiles or cards
        blind = [name for name in result.agents if _needs_perfect_information(name)]
        if blind and not state.is_perfect_information():
            raise MatchupSetupError(
                f"{agent_label(blind[0], slug)} needs every tile and card in the open, and these "
                f"decks play a variant that hides some: pick another agent."
            )
    return result


def _needs_perfect_information(name: str) -> bool:
    from rules.agents import AGENTS

    return bool(getattr(AGENTS.get(name), "needs_perfect_information", False))


def matchup_agent_choices() -> tuple[dict[str, str], dict[str, list[str]]]:
    """Every agent some game's matchups offer, with its shared label (in the order the games
    list them), and per game slug the agents its plugin offers, its default first."""
    offers = {plugin.slug: list(plugin.matchup_agents) for plugin in matchup_plugins()}
    names = dict.fromkeys(name for names in offers.values() for name in names)
    return {name: agent_label(name) for name in names}, offers


def agents_offered(plugin: GamePlugin) -> list[tuple[str, str]]:
    """The agents ``plugin``'s matchups offer, as (name, label) pairs, its default first."""
    return [(name, agent_label(name, plugin.slug)) for name in plugin.matchup_agents]


def agents_refused(plugin: GamePlugin, name: str) -> str:
    """Why agent ``name`` cannot play ``plugin``'s game, and which agents can."""
    offered = ", ".join(label for _, label in agents_offered(plugin))
    return (
        f"{agent_label(name)} does not play {plugin.name} matchups; "
        f"{plugin.name} is played by: {offered}."
    )


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideSummary:
    label: str
    agent: str
    wins: int
    rate: float
    low: float
    high: float


def agent_label(name: str, game_slug: str = "") -> str:
    """What the page calls an agent: the game's own label (its budget, its time a game) where
    its plugin gives one, else the shared one."""
    plugin = find_plugin(game_slug) if game_slug else None
    if plugin is not None and name in plugin.agent_labels:
        return plugin.agent_labels[name]
    return AGENT_LABELS.get(name, name)


def matchup_summary(run: MatchupRun) -> dict[str, Any]:
    """Win rates (or the team's) with Wilson 95% intervals, mean length and chart points."""
    from rules.simulation import wilson_interval

    totals = run.totals
    games = totals.get("games", 0)
    sides = []
    if run.cooperative:
        wins = totals.get("team_wins", 0)
        low, high = wilson_interval(wins, games)
        rate = wins / games if games else 0.0
        label = f"{run.sides[0]['deck_name']}, team of {len(run.sides)}"
        agent = agent_label(run.agents[0], run.game.slug)
        sides.append(SideSummary(label, agent, wins, rate, low, high))
    else:
        for seat, wins in enumerate(totals.get("wins", [])):
            low, high = wilson_interval(wins, games)
            rate = wins / games if games else 0.0
            sides.append(
                SideSummary(
                    run.labels[seat],
                    agent_label(run.agents[seat], run.game.slug),
                    wins,
                    rate,
                    low,
                    high,
                )
            )
    histogram = sorted(totals.get("histogram", {}).items())
    first_games = totals.get("first_games", 0)
    return {
        "games": games,
        "sides": sides,
        "draws": totals.get("draws", 0),
        "losses": totals.get("team_losses", 0),
        "length_mean": totals.get("length_total", 0) / games if games else 0.0,
        "length_points": [(_bucket_label(key), count) for key, count in histogram],
        "reason_points": [
            (end_reason_text(run.game.slug, code), count)
            for code, count in sorted(totals.get("end_reasons", {}).items(), key=lambda kv: -kv[1])
        ],
        "first_rate": totals.get("first_wins", 0) / first_games if first_games else None,
    }


def _bucket_label(key: str) -> str:
    low, _, high = key.partition("-")
    return f"{int(low)}-{int(high)}" if high else key


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
                else run.seat_label(game["first_player"]),
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


# -- replay ---------------------------------------------------------------------------------------


def event_line(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the replay shows it: its kind, who, and its details in words."""
    detail = ", ".join(
        f"{key.replace('_', ' ')} {_text(value)}"
        for key, value in event.items()
        if key not in ("kind", "player") and value not in (None, "", [], {})
    )
    return {
        "kind": str(event.get("kind", "")).replace("_", " ").replace("-", " "),
        "player": event.get("player"),
        "detail": detail,
    }


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_text(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{key} {_text(item)}" for key, item in value.items())
    return str(value)


def replay_steps(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's events grouped into steps: a step is a stretch of events by one player (their
    turn, or a reply in someone else's); events of the table, with no player, stay in the step
    they happen in."""
    steps: list[dict[str, Any]] = []
    for event in events:
        line = event_line(event)
        player = line["player"]
        if not steps or (player is not None and steps[-1]["player"] not in (None, player)):
            steps.append({"player": player, "events": [line]})
            continue
        if steps[-1]["player"] is None:
            steps[-1]["player"] = player
        steps[-1]["events"].append(line)
    return steps
