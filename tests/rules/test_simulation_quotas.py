"""Simulation jobs' hourly game quotas (rules/lab/quotas.py): per account and per address for
signed-in users, the matchup budget for anonymous visitors; a refusal charges nothing."""

from __future__ import annotations

import pytest

from rules.lab.quotas import (
    GamesQuotaExceeded,
    MatchupQuotaExceeded,
    matchup_quota_charge,
    simulation_quota_charge,
)

pytestmark = pytest.mark.django_db
NOW = 7200.0


class Visitor:
    def __init__(self, pk: int | None) -> None:
        self.pk = pk
        self.is_authenticated = pk is not None


@pytest.fixture
def quotas(settings):
    settings.SIMULATION_USER_GAMES_PER_HOUR = 100
    settings.SIMULATION_GAMES_PER_HOUR_IP = 150
    settings.MATCHUP_ANON_GAMES_PER_HOUR = 10
    settings.MATCHUP_ANON_GAMES_PER_HOUR_IP = 30


def charge(user, games, address="192.0.2.1", now=NOW):
    simulation_quota_charge(user=user, address=address, session_key="s", games=games, now=now)


def test_an_account_may_start_its_hourly_games_and_no_more(quotas):
    alice = Visitor(1)
    charge(alice, 60)
    with pytest.raises(GamesQuotaExceeded) as refused:
        charge(alice, 50)
    assert "100 games an hour per account" in str(refused.value)
    assert "your account has 40 left" in str(refused.value)
    assert refused.value.retry_after == 3600
    charge(alice, 40)  # the refused 50 were not kept
    charge(alice, 100, now=NOW + 3600)  # the next hour starts afresh


def test_accounts_on_one_address_share_the_address_quota(quotas):
    charge(Visitor(1), 100)
    with pytest.raises(GamesQuotaExceeded, match="your address has 50 left"):
        charge(Visitor(2), 60)
    charge(Visitor(2), 50)
    charge(Visitor(3), 100, address="198.51.100.7")  # another address, another budget


def test_anonymous_visitors_share_one_budget_between_matchups_and_jobs(quotas):
    anonymous = Visitor(None)
    matchup_quota_charge(user=anonymous, address="192.0.2.9", session_key="s", games=8, now=NOW)
    with pytest.raises(MatchupQuotaExceeded, match="this browser has 2 left"):
        simulation_quota_charge(
            user=anonymous, address="192.0.2.9", session_key="s", games=3, now=NOW
        )
