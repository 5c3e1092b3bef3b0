"""Decks (CRUD, import/export, versions, clone), validation and formats. Events are in
``api.views.events``."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import (
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.permissions import (
    AllowAny,
    IsAuthenticated,
    IsAuthenticatedOrReadOnly,
)
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import PreconditionFailed, PreconditionRequired
from api.filters import GAME_PARAMETER_WORDS
from api.negotiation import format_param
from api.serializers import decks as s
from cards.models import Game
from common.inputs import ID_PATTERN
from decks.decklist import (
    EXPORT_TYPES,
    Decklist,
    DecklistEntry,
    DecklistParseError,
    DecklistSettings,
    decklist_entries,
    decklist_read,
    decklist_settings,
)
from decks.models import Deck, DeckVersion, Format
from decks.selectors import (
    BatchDeck,
    deck_current_version,
    deck_export,
    deck_for_change,
    deck_list_for_viewer,
    deck_readable_by,
    deck_validate,
    deck_version_diff,
    deck_versions,
    deck_with_cards,
    format_by_slug,
    format_check,
    format_list,
)
from decks.services import (
    MAX_COPIES,
    CardChange,
    DeckError,
    DeckPermissionError,
    DeckVersionConflict,
    deck_card_add,
    deck_card_remove,
    deck_clone,
    deck_create,
    deck_delete,
    deck_update,
)
from decks.validation import UnknownFormatError, UnknownVariantError, rules_for, validate

SAMPLE_DECKLIST = "# name: Sample\n[Unconstitutional Act]\n1 Stamp Act\n1 Sugar Act\n1 Tea Act\n"
VALIDATE_EXAMPLES = [
    OpenApiExample(
        "Decklist text",
        value={
            "game": "revolt-n-reign",
            "format": "standard",
            "as_of": "2026-10-01",
            "decklist": SAMPLE_DECKLIST,
        },
        request_only=True,
    ),
    OpenApiExample(
        "Card list",
        value={"game": "revolt-n-reign", "cards": [{"name": "Stamp Act", "quantity": 3}]},
        request_only=True,
    ),
    OpenApiExample(
        "Report",
        value={
            "game": "revolt-n-reign",
            "format": None,
            "as_of": None,
            "variant": None,
            "legal": False,
            "card_count": 3,
            "violations": [
                {
                    "code": "deck-size",
                    "message": "Deck size: 3 cards, the rulebook requires exactly 60 including "
                    "the 3 Unconstitutional Acts (Components)",
                    "rule": "Components",
                    "cards": [],
                    "details": {"count": 3, "required": 60},
                },
                {
                    "code": "copy-limit",
                    "message": "Copy limit: 3 copies of Stamp Act, the rulebook allows 1 copy of "
                    "an Unconstitutional Act card (Unconstitutional Acts)",
                    "rule": "Unconstitutional Acts",
                    "cards": ["Stamp Act"],
                    "details": {"count": 3, "limit": 1},
                },
            ],
            "warnings": [],
        },
        response_only=True,
    ),
]


def _deck_problem(exc: Exception, field: str = "decklist") -> ValidationError:
    """A decks-layer error as a 400 naming the field and, for parse errors, the line."""
    if isinstance(exc, DecklistParseError):
        return ValidationError({field: [str(problem) for problem in exc.problems]})
    if isinstance(exc, DeckError):
        by_field: dict[str, list[str]] = {}
        for problem in exc.problems:  # beside the field a problem is about, where it is one's
            by_field.setdefault(exc.field_of.get(problem, field), []).append(problem)
        return ValidationError(by_field)
    return ValidationError({field: [str(exc)]})


def _check_variant(game: Game, variant: str | None) -> None:
    """A 400 on ``variant`` naming the game's variants when it is not one of them ("" clears)."""
    if not variant:
        return
    variants = rules_for(game.slug).variants
    if variant not in variants:
        offered = f"its variants are {', '.join(variants)}" if variants else "it has none"
        raise ValidationError({"variant": [f"{game.name} has no variant {variant!r}: {offered}."]})


