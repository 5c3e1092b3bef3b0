"""Matchups on the web: decks turned into an engine setup, a run's totals into what the page shows.

Every game with an engine has matchups. Two-player games seat two decks, each played by an agent
(Regality vs Religion seats them by alignment; deck A's side moves first). Reggae Revolution is
co-operative: one starting deck for a team of one to four players, all played by the same
agent, and the result is the team's win rate. A run itself (chunks, seeds, storage, replays)
is ``rules.services``; this module only prepares its inputs and reads its outputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from decks.models import Deck
from decks.services import deck_hash
from rules.models import MatchupRun
from rules.services import AGENT_LABELS

REGGAE = "reggae-revolution"
RVR = "regality-vs-religion"
TEAM_SIZES = (1, 2, 3, 4)


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


def _names(deck: Deck, zone: str | None = None) -> list[str]:
    """The deck's cards, one name per physical card (all zones, or one)."""
    rows = deck.cards.select_related("card").order_by("card__name")
    if zone is not None:
        rows = rows.filter(zone=zone)
    names: list[str] = []
    for row in rows:
        names.extend([row.card.name] * row.quantity)
    return names


def _two_decks(a: Deck, b: Deck | None) -> Deck:
    if b is None:
        raise MatchupSetupError(f"{a.game.name} is played by two decks: pick deck B as well.")
    return b


def _named_decks(a: Deck, b: Deck | None, agents: list[str], players: int) -> MatchupPlan:
    b = _two_decks(a, b)
    return MatchupPlan({"decks": [_names(a), _names(b)], "first_player": 0}, [a, b], agents, False)


def _branches(deck: Deck, zone: str | None = None) -> Counter[str]:
    rows = deck.cards.select_related("card__branch")
    if zone is not None:
        rows = rows.filter(zone=zone)
    return Counter(row.card.branch.slug for row in rows if row.card.branch_id)


def _legal(deck: Deck) -> None:
    """Refuse a deck that breaks its game's rules, where the engine plays what the deck stands
    for (a faction, a side, a setup) rather than its list, so the list must be right."""
    from decks.selectors import deck_validate

    report = deck_validate(deck)
    if not report.legal:
        problems = "; ".join(str(violation.message) for violation in report.violations)
        raise MatchupSetupError(f"{deck.name} is not a legal deck: {problems}")


def _reign_absolute(a: Deck, b: Deck | None, agents: list[str], players: int) -> MatchupPlan:
    b = _two_decks(a, b)
    factions = []
    for deck in (a, b):
        _legal(deck)
        found = _branches(deck)
        if len(found) != 1:
            raise MatchupSetupError(f"{deck.name} must hold the units of exactly one faction.")
        factions.append(next(iter(found)))
    if factions[0] == factions[1]:
        raise MatchupSetupError(
            f"Both decks are {factions[0].title()}: Reign Absolute has one deck of each faction, "
            "so pick decks of two different factions."
        )
    return MatchupPlan({"factions": factions, "first_player": 0}, [a, b], agents, False)


def _alignment(deck: Deck) -> str:
    _legal(deck)
    found = _branches(deck, "side")
    found.pop("neutral", None)
    if len(found) != 1:
        raise MatchupSetupError(f"{deck.name} must hold the side tiles of one alignment.")
    return next(iter(found))


