"""Simulation job plans: what a matchup, gauntlet or metagame plays, checked before any job exists.

A plan names the decks (as stored now: id, version, content hash, a label no other deck shares)
and its pairings: which decks sit in which seats, played by which agents, in which setup, for
how many games. Every check a user can fail is made here, with a message for the user
(``SimulationJobError``): the decks' game, legality and count, the agents the game offers, the
setup, even games where decks swap seats. The web's forms, the API and the commands all plan
through these functions; ``rules.lab.jobs`` turns a plan into a job and plays it, and the doctor
(``rules.lab.doctor``) builds its rounds on the same pieces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.engines.core import GamePlugin, SetupError
from rules.matchups import (
    PlayRefused,
    play_agents_check,
    play_decks_legal,
    play_plugin,
    play_setup_check,
)
from rules.metagame import MAX_DECKS, MIN_DECKS

if TYPE_CHECKING:
    from decks.models import Deck

#: the team a co-operative metagame or gauntlet seats when none is given: two players
TEAM_SIZE = 2


class SimulationJobError(ValueError):
    """Decks, agents or numbers a job cannot be made of; the message says why, for the user.

    ``field`` names the parameter at fault as the planners and ``simulation_job_start`` call
    it (``decks``, ``agent``, ``agents``, ``games_per_pairing``, ``games``, ``players``,
    ``meta_shares``, ``chunk_size``; empty when no one is), so that a form or a serializer only
    puts the message beside its own field of that name and repeats none of these rules."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class JobPlan:
    """What a job plays: its decks (as stored) and its pairings (setup, agents, games)."""

    game_slug: str
    decks: list[dict[str, Any]]
    pairings: list[dict[str, Any]]
    #: a doctor job's swaps, schedule and decks' records (``rules.lab.doctor``)
    doctor: dict[str, Any] | None = None
    #: the games of each chunk where they are fixed by the plan (a doctor's rounds)
    chunk_games: list[int] | None = None

    @property
    def games_total(self) -> int:
        if self.chunk_games is not None:
            return sum(self.chunk_games)
        return sum(int(pairing["games"]) for pairing in self.pairings)


# -- planning -------------------------------------------------------------------------------------


def plan_deck_snapshots(decks: Sequence[Deck]) -> list[dict[str, Any]]:
    """Each deck's id, name, version and content hash now, labelled so that no two look alike."""
    from decks.services import deck_hash

    names = [deck.name for deck in decks]
    snapshots = []
    for deck in decks:
        rows = deck.cards.select_related("card")
        label = deck.name if names.count(deck.name) == 1 else f"{deck.name} (#{deck.pk})"
        snapshots.append(
            {
                "deck": deck.pk,
                "name": deck.name,
                "label": label,
                "version": deck.version,
                "hash": deck_hash([(row.card.name, row.quantity, row.zone) for row in rows]),
            }
        )
    return snapshots


@contextmanager
def _refusals(field: str = "decks") -> Iterator[None]:
    """The shared checks' refusals (``rules.matchups``) as this module's error, at ``field``."""
    try:
        yield
    except PlayRefused as error:
        raise SimulationJobError(str(error), field) from error


def plan_decks_check(decks: Sequence[Deck]) -> GamePlugin:
    """The decks' game plugin, once every deck is picked once and playable by its engine."""
    with _refusals():
        plugin = play_plugin(decks)
    if len({deck.pk for deck in decks}) < len(decks):
        raise SimulationJobError("A deck is named twice: pick each deck once.", "decks")
    with _refusals():
        play_decks_legal(plugin, decks)
    return plugin


def _pairing(
    slug: str,
    cards: Sequence[Any],
    sides: Sequence[int],
    agents: Sequence[str],
    games: int,
    players: int | None = None,
) -> dict[str, Any]:
    """A pairing of the decks ``sides`` (indexes into the job's decks), seated by the plugin;
    ``players`` seats a co-operative team of that many with the one deck of ``sides``."""
    from rules.matchups import seat_plan

    players = players or len(sides)
    try:
        plan = seat_plan(slug, [cards[side] for side in sides], players=players, first=0)
    except SetupError as error:
        raise SimulationJobError(str(error), "decks") from error
    seated = [sides[index] for index in plan.seats]
    seated_agents = [agents[index] for index in plan.seats]
    with _refusals():
        play_setup_check(slug, plan.setup, seated_agents, [cards[side].label for side in seated])
    return {"sides": seated, "agents": seated_agents, "setup": plan.setup, "games": games}


def _even_games(games: int, what: str) -> None:
    if games < 2 or games % 2:
        near = f"{games - 1} or {games + 1}" if games > 2 else "2"
        raise SimulationJobError(
            f"Give an even number ({near}) of games a pairing: each deck of {what} then sits in "
            f"each seat equally often (not {games}).",
            "games_per_pairing",
        )


def _team_size(plugin: GamePlugin, players: int | None) -> int:
    """The co-operative team a job seats: ``players`` (default ``TEAM_SIZE``), one the game
    allows."""
    size = TEAM_SIZE if players is None else players
    if size not in plugin.team_sizes:
        allowed = ", ".join(str(n) for n in plugin.team_sizes)
        raise SimulationJobError(
            f"{plugin.name} seats teams of {allowed} players, not {size}.", "players"
        )
    return size


