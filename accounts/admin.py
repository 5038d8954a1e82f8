"""Claims and correction requests in the admin: read-only. They are decided on the officer's
desk (accounts.services), which links the account or changes the record and e-mails the user."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import ClaimRequest, CorrectionRequest
from core.admin import ReadOnlyAdmin


@admin.register(ClaimRequest)
class ClaimRequestAdmin(ReadOnlyAdmin):
    list_display = ("user", "player", "method", "status", "created_at", "decided_at")
    list_filter = ("status", "method")
    search_fields = ("user__username", "player__surname", "player__fed_id")
    list_select_related = ("user", "player")
    raw_id_fields = ("user", "player", "decided_by")


@admin.register(CorrectionRequest)
class CorrectionRequestAdmin(ReadOnlyAdmin):
    list_display = ("player", "requested_by", "status", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("player__surname", "player__fed_id", "requested_by__username")
    list_select_related = ("player", "requested_by")
    raw_id_fields = ("player", "requested_by", "decided_by")
