"""CPU-heavy pages (replays, test hands, play moves, playtest) are limited per client: past the
rate, a 429 page that says when to try again, while other clients are served."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules.lab.jobs import simulation_job_play_inline
from rules.models import PlayedGame
from tests.web.conftest import store_matchup_job
from tests.web.test_matchup_runs import two_decks

pytestmark = pytest.mark.django_db

LIMIT = 2


@pytest.fixture
def tight_heavy_rates(settings, still_counter_clock):
    """Limits of LIMIT a minute, their windows standing still (no window ends between a test's
    requests, which on a loaded machine one did: the request meant to be refused was served)."""
    rates = {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
        **dict.fromkeys(["replay", "test_hands", "play_move", "playtest"], f"{LIMIT}/minute"),
    }
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def assert_refused_after_the_limit(responses, what: str, source: str) -> None:
    assert [r.status_code for r in responses[:LIMIT]] == [200] * LIMIT
    refused = responses[LIMIT]
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert f"Too many {what} from {source}" in refused.content.decode()


def test_a_matchup_replay_is_limited_per_account_and_others_are_served(
    alice, user, other_user, tight_heavy_rates
):
    a, b = two_decks(user, "revolt-n-reign")
    job = store_matchup_job(user, a, b, games=1, seed=2, dispatch=False)
    simulation_job_play_inline(job_id=job.pk)
    url = reverse("simulation-game", args=[job.pk, 1])
    steps = [alice.get(url, {"step": step}) for step in range(1, LIMIT + 2)]
    assert_refused_after_the_limit(steps, "replay steps", "your account")
    # another account is not held back by alice's steps
    other = Client()
    other.force_login(other_user)
    assert other.get(url).status_code == 404  # served (the run is alice's, so a 404), not a 429


def test_test_hands_are_limited_per_address_for_visitors(client, user, tight_heavy_rates):
    a, _ = two_decks(user, "revolt-n-reign")
    a.visibility = "public"
    a.save(update_fields=["visibility"])
    url = reverse("deck-test-hands", args=[a.pk])
    query = {"hands": 3, "deal_seed": 2, "policy": "never"}
    hands = [client.get(url, query, REMOTE_ADDR="203.0.113.5") for _ in range(LIMIT + 1)]
    assert_refused_after_the_limit(hands, "test-hand requests", "your address")
    assert client.get(url, REMOTE_ADDR="203.0.113.6").status_code == 200  # another address


def test_play_moves_are_limited(alice, user, tight_heavy_rates):
    a, b = two_decks(user, "revolt-n-reign")
    started = alice.post(reverse("play-new"), {"deck": a.pk, "opponent": b.pk, "agent": "random"})
    assert started.status_code == 302
    game = PlayedGame.objects.latest("pk")
    url = reverse("play-move", args=[game.pk])
    game.refresh_from_db()
    moved = alice.post(url, {"action": 0, "version": game.version})
    assert moved.status_code == 302  # the second request of the window: still served
    game.refresh_from_db()
    after_move = game.version
    refused = alice.post(url, {"action": 0, "version": after_move})
    assert refused.status_code == 429
    assert "Too many moves from your account" in refused.content.decode()
    game.refresh_from_db()
    assert game.version == after_move  # the refused move changed nothing


def test_playtest_actions_are_limited(alice, user, tight_heavy_rates):
    a, _ = two_decks(user, "revolt-n-reign")
    url = reverse("deck-playtest", args=[a.pk])
    pages = [alice.get(url) for _ in range(LIMIT + 1)]
    assert_refused_after_the_limit(pages, "playtest actions", "your account")
