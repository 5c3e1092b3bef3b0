"""API test helpers: a fresh throttle history per test, clients, a small factory-built game."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests import factories


@pytest.fixture(autouse=True)
def _fresh_throttle_history() -> None:
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def mini_game(db):
    """A two-set game with number names, built from factories (no fixture files involved)."""
    game = factories.GameFactory(
        slug="mini",
        name="Mini Game",
        short_name="MG",
        branch_label="Colour",
        number_labels={
            "cost": {"name": "ip_cost", "label": "IP cost"},
            "attack": {"name": "attack_damage", "label": "Attack damage"},
            "defense": {"name": "defense_points", "label": "Defense points"},
        },
    )
    core = factories.CardSetFactory(game=game, code="MG1", name="Core")
    extra = factories.CardSetFactory(game=game, code="MG2", name="Extra")
    attack = factories.CardTypeFactory(game=game, slug="attack", name="Attack")
    defense = factories.CardTypeFactory(game=game, slug="defense", name="Defense")
    red = factories.BranchFactory(game=game, slug="red", name="Red")
    blue = factories.BranchFactory(game=game, slug="blue-moon", name="Blue Moon")
    common = factories.RarityFactory(game=game, slug="common", name="Common", sort_order=1)
    rare = factories.RarityFactory(game=game, slug="rare", name="Rare", sort_order=3)
    factories.RarityFactory(game=game, slug="uncommon", name="Uncommon", sort_order=2)
    petition = factories.SubtypeFactory(game=game, slug="petition", name="Petition")
    cards = {
        "fire": factories.CardFactory(
            game=game,
            card_set=core,
            card_type=attack,
            branch=red,
            rarity=common,
            name="Fire Storm",
            cost=3,
            attack=20,
            rules_text="Deal damage to every Pillar.",
        ),
        "wall": factories.CardFactory(
            game=game,
            card_set=core,
            card_type=defense,
            branch=blue,
            rarity=rare,
            name="Stone Wall",
            cost=1,
            defense=25,
            rules_text="Block one attack.",
        ),
        "plea": factories.CardFactory(
            game=game,
            card_set=extra,
            card_type=defense,
            branch=None,
            rarity=common,
            name="Humble Plea",
            cost=0,
            defense=5,
            rules_text="Draw a card.",
            subtypes=[petition],
        ),
    }
    return game, cards
