"""Admin of the rules lab: matchup runs, to look into one that failed or never finished."""

from __future__ import annotations

from django.contrib import admin

from rules.models import MatchupRun


@admin.register(MatchupRun)
class MatchupRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "owner", "status", "games", "seed", "worker", "created_at")
    list_filter = ("status", "game", "worker")
    search_fields = ("owner__username", "error")
    raw_id_fields = ("owner", "deck_a", "deck_b")
    readonly_fields = ("created_at", "started_at", "finished_at", "updated_at")
