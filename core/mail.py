"""E-mail from the office, through the outbox (core/outbox.py): a row written in the caller's
transaction, sent by a worker after commit, retried with backoff, never in the request (issue
28). Neither a mail server that refuses nor a broker that cannot be reached fails the request
that caused the message, and neither loses it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.outbox import OutboxMail, OutboxStatus, retry_delay
from core.tasks import task_enqueue_or_leave_on_commit

#: The task that sends one outbox row (core/tasks.py).
SEND_TASK = "core.send_outbox_mail"
#: The beat task that sends again what is pending (config/settings.py CELERY_BEAT_SCHEDULE).
FLUSH_TASK = "core.flush_outbox"


def mail_enqueue(
    *, kind: str, subject: str, body: str, to: list[str], html: str | None = None
) -> OutboxMail:
    """Write one message to `to` (from DEFAULT_FROM_EMAIL) into the outbox, in the current
    transaction, and send it by a worker once that commits. `kind` names what caused it
    ("protest.decided"). With the broker unreachable at commit, a warning is logged and the
    row waits, pending, for the periodic task (core.flush_outbox)."""
    mail = OutboxMail.objects.create(
        kind=kind[:40],
        recipients=list(to),
        subject=subject,
        body=body,
        html=html or "",
        # The task sent at commit is this row's first attempt; the periodic task takes it only
        # if that task never came (the broker was away).
        next_attempt_at=timezone.now() + retry_delay(attempts=0),
    )
    task_enqueue_or_leave_on_commit(SEND_TASK, mail.pk, watchdog=FLUSH_TASK)
    return mail


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
