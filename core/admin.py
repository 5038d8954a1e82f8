"""List filters that stay cheap on large tables, the login-lockout admins (django-axes) with
them, and the outbox's admin.

Django's filter for a column without choices (AllValuesFieldListFilter) lists the column's
values with a ``SELECT DISTINCT`` over the whole table on every list page: a scan of the
registry (500,000 players) for a region filter. These filters are typed in or list fixed
choices instead (tests/project/test_admin_scale.py checks every admin for it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from axes import admin as axes_admin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin, messages
from django.contrib.admin.views.main import PAGE_VAR, ChangeList
from django.db.models import Field, Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.mail import outbox_send_again
from core.outbox import OutboxMail
from core.pagination import EstimatedCountPaginator


class ReadOnlyAdmin(admin.ModelAdmin):
    """What the services alone write (published lists, calculation runs and their drafts, list
    import jobs, tournament parts, …): the admin shows it and never adds, edits or deletes."""

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class InputFilter(admin.SimpleListFilter):
    """A value typed in a box, matched exactly (case aside)."""

    template = "admin/input_filter.html"
    #: The column filtered (a field path, as in list_filter).
    field_path = ""

    def __init__(
        self, request: HttpRequest, params: dict[str, Any], model: Any, model_admin: Any
    ) -> None:
        # The page's query (filters, search, order) as sent: the form sends it back.
        self.sent = [(k, v) for k, values in request.GET.lists() for v in values]
        super().__init__(request, params, model, model_admin)

    def lookups(self, request: HttpRequest, model_admin: Any) -> Sequence[tuple[Any, str]]:
        return (("", ""),)  # never listed; one, so that the filter is shown

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = (self.value() or "").strip()
        return queryset.filter(**{f"{self.field_path}__iexact": value}) if value else queryset

    def choices(self, changelist: ChangeList) -> Iterator[Any]:
        """ "All", with the page's other parameters (filters, search, order) for the form."""
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.field_path]),
            "display": _("All"),
            "query_parts": [(k, v) for k, v in self.sent if k not in (self.field_path, PAGE_VAR)],
        }


def _title(model: type[Model], field_path: str) -> Any:
    field = model._meta.get_field(field_path)
    assert isinstance(field, Field), field_path  # a column, not a relation's other side
    return field.verbose_name


def input_filter(model: type[Model], field_path: str) -> type[InputFilter]:
    """An InputFilter on a column of ``model``, titled with its verbose name."""
    attrs = {"field_path": field_path, "parameter_name": field_path}
    attrs["title"] = _title(model, field_path)
    return type(f"{model.__name__}{field_path.title()}Filter", (InputFilter,), attrs)


def choices_filter(
    model: type[Model], field_path: str, choices: Sequence[tuple[str, Any]]
) -> type[admin.SimpleListFilter]:
    """A filter on a column of ``model`` offering fixed ``choices``, for a column that holds
    them without declaring them."""

    class ChoicesFilter(admin.SimpleListFilter):
        title = _title(model, field_path)
        parameter_name = field_path

        def lookups(self, request: HttpRequest, model_admin: Any) -> Sequence[tuple[Any, str]]:
            return choices

        def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
            value = self.value()
            return queryset.filter(**{field_path: value}) if value else queryset

    return ChoicesFilter


# django-axes registers its admins (AXES_ENABLE_ADMIN) before this module is read (the apps'
# order); the same ones, with the path typed in: every login writes a row of AccessLog.
if admin.site.is_registered(AccessLog):
    admin.site.unregister(AccessAttempt)
    admin.site.unregister(AccessLog)
    admin.site.unregister(AccessFailureLog)

    @admin.register(AccessAttempt)
    class AccessAttemptAdmin(axes_admin.AccessAttemptAdmin):
        list_filter = [
            input_filter(AccessAttempt, "path_info") if f == "path_info" else f
            for f in axes_admin.AccessAttemptAdmin.list_filter
        ]

    @admin.register(AccessLog)
    class AccessLogAdmin(axes_admin.AccessLogAdmin):
        list_filter = ["attempt_time", "logout_time", input_filter(AccessLog, "path_info")]
        show_full_result_count = False
        paginator = EstimatedCountPaginator

    @admin.register(AccessFailureLog)
    class AccessFailureLogAdmin(axes_admin.AccessFailureLogAdmin):
        list_filter = ["attempt_time", "locked_out", input_filter(AccessFailureLog, "path_info")]
        show_full_result_count = False
        paginator = EstimatedCountPaginator


# The outbox: officers see the e-mails that wait or failed, with the server's last answer, and
# queue them again ("Send again", core.mail.outbox_send_again). The rows are written and changed
# by the outbox alone, so the admin only shows them.
@admin.register(OutboxMail)
class OutboxMailAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "kind",
        "recipient_list",
        "subject",
        "status",
        "attempts",
        "last_error",
        "next_attempt_at",
        "sent_at",
    )
    list_filter = ("status", input_filter(OutboxMail, "kind"))
    search_fields = ("recipients", "subject")
    date_hierarchy = "created_at"
    # The text is not shown: a password-reset e-mail carries a link that signs its reader in
    # as the account's owner. It is dropped once sent (core.outbox.outbox_send).
    exclude = ("body", "html")
    actions = ["send_again"]

    @admin.display(description=_("recipients"))
    def recipient_list(self, mail: OutboxMail) -> str:
        return ", ".join(mail.recipients)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_resend_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("core.resend_mail")

    @admin.action(description=_("Send again"), permissions=["resend"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[OutboxMail]) -> None:
        queued = outbox_send_again(mails=queryset, user=request.user)
        self.message_user(
            request,
            ngettext("%(n)s e-mail queued again.", "%(n)s e-mails queued again.", queued)
            % {"n": queued},
            messages.SUCCESS if queued else messages.WARNING,
        )
