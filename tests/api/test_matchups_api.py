"""Matchup runs over the API: your runs, with results by deck and by seat (seats rotate by
default, so each deck moves first as often as the other), whoever moved first, or the team's."""

from __future__ import annotations

import pytest

from rules.models import MatchupRun
from rules.services import matchup_run_play_all
from tests.factories import MatchupRunFactory
from tests.web.conftest import make_deck, store_matchup_run

pytestmark = pytest.mark.django_db


def played_run(user, *, games: int = 4, fixed_seats: bool = False) -> MatchupRun:
    a = make_deck(user, name="Eagles")
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    run = store_matchup_run(user, a, b, games=games, seed=9, fixed_seats=fixed_seats)
    return matchup_run_play_all(run_id=run.pk)


def test_a_run_reports_its_results_by_deck_by_seat_and_for_the_first_player(api_client, user):
    run = played_run(user)
    api_client.force_authenticate(user)
    response = api_client.get(f"/api/v1/matchups/{run.pk}/")
    assert response.status_code == 200
    data = response.json()
    assert data["fixed_seats"] is False and data["played"] == 4
    report = data["report"]
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
    listed = api_client.get("/api/v1/matchups/").json()
    assert [item["id"] for item in listed["results"]] == [run.pk]


def test_a_fixed_seats_run_says_so_and_deck_a_always_moved_first(api_client, user):
    run = played_run(user, games=2, fixed_seats=True)
    api_client.force_authenticate(user)
    report = api_client.get(f"/api/v1/matchups/{run.pk}/").json()["report"]
    assert report["fixed_seats"] is True
    assert [deck["moved_first"] for deck in report["by_deck"]] == [2, 0]
    assert [deck["wins"] for deck in report["by_deck"]] == [s["wins"] for s in report["by_seat"]]


def test_runs_are_their_owners_only(api_client, user, other_user):
    run = MatchupRunFactory(owner=user)
    assert api_client.get(f"/api/v1/matchups/{run.pk}/").status_code == 401
    api_client.force_authenticate(other_user)
    assert api_client.get(f"/api/v1/matchups/{run.pk}/").status_code == 404
    assert api_client.get("/api/v1/matchups/").json()["results"] == []


def test_a_run_stored_before_seats_rotated_reports_its_decks_as_its_seats(api_client, user):
    run = MatchupRunFactory(owner=user, fixed_seats=True)
    api_client.force_authenticate(user)
    report = api_client.get(f"/api/v1/matchups/{run.pk}/").json()["report"]
    assert [deck["wins"] for deck in report["by_deck"]] == [2, 2]
    assert [seat["wins"] for seat in report["by_seat"]] == [2, 2]
    assert report["first_player"] is None  # not recorded for that run


def test_a_cooperative_run_reports_the_teams_result(api_client, user):
    run = MatchupRunFactory(
        owner=user,
        cooperative=True,
        sides=[{"label": "Starters, player 1", "deck_name": "Starters"}] * 3,
        agents=["team"] * 3,
        totals={"games": 4, "team_wins": 3, "team_losses": 1},
    )
    api_client.force_authenticate(user)
    data = api_client.get(f"/api/v1/matchups/{run.pk}/").json()
    assert data["title"] == "Starters, team of 3"
    team = data["report"]["team"]
    assert (team["wins"], team["losses"], team["win_rate"]) == (3, 1, 0.75)
    assert team["ci_low"] < 0.75 < team["ci_high"]
    assert "by_deck" not in data["report"]
