"""Gauntlet jobs (one deck against a list of decks, seats balanced) and co-operative jobs (a field
of team win rates, no pairings between decks): what they play and the figures they give."""

from __future__ import annotations

import pytest

from rules.gauntlet import SideCounts, gauntlet_compute, team_field_compute
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.lab.plans import SimulationJobError, gauntlet_plan, metagame_plan
from rules.lab.selectors import simulation_job_metagame, simulation_job_report
from rules.metagame import MetagameError
from rules.models import SimulationJob
from tests.rules.jobs_helpers import faction_decks, outcomes
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db

REGGAE = "reggae-revolution"


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("gaunt", "g@example.com", "x-long-pass-42")


def played(user, kind, plan, **extra):
    job = simulation_job_create(
        kind=kind, plan=plan, owner=user, seed=5, chunk_size=3, dispatch=False, **extra
    )
    return simulation_job_play_inline(job_id=job.pk)


def test_a_gauntlet_plays_its_deck_against_each_opponent_in_both_seats(user):
    hero, *opponents = faction_decks(user, 4)
    plan = gauntlet_plan(decks=[hero, *opponents], agent="random", games_per_pairing=4)
    assert [pairing["sides"] for pairing in plan.pairings] == [[0, 1], [0, 2], [0, 3]]

    job = played(user, SimulationJob.Kind.GAUNTLET, plan, meta_shares=[1, 1, 2])

    assert job.status == SimulationJob.Status.DONE
    report = simulation_job_report(job)
    gauntlet = report["gauntlet"]
    assert gauntlet["hero"] == job.labels[0]
    assert [row["label"] for row in gauntlet["rows"]] == job.labels[1:]
    assert [row["share"] for row in gauntlet["rows"]] == [0.25, 0.25, 0.5]
    for row, pairing in zip(gauntlet["rows"], report["pairings"], strict=True):
        assert row["games"] == 4
        assert row["wins"] == pairing["sides"][0]["wins"]  # the hero's side
        assert row["wins"] + row["losses"] + row["draws"] == 4
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    rates = [row["win_rate"] for row in gauntlet["rows"]]
    expected = 0.25 * rates[0] + 0.25 * rates[1] + 0.5 * rates[2]
    assert gauntlet["win_rate"] == pytest.approx(expected, abs=1e-6)
    assert gauntlet["games"] == 12
    assert simulation_job_metagame(job) is None  # no matrix: one row of it was played
    assert len(outcomes(job)) == 12


def test_a_gauntlet_is_refused_with_a_reason(user):
    decks = faction_decks(user, 3)
    cases = [
        (decks[:1], 4, "1 to 15 opponents"),
        (decks, 3, "even number"),
        ([decks[0], decks[1], decks[0]], 2, "named twice"),
    ]
    for chosen, games, reason in cases:
        with pytest.raises(SimulationJobError, match=reason):
            gauntlet_plan(decks=chosen, agent="random", games_per_pairing=games)
    plan = gauntlet_plan(decks=decks, agent="random", games_per_pairing=2)
    with pytest.raises(SimulationJobError, match="one meta share per deck: 2 decks, 3"):
        simulation_job_create(
            kind=SimulationJob.Kind.GAUNTLET, plan=plan, owner=user, meta_shares=[1, 1, 1]
        )


def test_figures_weigh_rows_by_share_and_refuse_counts_that_do_not_fit():
    labels = ["Hero", "A", "B"]
    table = gauntlet_compute(labels, [SideCounts(1, 10, 10), SideCounts(2, 10, 0)], [3, 1])
    assert table.win_rate == pytest.approx(0.75)
    assert table.rows[0].ci_low < 1.0 == table.rows[0].ci_high
    assert table.rows[1].losses == 10
    none_played = gauntlet_compute(labels, [SideCounts(1, 0, 0)])
    assert none_played.win_rate is None and none_played.rows[0].win_rate is None
    with pytest.raises(MetagameError):
        gauntlet_compute(labels, [SideCounts(0, 4, 2)])
    with pytest.raises(MetagameError):
        team_field_compute(labels, [SideCounts(1, 4, 5)])


def test_a_cooperative_metagame_is_a_field_of_team_rates_and_a_gauntlet_a_partner_table(user):
    decks = [
        make_deck(user, game=REGGAE, sample_name="legal-starting-deck", name=f"Crew {n}")
        for n in range(2)
    ]
    with pytest.raises(SimulationJobError, match="teams of 1, 2, 3, 4 players, not 6"):
        metagame_plan(decks=decks, agent="team", games_per_pairing=1, players=6)
    plan = metagame_plan(decks=decks, agent="team", games_per_pairing=1, players=2)
    assert [pairing["sides"] for pairing in plan.pairings] == [[0, 0], [1, 1]]  # solo teams

    job = played(user, SimulationJob.Kind.METAGAME, plan)

    report = simulation_job_report(job)
    assert report["metagame"] is None  # no deck beats another: no matrix
    field = report["team_field"]
    assert field["cooperative"] and field["hero"] is None
    assert [row["label"] for row in field["rows"]] == job.labels
    for row, totals in zip(field["rows"], job.aggregate["pairings"], strict=True):
        assert row["games"] == 1
        assert row["wins"] == totals["team_wins"]
        assert row["losses"] == totals["team_losses"]
    assert field["win_rate"] == pytest.approx(
        sum(row["win_rate"] for row in field["rows"]) / 2, abs=1e-6
    )

    partners = played(
        user,
        SimulationJob.Kind.GAUNTLET,
        gauntlet_plan(decks=decks, agent="team", games_per_pairing=2),
    )
    table = simulation_job_report(partners)["gauntlet"]
    assert table["cooperative"] and table["hero"] == partners.labels[0]
    (row,) = table["rows"]
    assert row["games"] == 2
    assert row["wins"] == partners.aggregate["pairings"][0]["team_wins"]
