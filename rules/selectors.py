"""Reads of the rules lab: the matchup runs and simulation jobs a visitor owns, and their results
as plain data (a metagame job's matrix through ``rules.metagame``, a gauntlet's rows and a
co-operative field's through ``rules.gauntlet``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, IntegerField, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from rules.engines.core import find_plugin
from rules.engines.core.intervals import wilson_interval
from rules.gauntlet import RateTable, SideCounts, gauntlet_compute, team_field_compute
from rules.metagame import Metagame, PairingCounts, metagame_compute
from rules.models import MatchupRun, SimulationChunk, SimulationChunkLease, SimulationJob


def matchup_runs_owned_by(
    user: AbstractBaseUser | AnonymousUser, session_key: str | None
) -> QuerySet[MatchupRun]:
    """A signed-in user's runs, or an anonymous visitor's runs of this browser session."""
    runs = MatchupRun.objects.select_related("game")
    if user.is_authenticated:
        return runs.filter(owner_id=user.pk)
    if not session_key:
        return runs.none()
    return runs.filter(owner__isnull=True, session_key=session_key)


def matchup_run_for_owner(
    user: AbstractBaseUser | AnonymousUser, session_key: str | None, pk: int
) -> MatchupRun | None:
    """The run if this visitor owns it, else None (the page answers 404 either way)."""
    return matchup_runs_owned_by(user, session_key).filter(pk=pk).first()


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "wins": wins,
        "win_rate": round(wins / games, 6) if games else 0.0,
        "ci_low": round(low, 6),
        "ci_high": round(high, 6),
    }


def matchup_run_report(run: MatchupRun) -> dict[str, Any]:
    """A run's results as plain data (the API's): per deck (side) its wins with a Wilson 95%
    interval and how often it moved first and won then; per seat its wins whoever sat there;
    whoever moved first; the draws, or the team's result for a co-operative run."""
    totals = run.totals
    games = int(totals.get("games", 0))
    report: dict[str, Any] = {"games": games, "fixed_seats": run.fixed_seats}
    if run.cooperative:
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
            "label": run.labels[side] if side < len(run.sides) else "",
            "deck": run.sides[side].get("deck") if side < len(run.sides) else None,
            "agent": run.agents[side] if side < len(run.agents) else "",
            **_rate(int(count), games),
            "moved_first": moved[side] if moved else None,
            "first_wins": first_wins[side] if first_wins else None,
        }
        for side, count in enumerate(wins)
    ]
    # runs stored before seats rotated kept every deck in its seat: by seat is by deck
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
    user: AbstractBaseUser | AnonymousUser, session_key: str | None
) -> QuerySet[SimulationJob]:
    """A signed-in user's simulation jobs, or an anonymous visitor's of this browser session,
    each with the games its chunks being played have played (``games_playing``)."""
    jobs = SimulationJob.objects.select_related("game").annotate(games_playing=_games_playing())
    if user.is_authenticated:
        return jobs.filter(owner_id=user.pk)
    if not session_key:
        return jobs.none()
    return jobs.filter(owner__isnull=True, session_key=session_key)


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
    from rules.jobs import chunks_add

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
    if job.kind == SimulationJob.Kind.DOCTOR:
        report["doctor"] = simulation_job_doctor(job)
    else:
        report["cards"] = simulation_job_cards(job)
    return report


def simulation_job_cards(job: SimulationJob) -> list[dict[str, Any]]:
    """Every deck's cards' performance so far (``rules.cardstats``): win rate drawn, played and
    not seen, with Wilson intervals; empty where the game's engine does not tell."""
    from rules.cardstats import card_figures
    from rules.jobs import CARDS, chunks_add

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
    """A doctor job's results (``rules.doctor.doctor_report``): once done, the aggregate's;
    before, from the rounds stored so far; None for another kind of job."""
    if job.kind != SimulationJob.Kind.DOCTOR or not job.doctor:
        return None
    if "doctor" in job.aggregate:
        report: dict[str, Any] = job.aggregate["doctor"]
        return report
    from rules.jobs import doctor_report_of_rounds

    return doctor_report_of_rounds(job)
