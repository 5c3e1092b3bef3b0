"""How the card database looks over the API: games, their vocabularies, sets and cards."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import Card, Game
from cards.schema import PRINTED_NUMBERS
from cards.search.compiler import branch_aliases, number_aliases
from cards.vocabulary import row_labels


class GameSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    short_name = serializers.CharField()
    description = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    branch_label = serializers.CharField()
    deck_summary = serializers.CharField()
    number_labels = serializers.SerializerMethodField()
    search_aliases = serializers.SerializerMethodField()
    card_count = serializers.IntegerField(help_text="Cards of this game in the database.")
    url = serializers.HyperlinkedIdentityField(
        view_name="api:game-detail", lookup_field="slug", read_only=True
    )

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "label": {"type": "string"}},
            },
            "example": {"cost": {"name": "ip_cost", "label": "IP cost"}},
        }
    )
    def get_number_labels(self, game: Game) -> dict[str, Any]:
        return game.number_labels or {}

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Query-language field names this game adds -> what they search.",
            "example": {"ip": "cost", "ad": "attack", "dp": "defense"},
        }
    )
    def get_search_aliases(self, game: Game) -> dict[str, str]:
        aliases = dict(sorted(number_aliases(game).items()))
        aliases.update(dict.fromkeys(sorted(branch_aliases(game)), "branch"))
        return aliases


class VocabularySerializer(serializers.Serializer):
    """A card type, branch, rarity or subtype of one game."""

    game = serializers.CharField(source="game.slug", read_only=True)
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    sort_order = serializers.IntegerField()


class BranchSerializer(VocabularySerializer):
    color = serializers.CharField(help_text="Hex colour used on card faces.")


class CardSetSerializer(serializers.Serializer):
    game = serializers.CharField(source="game.slug", read_only=True)
    code = serializers.CharField()
    name = serializers.CharField()
    release_date = serializers.DateField()
    description = serializers.CharField()


class RulingSerializer(serializers.Serializer):
    published_on = serializers.DateField()
    source = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    text = serializers.CharField()


def _numbers(card: Card) -> dict[str, int]:
    return {number.name: number.value for number in card.printed_numbers()}


class CardSerializer(serializers.Serializer):
    """A card as lists show it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.SlugField()
    game = serializers.CharField(source="game.slug")
    set = serializers.CharField(source="card_set.code")
    collector_number = serializers.CharField()
    type = serializers.CharField(source="card_type.slug")
    subtypes = serializers.SerializerMethodField()
    branch = serializers.CharField(source="branch.slug", allow_null=True, default=None)
    rarity = serializers.CharField(source="rarity.slug", allow_null=True, default=None)
    cost = serializers.IntegerField(allow_null=True)
    numbers = serializers.SerializerMethodField()
    rules_text = serializers.CharField()
    url = serializers.HyperlinkedIdentityField(view_name="api:card-detail", read_only=True)

    @extend_schema_field(serializers.ListField(child=serializers.SlugField()))
    def get_subtypes(self, card: Card) -> list[str]:
        return sorted(subtype.slug for subtype in card.subtypes.all())

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {"type": "integer"},
            "description": "Printed numbers by the game's own names (see the game's number_labels).",
            "example": {"ip_cost": 3, "attack_damage": 20},
        }
    )
    def get_numbers(self, card: Card) -> dict[str, int]:
        return _numbers(card)

    def _url(self, card: Card) -> str:
        # One reverse() per response, not per card: lists are the hot path of the API.
        base = self.context.get("_card_url_base")
        if base is None:
            request = self.context.get("request")
            path = reverse("api:card-list")
            base = request.build_absolute_uri(path) if request is not None else path
            # the context is the dict the view passed; DRF's stubs type it read-only
            self.context["_card_url_base"] = base  # type: ignore[index]
        return f"{base}{card.pk}/"

    def to_representation(self, card: Card) -> dict[str, Any]:
        # Written out rather than field by field: the same keys as the declared fields (which
        # document the schema), at a fraction of the cost for a page of cards.
        return {
            "id": card.pk,
            "name": card.name,
            "slug": card.slug,
            "game": card.game.slug,
            "set": card.card_set.code,
            "collector_number": card.collector_number,
            "type": card.card_type.slug,
            "subtypes": self.get_subtypes(card),
            "branch": card.branch.slug if card.branch is not None else None,
            "rarity": card.rarity.slug if card.rarity is not None else None,
            "cost": card.cost,
            "numbers": _numbers(card),
            "rules_text": card.rules_text,
            "url": self._url(card),
        }


