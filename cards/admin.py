from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Ruling, Subtype
from cards.schema import PRINTED_NUMBERS


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "min_players", "max_players", "deck_summary")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


class _VocabularyAdmin(admin.ModelAdmin):
    list_display: tuple[str, ...] = ("name", "slug", "game", "sort_order")
    list_filter = ("game",)
    search_fields = ("name", "slug")


admin.site.register(CardType, _VocabularyAdmin)
admin.site.register(Rarity, _VocabularyAdmin)
admin.site.register(Subtype, _VocabularyAdmin)


@admin.register(Branch)
class BranchAdmin(_VocabularyAdmin):
    list_display = ("name", "slug", "game", "color", "sort_order")


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "game", "release_date")
    list_filter = ("game",)
    search_fields = ("name", "code")
    date_hierarchy = "release_date"


class RulingInline(admin.TabularInline):
    model = Ruling
    extra = 0


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "card_type", "branch", "rarity", "cost", "card_set")
    list_filter = ("game", "card_type", "branch", "rarity", "card_set")
    search_fields = ("name", "rules_text", "slug")
    list_select_related = ("game", "card_type", "branch", "rarity", "card_set")
    readonly_fields = ("name_key", "created_at", "updated_at")
    filter_horizontal = ("subtypes",)
    inlines = (RulingInline,)
    fieldsets = (
        (None, {"fields": ("game", "card_set", "collector_number", "name", "slug", "name_key")}),
        ("Classification", {"fields": ("card_type", "subtypes", "branch", "rarity")}),
        (
            "Printed numbers",
            {"fields": (*PRINTED_NUMBERS, "copies_in_set")},
        ),
        (
            "Behaviour and text",
            {"fields": ("effects", "stats", "rules_text", "flavor_text", "attribution")},
        ),
        ("History", {"fields": ("created_at", "updated_at")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Card]:
        # a listed card shows its game's name: the game's JSON documents (its card schema and
        # number labels) stay unread, where each row decoded them
        return super().get_queryset(request).defer("game__card_schema", "game__number_labels")


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ("card", "published_on", "source")
    # only the card its name is shown from: the admin's default follows every foreign key, the
    # card's game, type, set and branch and each one's game, and decoded each game's card
    # schema (JSON) four times a row, most of a 100-row page's time
    list_select_related = ("card",)
    list_filter = ("card__game", "source")
    search_fields = ("card__name", "text")
    autocomplete_fields = ("card",)
