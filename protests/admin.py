from __future__ import annotations

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from protests.models import PROTEST_SUBMISSION_FIELDS, Protest, ProtestAttachment


@admin.register(Protest)
class ProtestAdmin(admin.ModelAdmin):
    list_display = ("published_list", "player", "submitted_by", "submitted_at", "status")
    list_filter = ("status", "published_list__system")
    search_fields = ("player__surname", "player__fed_id", "text")
    # Every relation by id: the game <select> listed the federation's 151,491 games, a query
    # each through Game.__str__, and took a web worker down (issue 28;
    # tests/project/test_admin_scale.py).
    raw_id_fields = ("player", "published_list", "submitted_by", "tournament", "game")
    list_select_related = ("published_list__system", "player", "submitted_by")
    # Every step happens on the protest's page (protests.services: request for
    # information, answer, decision, appeal), which e-mails the player and, when upheld, marks
    # the period for recalculation; the admin shows them read-only: every field but what the
    # player submits.
    readonly_fields = tuple(
        f.name
        for f in Protest._meta.concrete_fields
        if f.name not in ("id", *PROTEST_SUBMISSION_FIELDS)
    )


@admin.register(ProtestAttachment)
class ProtestAttachmentAdmin(ReadOnlyAdmin):
    """Written with its protest (protests.services.protest_submit); downloaded from the
    protest's page."""

    list_display = ("protest", "name", "content_type", "size")
    list_select_related = ("protest__player", "protest__published_list__system")
    search_fields = ("name",)
    exclude = ("data",)
