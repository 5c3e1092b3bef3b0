from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from decks.events.selectors import event_is_locked
from decks.models import (
    Deck,
    DeckCard,
    DeckVersion,
    Event,
    Format,
    FormatCardEntry,
    FormatSet,
    Registration,
)


class FormatSetInline(admin.TabularInline):
    model = FormatSet
    extra = 0
    autocomplete_fields = ()


class FormatCardEntryInline(admin.TabularInline):
    """The ban and restricted lists, edited in place with their effective dates."""

    model = FormatCardEntry
    extra = 1
    raw_id_fields = ("card",)
    fields = ("card", "status", "limit", "effective_from", "effective_until", "reason")


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "game", "is_default", "effective_from", "effective_until")
    list_filter = ("game", "is_default")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = (FormatSetInline, FormatCardEntryInline)


@admin.register(FormatCardEntry)
class FormatCardEntryAdmin(admin.ModelAdmin):
    list_display = ("card", "format", "status", "limit", "effective_from", "effective_until")
    list_filter = ("format__game", "format", "status")
    search_fields = ("card__name", "reason")
    raw_id_fields = ("card",)
    date_hierarchy = "effective_from"


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    raw_id_fields = ("card",)


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "game", "format", "visibility", "version", "updated_at")
    list_filter = ("game", "visibility")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)
    inlines = (DeckCardInline,)
    readonly_fields = ("version",)


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ("deck", "number", "note", "created_at")
    readonly_fields = ("deck", "number", "note", "entries", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Versions are recorded by the deck services when a deck changes, never typed in."""
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Events as the site shows them; ``Event.clean`` makes the site's format and date checks.

    The deadline is typed and shown here in UTC (the server's zone), whatever the event's zone.
    """

    list_display = (
        "name",
        "game",
        "format",
        "date",
        "time_zone",
        "decklist_deadline",
        "locked",
        "organiser",
    )
    list_filter = ("game",)

    @admin.display(boolean=True, description="locked")
    def locked(self, obj: Event) -> bool:
        return event_is_locked(obj)

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        """An event added here without an organiser is organised by whoever added it."""
        if not change and obj.organiser_id is None:
            obj.organiser = request.user
        super().save_model(request, obj, form, change)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "legal", "deck_hash", "submitted_at")
    list_filter = ("event", "legal")
    readonly_fields = ("decklist", "entries", "deck_hash", "submitted_at", "legal", "verdict")
