"""Events and registrations over the API: what is shown, and the bodies of the writes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.decks import (
    KINDS,
    MAX_DECKLIST,
    CalendarDateField,
    CardCountSerializer,
    GameSlugField,
    ValidationReportSerializer,
    format_for,
)
from decks.events.selectors import event_changeable_fields, event_is_locked
from decks.models import Event, Registration


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(source="game.slug")
    format = serializers.CharField(source="format.slug")
    date = serializers.DateField(help_text="The event day, in the event's time zone.")
    decklist_deadline = serializers.DateTimeField(help_text="In UTC.")
    time_zone = serializers.CharField(
        help_text="IANA name (e.g. Europe/Paris): the event day and deadline are read in it."
    )
    locked = serializers.SerializerMethodField(help_text="True once the decklist deadline passed.")
    changeable = serializers.SerializerMethodField(
        help_text="Fields its organiser may still change: all until someone registers; then not "
        "game, format or variant; once locked only name."
    )
    registration_count = serializers.IntegerField()
    organiser = serializers.CharField(
        source="organiser.get_username", allow_null=True, default=None
    )
    variant = serializers.CharField()

    def get_locked(self, event: Event) -> bool:
        return event_is_locked(event)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_changeable(self, event: Event) -> list[str]:
        return sorted(event_changeable_fields(event))


class WallClockDateTimeField(serializers.DateTimeField):
    """A moment with an offset is kept as it is; one without stays naive, a wall-clock time the
    event service reads in the event's time zone (DRF would read it as UTC)."""

    def enforce_timezone(self, value: dt.datetime) -> dt.datetime:
        return value


class EventWriteSerializer(serializers.Serializer):
    """The body of POST (all but ``variant`` and ``time_zone`` required), PUT (the same) and PATCH
    (any subset). ``context["event"]`` is the event being changed, for a format named alone."""

    game = GameSlugField()
    format = serializers.SlugField(help_text="One of the game's format slugs, e.g. standard.")
    name = serializers.CharField(max_length=160)
    date = CalendarDateField(help_text="The event day, in its time zone.")
    decklist_deadline = WallClockDateTimeField(
        help_text="After this moment decklists are locked. ISO 8601: with an offset (`Z`, "
        "`+01:00`) it is that moment; without one it is a wall-clock time in `time_zone`. It must "
        "be in the future and at the latest on the event day."
    )
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="IANA time zone of the event, e.g. Europe/Paris (default UTC on creation). "
        "Changed alone, it keeps the deadline's moment.",
    )
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        event: Event | None = self.context.get("event")
        if "game" in attrs:
            game = attrs["game"]
            if "format" not in attrs and (event is None or game.pk != event.game_id):
                raise serializers.ValidationError(
                    {"format": [f"Name one of {game.name}'s formats too."]}
                )
        if "name" in attrs and not attrs["name"].strip():
            raise serializers.ValidationError({"name": ["An event needs a name."]})
        if "format" in attrs:
            game = attrs.get("game") or (event.game if event else None)
            assert game is not None  # a POST or PUT names the game; a PATCH has the event's
            attrs["format"] = format_for(attrs["format"], game)
        return attrs


class RegistrationSubmitSerializer(serializers.Serializer):
    decklist = serializers.CharField(max_length=MAX_DECKLIST, trim_whitespace=False)
    kind = serializers.ChoiceField(choices=KINDS, default="text")


class RegistrationSerializer(serializers.Serializer):
    event = serializers.IntegerField(source="event_id")
    player = serializers.CharField(source="player.get_username")
    deck_hash = serializers.CharField(help_text="SHA-256 of the submitted list (order-blind).")
    submitted_at = serializers.DateTimeField()
    legal = serializers.BooleanField(
        help_text="The verdict on the event's date in its format; `verdict.violations` say why not."
    )
    verdict = ValidationReportSerializer()
    entries = CardCountSerializer(many=True)
    decklist = serializers.CharField(help_text="The decklist exactly as submitted.")
    locked = serializers.SerializerMethodField(help_text="True once the decklist deadline passed.")

    def get_locked(self, registration: Registration) -> bool:
        return event_is_locked(registration.event)
