"""The deck doctor (``rules.lab.doctor``): swaps raced with common random numbers, reported with a
corrected interval, every one legal; played on the toy game of the test suite (Toy Duel, whose
cards score 1 to 5 points, so a 1-point card is an obviously bad one)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from decks.selectors import deck_validate
from rules.lab.doctor import (
    DoctorError,
    Swap,
    difference_interval,
    doctor_plan,
    doctor_swap_apply,
    doctor_text,
    doctor_verdict,
    racing_schedule,
    round_games,
    swap_legal,
    swap_worse,
)
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.lab.plans import SimulationJobError
from tests.rules.doctor_helpers import decks


def doctor_job(owner, sun, moon, *, seed: int = 5, games: int = 8):
    plan = doctor_plan(deck=sun, gauntlet=[moon], agent="greedy", games=games, top=2, seed=seed)
    job = simulation_job_create(kind="doctor", plan=plan, owner=owner, seed=seed, dispatch=False)
    return simulation_job_play_inline(job_id=job.pk)


def test_the_racing_schedule_halves_the_swaps_and_doubles_the_games():
    schedule = racing_schedule(9, 2, 3)
    assert schedule == [
        {"alive": 9, "games": 3},
        {"alive": 5, "games": 6},
        {"alive": 3, "games": 12},
        {"alive": 2, "games": 24},
    ]
    # each round: its swaps and the unchanged deck, against each of 2 gauntlet decks
    assert round_games(schedule, 2) == [60, 72, 96, 144]
    assert racing_schedule(2, 3, 4) == [{"alive": 2, "games": 4}]


def test_the_interval_widens_with_the_swaps_tried():
    differences = [1] * 30 + [0] * 60 + [-1] * 10
    mean, low_one, high_one = difference_interval(differences, 1)
    _, low_many, high_many = difference_interval(differences, 50)
    assert mean == pytest.approx(0.2)
    assert low_many < low_one < mean < high_one < high_many
    assert low_one > 0


def finalist(into: str, delta: float, low: float, high: float) -> dict:
    return {
        "swap": 0, "out": "Dawn One", "in": into, "zone": "", "source": None, "games": 40,
        "rounds": 1, "wins": 20, "base_wins": 20, "delta": delta, "ci_low": low, "ci_high": high,
        "significant": low > 0,
    }  # fmt: skip


def report_of(*best: dict) -> dict:
    base = {"games": 40, "wins": 20, "win_rate": 0.5, "ci_low": 0.35, "ci_high": 0.65}
    return {"tried": 6, "base": base, "best": list(best)}


def test_the_verdict_says_plainly_when_no_swap_beat_the_deck():
    better = finalist("Tide Four", 0.2, 0.05, 0.35)
    unclear = finalist("Noon Three", 0.1, -0.05, 0.25)
    worse = finalist("Dusk Two", -0.3, -0.45, -0.15)
    assert doctor_verdict(report_of(better, unclear)) is None
    assert doctor_verdict(report_of()) is None  # nothing has played yet
    luck = doctor_verdict(report_of(unclear, worse))
    assert luck.startswith("No swap beat the deck: the best, Noon Three for Dawn One, won +10.0")
    assert "may be luck" in luck
    none = doctor_verdict(report_of(worse, finalist("Noon Three", 0.0, -0.15, 0.15)))
    assert none.startswith("No swap beat the deck: none of the 6 swaps raced won more often")
    assert swap_worse(worse) and not swap_worse(unclear) and not swap_worse(better)
    table = doctor_text(report_of(unclear, worse))
    assert table.splitlines()[-1] == luck
    dusk = next(line for line in table.splitlines() if "Dusk Two" in line)
    assert dusk.endswith("-")  # marked worse


def test_the_doctor_finds_the_planted_improvement_and_every_swap_is_legal(toy_duel, deck_owner):
    owner = deck_owner
    sun, moon = decks(owner)
    job = doctor_job(owner, sun, moon)
    assert job.status == "done", job.error
    report = job.aggregate["doctor"]
    best = report["best"][0]
    assert (best["out"], best["in"]) == ("Dawn One", "Tide Four")
    assert best["delta"] > 0 and best["ci_low"] > 0 and best["significant"]
    assert report["tried"] == len(job.doctor["swaps"]) >= 5
    # every swap raced is a legal deck, and so is the version made of the best one
    for swap in job.doctor["swaps"]:
        assert swap_legal(sun, Swap.of(swap)), swap
    deck = doctor_swap_apply(job=job, swap=best["swap"], actor=owner)
    assert deck.version == sun.version + 1 and deck_validate(deck).legal
    counts = {row.card.name: row.quantity for row in deck.cards.select_related("card")}
    assert counts == {"Dawn One": 3, "Noon Three": 4, "Blaze Five": 2, "Tide Four": 1}
    # the deck moved on: the job's swaps no longer apply to it
    with pytest.raises(DoctorError, match="changed since"):
        doctor_swap_apply(job=job, swap=best["swap"], actor=owner)


def test_a_game_whose_engine_ignores_the_list_has_no_swap_to_race(deck_owner):
    from tests.rules.jobs_helpers import faction_decks

    deck, rival = faction_decks(deck_owner, 2)
    with pytest.raises(SimulationJobError, match="No legal one-card swap changes what"):
        doctor_plan(deck=deck, gauntlet=[rival], agent="random", max_swaps=4)


def test_the_command_prints_the_table_and_applies_a_swap(toy_duel, deck_owner):
    owner = deck_owner
    sun, moon = decks(owner)
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "doctor",
        "--deck",
        str(sun.pk),
        "--gauntlet",
        str(moon.pk),
        "--agent",
        "greedy",
        "--games",
        "8",
        "--top",
        "2",
        "--seed",
        "5",
        "--apply",
        "1",
        stdout=out,
        stderr=err,
    )
    table = out.getvalue()
    assert "6 swaps tried" in table
    first = next(line for line in table.splitlines() if line.strip().startswith("1 "))
    assert "Dawn One" in first and "Tide Four" in first and first.endswith("*")
    assert "now at version 2" in err.getvalue()
    sun.refresh_from_db()
    assert sun.version == 2


def _religion_standard(owner):
    from decks.services import deck_create

    text = (
        "# game: regality-vs-religion\n# variant: standard\n[Side]\n1 Bishop\n1 Cardinal\n"
        "1 Hierophant\n1 Monk\n1 Paladin\n1 Saint\n1 Temple\n"
        "[Neutral]\n1 Bard\n1 Dragon\n1 Ninja\n1 Sage\n1 Samurai\n"
    )
    return deck_create(
        owner=owner, game="regality-vs-religion", name="Flock", decklist=text, variant="standard"
    )


@pytest.mark.parametrize(
    ("game", "sample", "gauntlet"),
    [
        ("revolt-n-reign", "legal-eagle-control", "legal-bison-pressure"),
        ("rival-realms", "legal-arcane-court", "legal-knights-and-keeps"),
        ("regality-vs-religion", "legal-regality-standard", None),
        ("reggae-revolution", "legal-full-setup", ""),
    ],
)
def test_every_game_gets_legal_swaps_that_change_what_its_engine_plays(
    deck_owner, game, sample, gauntlet
):
    from rules.lab.doctor import swapped_records, table_setups
    from tests.web.conftest import make_deck

    deck = make_deck(deck_owner, game=game, sample_name=sample, name=sample)
    if gauntlet is None:
        rivals = [_religion_standard(deck_owner)]
    else:
        rivals = [make_deck(deck_owner, game=game, sample_name=gauntlet)] if gauntlet else []
    plan = doctor_plan(deck=deck, gauntlet=rivals, agent="random", max_swaps=3, seed=2)
    spec = plan.doctor
    base = table_setups(game, spec, spec["records"])
    assert len(spec["swaps"]) == 3
    for swap in spec["swaps"]:
        assert swap_legal(deck, Swap.of(swap)), swap
        assert table_setups(game, spec, swapped_records(spec["records"], swap)) != base
    if game == "reggae-revolution":  # co-operative: a lineup card and a main-deck card trade
        assert {(s["zone"], s["source"]) for s in spec["swaps"]} == {("lineup", "main")}
        assert spec["cooperative"] and plan.pairings[0]["sides"] == [0, 0]


def test_on_workers_each_stored_round_queues_the_next(
    toy_duel, deck_owner, monkeypatch, django_capture_on_commit_callbacks
):
    from rules.lab import tasks
    from rules.lab.jobs import simulation_chunk_run, simulation_job_dispatch
    from rules.models import SimulationJob

    sun, moon = decks(deck_owner)
    plan = doctor_plan(deck=sun, gauntlet=[moon], agent="greedy", games=2, top=1, seed=1)
    job = simulation_job_create(kind="doctor", plan=plan, owner=deck_owner, seed=1, dispatch=False)
    SimulationJob.objects.filter(pk=job.pk).update(worker=True)
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.simulation_chunk_play, "delay", lambda *args: queued.append(args))
    monkeypatch.setattr(
        "celery.group.apply_async", lambda self: queued.extend(s.args for s in self.tasks)
    )
    simulation_job_dispatch(job_id=job.pk)
    assert queued == [(job.pk, 0)]  # only the first round: the others wait for it
    with django_capture_on_commit_callbacks(execute=True):
        assert simulation_chunk_run(job_id=job.pk, chunk=0) == "stored"
    assert queued == [(job.pk, 0), (job.pk, 1)]
    with django_capture_on_commit_callbacks(execute=True):  # a re-delivered round 0
        assert simulation_chunk_run(job_id=job.pk, chunk=0) == "duplicate"
    assert queued[-1] == (job.pk, 1)


def test_a_stalled_doctor_job_on_workers_is_queued_again_from_its_first_missing_round(
    toy_duel, deck_owner, monkeypatch, django_capture_on_commit_callbacks
):
    """Queued again (by the sweep or ``manage.py simulation_resume``), a doctor's job gets its
    first missing round only: a later round that a second worker played before it would fail
    the job. The stored round queues the next, and so on to the end."""
    from datetime import timedelta

    from django.utils import timezone

    from rules.lab import tasks
    from rules.lab.jobs import simulation_chunk_run, simulation_job_requeue
    from rules.models import SimulationJob

    sun, moon = decks(deck_owner)
    plan = doctor_plan(deck=sun, gauntlet=[moon], agent="greedy", games=8, top=2, seed=5)
    job = simulation_job_create(kind="doctor", plan=plan, owner=deck_owner, seed=5, dispatch=False)
    assert job.chunk_count >= 3
    with django_capture_on_commit_callbacks(execute=False):  # round 1's message is lost
        assert simulation_chunk_run(job_id=job.pk, chunk=0) == "stored"
    an_hour_ago = timezone.now() - timedelta(hours=1)
    SimulationJob.objects.filter(pk=job.pk).update(worker=True, updated_at=an_hour_ago)
    job.refresh_from_db()
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.simulation_chunk_play, "delay", lambda *args: queued.append(args))
    monkeypatch.setattr(
        "celery.group.apply_async", lambda self: queued.extend(s.args for s in self.tasks)
    )

    assert simulation_job_requeue(job=job) == [1]
    assert queued == [(job.pk, 1)]
    for chunk in range(1, job.chunk_count):  # each round as a worker plays the message queued
        with django_capture_on_commit_callbacks(execute=True):
            assert simulation_chunk_run(job_id=job.pk, chunk=chunk) == "stored"
        assert queued[-1] == (job.pk, min(chunk + 1, job.chunk_count - 1))
    job.refresh_from_db()
    assert job.status == "done", job.error
    whole = doctor_job(deck_owner, sun, moon)
    assert job.aggregate == whole.aggregate


def test_a_doctor_round_reports_its_progress_game_by_game(toy_duel, deck_owner):
    # issue 30: progress rises by game, not by round, for the doctor as for every other job
    from rules.lab.jobs import chunk_play, job_chunk_bounds

    sun, moon = decks(deck_owner)
    plan = doctor_plan(deck=sun, gauntlet=[moon], agent="greedy", games=8, top=2, seed=5)
    job = simulation_job_create(kind="doctor", plan=plan, owner=deck_owner, seed=5, dispatch=False)
    seen: list[int] = []
    _, rows = chunk_play(job, 0, seen.append)
    start, stop = job_chunk_bounds(job, 0)
    assert seen == list(range(1, stop - start + 1))
    assert len(rows) == stop - start


def test_the_command_starts_its_job_as_the_operator_without_a_visitor_quota(
    toy_duel, deck_owner, settings
):
    # a management command's job goes through simulation_job_start like every surface's, but
    # the hourly quotas guard the public surfaces only: a quota of 1 game refuses nothing here
    from rules.models import SimulationJob

    settings.MATCHUP_ANON_GAMES_PER_HOUR = settings.MATCHUP_ANON_GAMES_PER_HOUR_IP = 1
    sun, moon = decks(deck_owner)
    out = io.StringIO()
    call_command(
        "doctor",
        *("--deck", str(sun.pk), "--gauntlet", str(moon.pk), "--agent", "greedy"),
        *("--games", "8", "--top", "2", "--seed", "5"),
        stdout=out,
        stderr=io.StringIO(),
    )
    job = SimulationJob.objects.get(kind="doctor")
    assert job.status == "done" and job.games_total > 1
    assert job.owner is None and job.session_key == ""
