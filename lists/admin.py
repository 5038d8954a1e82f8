from __future__ import annotations

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from lists.models import ListImportChunk, ListImportJob


@admin.register(ListImportJob)
class ListImportJobAdmin(ReadOnlyAdmin):
    """Imports are shown; the file itself (ListImportChunk) is gone once a job finishes."""

    list_display = (
        "requested_at",
        "system",
        "source",
        "list_date",
        "filename",
        "format",
        "target",
        "players",
        "status",
        "progress",
        "rows",
        "players_created",
        "players_skipped",
        "ratings_written",
        "problem_total",
        "requested_by",
    )
    list_filter = ("status", "source", "format", "target", "players", "system")
    list_select_related = ("system", "requested_by")


@admin.register(ListImportChunk)
class ListImportChunkAdmin(ReadOnlyAdmin):
    """The pieces of files still waiting for (or being read by) a worker."""

    list_display = ("job", "seq")
    list_filter = ("job__status",)
    list_select_related = ("job__system",)
    exclude = ("data",)