def _regality_vs_religion(a: Deck, b: Deck | None, agents: list[str], players: int) -> MatchupPlan:
    b = _two_decks(a, b)
    sides = [_alignment(a), _alignment(b)]
    if sides[0] == sides[1]:
        raise MatchupSetupError(
            f"Both decks play {sides[0].title()}: pick one Regality deck and one Religion deck."
        )
    variants = [deck.variant or "standard" for deck in (a, b)]
    if variants[0] != variants[1]:
        raise MatchupSetupError(
            f"The decks use different variants ({variants[0]} and {variants[1]}): "
            "both players must play the same variant."
        )
    # Neutral tiles are drawn in this order: deck A's (it moves first), then deck B's others.
    neutral: list[str] = []
    for deck in (a, b):
        for name in _names(deck, "neutral"):
            if name not in neutral:
                neutral.append(name)
    setup: dict[str, Any] = {"variant": variants[0], "first": sides[0]}
    if neutral:
        setup["neutral"] = neutral
    # The engine's seat 0 is Regality: a Religion deck A sits in seat 1 and still moves first.
    if sides[0] == "regality":
        return MatchupPlan(setup, [a, b], agents, False)
    return MatchupPlan(setup, [b, a], list(reversed(agents)), False)


def _reggae_revolution(a: Deck, b: Deck | None, agents: list[str], players: int) -> MatchupPlan:
    if players not in TEAM_SIZES:
        raise MatchupSetupError("A Reggae Revolution team has 1 to 4 players.")
    # Every legal starting deck is the rulebook's twelve starters, which the engine deals; a
    # full setup's lineup is dealt face up first.
    _legal(a)
    setup: dict[str, Any] = {"players": players}
    lineup = _names(a, "lineup")
    if lineup:
        setup["lineup"] = lineup
    return MatchupPlan(setup, [a] * players, [agents[0]] * players, True)


Builder = Callable[[Deck, Deck | None, list[str], int], MatchupPlan]
#: how each game's engine takes the decks of a matchup
SETUPS: dict[str, Builder] = {
    "revolt-n-reign": _named_decks,
    "rival-realms": _named_decks,
    "reign-absolute": _reign_absolute,
    RVR: _regality_vs_religion,
    REGGAE: _reggae_revolution,
}


def matchups_available(game_slug: str) -> bool:
    """Whether decks of this game can be played by the engine."""
    if game_slug not in SETUPS:
        return False
    from rules.engines.core import registered_games

    return game_slug in registered_games()


def matchup_plan(
    a: Deck, b: Deck | None, agents: list[str], players: int = 2, *, check: bool = True
) -> MatchupPlan:
    """The engine setup of deck ``a`` (moving first) against deck ``b``, or of a team of
    ``players`` with deck ``a`` (Reggae Revolution); with ``check``, the engine deals one game
    from it so a deck it cannot play is refused before the run starts.

    Raises ``MatchupSetupError`` with a message for the page."""
    slug = a.game.slug
    if not matchups_available(slug):
        raise MatchupSetupError(f"Matchups are not available for {a.game.name}.")
    if b is not None and b.game_id != a.game_id and slug != REGGAE:
        raise MatchupSetupError("Both decks must be of the same game.")
    plan = SETUPS[slug](a, b, agents, players)
    if check:
        from rules.adapters import engine_for
        from rules.engines.core import SetupError

        try:
            engine_for(slug).new_initial_state(0, plan.setup)
        except (SetupError, ValueError) as error:
            raise MatchupSetupError(f"The engine cannot play these decks: {error}") from error
    return plan


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideSummary:
    label: str
    agent: str
    wins: int
    rate: float
    low: float
    high: float


def agent_label(name: str) -> str:
    """What the page calls an agent."""
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
        sides.append(SideSummary(label, agent_label(run.agents[0]), wins, rate, low, high))
    else:
        for seat, wins in enumerate(totals.get("wins", [])):
            low, high = wilson_interval(wins, games)
            rate = wins / games if games else 0.0
            sides.append(
                SideSummary(run.labels[seat], agent_label(run.agents[seat]), wins, rate, low, high)
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
        "reason_points": sorted(totals.get("end_reasons", {}).items(), key=lambda kv: -kv[1]),
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
                end_reason=str(game.get("end_reason", "")).replace("-", " ").replace("_", " "),
                first=""
                if run.cooperative or game.get("first_player") is None
                else run.seat_label(game["first_player"]),
            )
        )
    return rows


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
