"""Tournament events over the API: organisers create, change and delete their events and read the
submitted decklists; players register a decklist until the deadline. Thin: every rule is in
``decks.events``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.users import signed_in
from api.errors import Conflict
from api.filters import GAME_PARAMETER_WORDS
from api.schema import PROBLEM_MEDIA_TYPE, ProblemAutoSchema, problem_example
from api.serializers import events as s
from api.serializers.decks import GameQuerySerializer
from api.views.decks import SAMPLE_DECKLIST
from common.inputs import ID_PATTERN
from decks.decklist import DecklistParseError
from decks.events.errors import (
    EventConflictError,
    EventError,
    EventPermissionError,
    OrganiserRequiredError,
    RegistrationLockedError,
)
from decks.events.selectors import (
    event_check_organiser,
    event_list,
    registration_of,
    registrations_visible_to,
)
from decks.events.services import (
    event_create,
    event_delete,
    event_update,
    registration_submit,
    registration_withdraw,
)
from decks.models import Event, Registration
from decks.selectors import user_is_organiser


def _problem(exc: Exception) -> APIException:
    """An event-layer refusal as problem details: 403 who, 409 state, 400 what (by field)."""
    if isinstance(exc, EventPermissionError | OrganiserRequiredError):
        return PermissionDenied(str(exc))
    if isinstance(exc, EventConflictError | RegistrationLockedError):
        return Conflict("; ".join(exc.problems))
    if isinstance(exc, EventError):
        return ValidationError({field: [text] for field, text in exc.fields.items()})
    if isinstance(exc, DecklistParseError):
        return ValidationError({"decklist": [str(problem) for problem in exc.problems]})
    raise exc


class IsOrganiser(BasePermission):
    """Only organisers create events; the 403's detail says how to become one."""

    message = str(OrganiserRequiredError())

    def has_permission(self, request: Request, view: Any) -> bool:
        return user_is_organiser(request.user)


class EventSchema(ProblemAutoSchema):
    """Event operations, with the organiser 403 as the example of creating one."""

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction == "response" and getattr(self.view, "action", None) == "create":
            examples = responses["403"]["content"][PROBLEM_MEDIA_TYPE]["examples"]
            examples["not-an-organiser"] = {
                "summary": "Signed in but not an organiser",
                "value": problem_example("permission-denied", IsOrganiser.message),
            }
        return responses


EVENT_EXAMPLE = OpenApiExample(
    "Event",
    value={
        "game": "revolt-n-reign",
        "format": "standard",
        "name": "Autumn Open",
        "date": "2026-12-05",
        "decklist_deadline": "2026-12-04T18:00",
        "time_zone": "Europe/Paris",
    },
    request_only=True,
)
CHANGE_RULES = (
    "Only the event's organiser (403 for anyone else). What may change depends on the event's "
    "state (its `changeable` field): everything until someone registers; then not the game, "
    "format or variant (409), and a moved date judges every registered list again on the new "
    "date; once locked, only the name (409). The dates are checked as on creation where they "
    "change (400 naming the field)."
)


