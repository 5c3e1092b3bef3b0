"""Card lookup: games and their vocabularies, sets, card search, named lookup, autocomplete."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.decorators import method_decorator
from django.views.decorators.http import conditional_page
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api.filters import GAME_PARAMETER_WORDS, CardFilterSet, CardSetFilterSet, vocabulary_filterset
from api.pagination import CardPagination
from api.selectors import card_named
from api.serializers.cards import (
    AutocompleteSerializer,
    BranchSerializer,
    CardDetailSerializer,
    CardSerializer,
    CardSetSerializer,
    GameSerializer,
    VocabularySerializer,
    card_detail_json,
    card_list_base_url,
    card_row_json,
)
from api.serializers.decks import GameSlugField
from cards.models import Branch, Card, CardType, Game, Rarity, Subtype
from cards.selectors import (
    card_autocomplete,
    card_detail_row,
    card_list_for_api,
    card_rows_for_api,
    card_set_list,
    game_list_with_counts,
    vocabulary_list,
)
from common.inputs import ID_PATTERN

conditional = method_decorator(conditional_page, name="dispatch")


@conditional
@extend_schema(tags=["games"])
@extend_schema_view(
    list=extend_schema(summary="The games, with their number names and query aliases"),
    retrieve=extend_schema(summary="One game, with its number names and query aliases"),
)
class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The games Deckwright serves, with their number names and query aliases."""

    serializer_class = GameSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-z0-9]+"

    def get_queryset(self) -> QuerySet[Game]:
        return game_list_with_counts()


def _vocabulary_viewset(
    model: type[Any], serializer: type[serializers.Serializer], doc: str
) -> type[viewsets.GenericViewSet]:
    @conditional
    @extend_schema(tags=["games"])
    class VocabularyViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
        __doc__ = doc
        serializer_class = serializer
        filterset_class = vocabulary_filterset(model)
        queryset = vocabulary_list(model)

    VocabularyViewSet.__name__ = f"{model.__name__}ViewSet"
    VocabularyViewSet.__qualname__ = VocabularyViewSet.__name__
    return VocabularyViewSet


CardTypeViewSet = _vocabulary_viewset(CardType, VocabularySerializer, "Card types per game.")
BranchViewSet = _vocabulary_viewset(
    Branch, BranchSerializer, "Branches (colours, factions, alignments) per game."
)
RarityViewSet = _vocabulary_viewset(Rarity, VocabularySerializer, "Rarities per game, in order.")
SubtypeViewSet = _vocabulary_viewset(Subtype, VocabularySerializer, "Subtypes per game.")


@conditional
@extend_schema(tags=["games"])
class CardSetViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Card sets per game, oldest first."""

    serializer_class = CardSetSerializer
    filterset_class = CardSetFilterSet
    queryset = card_set_list()


class NamedQuerySerializer(serializers.Serializer):
    exact = serializers.CharField(required=False, max_length=200)
    fuzzy = serializers.CharField(required=False, max_length=200)
    game = GameSlugField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("exact")) == bool(attrs.get("fuzzy")):
            raise ValidationError("Give exactly one of exact or fuzzy.")
        return attrs


class AutocompleteQuerySerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200)
    game = GameSlugField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=50, default=20)


@conditional
@extend_schema(tags=["cards"])
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """Cards of every game: search, filter, sort, look up by name."""

    filterset_class = CardFilterSet
    lookup_value_regex = ID_PATTERN
    pagination_class = CardPagination

    def get_queryset(self) -> QuerySet[Card, Any]:
        """The list's plain rows (dicts), or a card's model rows for one card."""
        if self.action == "list":
            return card_rows_for_api()
        return card_list_for_api(detail=self.action == "retrieve")

    def get_serializer_class(self) -> type[serializers.Serializer]:
        return CardSerializer if self.action == "list" else CardDetailSerializer

    @extend_schema(
        summary="Search cards",
        description="Filter with q (the card query language, explained with every game's fields "
        "at /help/query-language/) and/or the "
        "form-style parameters; all of them combine with AND.",
        parameters=[
            OpenApiParameter(
                "q",
                OpenApiTypes.STR,
                description="Card query language (see /help/query-language/). A query that does not "
                "parse is a 400 invalid-query problem with its position.",
                examples=[
                    OpenApiExample("Eagle attacks up to 3 IP", value="t:attack b:eagle ip<=3"),
                    OpenApiExample("A word, not Pillars", value="storm -t:pillar"),
                    OpenApiExample("Exact name", value='!"Stamp Act"'),
                    OpenApiExample("Boolean", value="(b:bison OR b:scroll) r>=uncommon -o:draw"),
                ],
            ),
        ],
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Plain rows with their subtypes (cards.selectors.card_rows_for_api), paged without a
        # full count (api.pagination.CardPagination), JSON built directly: the serializer
        # fields only describe the schema.
        rows = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        assert rows is not None
        base = card_list_base_url(request)
        results = [card_row_json(row, row["subtype_slugs"], base) for row in rows]
        return self.get_paginated_response(results)

    @extend_schema(summary="One card, with rulings")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # One query: the card, its vocabulary, subtypes and rulings (cards.selectors).
        row = card_detail_row(int(kwargs[self.lookup_field]))
        if row is None:
            raise Http404("No card has that id.")
        return Response(card_detail_json(row, request))

    @extend_schema(
        summary="A card by name",
        parameters=[
            OpenApiParameter(
                "exact",
                OpenApiTypes.STR,
                description="The full name (any case).",
                examples=[OpenApiExample("Exact", value="stamp act")],
            ),
            OpenApiParameter(
                "fuzzy",
                OpenApiTypes.STR,
                description="Part or a misspelling.",
                examples=[OpenApiExample("Misspelt", value="stmp act")],
            ),
            OpenApiParameter("game", OpenApiTypes.STR, description=GAME_PARAMETER_WORDS),
        ],
        responses=CardDetailSerializer,
    )
    @action(detail=False, methods=["get"], filterset_class=None, pagination_class=None)
    def named(self, request: Request) -> Response:
        params = NamedQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        card = card_named(
            exact=params.validated_data.get("exact"),
            fuzzy=params.validated_data.get("fuzzy"),
            game=params.validated_data.get("game"),
        )
        return Response(CardDetailSerializer(card, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Card names starting with (then containing) some text",
        parameters=[
            OpenApiParameter(
                "q",
                OpenApiTypes.STR,
                required=True,
                description="Typed so far.",
                examples=[OpenApiExample("Prefix", value="sto")],
            ),
            OpenApiParameter("game", OpenApiTypes.STR, description=GAME_PARAMETER_WORDS),
            OpenApiParameter("limit", OpenApiTypes.INT, description="At most 50 (default 20)."),
        ],
        responses=AutocompleteSerializer,
    )
    @action(detail=False, methods=["get"], filterset_class=None, pagination_class=None)
    def autocomplete(self, request: Request) -> Response:
        params = AutocompleteQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        cards = card_autocomplete(
            params.validated_data["q"],
            game=params.validated_data.get("game"),
            limit=params.validated_data["limit"],
        )
        results = [{"id": card.pk, "name": card.name, "game": card.game.slug} for card in cards]
        return Response({"query": params.validated_data["q"], "results": results})
