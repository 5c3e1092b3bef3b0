"""Matchups over the API are simulation jobs of kind matchup: their results say by deck and by
seat (seats rotate by default, so each deck moves first as often as the other), whoever moved
first, or the team's. The matchup runs' old URLs answer a permanent redirect to the job each
run became, with a Deprecation header, a Link to it and a problem document saying so."""

from __future__ import annotations

import pytest

from cards.models import Game
from rules.lab.jobs import simulation_job_play_inline
from rules.models import SimulationJob
from tests.factories import MatchupJobFactory
from tests.web.conftest import make_deck, store_matchup_job

pytestmark = pytest.mark.django_db


def played_matchup(user, *, games: int = 4, fixed_seats: bool = False) -> SimulationJob:
    a = make_deck(user, name="Eagles")
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    job = store_matchup_job(
        user, a, b, games=games, seed=9, fixed_seats=fixed_seats, dispatch=False
    )
    return simulation_job_play_inline(job_id=job.pk)


def matchup_report(api_client, job: SimulationJob) -> dict:
    response = api_client.get(f"/api/v1/simulations/{job.pk}/results/")
    assert response.status_code == 200
    return response.json()["report"]["matchup"]


def test_a_matchup_reports_its_results_by_deck_by_seat_and_for_the_first_player(api_client, user):
    job = played_matchup(user)
    api_client.force_authenticate(user)
    report = matchup_report(api_client, job)
    assert report["fixed_seats"] is False and report["games"] == 4
    decks = report["by_deck"]
    assert [deck["label"] for deck in decks] == ["Eagles", "Bisons"]
    # four games, seats rotating: each deck moved first twice
    assert [deck["moved_first"] for deck in decks] == [2, 2]
    for row in [*decks, *report["by_seat"]]:
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    assert sum(d["wins"] for d in decks) == sum(s["wins"] for s in report["by_seat"])
    assert sum(d["wins"] for d in decks) + report["draws"] == 4
    first = report["first_player"]
    assert first["games"] == 4 and first["wins"] == sum(d["first_wins"] for d in decks)


def test_a_fixed_seats_matchup_says_so_and_deck_a_always_moved_first(api_client, user):
    job = played_matchup(user, games=2, fixed_seats=True)
    api_client.force_authenticate(user)
    report = matchup_report(api_client, job)
    assert report["fixed_seats"] is True
    assert [deck["moved_first"] for deck in report["by_deck"]] == [2, 0]
    assert [deck["wins"] for deck in report["by_deck"]] == [s["wins"] for s in report["by_seat"]]


def test_fixed_seats_can_be_asked_for_over_the_api_for_a_matchup_only(api_client, user):
    a = make_deck(user, name="Eagles")
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    api_client.force_authenticate(user)
    body = {"kind": "matchup", "decks": [a.pk, b.pk], "games_per_pairing": 2, "agent": "random"}
    created = api_client.post("/api/v1/simulations/", {**body, "fixed_seats": True}, format="json")
    assert created.status_code == 201, created.json()
    assert SimulationJob.objects.get(pk=created.json()["id"]).pairings[0]["fixed_seats"] is True
    refused = api_client.post(
        "/api/v1/simulations/",
        {**body, "kind": "metagame", "fixed_seats": True},
        format="json",
    )
    assert refused.status_code == 400
    assert "fixed_seats is a matchup's" in refused.content.decode()


def test_a_matchup_stored_before_seats_rotated_reports_its_decks_as_its_seats(api_client, user):
    job = MatchupJobFactory(owner=user, fixed_seats=True)
    api_client.force_authenticate(user)
    report = matchup_report(api_client, job)
    assert [deck["wins"] for deck in report["by_deck"]] == [2, 2]
    assert [seat["wins"] for seat in report["by_seat"]] == [2, 2]
    assert report["first_player"] is None  # not recorded for those games


def test_a_cooperative_matchup_reports_the_teams_result(api_client, user):
    job = MatchupJobFactory(
        owner=user,
        game=Game.objects.get(slug="reggae-revolution"),
        decks=[{"deck": None, "name": "Starters", "label": "Starters", "version": 1}],
        pairings=[{"sides": [0, 0, 0], "agents": ["team"] * 3, "setup": {}, "games": 4}],
        totals={"games": 4, "team_wins": 3, "team_losses": 1},
    )
    api_client.force_authenticate(user)
    report = matchup_report(api_client, job)
    team = report["team"]
    assert (team["wins"], team["losses"], team["win_rate"]) == (3, 1, 0.75)
    assert team["ci_low"] < 0.75 < team["ci_high"]
    assert "by_deck" not in report


# -- /api/v1/matchups/: deprecated, moved for good -----------------------------------------------


def test_a_matchup_runs_old_url_moves_for_good_to_its_job_saying_it_is_deprecated(api_client, user):
    # given the job migration 0009 made of matchup run 41
    job = MatchupJobFactory(owner=user, legacy_run=41)
    api_client.force_authenticate(user)
    # when the run's old URL is asked for
    response = api_client.get("/api/v1/matchups/41/")
    # then it answers a permanent redirect to the job, deprecated, with a problem document
    assert response.status_code == 301
    successor = f"http://testserver/api/v1/simulations/{job.pk}/"
    assert response["Location"] == successor
    assert response["Link"] == f'<{successor}>; rel="successor-version"'
    assert response["Deprecation"].startswith("@")
    assert response["Content-Type"].startswith("application/problem+json")
    problem = response.json()
    assert (problem["code"], problem["status"], problem["location"]) == (
        "moved-to-simulations",
        301,
        successor,
    )
    assert f"simulation job {job.pk}" in problem["detail"]
    # and following it gives the job, its results by deck among them
    moved = api_client.get(response["Location"])
    assert moved.status_code == 200 and moved.json()["kind"] == "matchup"
    assert api_client.get(f"/api/v1/simulations/{job.pk}/results/").json()["report"]["matchup"]


def test_the_old_list_of_matchups_moves_to_the_list_of_jobs(api_client, user):
    api_client.force_authenticate(user)
    response = api_client.get("/api/v1/matchups/")
    assert response.status_code == 301
    assert response["Location"] == "http://testserver/api/v1/simulations/"
    assert response["Deprecation"].startswith("@")
    assert "kind matchup" in response.json()["detail"]


def test_the_schema_documents_the_headers_and_body_the_old_urls_answer_with(api_client, user):
    from drf_spectacular.generators import SchemaGenerator

    api_client.force_authenticate(user)
    sent = api_client.get("/api/v1/matchups/")
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path in ("/api/v1/matchups/", "/api/v1/matchups/{id}/"):
        moved = paths[path]["get"]["responses"]["301"]
        assert {"Location", "Deprecation", "Link"} <= set(sent.headers)
        assert set(moved["headers"]) == {"Location", "Deprecation", "Link"}
        assert list(moved["content"]) == [sent["Content-Type"].split(";")[0]]


def test_the_old_urls_need_a_sign_in_and_a_run_that_was(api_client, user):
    MatchupJobFactory(owner=user, legacy_run=41)
    assert api_client.get("/api/v1/matchups/41/").status_code == 401
    api_client.force_authenticate(user)
    missing = api_client.get("/api/v1/matchups/42/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not-found"
