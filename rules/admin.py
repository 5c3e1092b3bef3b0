"""Admin of the rules lab: simulation jobs, to look into one that failed or never finished."""

from __future__ import annotations

from django.contrib import admin

from rules.models import SimulationJob


@admin.register(SimulationJob)
class SimulationJobAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "game", "owner", "status", "games_total", "seed", "worker")
    list_filter = ("kind", "status", "game", "worker")
    search_fields = ("owner__username", "error")
    raw_id_fields = ("owner",)
    readonly_fields = ("legacy_run", "created_at", "started_at", "finished_at", "updated_at")
