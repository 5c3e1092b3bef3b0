"""The fields the help page offers for each game are exactly what a query of that game accepts."""

from __future__ import annotations

import pytest

from cards.models import Game
from cards.search import card_search
from cards.search.fields import query_fields
from rules.engines.core import registered_games

pytestmark = pytest.mark.django_db

GAMES = registered_games()


def fields_by_label(slug: str) -> dict[str, object]:
    return {field.label: field for field in query_fields(Game.objects.get(slug=slug))}


@pytest.mark.parametrize("slug", GAMES)
def test_every_field_name_and_value_offered_for_a_game_is_a_query_of_that_game(slug):
    game = Game.objects.get(slug=slug)
    for field in query_fields(game):
        for name in field.names:
            if field.kind == "choice":
                tests = [f"{name}:{value}" for value in field.values]
            elif field.kind == "number":
                tests = [f"{name}>=0"]
            else:
                tests = [f"{name}:a"]
            for query in tests:
                list(card_search(query, game)[:1])  # raises QueryError when the page is wrong


@pytest.mark.parametrize("slug", GAMES)
def test_every_choice_value_offered_finds_cards_of_that_game(slug):
    game = Game.objects.get(slug=slug)
    for field in query_fields(game):
        if field.kind != "choice" or field.name == "st":
            continue  # a subtype may be named by the game without a card carrying it yet
        for value in field.values:
            cards = card_search(f"{field.name}:{value}", game)
            assert cards.exists(), f"{field.name}:{value} finds no {slug} card"


def test_a_game_names_its_own_fields_in_its_own_words():
    reggae = fields_by_label("reggae-revolution")
    assert reggae["Colour"].names == ("b", "branch", "colour")
    assert reggae["Colour"].value_names == ("Red", "Green", "Yellow", "Black")
    assert "Symbols to pay" in reggae
    rnr = fields_by_label("revolt-n-reign")
    assert set(rnr["IP cost"].names) == {"ic", "ip", "cost", "ip_cost"}
    assert rnr["Rarity"].values == ("common", "uncommon", "rare")
    assert "<=" in rnr["Rarity"].operators  # rarities compare in the game's order
    assert "<=" not in rnr["Branch"].operators


def test_a_game_offers_no_field_it_has_no_values_for():
    reggae = fields_by_label("reggae-revolution")
    assert "Rarity" not in reggae and "Subtype" not in reggae
    assert "Branch" not in fields_by_label("rival-realms")
    tiles = fields_by_label("regality-vs-religion")
    assert not [field for field in tiles.values() if field.kind == "number"]
