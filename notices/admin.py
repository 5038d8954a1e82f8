from __future__ import annotations

from django.contrib import admin

from notices.models import ListNotices, Notice, NoticePreference


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "subject", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__email", "subject")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    # What the office told a user is a record: shown, not edited.
    readonly_fields = ("user", "kind", "subject", "text", "link", "key", "created_at", "read_at")


@admin.register(NoticePreference)
class NoticePreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "by_email")
    list_filter = ("by_email", "language")
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    filter_horizontal = ("systems",)


@admin.register(ListNotices)
class ListNoticesAdmin(admin.ModelAdmin):
    list_display = ("published_list", "requested_at", "done_at")
    list_filter = ("done_at",)
    raw_id_fields = ("published_list",)
    list_select_related = ("published_list__system",)
    readonly_fields = ("published_list", "requested_at", "done_at")
