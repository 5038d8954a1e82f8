"""The outbox in the admin: officers see the e-mails that wait or failed, with the server's
last answer, and queue them again ("Send again", core.mail.outbox_send_again). The rows are
written and changed by the outbox alone, so the admin only shows them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.mail import outbox_send_again
from core.outbox import OutboxMail


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
    list_filter = ("status", "kind")
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
