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


def legal_rnr_deck() -> dict[str, int]:
    """The legal Eagle Control sample as ``{name: quantity}`` (the base the rule tests bend)."""
    from decks.decklist import decklist_read

    deck: dict[str, int] = {}
    for entry in decklist_read(read_sample(RNR, "legal-eagle-control")).entries:
        deck[entry.name] = deck.get(entry.name, 0) + entry.quantity
    return deck
