"""POST /api/v1/validate/ finds its game in memory (``cards.vocabulary``): no query once warm,
and the same answers as the database lookup gave, but that an unknown game is refused naming
the games there are."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from rest_framework import serializers

from api.serializers.decks import ValidateRequestSerializer
from cards.models import Game

pytestmark = pytest.mark.django_db

GAME = "revolt-n-reign"
DECKLIST = Path(settings.FIXTURES_DIR) / "decks" / GAME / "legal-eagle-control.txt"


def test_a_warm_validation_reads_nothing_from_the_database(api_client, django_assert_num_queries):
    body = {"game": GAME, "format": "standard", "decklist": DECKLIST.read_text()}
    first = api_client.post("/api/v1/validate/", body, format="json")  # builds the caches
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = api_client.post("/api/v1/validate/", body, format="json")
    assert again.json() == first.json()


class DatabaseLookup(ValidateRequestSerializer):
    """The request as it was read before: the game looked up in the database."""

    game = serializers.SlugRelatedField(slug_field="slug", queryset=Game.objects.all())  # type: ignore[assignment]  # stubs: declared fields leave the class


@pytest.mark.parametrize("game", [GAME, "no-such-game", 7, "", None, ["x"], {"slug": GAME}])
def test_the_game_field_answers_as_the_database_lookup_did(game):
    body = {"game": game, "cards": [{"name": "Stamp Act", "quantity": 1}]}
    from_memory, from_database = ValidateRequestSerializer(data=body), DatabaseLookup(data=body)
    assert from_memory.is_valid() == from_database.is_valid()
    if from_database.is_valid():
        assert from_memory.validated_data["game"] == from_database.validated_data["game"]
    elif "does_not_exist" in str(from_database.errors["game"][0].code):
        # the database said only that no such row exists; memory names the games there are
        [error] = from_memory.errors["game"]
        assert str(error).startswith("There is no game ") and GAME in str(error)
    else:  # missing or blank: the field's own words, as before
        assert from_memory.errors == from_database.errors


def test_an_unknown_game_is_a_400_on_game(api_client):
    body = {"game": "no-such-game", "cards": [{"name": "Stamp Act", "quantity": 1}]}
    response = api_client.post("/api/v1/validate/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "game"