class CardDetailSerializer(CardSerializer):
    """Everything about one card."""

    attack = serializers.IntegerField(allow_null=True)
    defense = serializers.IntegerField(allow_null=True)
    drain = serializers.IntegerField(allow_null=True)
    generation = serializers.IntegerField(allow_null=True)
    strength = serializers.IntegerField(allow_null=True)
    copies_in_set = serializers.IntegerField(allow_null=True)
    stats = serializers.JSONField()
    effects = serializers.JSONField()
    flavor_text = serializers.CharField()
    attribution = serializers.CharField()
    rulings = RulingSerializer(many=True)
    web_url = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.STR)
    def get_web_url(self, card: Card) -> str:
        request = self.context.get("request")
        path = card.get_absolute_url()
        return request.build_absolute_uri(path) if request is not None else path

    def to_representation(self, card: Card) -> dict[str, Any]:
        data = super().to_representation(card)
        data.update(
            {column: getattr(card, column) for column in PRINTED_NUMBERS if column != "cost"},
            copies_in_set=card.copies_in_set,
            stats=card.stats,
            effects=card.effects,
            flavor_text=card.flavor_text,
            attribution=card.attribution,
            rulings=RulingSerializer(card.rulings.all(), many=True).data,
            web_url=self.get_web_url(card),
        )
        return data


# -- rows to JSON, without serializer fields ------------------------------------------------------
# The list and the detail of the API are built from ``.values()`` rows (cards.selectors
# ``CARD_LIST_VALUES`` / ``card_detail_row``): the same keys, in the same order, as the
# serializers above, which stay as the schema's description (and serve ``named``).


def _row_numbers(row: dict[str, Any], number_labels: dict[str, Any]) -> dict[str, int]:
    numbers = {}
    for column, meta in (number_labels or {}).items():
        value = row.get(column)
        if value is not None:
            name = meta.get("name", column) if isinstance(meta, dict) else column
            numbers[str(name)] = value
    return numbers


def card_list_base_url(request: Any) -> str:
    """The card list's absolute URL (a card's ``url`` is this plus its id)."""
    path = reverse("api:card-list")
    return request.build_absolute_uri(path) if request is not None else path


def card_row_json(row: dict[str, Any], subtypes: list[str], base_url: str) -> dict[str, Any]:
    """A card as lists show it (``CardSerializer``), from a ``CARD_LIST_VALUES`` row (its
    vocabulary named from memory: ``cards.vocabulary.row_labels``)."""
    labels = row_labels(row)
    return {
        "id": row["id"],
        "name": row["name"],
        "slug": row["slug"],
        "game": labels["game__slug"],
        "set": labels["card_set__code"],
        "collector_number": row["collector_number"],
        "type": labels["card_type__slug"],
        "subtypes": subtypes,
        "branch": labels["branch__slug"],
        "rarity": labels["rarity__slug"],
        "cost": row["cost"],
        "numbers": _row_numbers(row, labels["game__number_labels"]),
        "rules_text": row["rules_text"],
        "url": f"{base_url}{row['id']}/",
    }


def card_detail_json(row: dict[str, Any], request: Any) -> dict[str, Any]:
    """Everything about one card (``CardDetailSerializer``), from ``card_detail_row``."""
    data = card_row_json(row, row["subtype_slugs"], card_list_base_url(request))
    data.update({column: row[column] for column in PRINTED_NUMBERS if column != "cost"})
    path = reverse("card-detail", kwargs={"game": data["game"], "slug": row["slug"]})
    data.update(
        copies_in_set=row["copies_in_set"],
        stats=row["stats"],
        effects=row["effects"],
        flavor_text=row["flavor_text"],
        attribution=row["attribution"],
        rulings=[
            {"published_on": r["published_on"], "source": r["source"], "text": r["text"]}
            for r in row["ruling_list"]
        ],
        web_url=request.build_absolute_uri(path) if request is not None else path,
    )
    return data


class AutocompleteEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()


class AutocompleteSerializer(serializers.Serializer):
    query = serializers.CharField()
    results = AutocompleteEntrySerializer(many=True)


class ProblemTypeSerializer(serializers.Serializer):
    code = serializers.CharField()
    status = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()
