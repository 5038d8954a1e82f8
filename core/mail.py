"""E-mail from the office, through the outbox (core/outbox.py): a row written in the caller's
transaction, sent by a worker after commit, retried with backoff, never in the request (issue
28). Neither a mail server that refuses nor a broker that cannot be reached fails the request
that caused the message, and neither loses it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.outbox import OutboxMail, OutboxStatus, retry_delay
from core.tasks import task_enqueue_or_leave_on_commit

#: The task that sends one outbox row (core/tasks.py).
SEND_TASK = "core.send_outbox_mail"
#: The task that sends a batch of outbox rows, one after the other (mail_enqueue_many).
SEND_BATCH_TASK = "core.send_outbox_batch"
#: The beat task that sends again what is pending (config/settings.py CELERY_BEAT_SCHEDULE).
FLUSH_TASK = "core.flush_outbox"


@dataclass(frozen=True)
class MailDraft:
    """One message for mail_enqueue_many: what mail_enqueue takes."""

    kind: str
    subject: str
    body: str
    to: list[str]
    html: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    def row(self) -> OutboxMail:
        return OutboxMail(
            kind=self.kind[:40],
            recipients=list(self.to),
            subject=self.subject,
            body=self.body,
            html=self.html,
            headers=dict(self.headers),
            # The task sent at commit is this row's first attempt; the periodic task takes it
            # only if that task never came (the broker was away).
            next_attempt_at=timezone.now() + retry_delay(attempts=0),
        )


def mail_enqueue(
    *,
    kind: str,
    subject: str,
    body: str,
    to: list[str],
    html: str | None = None,
    headers: dict[str, str] | None = None,
) -> OutboxMail:
    """Write one message to `to` (from DEFAULT_FROM_EMAIL) into the outbox, in the current
    transaction, and send it by a worker once that commits. `kind` names what caused it
    ("protest.decided"); `headers` are added to the message (List-Unsubscribe…). With the
    broker unreachable at commit, a warning is logged and the row waits, pending, for the
    periodic task (core.flush_outbox)."""
    mail = MailDraft(
        kind=kind, subject=subject, body=body, to=to, html=html or "", headers=headers or {}
    ).row()
    mail.save()
    task_enqueue_or_leave_on_commit(SEND_TASK, mail.pk, watchdog=FLUSH_TASK)
    return mail


def mail_enqueue_many(*, mails: Sequence[MailDraft]) -> list[int]:
    """Write `mails` into the outbox in one INSERT, in the current transaction, and send them
    by one task once that commits (a message per recipient of a notice to thousands: one task
    per batch, not per message). Each row is sent and retried as mail_enqueue's are; with the
    broker away the rows wait for core.flush_outbox. The rows' ids."""
    if not mails:
        return []
    ids = [row.pk for row in OutboxMail.objects.bulk_create([m.row() for m in mails])]
    task_enqueue_or_leave_on_commit(SEND_BATCH_TASK, ids, watchdog=FLUSH_TASK)
    return ids


def outbox_send_again(*, mails: QuerySet[OutboxMail], user: Any) -> int:
    """Queue `mails` once more (the admin's "Send again"): each failed or pending one becomes
    pending with a new round of attempts; sent ones are left alone (a message goes once). The
    number queued. Needs core.resend_mail."""
    if not user.has_perm("core.resend_mail"):
        raise PermissionDenied
    with transaction.atomic():
        ids = list(
            mails.exclude(status=OutboxStatus.SENT)
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)
        )
        OutboxMail.objects.filter(pk__in=ids).update(
            status=OutboxStatus.PENDING,
            attempts=0,
            next_attempt_at=timezone.now() + retry_delay(attempts=0),
        )
        for mail_id in ids:
            task_enqueue_or_leave_on_commit(SEND_TASK, mail_id, watchdog=FLUSH_TASK)
    return len(ids)
