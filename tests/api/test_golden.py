"""Golden JSON responses of the public API: a contract change shows up as a diff.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/api/test_golden.py`` and
review the diff. Database ids (which depend on load order) are replaced by ``<id>``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cards.models import Card

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

pytestmark = pytest.mark.django_db


def normalise(data: object) -> object:
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    text = re.sub(r'"id": \d+', '"id": "<id>"', text)
    text = re.sub(r"/api/v1/cards/\d+/", "/api/v1/cards/<id>/", text)
    return json.loads(text)


def check(name: str, data: object) -> None:
    path = GOLDEN / f"{name}.json"
    data = normalise(data)
    if UPDATE or not path.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(f"{path} is missing; create it with UPDATE_GOLDEN=1")
        path.write_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    assert data == json.loads(path.read_text())


@pytest.mark.parametrize(
    "name", ["Stamp Act", "Petition for Redress", "Bell Tower Barrage", "Continental Treasury"]
)
def test_card_detail_golden(api_client, name):
    card = Card.objects.filter(game__slug="revolt-n-reign", name=name).first()
    if card is None:
        pytest.skip(f"{name} is not in the fixtures")
    response = api_client.get(f"/api/v1/cards/{card.pk}/")
    assert response.status_code == 200
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    check(f"card_detail_rnr_{slug}", response.json())


def test_game_detail_golden(api_client):
    response = api_client.get("/api/v1/games/revolt-n-reign/")
    if response.status_code == 404:
        pytest.skip("the Revolt N Reign fixtures are not there yet")
    body = response.json()
    body.pop("card_count")  # grows as cards are added; the list tests pin counts
    check("game_detail_rnr", body)


def test_invalid_query_problem_golden(api_client):
    response = api_client.get("/api/v1/cards/", {"q": "t:attack (b:eagle OR"})
    check("problem_invalid_query", response.json())