def metagame_plan(
    *, decks: Sequence[Deck], agent: str, games_per_pairing: int, players: int | None = None
) -> JobPlan:
    """A round robin of ``decks`` (2 to 16 of one competitive game): every pair plays
    ``games_per_pairing`` games (an even number, so each deck sits in each seat half the
    time), every deck played by ``agent``.

    In a co-operative game no deck plays another: each deck's own team of ``players`` (default
    ``TEAM_SIZE``) plays ``games_per_pairing`` games against the game, one pairing a deck, and
    the results are a field of team win rates (``rules.gauntlet.team_field_compute``)."""
    if not MIN_DECKS <= len(decks) <= MAX_DECKS:
        raise SimulationJobError(
            f"Pick {MIN_DECKS} to {MAX_DECKS} decks ({len(decks)} picked): a metagame plays "
            "every pair of them.",
            "decks",
        )
    plugin = plan_decks_check(decks)
    slug = plugin.slug
    if plugin.cooperative:
        if games_per_pairing < 1:
            raise SimulationJobError(
                "Every deck's team plays at least one game.", "games_per_pairing"
            )
        size = _team_size(plugin, players)
    else:
        if players is not None:
            raise SimulationJobError(
                f"{plugin.name} is not co-operative: a metagame seats two decks, no team size.",
                "players",
            )
        _even_games(games_per_pairing, "a pair")
    with _refusals("agent"):
        play_agents_check(plugin, [agent])
    from rules.matchups import deck_cards

    cards = [deck_cards(deck) for deck in decks]
    if plugin.cooperative:
        pairings = [
            _pairing(slug, cards, (index,), (agent,), games_per_pairing, players=size)
            for index in range(len(decks))
        ]
    else:
        pairings = [
            _pairing(slug, cards, (a, b), (agent, agent), games_per_pairing)
            for a in range(len(decks))
            for b in range(a + 1, len(decks))
        ]
    return JobPlan(slug, plan_deck_snapshots(decks), pairings)


def gauntlet_plan(*, decks: Sequence[Deck], agent: str, games_per_pairing: int) -> JobPlan:
    """``decks[0]`` against each of ``decks[1:]`` (1 to 15 opponents of its game), every deck
    played by ``agent``, ``games_per_pairing`` games an opponent (an even number: the decks swap
    seats from game to game). In a co-operative game each other deck is the first deck's
    partner in a team of two, and the results are how often each team wins."""
    if not MIN_DECKS <= len(decks) <= MAX_DECKS:
        raise SimulationJobError(
            f"Pick 1 to {MAX_DECKS - 1} opponents ({len(decks) - 1} picked): a gauntlet plays "
            "its deck against each of them.",
            "decks",
        )
    plugin = plan_decks_check(decks)
    _even_games(games_per_pairing, "a pairing")
    with _refusals("agent"):
        play_agents_check(plugin, [agent])
    from rules.matchups import deck_cards

    cards = [deck_cards(deck) for deck in decks]
    pairings = [
        _pairing(plugin.slug, cards, (0, other), (agent, agent), games_per_pairing)
        for other in range(1, len(decks))
    ]
    return JobPlan(plugin.slug, plan_deck_snapshots(decks), pairings)


def matchup_plan(
    *,
    decks: Sequence[Deck],
    agents: Sequence[str],
    games: int,
    players: int | None = None,
    fixed_seats: bool = False,
) -> JobPlan:
    """One table of ``decks`` (as many as the game seats; a deck may be named twice, to play
    against itself), deck ``i`` played by ``agents[i]``, for ``games`` games; ``players`` is the
    team size where one deck is played by a whole co-operative table. The seats rotate from game
    to game unless ``fixed_seats`` keeps every deck in its seat (deck A then always sits first).

    The one plan of a matchup, for the web's matchup and simulation forms, the API and the
    command line; raises ``SimulationJobError`` with a message for the user."""
    with _refusals():
        plugin = play_plugin(decks)
    slug = plugin.slug
    if len(decks) < plugin.min_decks:
        raise SimulationJobError(
            f"{plugin.name} is played by two decks: pick deck B as well.", "decks"
        )
    if len(decks) > plugin.max_decks:
        most = "one deck" if plugin.max_decks == 1 else f"at most {plugin.max_decks} decks"
        raise SimulationJobError(f"{plugin.name} is played by {most}, not {len(decks)}.", "decks")
    if len(agents) != len(decks):
        raise SimulationJobError(
            f"Give one agent per deck: {len(decks)} decks, {len(agents)} agents.", "agents"
        )
    with _refusals("agents"):
        play_agents_check(plugin, agents)
    with _refusals():
        play_decks_legal(plugin, decks)
    if games < 1:
        raise SimulationJobError("A matchup plays at least one game.", "games")
    from rules.matchups import deck_cards, seat_plan

    cards = [deck_cards(deck) for deck in decks]
    table = (players or TEAM_SIZE) if plugin.cooperative and len(decks) == 1 else None
    try:
        plan = seat_plan(slug, cards, players=table or len(decks), first=0)
    except SetupError as error:
        raise SimulationJobError(str(error), "decks") from error
    seated_agents = [agents[index] for index in plan.seats]
    with _refusals():
        play_setup_check(
            slug, plan.setup, seated_agents, [cards[index].label for index in plan.seats]
        )
    pairing = {
        "sides": list(plan.seats),
        "agents": seated_agents,
        "setup": plan.setup,
        "games": games,
        "fixed_seats": fixed_seats,
    }
    snapshots = plan_deck_snapshots(decks)
    labels = [snapshot["label"] for snapshot in snapshots]
    if len(set(labels)) < len(labels):  # a deck against itself: deck A, deck B ...
        for letter, snapshot in zip("ABCD", snapshots, strict=False):
            snapshot["label"] = f"{snapshot['name']} ({letter})"
    return JobPlan(slug, snapshots, [pairing])
