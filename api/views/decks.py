"""Decks (CRUD, import/export, versions, clone), validation, formats and event registrations."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
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
    BasePermission,
    IsAuthenticated,
    IsAuthenticatedOrReadOnly,
)
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import Conflict
from api.schema import PROBLEM_MEDIA_TYPE, ProblemAutoSchema, problem_example
from api.serializers import decks as s
from cards.models import Game
from decks.decklist import DecklistParseError, decklist_entries, decklist_read
from decks.models import Deck, DeckVersion, Event, Format, Registration
from decks.selectors import (
    deck_export,
    deck_list_for_viewer,
    deck_readable_by,
    deck_validate,
    deck_version_diff,
    deck_versions,
    event_registrations,
    format_check,
    user_is_organiser,
)
from decks.services import (
    DeckError,
    DeckPermissionError,
    OrganiserRequiredError,
    RegistrationLockedError,
    deck_cards_replace,
    deck_clone,
    deck_create,
    deck_delete,
    deck_details_update,
    event_create,
    registration_submit,
    registration_withdraw,
)
from decks.validation import UnknownFormatError, UnknownVariantError, validate
from deckwright.inputs import ID_PATTERN

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
EXPORT_TYPES = {"text": "text/plain", "json": "application/json", "csv": "text/csv"}


def _deck_problem(exc: Exception, field: str = "decklist") -> ValidationError:
    """A decks-layer error as a 400 naming the field and, for parse errors, the line."""
    if isinstance(exc, DecklistParseError):
        return ValidationError({field: [str(problem) for problem in exc.problems]})
    if isinstance(exc, DeckError):
        return ValidationError({field: list(exc.problems)})
    return ValidationError({field: [str(exc)]})


def _entries(game: Game, data: dict[str, Any]) -> list[Any]:
    """Decklist entries from either decklist text (in ``kind``) or a cards list."""
    if "cards" in data:
        return [(c["name"], c["quantity"], c.get("zone", "")) for c in data["cards"]]
    try:
        parsed = decklist_read(data.get("decklist", ""), data.get("kind", "text"))
        return decklist_entries(game.slug, parsed)
    except DecklistParseError as exc:
        raise _deck_problem(exc) from None


def _validate(game: Game, entries: list[Any], **options: Any) -> dict[str, Any]:
    try:
        return validate(game.slug, entries, **options).to_dict()
    except UnknownFormatError as exc:
        raise ValidationError({"format": [str(exc)]}) from None
    except UnknownVariantError as exc:
        raise ValidationError({"variant": [str(exc)]}) from None


class DeckListQuerySerializer(serializers.Serializer):
    game = serializers.SlugField(required=False)
    mine = serializers.BooleanField(required=False, default=False)


@extend_schema(tags=["decks"])
class DeckViewSet(viewsets.GenericViewSet):
    """Decks: public ones for everyone, private ones for their owner only (404 for others)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = s.DeckSerializer
    lookup_value_regex = ID_PATTERN

    def get_queryset(self) -> QuerySet[Deck]:
        return deck_readable_by(self.request.user).order_by("-updated_at", "pk")

    def _owned(self) -> Deck:
        deck = self.get_object()
        if deck.owner_id != self.request.user.pk:
            raise PermissionDenied("Only the deck's owner can change it.")
        return deck

    def _detail(self, deck: Deck, status_code: int = 200) -> Response:
        deck = deck_readable_by(self.request.user).prefetch_related("cards__card").get(pk=deck.pk)
        data = s.DeckWithCardsSerializer(deck, context=self.get_serializer_context()).data
        return Response(data, status=status_code)

    @extend_schema(
        summary="Decks you can see",
        parameters=[
            OpenApiParameter("game", OpenApiTypes.STR, description="Game slug."),
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
            game_slug=params.validated_data.get("game"),
            mine=params.validated_data["mine"],
        )
        page = self.paginate_queryset(decks)
        data = s.DeckSerializer(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)

    @extend_schema(
        summary="Create a deck from a decklist",
        request=s.DeckCreateSerializer,
        responses={201: s.DeckWithCardsSerializer},
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

    @extend_schema(summary="One deck with its cards", responses=s.DeckWithCardsSerializer)
    def retrieve(self, request: Request, pk: str) -> Response:
        return self._detail(self.get_object())

    @extend_schema(
        summary="Change a deck (owner only); a decklist replaces its cards",
        request=s.DeckUpdateSerializer,
        responses=s.DeckWithCardsSerializer,
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        deck = self._owned()
        body = s.DeckUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            if "decklist" in data:
                deck_cards_replace(
                    deck=deck, decklist=data["decklist"], kind=data["kind"], actor=request.user
                )
            deck_details_update(
                deck=deck,
                actor=request.user,
                name=data.get("name"),
                description=data.get("description"),
                visibility=data.get("visibility"),
                format=s.format_for(data.get("format"), deck.game),
                clear_format="format" in data and not data["format"],
            )
        except (DeckError, DecklistParseError) as exc:
            raise _deck_problem(exc) from None
        except DeckPermissionError as exc:
            raise PermissionDenied(str(exc)) from None
        return self._detail(deck)

    @extend_schema(summary="Delete a deck (owner only)", responses={204: None})
    def destroy(self, request: Request, pk: str) -> Response:
        deck_delete(deck=self._owned(), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

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
        response = HttpResponse(deck_export(deck, kind), content_type=EXPORT_TYPES[kind])
        extension = {"text": "txt", "json": "json", "csv": "csv"}[kind]
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
        fmt = s.format_for(params.validated_data.get("format"), deck.game)
        try:
            report = deck_validate(deck, format=fmt, as_of=params.validated_data.get("as_of"))
        except UnknownVariantError as exc:
            raise ValidationError({"variant": [str(exc)]}) from None
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
    options: dict[str, Any] = {"format": data.get("format") or None, "as_of": data.get("as_of")}
    if data.get("variant"):
        options["variant"] = data["variant"]
    return Response(_validate(game, _entries(game, data), **options))


@extend_schema(tags=["validation"])
class FormatViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Formats of every game (legal sets, banned and restricted lists over time)."""

    serializer_class = s.FormatSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-z0-9_]+"

    def get_queryset(self) -> QuerySet[Format]:
        formats = Format.objects.select_related("game").order_by("game__sort_order", "slug")
        game = self.request.query_params.get("game")
        return formats.filter(game__slug=game) if game else formats

    @extend_schema(
        parameters=[OpenApiParameter("game", OpenApiTypes.STR, description="Game slug.")]
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
        formats = Format.objects.select_related("game").filter(slug=slug)
        if data.get("game"):
            formats = formats.filter(game=data["game"])
        found = list(formats[:2])
        if not found:
            raise NotFound(f"There is no format {slug!r}.")
        if len(found) > 1:
            raise ValidationError({"game": ["Several games have this format: say which."]})
        fmt = found[0]
        decks = []
        for deck in data["decks"]:
            try:
                decks.append((deck.get("name", ""), _entries(fmt.game, deck), []))
            except ValidationError as exc:
                errors = exc.detail.get("decklist", []) if isinstance(exc.detail, dict) else []
                decks.append((deck.get("name", ""), None, [str(e) for e in errors]))
        return Response(format_check(fmt, decks, as_of=data.get("as_of")))


class IsOrganiser(BasePermission):
    """Only organisers create events; the 403's detail says how to become one."""

    message = str(OrganiserRequiredError())

    def has_permission(self, request: Request, view: Any) -> bool:
        return user_is_organiser(request.user)


class EventSchema(ProblemAutoSchema):
    """Event operations, with the organiser 403 as the example of creating one."""

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction == "response" and getattr(self.view, "action", None) == "create":
            examples = responses["403"]["content"][PROBLEM_MEDIA_TYPE]["examples"]
            examples["not-an-organiser"] = {
                "summary": "Signed in but not an organiser",
                "value": problem_example("permission-denied", IsOrganiser.message),
            }
        return responses


@extend_schema(tags=["events"])
class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """Tournaments: organisers create them and see every registration; players submit a
    decklist before the deadline, after which the list is locked."""

    serializer_class = s.EventSerializer
    lookup_value_regex = ID_PATTERN
    extra_error_statuses = (409,)
    schema = EventSchema()

    def get_queryset(self) -> QuerySet[Event]:
        return (
            Event.objects.select_related("game", "format", "organiser")
            .annotate(registration_count=Count("registrations"))
            .order_by("-date", "name")
        )

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [IsAuthenticated(), IsOrganiser()]
        return super().get_permissions()

    @extend_schema(
        summary="Create an event (organisers only; you become its organiser)",
        description="Only organisers create events: members of the Organisers group, users given "
        "the `decks.add_event` permission, and superusers. Anyone else signed in gets a 403 whose "
        "`detail` says how to become one (ask an administrator).",
        request=s.EventCreateSerializer,
        responses={
            201: s.EventSerializer,
            403: OpenApiResponse(
                description="Signed in but not an organiser (problem details, code "
                "`permission-denied`): only organisers create events; an administrator grants "
                "the role in the admin or with `manage.py organiser grant USERNAME`."
            ),
        },
        examples=[
            OpenApiExample(
                "Event",
                value={
                    "game": "revolt-n-reign",
                    "format": "standard",
                    "name": "Autumn Open",
                    "date": "2026-12-05",
                    "decklist_deadline": "2026-12-04T18:00:00Z",
                },
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        body = s.EventCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            event = event_create(organiser=request.user, **body.validated_data)
        except OrganiserRequiredError as exc:
            raise PermissionDenied(str(exc)) from None
        except DeckError as exc:
            raise _deck_problem(exc, field="variant") from None
        event = self.get_queryset().get(pk=event.pk)
        return Response(s.EventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Every registration of the event (its organiser only)",
        description="The event's organiser sees them even after their organiser role is revoked: "
        "the event stays theirs. Anyone else signed in gets a 403.",
        responses=s.RegistrationSerializer(many=True),
    )
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def registrations(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        if event.organiser_id != request.user.pk:
            raise PermissionDenied("Only the event's organiser sees every registration.")
        registrations = event_registrations(event).select_related("event", "player")
        locked = timezone.now() > event.decklist_deadline
        data = s.RegistrationSerializer(registrations, many=True, context={"locked": locked}).data
        return Response(data)

    def _registration_response(self, registration: Registration, status_code: int = 200):
        locked = timezone.now() > registration.event.decklist_deadline
        data = s.RegistrationSerializer(registration, context={"locked": locked}).data
        return Response(data, status=status_code)

    @extend_schema(
        summary="Submit or replace your decklist (until the deadline)",
        request=s.RegistrationSubmitSerializer,
        responses={201: s.RegistrationSerializer},
        examples=[
            OpenApiExample(
                "Decklist", value={"decklist": SAMPLE_DECKLIST, "kind": "text"}, request_only=True
            )
        ],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def register(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        body = s.RegistrationSubmitSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            registration = registration_submit(
                event=event,
                player=request.user,
                decklist=body.validated_data["decklist"],
                kind=body.validated_data["kind"],
            )
        except RegistrationLockedError as exc:
            raise Conflict(str(exc)) from None
        except (DeckError, DecklistParseError) as exc:
            raise _deck_problem(exc) from None
        return self._registration_response(registration, status.HTTP_201_CREATED)

    @extend_schema(summary="Your registration", responses=s.RegistrationSerializer)
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def registration(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        registration = get_object_or_404(
            Registration.objects.select_related("event", "player"), event=event, player=request.user
        )
        return self._registration_response(registration)

    @extend_schema(summary="Withdraw (until the deadline)", responses={204: None})
    @registration.mapping.delete
    def withdraw(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        registration = get_object_or_404(
            Registration.objects.select_related("event"), event=event, player=request.user
        )
        try:
            registration_withdraw(registration=registration)
        except RegistrationLockedError as exc:
            raise Conflict(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