def _entries(game: Game, data: dict[str, Any]) -> tuple[list[Any], DecklistSettings]:
    """Decklist entries from either decklist text (in ``kind``) or a cards list, and what the
    text says of itself (its format, variant and as_of). A cards list is read as a JSON decklist
    is: a zone in a game without zones is a 400 on ``cards`` naming the line of the list."""
    if "cards" in data:
        lines = [
            DecklistEntry(c["name"], c["quantity"], c.get("zone", ""), number, c.get("zone", ""))
            for number, c in enumerate(data["cards"], start=1)
        ]
        try:
            return decklist_entries(game.slug, Decklist(lines)), DecklistSettings()
        except DecklistParseError as exc:
            raise ValidationError(
                {"cards": [f"cards[{p.line - 1}]: {p.message}" for p in exc.problems]}
            ) from None
    try:
        parsed = decklist_read(data.get("decklist", ""), data.get("kind", "text"))
        settings = decklist_settings(parsed, game.slug)  # another game's list: said first
        return decklist_entries(game.slug, parsed), settings
    except DecklistParseError as exc:
        raise _deck_problem(exc) from None


def _validate(game: Game, entries: list[Any], **options: Any) -> dict[str, Any]:
    try:
        return validate(game.slug, entries, **options).to_dict()
    except UnknownFormatError as exc:
        raise ValidationError({"format": [str(exc)]}) from None
    except UnknownVariantError as exc:
        raise ValidationError({"variant": [str(exc)]}) from None


class DeckListQuerySerializer(s.GameQuerySerializer):
    mine = serializers.BooleanField(required=False, default=False)


# -- optimistic concurrency: ETag and If-Match ------------------------------------------------------

_ENTITY_TAG = re.compile(r'\s*(W/)?"([^"]*)"\s*(?:,|$)')
_DECK_TAG = re.compile(r"deck-(\d+)-v(\d+)")

ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 201],
    description='The deck\'s version as an entity tag, e.g. "deck-12-v5". Send it back in '
    "If-Match on a write to have the write refused (412) if the deck changed meanwhile.",
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of the deck as you read it: if the deck has changed since, nothing is "
    "written and the answer is 412 precondition-failed with the current version. Required for a "
    "PATCH with decklist (it replaces every card: 428 precondition-required without it; * "
    "replaces whatever is there); optional otherwise.",
)


def deck_etag(deck: Deck) -> str:
    """The deck's strong entity tag: it changes with every write (each one bumps the version)."""
    return f'"deck-{deck.pk}-v{deck.version}"'


def _if_match(request: Request, deck: Deck) -> set[int] | None:
    """The deck versions ``If-Match`` accepts: None when the header is absent or ``*``.

    Weak tags never match (If-Match compares strongly, RFC 9110 13.1.1), nor do tags of other
    decks, so a header naming none of this deck's versions fails at once.
    """
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    versions: set[int] = set()
    for weak, tag in _ENTITY_TAG.findall(header):
        match = _DECK_TAG.fullmatch(tag)
        if not weak and match and int(match.group(1)) == deck.pk:
            versions.add(int(match.group(2)))
    if not versions:
        raise _precondition_failed(deck, header.strip())
    return versions


def _precondition_failed(deck: Deck, sent: str) -> PreconditionFailed:
    current = deck_current_version(deck.pk)
    current = current if current is not None else deck.version
    etag = f'"deck-{deck.pk}-v{current}"'
    return PreconditionFailed(
        f"This deck changed since you read it: If-Match names {sent}, it is now at version "
        f"{current} (ETag {etag}). Nothing was written; read it again and redo your change.",
        current_version=current,
        etag=etag,
    )


def _replacement_needs_if_match(deck: Deck) -> PreconditionRequired:
    return PreconditionRequired(
        f"Replacing the whole card list of deck {deck.pk} needs If-Match, so that a change "
        f"someone made since you read the deck is not lost. Read the deck (GET "
        f"/api/v1/decks/{deck.pk}/) and send its ETag back in If-Match: a deck changed meanwhile "
        f"is then refused with 412. Or send only the cards that change, as changes "
        f'([{{"op": "add", "name": "...", "count": 1}}]; ops add, remove, set), which need no '
        f"If-Match. If-Match: * replaces the list whatever it is now. Nothing was written."
    )


class DeckCardChangeSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="The card's name, any case.")
    quantity = serializers.IntegerField(
        min_value=-MAX_COPIES,
        max_value=MAX_COPIES,
        default=1,
        help_text="Copies to add; negative takes copies out (the last one removes the line).",
    )
    zone = s.zone_field()

    def validate_quantity(self, value: int) -> int:
        if value == 0:
            raise serializers.ValidationError("Give a number of copies other than 0.")
        return value


