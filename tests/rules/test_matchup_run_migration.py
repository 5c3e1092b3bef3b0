"""Migration 0009 carries the matchup runs of before (``MatchupRun``) into matchup jobs: a
finished run's games, totals and replays, an unfinished run that then plays on to the games of an
uninterrupted run, a co-operative team and a deck played against itself. The rows are written at
the schema before (0007), with the models of then, and read after the last migration."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from rules.adapters import engine_for
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.lab.plans import matchup_plan
from rules.lab.selectors import matchup_game_record, simulation_job_matchup
from rules.models import SimulationJob
from rules.services import chunk_totals, play_game, totals_add
from tests.rules.jobs_helpers import outcomes
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("rules", "0007_simulation_chunk_lease")]
AFTER = [("rules", "0010_delete_matchuprun")]
RR = "rival-realms"
GAMES = 6
SEED = 17


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Move the database to ``targets``; the models (apps) of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.fixture
def at_the_schema_before(transactional_db):
    """The models of migration 0007 (MatchupRun still there); the last migration afterwards,
    whatever the test did."""
    yield migrate(BEFORE)
    migrate(AFTER)


def runs_of_then(
    decks: list, agents: list[str], games: int, played: int, players: int | None = None
) -> dict[str, Any]:
    """A run as the matchup page of before stored it: its sides, setup, and the games it had
    played (their results and totals), played here by the code both pipelines share."""
    plan = matchup_plan(decks=decks, agents=agents, games=games, players=players)
    pairing = plan.pairings[0]
    sides = []
    for seat, deck_index in enumerate(pairing["sides"]):
        snapshot = plan.decks[deck_index]
        sides.append(
            {
                "label": snapshot["label"],
                "deck": snapshot["deck"],
                "deck_name": snapshot["name"],
                "version": snapshot["version"],
                "hash": snapshot["hash"],
                "agent": pairing["agents"][seat],
            }
        )
    engine = engine_for(plan.game_slug)
    results: list[dict[str, Any]] = []
    totals: dict[str, Any] = {}
    for index in range(played):
        report = play_game(engine, pairing["setup"], pairing["agents"], SEED, index)
        results.extend(report.game_summaries)
        totals = totals_add(totals, chunk_totals(report))
    return {
        "sides": sides,
        "agents": list(pairing["agents"]),
        "setup": pairing["setup"],
        "results": results,
        "totals": totals,
    }


def test_matchup_runs_arrive_as_matchup_jobs_with_their_games_and_replays(
    at_the_schema_before, django_user_model, settings
):
    settings.CELERY_BROKER_URL = ""
    # given decks, and runs stored by the pipeline of before
    owner = django_user_model.objects.create_user("mig", "mig@example.com", "x-long-pass-42")
    court = make_deck(owner, game=RR, sample_name="legal-arcane-court", name="Court")
    keeps = make_deck(owner, game=RR, sample_name="legal-knights-and-keeps", name="Keeps")
    starters = make_deck(
        owner, game="reggae-revolution", sample_name="legal-starting-deck", name="Starters"
    )
    MatchupRun = at_the_schema_before.get_model("rules", "MatchupRun")
    a_week_ago = timezone.now() - timedelta(days=7)
    finished = MatchupRun.objects.create(
        owner_id=owner.pk,
        game_id=court.game_id,
        deck_a_id=court.pk,
        deck_b_id=keeps.pk,
        games=GAMES,
        seed=SEED,
        status="done",
        chunks_done=2,
        started_at=a_week_ago,
        finished_at=a_week_ago,
        cooperative=False,
        **runs_of_then([court, keeps], ["random", "random"], GAMES, GAMES),
    )
    MatchupRun.objects.filter(pk=finished.pk).update(created_at=a_week_ago)
    # a run whose process stopped after 3 of its 6 games, of an anonymous visitor
    halfway = MatchupRun.objects.create(
        session_key="a" * 32,
        game_id=court.game_id,
        games=GAMES,
        seed=SEED,
        status="running",
        chunks_done=1,
        cooperative=False,
        **runs_of_then([court, keeps], ["random", "random"], GAMES, 3),
    )
    # the same deck on both sides, and a co-operative team of three with one deck, not started
    mirror = MatchupRun.objects.create(
        owner_id=owner.pk,
        game_id=court.game_id,
        games=4,
        seed=3,
        cooperative=False,
        fixed_seats=True,
        **runs_of_then([court, court], ["random", "greedy"], 4, 0),
    )
    team = runs_of_then([starters], ["team"], 4, 0, players=3)
    team["sides"] = [
        {**side, "label": f"Starters, player {n}"} for n, side in enumerate(team["sides"], 1)
    ]
    cooperative = MatchupRun.objects.create(
        owner_id=owner.pk,
        game_id=starters.game_id,
        games=4,
        seed=9,
        cooperative=True,
        **team,
    )
    stored = {run.pk: (run.results, run.totals) for run in MatchupRun.objects.all()}

    # when the migrations run
    migrate(AFTER)

    # then every run is a matchup job that remembers the run's id
    assert SimulationJob.objects.filter(kind="matchup", legacy_run__isnull=False).count() == 4
    job = SimulationJob.objects.get(legacy_run=finished.pk)
    assert (job.owner_id, job.game.slug, job.seed) == (owner.pk, RR, SEED)
    assert (job.status, job.games_total, job.games_done) == ("done", GAMES, GAMES)
    assert job.created_at == a_week_ago and job.finished_at == a_week_ago
    assert [deck["deck"] for deck in job.decks] == [court.pk, keeps.pk]
    table = simulation_job_matchup(job)
    results, totals = stored[finished.pk]
    assert [table.results[n] for n in range(GAMES)] == results  # every game, as it was stored
    assert table.totals == totals and job.aggregate["pairings"] == [totals]
    assert table.title == "Court vs Keeps"
    # and any of its games replays to the result stored
    replay = matchup_game_record(table, 4)
    assert replay["summary"]["winner"] == results[3]["winner"]

    # the unfinished run keeps its owner (the browser session) and plays on, to the very games
    # and totals of a matchup played without a stop
    moved = SimulationJob.objects.get(legacy_run=halfway.pk)
    assert (moved.owner_id, moved.session_key) == (None, "a" * 32)
    assert (moved.status, moved.games_done, moved.chunks_done) == ("running", 3, 1)
    resumed = simulation_job_play_inline(job_id=moved.pk)
    plan = matchup_plan(decks=[court, keeps], agents=["random", "random"], games=GAMES)
    whole = simulation_job_play_inline(
        job_id=simulation_job_create(
            kind="matchup", plan=plan, owner=owner, seed=SEED, dispatch=False
        ).pk
    )
    assert resumed.status == "done"
    assert outcomes(resumed) == outcomes(whole)
    assert resumed.aggregate["pairings"] == whole.aggregate["pairings"]

    # a deck against itself stays two sides with their letters, and keeps its fixed seats
    mirrored = simulation_job_matchup(SimulationJob.objects.get(legacy_run=mirror.pk))
    assert mirrored.labels == ["Court (A)", "Court (B)"]
    assert mirrored.agents == ["random", "greedy"]
    assert mirrored.fixed_seats and mirrored.job.status == "queued"
    # a co-operative team of one deck is that deck once, seated three times
    team_job = SimulationJob.objects.get(legacy_run=cooperative.pk)
    assert [deck["name"] for deck in team_job.decks] == ["Starters"]
    assert team_job.pairings[0]["sides"] == [0, 0, 0]
    assert simulation_job_matchup(team_job).title == "Starters, team of 3"
