"""Each engine's card check is registered with the fixture loader and accepts every shipped card."""

from __future__ import annotations

import copy

import pytest

from cards.checks import card_check_errors
from cards.models import Card
from rules.engines.core import registered_games

pytestmark = pytest.mark.django_db

GAMES = registered_games()


@pytest.mark.parametrize("slug", GAMES)
def test_every_shipped_card_passes_its_engine_check(slug: str) -> None:
    cards = Card.objects.filter(game__slug=slug).with_related()
    problems = {c.name: card_check_errors(slug, c.record()) for c in cards}
    assert cards.exists()
    assert {name: p for name, p in problems.items() if p} == {}


def _first_with_effects(slug: str) -> dict:
    for card in Card.objects.filter(game__slug=slug).with_related().order_by("name"):
        record = card.record()
        if record.get("effects"):
            return copy.deepcopy(record)
    pytest.skip(f"{slug}'s cards carry no effects (their numbers are their behaviour)")


@pytest.mark.parametrize("slug", GAMES)
def test_an_effect_the_engine_cannot_execute_is_refused(slug: str) -> None:
    record = _first_with_effects(slug)
    first = record["effects"][0]
    # Replace every string value of the first effect with a word no engine knows.
    record["effects"][0] = {
        k: ("frobnicate" if isinstance(v, str) else v) for k, v in first.items()
    }
    problems = card_check_errors(slug, record)
    assert problems, f"{slug}: the engine accepted {record['effects'][0]}"
    assert all(isinstance(p, str) and p for p in problems)
