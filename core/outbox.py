"""The outbox: every e-mail of the office is a row written in the same transaction as the
change that causes it, then sent by a worker (issue 28: a mail server that refuses or does not
answer must neither fail the request nor lose the message).

`core.mail.mail_enqueue` writes the row and, once the transaction commits, sends the task
`core.send_outbox_mail` with its id. The task calls `outbox_send`: it locks the row (a second
task for the same row skips it), sends it unless it was sent already, and records the attempt.
A refused or failed send leaves the row pending with its next attempt due later (the delay
doubles from OUTBOX_RETRY_SECONDS up to OUTBOX_RETRY_MAX_SECONDS); the periodic task
`core.flush_outbox` (Celery beat, every OUTBOX_FLUSH_SECONDS) claims the rows that are due with
`outbox_claim_due` and sends a task for each. After OUTBOX_MAX_ATTEMPTS attempts the row is
failed, and officers see it in the admin, where "Send again" queues it once more.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.mail import EmailMultiAlternatives
from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

log = logging.getLogger(__name__)

#: The longest error text kept on a row (a server's answer can be long).
ERROR_MAX_CHARS = 2000


class OutboxStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class OutboxMail(models.Model):
    """One e-mail to send, from DEFAULT_FROM_EMAIL to `recipients`."""

    #: What caused it, untranslated ("protest.submitted", "password.reset"): for the admin.
    kind = models.CharField(_("kind"), max_length=40)
    recipients = ArrayField(models.CharField(max_length=254), verbose_name=_("recipients"))
    subject = models.TextField(_("subject"))
    body = models.TextField(_("body"))
    html = models.TextField(_("HTML body"), blank=True, default="")
    #: Extra headers of the message (a notice's List-Unsubscribe, RFC 8058), by name.
    headers = models.JSONField(_("headers"), blank=True, default=dict)
    status = models.CharField(
        _("status"), max_length=8, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    #: When a pending row is next sent by the periodic task (outbox_claim_due).
    next_attempt_at = models.DateTimeField(_("next attempt"), default=timezone.now)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing e-mail")
        verbose_name_plural = _("outgoing e-mails")
        ordering = ["-created_at", "-id"]
        indexes = [
            # The periodic task's question: pending rows that are due, oldest first.
            models.Index(
                fields=["next_attempt_at"],
                name="outbox_pending_due",
                condition=models.Q(status="pending"),
            ),
            models.Index(fields=["status", "-created_at"], name="outbox_status_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {', '.join(self.recipients)}"


def retry_delay(*, attempts: int) -> dt.timedelta:
    """How long a row waits after its `attempts`-th failed attempt: OUTBOX_RETRY_SECONDS,
    doubling with each attempt, at most OUTBOX_RETRY_MAX_SECONDS (the same formula as
    _CLAIM_SQL's)."""
    seconds = settings.OUTBOX_RETRY_SECONDS * 2 ** (max(attempts, 1) - 1)
    return dt.timedelta(seconds=min(seconds, settings.OUTBOX_RETRY_MAX_SECONDS))


def message_id(mail: OutboxMail) -> str:
    """The row's own Message-ID, the same on every attempt: if a message is ever sent twice
    (the worker died between the server's answer and the row's commit), mail programs that
    recognise the header show it once."""
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "localhost"
    return f"<outbox.{mail.pk}.{int(mail.created_at.timestamp())}@{domain}>"


def _message(mail: OutboxMail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        mail.subject,
        mail.body,
        None,
        list(mail.recipients),
        # The row's own headers first: the Message-ID is the outbox's, whatever they say.
        headers={**(mail.headers or {}), "Message-ID": message_id(mail)},
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


def outbox_send(*, mail_id: int) -> str:
    """Send outbox row `mail_id` unless it was sent already; the row's status afterwards
    ("" when another task holds it or it is gone).

    The row stays locked while the server is asked, so two tasks for the same row (the one
    sent at commit and one from the periodic task, or "Send again" twice) send it once: the
    second skips the locked row, or finds it sent. When the database connection drops after
    the server took the message, the row is marked sent again on a new connection. Only a
    worker that dies between the server's answer and that write leaves the row pending, to be
    sent a second time (at least once: never lost)."""
    delivered: list[OutboxMail] = []
    try:
        with transaction.atomic():
            mail = OutboxMail.objects.select_for_update(skip_locked=True).filter(pk=mail_id).first()
            if mail is None:
                return ""
            if mail.status != OutboxStatus.PENDING:
                return mail.status
            _attempt(mail, delivered)
            mail.save(update_fields=_ATTEMPT_FIELDS)
            return mail.status  # once committed
    except (OperationalError, InterfaceError):
        if not delivered:
            raise  # nothing went out: the row is sent by a later attempt
        log.warning("outbox mail %s sent, its row's connection dropped: marked again", mail_id)
        connection.close()  # the next query opens a new connection
        sent = delivered[0]
        OutboxMail.objects.filter(pk=mail_id, status=OutboxStatus.PENDING).update(
            **{name: getattr(sent, name) for name in _ATTEMPT_FIELDS}
        )
        return sent.status


#: What an attempt changes on a row.
_ATTEMPT_FIELDS = [
    "status",
    "attempts",
    "last_attempt_at",
    "next_attempt_at",
    "last_error",
    "sent_at",
    "body",
    "html",
    "headers",
]


def _attempt(mail: OutboxMail, delivered: list[OutboxMail]) -> None:
    """Send `mail` and record the attempt on it (not saved); appended to `delivered` once the
    server took it."""
    now = timezone.now()
    mail.attempts += 1
    mail.last_attempt_at = now
    try:
        _message(mail).send(fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        _failed(mail, now, f"{type(exc).__name__}: {exc}")
    except Exception as exc:
        # Not the server's fault (a header the backend refuses…): recorded like a refusal,
        # so a message that can never go does not come back every minute for ever.
        log.exception("outbox mail %s could not be built or sent", mail.pk)
        _failed(mail, now, f"{type(exc).__name__}: {exc}")
    else:
        mail.status = OutboxStatus.SENT
        mail.sent_at = now
        mail.last_error = ""
        # Sent: the text is not kept (a password-reset link must not stay readable in the
        # database); the row keeps who, what kind, when.
        mail.body = mail.html = ""
        mail.headers = {}  # an unsubscribe link is a key to the user's preferences
        delivered.append(mail)


def _failed(mail: OutboxMail, now: dt.datetime, error: str) -> None:
    mail.last_error = error[:ERROR_MAX_CHARS]
    if mail.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        mail.status = OutboxStatus.FAILED
        log.error(
            "outbox mail %s (%s) failed after %s attempts: %s",
            mail.pk,
            mail.kind,
            mail.attempts,
            mail.last_error,
        )
        return
    mail.next_attempt_at = now + retry_delay(attempts=mail.attempts)
    log.warning(
        "outbox mail %s (%s) not sent (attempt %s), next at %s: %s",
        mail.pk,
        mail.kind,
        mail.attempts,
        mail.next_attempt_at.isoformat(),
        mail.last_error,
    )


# Why SQL by hand: the claim must pick the due rows, skip those a task is sending (locked), and
# push each one's next attempt by its own delay in one statement, so that the next run of the
# periodic task does not queue them again while their task waits for a worker.
_CLAIM_SQL = """
UPDATE core_outboxmail
   SET next_attempt_at = %(now)s + interval '1 second'
       * least(%(base)s * power(2, greatest(attempts, 1) - 1), %(most)s)
 WHERE id IN (SELECT id FROM core_outboxmail
               WHERE status = 'pending' AND next_attempt_at <= %(now)s
               ORDER BY next_attempt_at
               LIMIT %(limit)s
               FOR UPDATE SKIP LOCKED)
RETURNING id
"""


def outbox_claim_due(*, limit: int = 500) -> list[int]:
    """The ids of pending rows whose next attempt is due (at most `limit`, the longest waiting
    first), each claimed: its next attempt moved on by its retry delay, in case its task is
    lost too."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            _CLAIM_SQL,
            {
                "now": timezone.now(),
                "base": settings.OUTBOX_RETRY_SECONDS,
                "most": settings.OUTBOX_RETRY_MAX_SECONDS,
                "limit": limit,
            },
        )
        return sorted(row[0] for row in cursor.fetchall())


def outbox_prune(*, days: int) -> int:
    """Delete the rows sent more than `days` days ago (nightly, Celery beat); pending and
    failed rows stay. The number deleted."""
    cutoff = timezone.now() - dt.timedelta(days=days)
    deleted, _by_model = OutboxMail.objects.filter(
        status=OutboxStatus.SENT, created_at__lt=cutoff
    ).delete()
    return deleted


def outbox_trouble() -> dict[str, int]:
    """For the officer's desk: how many e-mails failed for good, and how many wait for
    another attempt after a failed one."""
    return {
        "failed": OutboxMail.objects.filter(status=OutboxStatus.FAILED).count(),
        "retrying": OutboxMail.objects.filter(status=OutboxStatus.PENDING, attempts__gt=0).count(),
    }
