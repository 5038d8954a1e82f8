from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Game, Report, ReportUploadJob, Tournament, TournamentPlayer

# Statuses and the dates of the lifecycle are read-only here: they change through the services
# (registration, uploads, approval, calculation, publication), never by hand.


class TournamentPlayerInline(admin.TabularInline):
    model = TournamentPlayer
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "city",
        "start_date",
        "end_date",
        "system",
        "rating_system",
        "status",
        "late_registration",
    )
    list_filter = (
        "status",
        "system",
        "rating_system",
        "late_registration",
        "national_championship",
    )
    search_fields = ("name", "city", "chief_arbiter")
    date_hierarchy = "end_date"
    raw_id_fields = ("arbiter", "period")
    readonly_fields = (
        "status",
        "late_registration",
        "approved_by",
        "approved_at",
        "registered_at",
        "report_received_at",
        "validated_at",
        "rated_at",
        "published_at",
    )
    inlines = [TournamentPlayerInline]


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("tournament", "submission", "format", "status", "size", "sha256", "uploaded_at")
    list_filter = ("format", "status")
    search_fields = ("tournament__name", "sha256", "filename")
    exclude = ("data",)
    readonly_fields = ("status", "problems", "sha256", "size", "uploaded_at")


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ("tournament", "start_rank", "name", "player", "rating_at_start")
    list_filter = ("tournament__rating_system",)
    search_fields = ("name", "fide_id", "fed_id", "tournament__name")
    raw_id_fields = ("tournament", "player")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "white", "black", "result", "kind")
    list_filter = ("kind", "result")
    search_fields = ("tournament__name",)
    raw_id_fields = ("tournament", "white", "black")


@admin.register(ReportUploadJob)
class ReportUploadJobAdmin(admin.ModelAdmin):
    """Large uploads read on a worker (docs/reports.md): shown, never edited."""

    list_display = ("requested_at", "tournament", "filename", "status", "progress", "report")
    list_filter = ("status",)
    search_fields = ("tournament__name", "filename")
    exclude = ("data",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
