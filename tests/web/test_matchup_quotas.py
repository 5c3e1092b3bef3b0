"""Anonymous visitors get an hourly budget of matchup games, per browser and per address; a
signed-in user's matchups count against their account's games like every other job's."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from decks.models import Visibility
from rules.lab.jobs import simulation_job_play_inline
from rules.lab.quotas import MatchupQuotaExceeded, matchup_quota_charge
from rules.models import SimulationJob
from tests.web.conftest import make_deck
from tests.web.test_matchup_runs import run_id, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def quotas(settings):
    settings.MATCHUP_ANON_GAMES_PER_HOUR = 5
    settings.MATCHUP_ANON_GAMES_PER_HOUR_IP = 8


@pytest.fixture
def public_decks(user):
    a = make_deck(user, name="Eagles", visibility=Visibility.PUBLIC)
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure", visibility="public")
    return a, b


def test_a_browser_may_start_its_hourly_games_and_no_more(client, quotas, public_decks):
    a, b = public_decks
    run_id(start(client, a, b, games=3))

    response = start(client, a, b, games=3)  # 6 > 5 for this browser

    assert response.status_code == 400
    page = response.content.decode()
    assert "may start 5 games an hour per browser" in page
    assert "this browser has 2 left" in page
    assert "log in" in page
    assert SimulationJob.objects.count() == 1
    run_id(start(client, a, b, games=2))  # what is left still works


def test_a_new_browser_on_the_same_address_shares_the_address_quota(client, quotas, public_decks):
    a, b = public_decks
    run_id(start(client, a, b, games=5))
    fresh_cookies = Client()
    run_id(start(fresh_cookies, a, b, games=3))  # 8 from this address

    response = start(Client(), a, b, games=1)

    assert response.status_code == 400
    assert "your address has 0 left" in response.content.decode()


def test_a_forged_forwarded_for_does_not_reset_the_address_quota(quotas, public_decks):
    a, b = public_decks
    for number, games in enumerate((5, 3)):
        browser = Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
        run_id(start(browser, a, b, games=games))
    response = start(Client(HTTP_X_FORWARDED_FOR="192.0.2.200"), a, b, games=1)
    assert response.status_code == 400


def test_signed_in_users_matchups_count_against_their_accounts_games(
    client, user, quotas, public_decks, settings
):
    settings.SIMULATION_USER_GAMES_PER_HOUR = 30
    a, b = public_decks
    client.force_login(user)
    run_id(start(client, a, b, games=20))  # past the anonymous quota of 5
    assert SimulationJob.objects.get().games_total == 20

    response = start(client, a, b, games=11)  # 31 > 30 for this account

    assert response.status_code == 400
    assert "your account has 10 left" in response.content.decode()
    assert SimulationJob.objects.count() == 1


def test_a_refused_request_charges_nothing(settings):
    settings.MATCHUP_ANON_GAMES_PER_HOUR = 10
    settings.MATCHUP_ANON_GAMES_PER_HOUR_IP = 10
    anonymous = type("Anonymous", (), {"is_authenticated": False})()
    charge = {"user": anonymous, "address": "192.0.2.1", "session_key": "s1", "now": 7200.0}
    matchup_quota_charge(games=6, **charge)
    with pytest.raises(MatchupQuotaExceeded) as refused:
        matchup_quota_charge(games=5, **charge)
    assert refused.value.retry_after == 3600
    matchup_quota_charge(games=4, **charge)  # the refused 5 were not kept
    # the next clock hour starts afresh
    matchup_quota_charge(games=10, **{**charge, "now": 7200.0 + 3600})


def test_the_poll_of_a_started_matchup_is_not_charged_again(client, quotas, public_decks):
    a, b = public_decks
    pk = run_id(start(client, a, b, games=5))
    for _ in range(10):
        poll = client.get(reverse("simulation-progress", args=[pk]), HTTP_HX_REQUEST="true")
        assert poll.status_code == 200
    assert simulation_job_play_inline(job_id=pk).finished  # as the background runner plays it