@extend_schema(tags=["decks"])
class DeckViewSet(viewsets.GenericViewSet):
    """Decks: public ones for everyone, private ones for their owner only (404 for others).

    Every deck answer carries an ``ETag`` (the deck's version); writes honour ``If-Match``.
    """

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = s.DeckSerializer
    lookup_value_regex = ID_PATTERN
    extra_error_statuses_by_action = {
        "partial_update": (412, 428, 503),
        "destroy": (412, 503),
        "cards": (412, 503),
        "create": (503,),
        "clone": (503,),
    }

    def get_queryset(self) -> QuerySet[Deck]:
        return deck_readable_by(self.request.user).order_by("-updated_at", "pk")

    def _owned(self) -> Deck:
        try:
            return deck_for_change(self.request.user, int(self.kwargs["pk"]))
        except DeckPermissionError as exc:
            raise PermissionDenied(str(exc)) from None

    def _detail(self, deck: Deck, status_code: int = 200) -> Response:
        deck = deck_with_cards(self.request.user, deck.pk)
        data = s.DeckWithCardsSerializer(deck, context=self.get_serializer_context()).data
        return Response(data, status=status_code, headers={"ETag": deck_etag(deck)})

    def _stale(self, deck: Deck) -> PreconditionFailed:
        return _precondition_failed(deck, self.request.headers.get("If-Match", "").strip())

    @extend_schema(
        summary="Decks you can see",
        parameters=[
            OpenApiParameter("game", OpenApiTypes.STR, description=GAME_PARAMETER_WORDS),
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your own decks."),
        ],
    )
    def list(self, request: Request) -> Response:
        params = DeckListQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        if params.validated_data["mine"] and not request.user.is_authenticated:
            raise NotAuthenticated("Sign in to list your own decks.")
        decks = deck_list_for_viewer(
            request.user,
            game_slug=game.slug if (game := params.validated_data.get("game")) else None,
            mine=params.validated_data["mine"],
        )
        page = self.paginate_queryset(decks)
        data = s.DeckSerializer(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)

    @extend_schema(
        summary="Create a deck from a decklist",
        request=s.DeckCreateSerializer,
        responses={201: s.DeckWithCardsSerializer},
        parameters=[ETAG_HEADER],
        examples=[
            OpenApiExample(
                "From text",
                value={
                    "game": "revolt-n-reign",
                    "name": "Sample",
                    "format": "standard",
                    "visibility": "public",
                    "decklist": SAMPLE_DECKLIST,
                },
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        body = s.DeckCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        _check_variant(data["game"], data["variant"])  # a 400 on variant, listing the game's
        try:
            deck = deck_create(
                owner=request.user,
                game=data["game"],
                name=data["name"],
                decklist=data.get("decklist", ""),
                kind=data["kind"],
                format=s.format_for(data.get("format"), data["game"]),
                description=data["description"],
                visibility=data["visibility"],
                variant=data["variant"],
            )
        except (DeckError, DecklistParseError) as exc:
            raise _deck_problem(exc) from None
        return self._detail(deck, status.HTTP_201_CREATED)

    @extend_schema(
        summary="One deck with its cards",
        responses=s.DeckWithCardsSerializer,
        parameters=[ETAG_HEADER],
    )
    def retrieve(self, request: Request, pk: str) -> Response:
        return self._detail(self.get_object())

    @extend_schema(
        summary="Change a deck (owner only): settings, card changes, or a whole new decklist",
        description="Settings and cards change together, as one version. `changes` adds, "
        "removes or sets copies of the cards it names, on the server under the deck's lock, so "
        "concurrent changes to other cards all land: no If-Match needed. `decklist` replaces "
        "every card and so needs If-Match (the ETag you read): without it the answer is 428 "
        "precondition-required, and with a stale one 412 precondition-failed; nothing is "
        "written either way.",
        request=s.DeckUpdateSerializer,
        responses=s.DeckWithCardsSerializer,
        parameters=[IF_MATCH_HEADER, ETAG_HEADER],
        examples=[
            OpenApiExample(
                "Card changes",
                value={
                    "changes": [
                        {"op": "add", "name": "Stamp Act", "count": 1},
                        {"op": "remove", "name": "Eagle Dive", "count": 2},
                        {"op": "set", "name": "Village Green", "count": 6},
                    ]
                },
                request_only=True,
            ),
            OpenApiExample(
                "Rename and change a card",
                value={
                    "name": "Bison Pressure II",
                    "changes": [{"op": "set", "name": "Tea Act", "count": 0}],
                },
                request_only=True,
            ),
        ],
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        deck = self._owned()
        body = s.DeckUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        _check_variant(deck.game, data.get("variant"))
        if "decklist" in data and request.headers.get("If-Match") is None:
            raise _replacement_needs_if_match(deck)
        changes = None
        if "changes" in data:
            changes = [
                CardChange(card=c["name"], op=c["op"], count=c["count"], zone=c["zone"])
                for c in data["changes"]
            ]
        try:
            deck = deck_update(
                deck=deck,
                actor=request.user,
                expected_version=_if_match(request, deck),
                decklist=data.get("decklist"),
                kind=data["kind"],
                name=data.get("name"),
                description=data.get("description"),
                visibility=data.get("visibility"),
                format=s.format_for(data.get("format"), deck.game),
                clear_format="format" in data and not data["format"],
                variant=data.get("variant"),
                card_changes=changes,
            )
        except DeckVersionConflict:
            raise self._stale(deck) from None
        except (DeckError, DecklistParseError) as exc:
            raise _deck_problem(exc, field="changes" if changes else "decklist") from None
        except DeckPermissionError as exc:
            raise PermissionDenied(str(exc)) from None
        return self._detail(deck)

    @extend_schema(
        summary="Delete a deck (owner only)",
        responses={204: None},
        parameters=[IF_MATCH_HEADER],
    )
    def destroy(self, request: Request, pk: str) -> Response:
        deck = self._owned()
        try:
            deck_delete(deck=deck, actor=request.user, expected_version=_if_match(request, deck))
        except DeckVersionConflict:
            raise self._stale(deck) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Add or take out copies of one card (owner only), atomically",
        description="Adds `quantity` copies (negative: takes them out) in one step on the "
        "server, so concurrent adds all count: no read-modify-write, no lost card. If-Match is "
        "optional here: adds commute, so most clients need not send it.",
        request=DeckCardChangeSerializer,
        responses=s.DeckWithCardsSerializer,
        parameters=[IF_MATCH_HEADER, ETAG_HEADER],
        examples=[OpenApiExample("Add one", value={"name": "Stamp Act"}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def cards(self, request: Request, pk: str) -> Response:
        deck = self._owned()
        body = DeckCardChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        change = deck_card_add if data["quantity"] > 0 else deck_card_remove
        try:
            deck = change(
                deck=deck,
                card=data["name"],
                quantity=abs(data["quantity"]),
                zone=data["zone"],
                actor=request.user,
                expected_version=_if_match(request, deck),
            )
        except DeckVersionConflict:
            raise self._stale(deck) from None
        except DeckError as exc:
            raise _deck_problem(exc, field="name") from None
        return self._detail(deck)

    @extend_schema(
        summary="The deck as a decklist file",
        parameters=[OpenApiParameter("kind", str, enum=[*EXPORT_TYPES])],
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="kind=text"),
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="kind=json"
            ),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="kind=csv"),
        },
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str) -> HttpResponse:
        params = s.ExportQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        kind = params.validated_data["kind"]
        deck = self.get_object()
        content_type, extension = EXPORT_TYPES[kind]
        response = HttpResponse(deck_export(deck, kind), content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}.{extension}"'
        return response

    @extend_schema(
        summary="Every version of the deck", responses=s.DeckVersionSerializer(many=True)
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request: Request, pk: str) -> Response:
        versions = deck_versions(self.get_object())
        return Response(s.DeckVersionSerializer(versions, many=True).data)

    @extend_schema(
        summary="What changed between two versions",
        parameters=[
            OpenApiParameter("from", OpenApiTypes.INT, required=True),
            OpenApiParameter("to", OpenApiTypes.INT, required=True),
        ],
        responses=s.DeckDiffSerializer,
    )
    @action(detail=True, methods=["get"])
    def diff(self, request: Request, pk: str) -> Response:
        params = s.DiffQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        deck = self.get_object()
        try:
            diff = deck_version_diff(
                deck, params.validated_data["from"], params.validated_data["to"]
            )
        except DeckVersion.DoesNotExist as exc:
            raise NotFound(str(exc)) from None
        return Response(diff)

    @extend_schema(
        summary="Copy a deck to your account",
        request=s.DeckCloneSerializer,
        responses={201: s.DeckWithCardsSerializer},
        parameters=[ETAG_HEADER],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def clone(self, request: Request, pk: str) -> Response:
        body = s.DeckCloneSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            copy = deck_clone(
                deck=self.get_object(), owner=request.user, name=body.validated_data.get("name")
            )
        except DeckPermissionError:
            raise NotFound() from None
        return self._detail(copy, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Is this deck legal?",
        parameters=[
            OpenApiParameter("format", OpenApiTypes.STR, description="Default: the deck's own."),
            OpenApiParameter("as_of", OpenApiTypes.DATE, description="Default: today."),
        ],
        responses=s.ValidationReportSerializer,
    )
    @action(detail=True, methods=["get"], url_path="validate")
    def validate_deck(self, request: Request, pk: str) -> Response:
        params = s.ValidateQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        deck = self.get_object()
        wanted = format_param(request, params.validated_data.get("format"))
        fmt = s.format_for(wanted, deck.game)
        report = deck_validate(deck, format=fmt, as_of=params.validated_data.get("as_of"))
        return Response(report.to_dict())


@extend_schema(
    tags=["validation"],
    summary="Validate a decklist or a list of cards",
    request=s.ValidateRequestSerializer,
    responses=s.ValidationReportSerializer,
    examples=VALIDATE_EXAMPLES,
)
@api_view(["POST"])
@permission_classes([AllowAny])
def validate_view(request: Request) -> Response:
    body = s.ValidateRequestSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    game = data["game"]
    entries, own = _entries(game, data)
    # what the request says wins over what the decklist says of itself (# format: ...)
    options: dict[str, Any] = {
        "format": data.get("format") or own.format,
        "as_of": data.get("as_of") or own.as_of,
    }
    variant = data.get("variant") or own.variant
    if variant:
        options["variant"] = variant
    return Response(_validate(game, entries, **options))


@extend_schema(tags=["validation"])
class FormatViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Formats of every game (legal sets, banned and restricted lists over time)."""

    serializer_class = s.FormatSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-z0-9_]+"

    def get_queryset(self) -> QuerySet[Format]:
        if self.action != "list":
            return format_list()
        # ``?game=`` by slug, short name or name alike, refused (400) when it names no game
        params = s.GameQuerySerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        game = params.validated_data.get("game")
        return format_list(game_slug=game.slug if game is not None else None)

    @extend_schema(
        parameters=[OpenApiParameter("game", OpenApiTypes.STR, description=GAME_PARAMETER_WORDS)]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="Check many decks against a format: one verdict each and a summary",
        request=s.FormatCheckRequestSerializer,
        responses=s.FormatCheckResponseSerializer,
        examples=[
            OpenApiExample(
                "Two decks",
                value={
                    "game": "revolt-n-reign",
                    "as_of": "2026-10-01",
                    "decks": [
                        {"name": "text", "decklist": SAMPLE_DECKLIST},
                        {"name": "cards", "cards": [{"name": "Stamp Act", "quantity": 3}]},
                    ],
                },
                request_only=True,
            )
        ],
    )
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def check(self, request: Request, slug: str) -> Response:
        body = s.FormatCheckRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        found = format_by_slug(slug, game=data.get("game"))
        if not found:
            raise NotFound(f"There is no format {slug!r}.")
        if len(found) > 1:
            raise ValidationError({"game": ["Several games have this format: say which."]})
        fmt = found[0]
        variant = data.get("variant") or None
        _check_variant(fmt.game, variant)
        decks: list[BatchDeck] = []
        for deck in data["decks"]:
            name = deck.get("name", "")
            try:
                entries, settings = _entries(fmt.game, deck)
                decks.append(BatchDeck(name, entries, [], settings))
            except ValidationError as exc:
                # the stubs type a dict of details by str or int keys; these are field names
                detail: dict[Any, Any] = exc.detail if isinstance(exc.detail, dict) else {}
                errors = detail.get("decklist", []) or detail.get("cards", [])
                decks.append(BatchDeck(name, None, [str(e) for e in errors]))
        return Response(format_check(fmt, decks, as_of=data.get("as_of"), variant=variant))
