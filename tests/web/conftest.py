"""Fixtures of the page tests: users, sample decklists and decks built from them."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from decks.models import Deck, Visibility
from decks.selectors import format_default
from decks.services import deck_create

SAMPLES = Path(settings.FIXTURES_DIR) / "decks"
RNR = "revolt-n-reign"


def sample(game: str, name: str) -> str:
    """A sample decklist from fixtures/decks/<game>/<name>.txt."""
    return (SAMPLES / game / f"{name}.txt").read_text(encoding="utf-8")


@pytest.fixture
def password() -> str:
    return "a-long-test-passphrase-42"


@pytest.fixture
def user(django_user_model, password):
    return django_user_model.objects.create_user("alice", "alice@example.com", password)


@pytest.fixture
def other_user(django_user_model, password):
    return django_user_model.objects.create_user("bob", "bob@example.com", password)


@pytest.fixture
def alice(client, user):
    """A test client logged in as alice."""
    client.force_login(user)
    return client


def make_deck(
    owner,
    *,
    name: str = "Eagle Control",
    sample_name: str = "legal-eagle-control",
    visibility: str = Visibility.PRIVATE,
    game: str = RNR,
) -> Deck:
    return deck_create(
        owner=owner,
        game=game,
        name=name,
        decklist=sample(game, sample_name),
        format=format_default(game),
        visibility=visibility,
    )


@pytest.fixture
def legal_deck(user) -> Deck:
    return make_deck(user)


def store_matchup_run(owner, a: Deck, b: Deck, *, games: int, seed: int, fixed_seats: bool = False):
    """A run of decks ``a`` and ``b`` between random agents, stored as the matchup page would."""
    from rules.services import matchup_run_create
    from web.matchups import matchup_plan

    plan = matchup_plan(a, b, ["random", "random"])
    return matchup_run_create(
        game=a.game,
        owner=owner,
        session_key="",
        sides=plan.sides(),
        agents=plan.agents,
        setup=plan.setup,
        cooperative=plan.cooperative,
        games=games,
        seed=seed,
        deck_a=a,
        deck_b=b,
        fixed_seats=fixed_seats,
    )