@extend_schema(tags=["events"])
@extend_schema_view(
    list=extend_schema(
        summary="Every event, the newest date first",
        parameters=[OpenApiParameter("game", OpenApiTypes.STR, description=GAME_PARAMETER_WORDS)],
    ),
    retrieve=extend_schema(summary="One event: its format, date, deadline and organiser"),
)
class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """Tournaments: organisers create, change and delete them and read the submitted decklists;
    players submit a decklist before the deadline, after which the list is locked."""

    serializer_class = s.EventSerializer
    lookup_value_regex = ID_PATTERN
    extra_error_statuses = (409,)
    schema = EventSchema()

    def get_queryset(self) -> QuerySet[Event]:
        events = event_list()
        if self.action == "list":
            params = GameQuerySerializer(data=self.request.query_params)
            params.is_valid(raise_exception=True)
            if "game" in params.validated_data:
                events = events.filter(game=params.validated_data["game"])
        return events

    def get_permissions(self) -> Sequence[Any]:
        if self.action == "create":
            return [IsAuthenticated(), IsOrganiser()]
        if self.action in ("update", "partial_update", "destroy"):
            return [IsAuthenticated()]
        return super().get_permissions()

    def _event_response(self, event: Event, status_code: int = status.HTTP_200_OK) -> Response:
        return Response(s.EventSerializer(event_list().get(pk=event.pk)).data, status=status_code)

    @extend_schema(
        summary="Create an event (organisers only; you become its organiser)",
        description="Only organisers create events: members of the Organisers group, users given "
        "the `decks.add_event` permission, and superusers. Anyone else signed in gets a 403 whose "
        "`detail` says how to become one (ask an administrator). The date may not have passed nor "
        "be more than 10 years ahead (in the event's `time_zone`); the deadline must be in the "
        "future and at the latest on the event day.",
        request=s.EventWriteSerializer,
        responses={
            201: s.EventSerializer,
            403: OpenApiResponse(
                description="Signed in but not an organiser (problem details, code "
                "`permission-denied`): only organisers create events; an administrator grants "
                "the role in the admin or with `manage.py organiser grant USERNAME`."
            ),
        },
        examples=[EVENT_EXAMPLE],
    )
    def create(self, request: Request) -> Response:
        body = s.EventWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            event = event_create(organiser=signed_in(request.user), **body.validated_data)
        except (OrganiserRequiredError, EventError) as exc:
            raise _problem(exc) from None
        return self._event_response(event, status.HTTP_201_CREATED)

    def _change(self, request: Request, *, partial: bool) -> Response:
        event = self.get_object()
        try:  # who asks comes before what they send (the service checks again, under the lock)
            event_check_organiser(event, request.user, "changes the event")
        except EventPermissionError as exc:
            raise _problem(exc) from None
        body = s.EventWriteSerializer(data=request.data, partial=partial, context={"event": event})
        body.is_valid(raise_exception=True)
        changes = dict(body.validated_data)
        changes.pop("game", None)  # the format names the game
        try:
            event_update(event=event, actor=signed_in(request.user), **changes)
        except (EventPermissionError, EventError) as exc:
            raise _problem(exc) from None
        return self._event_response(event)

    @extend_schema(
        summary="Replace an event's details (its organiser only)",
        description=CHANGE_RULES,
        request=s.EventWriteSerializer,
        responses=s.EventSerializer,
        examples=[EVENT_EXAMPLE],
    )
    def update(self, request: Request, pk: str) -> Response:
        return self._change(request, partial=False)

    @extend_schema(
        summary="Change some of an event's details (its organiser only)",
        description=CHANGE_RULES,
        request=s.EventWriteSerializer,
        responses=s.EventSerializer,
        examples=[
            OpenApiExample(
                "Move the deadline",
                value={"decklist_deadline": "2026-12-04T20:00"},
                request_only=True,
            )
        ],
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        return self._change(request, partial=True)

    @extend_schema(
        summary="Delete an event and its registrations (its organiser only)",
        description="Only the event's organiser (403 for anyone else). Refused with a 409 once the "
        "event is locked with registrations: the submitted lists are the record of the "
        "tournament (an administrator can still delete it in the admin).",
        responses={204: None},
    )
    def destroy(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        try:
            event_delete(event=event, actor=signed_in(request.user))
        except (EventPermissionError, EventError) as exc:
            raise _problem(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Every registration with its submitted decklist (its organiser only)",
        description="The event's organiser sees them even after their organiser role is revoked: "
        "the event stays theirs. Anyone else signed in gets a 403.",
        responses=s.RegistrationSerializer(many=True),
    )
    @action(
        detail=True,
        methods=["get"],
        permission_classes=[IsAuthenticated],
        pagination_class=None,  # every registration in one list, as the schema says
        filter_backends=[],
    )
    def registrations(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        try:
            registrations = registrations_visible_to(event, request.user)
        except EventPermissionError as exc:
            raise _problem(exc) from None
        return Response(s.RegistrationSerializer(registrations, many=True).data)

    @extend_schema(
        summary="Submit or replace your decklist (until the deadline)",
        description="The list is judged in the event's format and variant on the event's date: "
        "`legal` and `verdict.violations` say whether it is legal and why not (an illegal list "
        "is still registered, so it can be fixed until the deadline). An unreadable list is a 400.",
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
                player=signed_in(request.user),
                decklist=body.validated_data["decklist"],
                kind=body.validated_data["kind"],
            )
        except (RegistrationLockedError, DecklistParseError) as exc:
            raise _problem(exc) from None
        data = s.RegistrationSerializer(registration).data
        return Response(data, status=status.HTTP_201_CREATED)

    def _mine(self, request: Request) -> Registration:
        registration = registration_of(self.get_object(), request.user)
        if registration is None:
            raise NotFound("You are not registered for this event.")
        return registration

    @extend_schema(summary="Your registration", responses=s.RegistrationSerializer)
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def registration(self, request: Request, pk: str) -> Response:
        return Response(s.RegistrationSerializer(self._mine(request)).data)

    @extend_schema(summary="Withdraw (until the deadline)", responses={204: None})
    @registration.mapping.delete
    def withdraw(self, request: Request, pk: str) -> Response:
        try:
            registration_withdraw(registration=self._mine(request))
        except RegistrationLockedError as exc:
            raise _problem(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
