"""Fixtures for the decks tests: players and the sample decks (caches are reset in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

RNR = "revolt-n-reign"
SAMPLES_DIR = Path(settings.FIXTURES_DIR) / "decks"


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(username="abigail", password="pw-not-secret")


@pytest.fixture
def other_player(django_user_model):
    return django_user_model.objects.create_user(username="samuel", password="pw-not-secret")


def read_sample(game: str, name: str) -> str:
    return (SAMPLES_DIR / game / f"{name}.txt").read_text(encoding="utf-8")


#: a legal Revolt N Reign list the tests own, so that revising a shipped sample deck (Eagle Control
#: was, on 2026-11-24) leaves the rule tests' arithmetic alone
RULE_BASE = Path(__file__).with_name("rnr-rule-base.txt")


def legal_rnr_deck() -> dict[str, int]:
    """A legal 60-card list as ``{name: quantity}``: the base the rule tests bend (``RULE_BASE``)."""
    from decks.decklist import decklist_read

    deck: dict[str, int] = {}
    for entry in decklist_read(RULE_BASE.read_text(encoding="utf-8")).entries:
        deck[entry.name] = deck.get(entry.name, 0) + entry.quantity
    return deck
