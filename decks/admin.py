from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest

from decks.events.selectors import event_is_locked
from decks.events.services import event_dates_problems
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
from decks.selectors import formats_with_games
from decks.services import format_and_variant_problems


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


class FormatListFilter(admin.RelatedFieldListFilter):
    """The "By format" filter: each format is named with its game (``Format.__str__``), read
    with the formats rather than by a query a format as Django's own filter does."""

    def field_choices(
        self, field: Any, request: HttpRequest, model_admin: admin.ModelAdmin
    ) -> list[tuple[str, Any]]:
        formats = formats_with_games()
        ordering = self.field_admin_ordering(field, request, model_admin)
        if ordering:
            formats = formats.order_by(*ordering)
        return [(str(each.pk), str(each)) for each in formats]


@admin.register(FormatCardEntry)
class FormatCardEntryAdmin(admin.ModelAdmin):
    list_display = ("card", "format", "status", "limit", "effective_from", "effective_until")
    list_filter = ("format__game", ("format", FormatListFilter), "status")
    # a row shows its format by name and game: without these, a query for each row's game
    list_select_related = ("card", "format__game")
    search_fields = ("card__name", "reason")
    raw_id_fields = ("card",)
    date_hierarchy = "effective_from"


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    raw_id_fields = ("card",)


class DeckAdminForm(forms.ModelForm):
    """A deck as the admin edits it, with the site's check of its format and variant
    (``format_and_variant_problems``): a variant typed in must be one of the game's."""

    class Meta:
        model = Deck
        fields = ("owner", "game", "format", "name", "description", "variant", "visibility")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game = data.get("game")
        if game is not None:
            problems = format_and_variant_problems(
                game, data.get("format"), data.get("variant") or ""
            )
            for field, text in problems.items():
                self.add_error(field, f"{text}.")
        return data


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "game", "format", "visibility", "version", "updated_at")
    list_filter = ("game", "visibility")
    # the format is nullable, which Django's own select_related() leaves out: two queries a row
    list_select_related = ("owner", "game", "format__game")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)
    inlines = (DeckCardInline,)
    readonly_fields = ("version",)
    form = DeckAdminForm


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ("deck", "number", "note", "created_at")
    readonly_fields = ("deck", "number", "note", "entries", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Versions are recorded by the deck services when a deck changes, never typed in."""
        return False


class EventAdminForm(forms.ModelForm):
    """An event as the admin edits it, with the checks ``event_create`` makes: the format must
    belong to the event's game, a variant must be one of that game's, and the dates must be sane
    (``event_dates_problems``: a new or changed date or deadline is judged against the clock
    too). The checks live here, not on the model, so the model imports no service."""

    class Meta:
        model = Event
        fields = (
            "game",
            "format",
            "name",
            "date",
            "decklist_deadline",
            "time_zone",
            "variant",
            "organiser",
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        problems: dict[str, str] = {}
        game = data.get("game")
        if game is not None:
            problems.update(
                format_and_variant_problems(game, data.get("format"), data.get("variant") or "")
            )
        date, deadline = data.get("date"), data.get("decklist_deadline")
        if date and deadline:
            stored = Event.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
            changed = frozenset(
                field
                for field, value in (("date", date), ("decklist_deadline", deadline))
                if stored is None or getattr(stored, field) != value
            )
            problems.update(
                event_dates_problems(
                    date=date,
                    decklist_deadline=deadline,
                    time_zone=data.get("time_zone") or "",
                    creating=stored is None,
                    changed=changed,
                )
            )
        for field, text in problems.items():
            self.add_error(field if field in self.fields else None, f"{text}.")
        return data


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Events as the site shows them; ``EventAdminForm`` makes the site's format and date checks.

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
    list_select_related = ("game", "format__game", "organiser")
    form = EventAdminForm

    @admin.display(boolean=True, description="locked")
    def locked(self, obj: Event) -> bool:
        return event_is_locked(obj)

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        """An event added here without an organiser is organised by whoever added it."""
        if not change and obj.organiser_id is None:
            user = request.user
            assert isinstance(user, User)  # the admin serves signed-in staff only
            obj.organiser = user
        super().save_model(request, obj, form, change)


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "legal", "deck_hash", "submitted_at")
    list_filter = ("event", "legal")
    list_select_related = ("player", "event")
    readonly_fields = ("decklist", "entries", "deck_hash", "submitted_at", "legal", "verdict")
