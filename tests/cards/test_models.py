"""Card model constraints and schema validation."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cards.models import Card
from cards.naming import name_key, slugify_name

pytestmark = pytest.mark.django_db

SCHEMA = {
    "type": "object",
    "properties": {
        "stats": {
            "type": "object",
            "properties": {"speed": {"type": "integer", "minimum": 0}},
            "additionalProperties": False,
        },
        "effects": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["op"],
                "properties": {"op": {"enum": ["draw", "damage"]}},
            },
        },
    },
    "allOf": [
        {
            "if": {"properties": {"type": {"const": "unit"}}},
            "then": {"required": ["attack"]},
        }
    ],
}


@pytest.fixture
def game(game_factory):
    return game_factory(card_schema=SCHEMA)


def test_name_is_unique_within_a_game_ignoring_case_and_punctuation(card_factory, game) -> None:
    card_factory(game=game, name="Stamp Act")
    with pytest.raises(IntegrityError), transaction.atomic():
        card_factory(game=game, name="stamp-act!", slug="other-slug")


def test_same_name_is_allowed_in_two_games(card_factory, game_factory) -> None:
    first = card_factory(name="Common Ground")
    second = card_factory(game=game_factory(), name="Common Ground")
    assert first.game_id != second.game_id
    assert first.slug == second.slug == "common-ground"


def test_negative_cost_is_rejected_by_the_database(card_factory, game) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        card_factory(game=game, cost=-1)


def test_card_that_fits_its_schema_passes_clean(card_factory, card_type_factory, game) -> None:
    unit = card_type_factory(game=game, slug="unit")
    card = card_factory(game=game, card_type=unit, attack=3, stats={"speed": 2})
    card.full_clean()  # does not raise


def test_stats_outside_the_schema_are_rejected_with_the_path(card_factory, game) -> None:
    card = card_factory.build(
        game=game,
        card_set=card_factory(game=game).card_set,
        card_type=card_factory(game=game).card_type,
        stats={"speed": -1, "colour": "red"},
    )
    with pytest.raises(ValidationError) as info:
        card.full_clean(exclude=["name_key"])
    text = " ".join(info.value.messages)
    assert "stats.speed: -1 is less than the minimum of 0" in text
    assert "'colour' was unexpected" in text


def test_unknown_effect_op_is_rejected(card_factory, game) -> None:
    card = card_factory(game=game)
    card.effects = [{"op": "teleport"}]
    with pytest.raises(ValidationError, match=r"effects\.0\.op: 'teleport' is not one of"):
        card.full_clean()


def test_per_type_requirement_is_enforced(card_factory, card_type_factory, game) -> None:
    card = card_factory(game=game, card_type=card_type_factory(game=game, slug="unit"))
    with pytest.raises(ValidationError, match="'attack' is a required property"):
        card.full_clean()


def test_vocabulary_from_another_game_is_rejected(card_factory, branch_factory, game) -> None:
    card = card_factory(game=game)
    card.branch = branch_factory()  # belongs to a fresh game
    with pytest.raises(ValidationError) as info:
        card.full_clean()
    assert "belongs to another game" in str(info.value.message_dict["branch"])


def test_effects_must_be_a_list_and_stats_an_object(card_factory, game) -> None:
    card = card_factory(game=game)
    card.effects = {"op": "draw"}
    card.stats = ["speed"]
    with pytest.raises(ValidationError) as info:
        card.full_clean()
    assert set(info.value.message_dict) >= {"effects", "stats"}


def test_record_leaves_out_absent_values(card_factory, subtype_factory, game) -> None:
    hero = subtype_factory(game=game, slug="hero")
    card = card_factory(game=game, cost=2, attack=None, subtypes=[hero])
    record = card.record()
    assert record["cost"] == 2
    assert "attack" not in record and "branch" not in record
    assert record["subtypes"] == ["hero"]
    assert record["set"] == card.card_set.code


def test_ruling_belongs_to_its_card(ruling_factory) -> None:
    ruling = ruling_factory()
    assert list(ruling.card.rulings.all()) == [ruling]


def test_game_number_field_maps_aliases(game) -> None:
    assert game.number_field("power") == "attack"
    assert game.number_field("cost") == "cost"
    assert game.number_field("luck") is None


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("Stamp Act", "stamp act"),
        ("  STAMP-ACT!! ", "stamp act"),
        ("Déjà  Vu", "deja vu"),
        ("Writ of Assistance (1761)", "writ of assistance 1761"),
    ],
)
def test_name_key_ignores_case_accents_and_punctuation(raw: str, key: str) -> None:
    assert name_key(raw) == key
    assert slugify_name(raw) == key.replace(" ", "-")


def test_card_save_fills_slug_and_key(card_factory, game) -> None:
    card = card_factory(game=game, name="Liberty's Bell Tower")
    assert card.slug == "liberty-s-bell-tower"
    assert Card.objects.get(pk=card.pk).name_key == "liberty s bell tower"


@pytest.mark.parametrize(
    "factory_name",
    [
        "game_factory",
        "card_set_factory",
        "card_type_factory",
        "branch_factory",
        "rarity_factory",
        "subtype_factory",
        "card_factory",
        "ruling_factory",
    ],
)
def test_every_factory_builds_a_valid_saved_object(request, factory_name: str) -> None:
    obj = request.getfixturevalue(factory_name)()
    obj.full_clean()
    assert type(obj).objects.filter(pk=obj.pk).exists()
