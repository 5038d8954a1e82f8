"""Claims and correction requests in the admin: read-only. They are decided on the officer's
desk (accounts.services), which links the account or changes the record and e-mails the user.

Users and groups: Django's admins, whose permission boxes (every permission of the site, 300
and more) write their options in one pass (QuickFilteredSelectMultiple): Django renders a
template per option, 200-300 ms for a user's or a group's page (issue 29 item 4)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db.models import ManyToManyField
from django.forms import ModelMultipleChoiceField
from django.forms.utils import flatatt
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from accounts.models import ClaimRequest, CorrectionRequest
from core.admin import ReadOnlyAdmin


class QuickFilteredSelectMultiple(FilteredSelectMultiple):
    """Django's two-box selector (filter_horizontal) with its options written by
    format_html, as Django's option template would write them, instead of one template
    rendering per option."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        return format_html(
            '<select name="{}"{}>{}</select>',
            widget["name"],
            flatatt(widget["attrs"]),
            _options_html(widget["optgroups"]),
        )


def _options_html(optgroups: list[tuple[Any, list[dict[str, Any]], int]]) -> SafeString:
    parts = []
    for group_name, options, _index in optgroups:
        inner = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (o["value"], mark_safe(" selected") if o["selected"] else "", o["label"])
                for o in options
            ),
        )
        parts.append(
            format_html('<optgroup label="{}">{}</optgroup>', group_name, inner)
            if group_name
            else inner
        )
    return mark_safe("".join(parts))


class QuickPermissionsMixin:
    """The permission boxes of a user or a group as QuickFilteredSelectMultiple."""

    quick_fields = ("user_permissions", "permissions")

    def formfield_for_manytomany(
        self, db_field: ManyToManyField[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelMultipleChoiceField | None:
        if db_field.name in self.quick_fields and "widget" not in kwargs:
            kwargs["widget"] = QuickFilteredSelectMultiple(db_field.verbose_name, is_stacked=False)
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


class QuickUserAdmin(QuickPermissionsMixin, UserAdmin):
    pass


class QuickGroupAdmin(QuickPermissionsMixin, GroupAdmin):
    pass


for _model, _admin in ((get_user_model(), QuickUserAdmin), (Group, QuickGroupAdmin)):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)
    admin.site.register(_model, _admin)


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
