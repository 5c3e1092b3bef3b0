"""Simulation jobs played in-process: the same results whatever the chunk size or the order the
chunks finish in, each chunk stored once, cancel, progress, failures and the background thread."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from rules.lab.jobs import (
    chunk_bounds,
    chunks_add,
    simulation_chunk_run,
    simulation_job_cancel,
    simulation_job_create,
    simulation_job_play_inline,
    simulation_job_wait,
)
from rules.lab.plans import SimulationJobError, matchup_plan, metagame_plan
from rules.lab.selectors import simulation_job_metagame
from rules.models import SimulationChunk, SimulationJob
from tests.rules.jobs_helpers import faction_decks, metagame_job, outcomes
from tests.web.conftest import make_deck, store_matchup_job


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("sim", "sim@example.com", "x-long-pass-42")


@pytest.fixture
def decks(user):
    return faction_decks(user, 3)


@pytest.mark.django_db
def test_chunk_sizes_1_7_and_50_give_the_same_games_and_the_same_aggregate(user, decks):
    jobs = [metagame_job(user, decks, chunk_size=size) for size in (1, 7, 50)]
    assert [job.chunk_count for job in jobs] == [12, 2, 1]
    played = [simulation_job_play_inline(job_id=job.pk) for job in jobs]

    assert {job.status for job in played} == {SimulationJob.Status.DONE}
    assert played[0].aggregate == played[1].aggregate == played[2].aggregate
    assert outcomes(played[0]) == outcomes(played[1]) == outcomes(played[2])
    totals = played[0].aggregate["pairings"]
    assert [pairing["games"] for pairing in totals] == [4, 4, 4]
    assert played[0].games_done == played[0].games_total == 12


@pytest.mark.django_db
def test_chunks_finishing_in_any_order_give_the_same_aggregate(user, decks):
    in_order = simulation_job_play_inline(job_id=metagame_job(user, decks, chunk_size=3).pk)
    job = metagame_job(user, decks, chunk_size=3)
    for chunk in (3, 1, 0, 2):
        assert simulation_chunk_run(job_id=job.pk, chunk=chunk) == "stored"
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE
    assert job.aggregate == in_order.aggregate
    assert outcomes(job) == outcomes(in_order)


@pytest.mark.django_db
def test_a_chunk_delivered_again_changes_nothing(user, decks):
    job = metagame_job(user, decks, chunk_size=5)
    assert simulation_chunk_run(job_id=job.pk, chunk=1) == "stored"
    first = SimulationChunk.objects.get(job=job, index=1)

    assert simulation_chunk_run(job_id=job.pk, chunk=1) == "duplicate"

    job.refresh_from_db()
    assert (job.chunks_done, job.games_done) == (1, 5)
    assert SimulationChunk.objects.filter(job=job).count() == 1
    assert SimulationChunk.objects.get(job=job, index=1).outcomes == first.outcomes
    done = simulation_job_play_inline(job_id=job.pk)
    assert (done.chunks_done, done.games_done, done.status) == (3, 12, "done")
    assert simulation_chunk_run(job_id=job.pk, chunk=0) == "skipped"  # a finished job
    done.refresh_from_db()
    assert done.games_done == 12


@pytest.mark.django_db
def test_a_matchup_with_fixed_seats_keeps_deck_a_first_in_every_game(user):
    a = make_deck(user, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    b = make_deck(user, game="rival-realms", sample_name="legal-knights-and-keeps", name="Keeps")
    fixed = store_matchup_job(
        user, a, b, games=4, seed=3, fixed_seats=True, chunk_size=3, dispatch=False
    )
    rotating = store_matchup_job(user, a, b, games=4, seed=3, chunk_size=3, dispatch=False)
    fixed, rotating = (simulation_job_play_inline(job_id=job.pk) for job in (fixed, rotating))
    # the side that moved first: always deck A's seat with fixed seats; in turn otherwise
    assert {row[5] for row in outcomes(fixed)} == {0}
    assert [row[5] for row in outcomes(rotating)] == [0, 1, 0, 1]
    assert fixed.aggregate["pairings"][0]["seat_wins"] == fixed.aggregate["pairings"][0]["wins"]


@pytest.mark.django_db
def test_cancel_skips_the_chunks_not_started_and_keeps_the_progress(user, decks):
    job = metagame_job(user, decks, chunk_size=4)
    assert simulation_chunk_run(job_id=job.pk, chunk=0) == "stored"
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.RUNNING
    assert job.progress == pytest.approx(4 / 12)

    assert simulation_job_cancel(job=job)
    assert job.status == SimulationJob.Status.CANCELLED
    assert simulation_chunk_run(job_id=job.pk, chunk=1) == "skipped"
    ended = simulation_job_play_inline(job_id=job.pk)
    assert ended.status == SimulationJob.Status.CANCELLED
    assert (ended.chunks_done, ended.games_done) == (1, 4)
    assert ended.aggregate == {}
    assert not simulation_job_cancel(job=ended)  # cancelling twice: already finished


@pytest.mark.django_db
def test_a_setup_the_engine_refuses_fails_the_job_with_the_reason(user, decks):
    job = metagame_job(user, decks)
    SimulationJob.objects.filter(pk=job.pk).update(
        pairings=[
            {**job.pairings[0], "setup": {"decks": [["No such unit"], ["Nor this"]]}},
            *job.pairings[1:],
        ]
    )
    ended = simulation_job_play_inline(job_id=job.pk)
    assert ended.status == SimulationJob.Status.FAILED
    assert ended.error.startswith("The engine cannot play these decks")
    assert ended.chunks_done == 0


@pytest.mark.django_db
def test_the_metagame_matrix_is_symmetric_and_the_field_rate_weighs_the_shares(user, decks):
    job = simulation_job_play_inline(
        job_id=metagame_job(user, decks, games=6, meta_shares=[1, 1, 2]).pk
    )
    metagame = simulation_job_metagame(job)
    assert metagame is not None
    assert metagame.labels == [deck["label"] for deck in job.decks]
    assert metagame.shares == [0.25, 0.25, 0.5]
    for row in range(3):
        assert metagame.cells[row][row] is None
        for col in range(3):
            if row == col:
                continue
            cell, mirror = metagame.cells[row][col], metagame.cells[col][row]
            assert cell.games == mirror.games == 6
            assert cell.wins == mirror.losses and cell.draws == mirror.draws
            assert cell.win_rate + mirror.win_rate == pytest.approx(1 - cell.draws / cell.games)
            assert cell.ci_low <= cell.win_rate <= cell.ci_high
    # deck 0 meets deck 1 (share 0.25) and deck 2 (share 0.5): weights 1/3 and 2/3
    cells = metagame.cells[0]
    expected = cells[1].win_rate / 3 + cells[2].win_rate * 2 / 3
    assert metagame.field[0].win_rate == pytest.approx(expected, abs=1e-6)


@pytest.mark.django_db
def test_a_metagame_is_refused_with_a_reason(user, decks):
    reggae = [
        make_deck(user, game="reggae-revolution", sample_name="legal-starting-deck", name=f"R{i}")
        for i in range(2)
    ]
    cases = [
        (decks[:1], "random", 4, "2 to 16 decks"),
        (decks, "random", 5, "even number"),
        (decks, "alphabeta", 4, "does not play Reign Absolute"),
        ([decks[0], decks[0]], "random", 4, "named twice"),
        (reggae, "team", 4, "not 5"),  # co-operative: a field of teams of 1 to 4
        ([decks[0], reggae[0]], "random", 4, "same game"),
    ]
    for chosen, agent, games, reason in cases:
        with pytest.raises(SimulationJobError, match=reason):
            metagame_plan(
                decks=chosen,
                agent=agent,
                games_per_pairing=games,
                players=5 if chosen is reggae else None,
            )


@pytest.mark.django_db
def test_job_sizes_outside_the_settings_are_refused(user, decks, settings):
    settings.SIMULATION_MAX_GAMES = 10
    with pytest.raises(SimulationJobError, match="1 to 10 games"):
        metagame_job(user, decks)  # 12 games
    settings.SIMULATION_MAX_GAMES = 100
    with pytest.raises(SimulationJobError, match="A chunk plays 1 to"):
        metagame_job(user, decks, chunk_size=0)
    with pytest.raises(SimulationJobError, match="one meta share per deck"):
        metagame_job(user, decks, meta_shares=[1, 2])
    assert not SimulationJob.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_job_plays_in_a_background_thread(
    django_user_model,
    settings,
    transactional_db,
):
    settings.CELERY_BROKER_URL = ""

    owner = django_user_model.objects.create_user("bg", "bg@example.com", "x-long-pass-42")
    decks = faction_decks(owner, 2)
    plan = metagame_plan(decks=decks, agent="random", games_per_pairing=4)
    job = simulation_job_create(kind="metagame", plan=plan, owner=owner, seed=5, chunk_size=3)
    assert not job.worker
    assert simulation_job_wait(job_id=job.pk, timeout=120)
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.DONE, job.error
    assert job.aggregate["pairings"][0]["games"] == 4


@given(
    games=st.integers(1, 300),
    size=st.integers(1, 60),
)
def test_the_chunks_cover_every_game_exactly_once(games, size):
    count = -(-games // size)
    covered = [
        index for chunk in range(count) for index in range(*chunk_bounds(games, size, chunk))
    ]
    assert covered == list(range(games))


@hypothesis_settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    wins=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 2)), min_size=1, max_size=40),
    size=st.integers(1, 12),
)
def test_adding_chunks_up_does_not_depend_on_how_the_games_were_cut(wins, size):
    """Per-game counts of two pairings, cut into chunks of any size: the same totals."""
    games = [
        {str(pairing): {"games": 1, "wins": [int(w == 0), int(w == 1)], "draws": int(w == 2)}}
        for pairing, w in wins
    ]
    one_by_one = chunks_add(games, 2)
    chunks = []
    for start in range(0, len(games), size):
        merged = chunks_add(games[start : start + size], 2)["pairings"]
        chunks.append({str(p): totals for p, totals in enumerate(merged) if totals})
    assert chunks_add(chunks, 2) == one_by_one
    assert sum(p.get("games", 0) for p in one_by_one["pairings"]) == len(wins)


@pytest.mark.django_db
def test_a_metagame_and_a_matchup_refuse_decks_with_the_same_words(user, decks):
    """One set of checks (rules.matchups) for every plan: the same decks and agent, the same
    reason."""
    with pytest.raises(SimulationJobError) as metagame_refusal:
        metagame_plan(decks=decks[:2], agent="alphabeta", games_per_pairing=2)
    with pytest.raises(SimulationJobError) as matchup_refusal:
        matchup_plan(decks=decks[:2], agents=["alphabeta", "alphabeta"], games=2)
    assert str(metagame_refusal.value) == str(matchup_refusal.value)
    assert "does not play Reign Absolute: Umbrous Edition matchups" in str(matchup_refusal.value)


@pytest.mark.django_db
def test_in_process_a_chunk_the_database_refuses_for_a_while_is_tried_again(
    user, decks, monkeypatch
):
    """SQLite answers "database is locked" while another writer holds it (the CI run that found
    this: a browser test's job failed at its first chunk); in-process play retries the chunk, as
    a worker retries its task, and the games come out as in an undisturbed run."""
    from django.db import OperationalError

    import rules.lab.jobs as jobs

    undisturbed = simulation_job_play_inline(job_id=metagame_job(user, decks, chunk_size=5).pk)
    refusals = {"left": 2}
    real_run = jobs.simulation_chunk_run

    def busy_then_real(*, job_id: int, chunk: int) -> str:
        if chunk == 1 and refusals["left"]:
            refusals["left"] -= 1
            raise OperationalError("database is locked")
        return real_run(job_id=job_id, chunk=chunk)

    monkeypatch.setattr(jobs, "simulation_chunk_run", busy_then_real)
    monkeypatch.setattr(jobs.time, "sleep", lambda seconds: None)
    job = simulation_job_play_inline(job_id=metagame_job(user, decks, chunk_size=5).pk)

    assert refusals["left"] == 0
    assert job.status == SimulationJob.Status.DONE
    assert job.aggregate == undisturbed.aggregate
    assert outcomes(job) == outcomes(undisturbed)


@pytest.mark.django_db
def test_in_process_a_chunk_the_database_always_refuses_fails_the_job_saying_so(
    user, decks, monkeypatch
):
    from django.db import OperationalError

    import rules.lab.jobs as jobs

    def always_busy(*, job_id: int, chunk: int) -> str:
        raise OperationalError("database is locked")

    monkeypatch.setattr(jobs, "simulation_chunk_run", always_busy)
    monkeypatch.setattr(jobs.time, "sleep", lambda seconds: None)
    job = simulation_job_play_inline(job_id=metagame_job(user, decks, chunk_size=5).pk)

    assert job.status == SimulationJob.Status.FAILED
    assert job.error == (
        f"The database refused chunk 0 {jobs.CHUNK_RETRIES + 1} times (OperationalError)."
    )
    assert job.games_done == 0
