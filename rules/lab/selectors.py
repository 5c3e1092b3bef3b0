"""Reads of the rules lab: the simulation jobs a visitor owns, and their results as plain data (a
matchup job's table and games through ``simulation_job_matchup``, a metagame job's matrix through
``rules.metagame``, a gauntlet's rows and a co-operative field's through ``rules.gauntlet``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, Func, IntegerField, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from rules.engines.core import find_plugin
from rules.engines.core.intervals import wilson_interval
from rules.gauntlet import RateTable, SideCounts, gauntlet_compute, team_field_compute
from rules.metagame import Metagame, PairingCounts, metagame_compute
from rules.models import SimulationChunk, SimulationChunkLease, SimulationJob


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "wins": wins,
        "win_rate": round(wins / games, 6) if games else 0.0,
        "ci_low": round(low, 6),
        "ci_high": round(high, 6),
    }


@dataclass(frozen=True)
class MatchupTable:
    """A matchup job read as the one table it plays: its sides (per seat of the first game: the
    deck's label, id, name, version and hash, and its agent), its totals so far and its games
    stored so far by number (0-based). What the matchup pages, their replays and the API's
    matchup report read."""

    job: SimulationJob
    sides: list[dict[str, Any]]
    setup: dict[str, Any]
    fixed_seats: bool
    cooperative: bool
    totals: dict[str, Any]
    #: per game stored, in game order: winner (side), length, turns, end_reason, first_side,
    #: first_player (seat) and seats (the side in each seat)
    results: list[dict[str, Any]] = field(default_factory=list)
    #: the 0-based number of each game of ``results`` (all of them, in order, once done)
    numbers: list[int] = field(default_factory=list)

    def stored_game(self, index: int) -> dict[str, Any] | None:
        """Game ``index`` (0-based) as stored, or None while it is not."""
        found = dict(zip(self.numbers, self.results, strict=True))
        return found.get(index)

    @property
    def pk(self) -> int:
        return int(self.job.pk)

    @property
    def game(self) -> Any:
        return self.job.game

    @property
    def seed(self) -> int:
        return int(self.job.seed)

    @property
    def games(self) -> int:
        return int(self.job.games_total)

    @property
    def status(self) -> str:
        return str(self.job.status)

    @property
    def finished(self) -> bool:
        return bool(self.job.finished)

    @property
    def agents(self) -> list[str]:
        return [str(side["agent"]) for side in self.sides]

    @property
    def labels(self) -> list[str]:
        """The name shown for each side."""
        return [str(side["label"]) for side in self.sides]

    @property
    def played(self) -> int:
        """How many games are stored so far."""
        return len(self.results)

    @property
    def title(self) -> str:
        """``A vs B`` (``A vs B vs C`` ...), or ``A, team of N`` for a co-operative table (``A,
        B and C, team of 3`` when the team brought several decks)."""
        if self.cooperative:
            names = list(dict.fromkeys(str(side["deck_name"]) for side in self.sides))
            decks = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
            return f"{decks if names else '?'}, team of {len(self.sides)}"
        return " vs ".join(self.labels)

    def seat_label(self, seat: Any) -> str:
        """The label of a side number (``table`` for anything else)."""
        if isinstance(seat, int) and 0 <= seat < len(self.sides):
            return self.labels[seat]
        return "table"

    def side_in_seat(self, game: dict[str, Any], seat: Any) -> Any:
        """The side that sat in ``seat`` in a game (its stored or replayed record)."""
        order = game.get("seats")
        if isinstance(seat, int) and isinstance(order, list) and 0 <= seat < len(order):
            return order[seat]
        return seat


class MatchupGameError(ValueError):
    """A game number a matchup does not have, or a game that no longer replays as it was played."""


def matchup_game_record(table: MatchupTable, number: int) -> dict[str, Any]:
    """Play game ``number`` (1-based) of a matchup job again, from its seed, and return its full
    record (``rules.simulation.game_record``) with the game's ``summary``.

    The result must equal the one stored when the job played it, or ``MatchupGameError`` says
    so (the engine or the card data changed since)."""
    from rules.adapters import engine_for
    from rules.services import play_game

    if number < 1 or number > table.games:
        raise MatchupGameError(
            f"This matchup has no game {number}: it plays games 1 to {table.games}."
        )
    stored = table.stored_game(number - 1)
    if stored is None:
        raise MatchupGameError(f"Game {number} has not been played yet ({table.played} so far).")
    report = play_game(
        engine_for(table.game.slug),
        table.setup,
        table.agents,
        table.seed,
        number - 1,
        log=True,
        fixed_seats=table.fixed_seats,
    )
    replayed = report.game_summaries[0]
    keys = ("winner", "length", "end_reason")
    if any(replayed.get(key) != stored.get(key) for key in keys):
        raise MatchupGameError(
            f"Game {number} no longer plays out as it did (the engine or the card data changed "
            "since the matchup); start the matchup again to replay its games."
        )
    record = dict(report.game_log or {})
    record["summary"] = replayed
    return record


def simulation_job_matchup(job: SimulationJob) -> MatchupTable | None:
    """A matchup job as its table (``MatchupTable``), with its games stored so far; None for
    another kind of job."""
    if job.kind != SimulationJob.Kind.MATCHUP or len(job.pairings) != 1:
        return None
    from rules.simulation import seat_order

    pairing = job.pairings[0]
    cooperative = job_cooperative(job)
    sides = []
    for side, deck_index in enumerate(pairing["sides"]):
        deck = job.decks[int(deck_index)]
        label = f"{deck['name']}, player {side + 1}" if cooperative else str(deck["label"])
        sides.append(
            {
                "label": label,
                "deck": deck.get("deck"),
                "deck_name": deck.get("name", ""),
                "version": deck.get("version"),
                "hash": deck.get("hash", ""),
                "agent": pairing["agents"][side],
            }
        )
    fixed = bool(pairing.get("fixed_seats"))
    results: list[dict[str, Any]] = []
    numbers: list[int] = []
    for start, outcomes in job.chunks.order_by("start").values_list("start", "outcomes"):
        for number, row in enumerate(outcomes, start=start):
            _, winner, length, turns, end_reason, first_side = row[:6]
            # a co-operative table is never rotated (rules.simulation.run)
            seats = seat_order(len(sides), number, rotate=not (fixed or cooperative))
            numbers.append(number)
            results.append(
                {
                    "winner": winner,
                    "length": length,
                    "turns": turns,
                    "end_reason": end_reason,
                    "first_side": first_side,
                    "first_player": None if first_side is None else seats.index(first_side),
                    "seats": seats,
                }
            )
    totals = simulation_job_totals(job)[0]
    setup = pairing["setup"]
    return MatchupTable(job, sides, setup, fixed, cooperative, totals, results, numbers)


def matchup_report(table: MatchupTable) -> dict[str, Any]:
    """A matchup job's results as plain data: per deck (side) its wins with a Wilson 95%
    interval and how often it moved first and won then; per seat its wins whoever sat there;
    whoever moved first; the draws, or the team's result for a co-operative table."""
    totals = table.totals
    games = int(totals.get("games", 0))
    report: dict[str, Any] = {"games": games, "fixed_seats": table.fixed_seats}
    if table.cooperative:
        report["team"] = {
            **_rate(int(totals.get("team_wins", 0)), games),
            "losses": int(totals.get("team_losses", 0)),
        }
        return report
    wins = list(totals.get("wins", []))
    moved = totals.get("moved_first")
    first_wins = totals.get("first_side_wins")
    report["by_deck"] = [
        {
            "side": side,
            "label": table.labels[side] if side < len(table.sides) else "",
            "deck": table.sides[side].get("deck") if side < len(table.sides) else None,
            "agent": table.agents[side] if side < len(table.sides) else "",
            **_rate(int(count), games),
            "moved_first": moved[side] if moved else None,
            "first_wins": first_wins[side] if first_wins else None,
        }
        for side, count in enumerate(wins)
    ]
    # matchups stored before seats rotated kept every deck in its seat: by seat is by deck
    report["by_seat"] = [
        {"seat": seat, **_rate(int(count), games)}
        for seat, count in enumerate(totals.get("seat_wins", wins))
    ]
    first_games = int(totals.get("first_games", 0))
    report["first_player"] = (
        {"games": first_games, **_rate(int(totals.get("first_wins", 0)), first_games)}
        if first_games
        else None
    )
    report["draws"] = int(totals.get("draws", 0))
    return report


def simulation_jobs_owned_by(
    user: User | AnonymousUser, session_key: str | None
) -> QuerySet[SimulationJob]:
    """A signed-in user's simulation jobs, or an anonymous visitor's of this browser session,
    each with the games its chunks being played have played (``games_playing``)."""
    jobs = SimulationJob.objects.select_related("game").annotate(games_playing=_games_playing())
    if user.is_authenticated:
        return jobs.filter(owner_id=user.pk)
    if not session_key:
        return jobs.none()
    return jobs.filter(owner__isnull=True, session_key=session_key)


class JSONArrayLength(Func):
    """The length of a JSON array column, counted by the database (SQLite's JSON1
    ``json_array_length``, PostgreSQL's ``jsonb_array_length``), so that the array is not sent
    and decoded to be counted."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def simulation_jobs_listed(
    user: User | AnonymousUser, session_key: str | None
) -> QuerySet[SimulationJob]:
    """``simulation_jobs_owned_by`` as a list shows them: the results (``aggregate``), the
    doctor's plan and the pairings' setups, which only a job's own page reads, are left in the
    database (a 16-deck metagame's are about 490 KB of JSON); the number of pairings is counted
    there instead (``pairing_count``)."""
    return (
        simulation_jobs_owned_by(user, session_key)
        .defer("aggregate", "doctor", "pairings")
        .annotate(pairing_count=JSONArrayLength("pairings"))
    )


def simulation_job_pairing_count(job: SimulationJob) -> int:
    """How many pairings the job plays (counted with the list by ``simulation_jobs_listed``,
    else here)."""
    counted = getattr(job, "pairing_count", None)
    return len(job.pairings) if counted is None else int(counted)


def _games_playing() -> Coalesce:
    """The games a job's chunks being played have played: their leases' counts (a chunk played
    again after its worker died counts its new player's games only), stored chunks left out."""
    stored = SimulationChunk.objects.filter(job_id=OuterRef("job_id"), index=OuterRef("index"))
    leases = (
        SimulationChunkLease.objects.filter(job_id=OuterRef("pk"))
        .exclude(Exists(stored))
        .order_by()
        .values("job_id")
        .annotate(games=Sum("games_played"))
        .values("games")
    )
    return Coalesce(Subquery(leases, output_field=IntegerField()), 0)


def simulation_job_games_played(job: SimulationJob) -> int:
    """Games played so far, game by game: those of the stored chunks and, while the job runs,
    those its chunks being played have played (read with the job by
    ``simulation_jobs_owned_by``, else here)."""
    if job.finished:
        return job.games_done
    playing = getattr(job, "games_playing", None)
    if playing is None:
        found = SimulationJob.objects.filter(pk=job.pk).annotate(games_playing=_games_playing())
        playing = found.values_list("games_playing", flat=True).first() or 0
    return min(job.games_done + playing, job.games_total)


def simulation_job_totals(job: SimulationJob) -> list[dict[str, Any]]:
    """Per pairing, the counts of its games so far: the aggregate once the job is done, else
    the stored chunks added up in order (a running or cancelled job's partial results)."""
    if job.status == SimulationJob.Status.DONE and job.aggregate:
        return list(job.aggregate["pairings"])
    from rules.lab.jobs import chunks_add

    chunks = job.chunks.order_by("index").values_list("totals", flat=True)
    return list(chunks_add(list(chunks), len(job.pairings))["pairings"])


def simulation_job_metagame(
    job: SimulationJob, shares: list[float] | None = None
) -> Metagame | None:
    """A two-deck-pairings job's matrix and field win rates (its own meta shares, or
    ``shares``); None for a gauntlet (its rows are ``simulation_job_gauntlet``'s), a co-operative
    game's job (its decks play the game, not each other) or one whose tables seat more (or fewer) than two decks."""
    if job.kind == SimulationJob.Kind.GAUNTLET or job_cooperative(job):
        return None
    if any(len(pairing["sides"]) != 2 for pairing in job.pairings):
        return None
    counts = []
    for pairing, totals in zip(job.pairings, simulation_job_totals(job), strict=True):
        games = int(totals.get("games", 0))
        wins = totals.get("wins", [0, 0])
        counts.append(
            PairingCounts(
                (int(pairing["sides"][0]), int(pairing["sides"][1])),
                games,
                (int(wins[0]), int(wins[1])),
                int(totals.get("draws", 0)),
            )
        )
    return metagame_compute(job.labels, counts, shares or job.meta_shares or None)


def job_cooperative(job: SimulationJob) -> bool:
    """Whether the job's game is co-operative (its players win or lose together)."""
    plugin = find_plugin(job.game.slug)
    return bool(plugin is not None and plugin.cooperative)


def _team_wins(totals: dict[str, Any]) -> int:
    """A pairing's wins of its (first) side: a co-operative table's team wins."""
    if "team_wins" in totals:
        return int(totals["team_wins"])
    wins = totals.get("wins") or [0]
    return int(wins[0])


def simulation_job_gauntlet(
    job: SimulationJob, shares: list[float] | None = None
) -> RateTable | None:
    """A gauntlet job's rows (its first deck against, or in a co-operative game with, each
    other deck) and overall rate, the opponents weighted by ``shares`` or the job's own (one
    per opponent); None for another kind of job."""
    if job.kind != SimulationJob.Kind.GAUNTLET:
        return None
    cooperative = job_cooperative(job)
    counts = []
    for pairing, totals in zip(job.pairings, simulation_job_totals(job), strict=True):
        sides = [int(side) for side in pairing["sides"]]
        other = next(side for side in sides if side != 0)
        games = int(totals.get("games", 0))
        if cooperative:
            wins, draws = _team_wins(totals), 0
        else:
            wins = int(totals.get("wins", [0, 0])[sides.index(0)]) if games else 0
            draws = int(totals.get("draws", 0))
        counts.append(SideCounts(other, games, wins, draws))
    return gauntlet_compute(
        job.labels, counts, shares or job.meta_shares or None, cooperative=cooperative
    )


def simulation_job_team_field(
    job: SimulationJob, shares: list[float] | None = None
) -> RateTable | None:
    """A co-operative metagame's field: each deck's team win rate against the game and the
    field's, weighted by ``shares`` or the job's own; None for another job."""
    if job.kind != SimulationJob.Kind.METAGAME or not job_cooperative(job):
        return None
    counts = [
        SideCounts(int(pairing["sides"][0]), int(totals.get("games", 0)), _team_wins(totals))
        for pairing, totals in zip(job.pairings, simulation_job_totals(job), strict=True)
    ]
    return team_field_compute(job.labels, counts, shares or job.meta_shares or None)


def simulation_job_report(job: SimulationJob, shares: list[float] | None = None) -> dict[str, Any]:
    """A job's results so far as plain data (the API's): per pairing its decks, games, each
    side's wins with a Wilson 95% interval, the wins by seat and the draws; for a metagame, the
    matrix and field win rates too (weighted by ``shares`` when given, else the job's own).
    Raises ``rules.metagame.MetagameError`` for shares that do not fit the job's decks."""
    pairings = []
    for pairing, totals in zip(job.pairings, simulation_job_totals(job), strict=True):
        games = int(totals.get("games", 0))
        wins = list(totals.get("wins", [0] * len(pairing["sides"])))
        seat_wins = list(totals.get("seat_wins", [0] * len(pairing["sides"])))
        pairings.append(
            {
                "games": games,
                "draws": int(totals.get("draws", 0)),
                "sides": [
                    {
                        "deck": int(deck),
                        "label": job.labels[int(deck)],
                        "agent": pairing["agents"][side],
                        **_rate(int(wins[side]), games),
                    }
                    for side, deck in enumerate(pairing["sides"])
                ],
                "by_seat": [
                    {"seat": seat, **_rate(int(count), games)}
                    for seat, count in enumerate(seat_wins)
                ],
            }
        )
    report: dict[str, Any] = {"games": sum(p["games"] for p in pairings), "pairings": pairings}
    if job.kind == SimulationJob.Kind.METAGAME:
        metagame = simulation_job_metagame(job, shares)
        report["metagame"] = metagame.as_dict() if metagame is not None else None
        field = simulation_job_team_field(job, shares)
        report["team_field"] = field.as_dict() if field is not None else None
    if job.kind == SimulationJob.Kind.GAUNTLET:
        gauntlet = simulation_job_gauntlet(job, shares)
        report["gauntlet"] = gauntlet.as_dict() if gauntlet is not None else None
    if job.kind == SimulationJob.Kind.MATCHUP:
        table = simulation_job_matchup(job)
        if table is not None:
            report["matchup"] = matchup_report(table)
    if job.kind == SimulationJob.Kind.DOCTOR:
        report["doctor"] = simulation_job_doctor(job)
    else:
        report["cards"] = simulation_job_cards(job)
    return report


def simulation_job_cards(job: SimulationJob) -> list[dict[str, Any]]:
    """Every deck's cards' performance so far (``rules.cardstats``): win rate drawn, played and
    not seen, with Wilson intervals; empty where the game's engine does not tell."""
    from rules.cardstats import card_figures
    from rules.lab.jobs import CARDS, chunks_add

    if job.status == SimulationJob.Status.DONE and job.aggregate:
        counts = job.aggregate.get(CARDS, {})
    else:
        chunks = job.chunks.order_by("index").values_list("totals", flat=True)
        counts = chunks_add(list(chunks), len(job.pairings))[CARDS]
    figures = []
    for figure in card_figures(counts):
        row = figure.as_dict()
        row["label"] = job.labels[figure.deck] if figure.deck < len(job.labels) else ""
        figures.append(row)
    return figures


def simulation_job_doctor(job: SimulationJob) -> dict[str, Any] | None:
    """A doctor job's results (``rules.lab.doctor.doctor_report``): once done, the aggregate's;
    before, from the rounds stored so far; None for another kind of job."""
    if job.kind != SimulationJob.Kind.DOCTOR or not job.doctor:
        return None
    if "doctor" in job.aggregate:
        report: dict[str, Any] = job.aggregate["doctor"]
        return report
    from rules.lab.jobs import doctor_report_of_rounds

    return doctor_report_of_rounds(job)


def simulation_job_legacy_run(run_id: int) -> SimulationJob | None:
    """The job a matchup run became (migration 0009), found by the run's old id; None when no
    run had that id. Whoever follows the old link still needs to own the job to see it."""
    return SimulationJob.objects.filter(legacy_run=run_id).only("pk").first()
