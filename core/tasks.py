"""Enqueue a Celery task by its registered name, after the current transaction commits.

Services start work on the workers, and tasks call services: if services imported the task
modules the two would import each other. A task is named once (`@shared_task(name=...)`) and
services enqueue it by that name; `current_app.tasks[name]` is the registered task, so eager
mode in tests still runs it in-process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import current_app, shared_task
from celery.canvas import Signature, chain
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext
from kombu.exceptions import OperationalError as BrokerError

from core.errors import Unavailable
from core.outbox import outbox_claim_due, outbox_prune, outbox_send

log = logging.getLogger(__name__)


def _options() -> dict[str, Any]:
    queue = getattr(settings, "RATINGS_QUEUE", None)
    return {"queue": queue} if queue else {}


def task_enqueue_on_commit(name: str, *args: Any) -> None:
    """Send task `name` with `args` once the surrounding transaction commits (at once
    outside one): a worker must never read rows that are not there yet."""
    task = current_app.tasks[name]
    options = _options()
    transaction.on_commit(lambda: task.apply_async(args=args, **options))


def task_enqueue_or_leave_on_commit(name: str, *args: Any, watchdog: str) -> None:
    """Send task `name` once the surrounding transaction commits, as task_enqueue_on_commit;
    when the broker cannot be reached, log a warning and leave the work to `watchdog` (a beat
    task that finds it undone and sends it again). Why: for work derived from something already
    committed (a published list's ranks; an e-mail's outbox row, core/outbox.py), refusing the
    request would not undo anything, and the request itself succeeded; nothing is lost, the
    watchdog finds the rows (issue 28)."""
    task = current_app.tasks[name]
    options = _options()

    def send() -> None:
        try:
            task.apply_async(args=args, **options)
        except BrokerError as exc:
            log.warning("broker unreachable (%s): %s%r left to %s", exc, name, args, watchdog)

    transaction.on_commit(send)


def task_chain_on_commit(name: str, calls: list[tuple[Any, ...]]) -> None:
    """Send one chain of task `name`, one link per argument tuple, in order, after commit."""
    task = current_app.tasks[name]
    options = _options()
    links: list[Signature] = [task.si(*args).set(**options) for args in calls]
    signature = chain(*links)
    transaction.on_commit(lambda: signature.apply_async())


def task_enqueue_or_undo_on_commit(name: str, *args: Any, undo: Callable[[], object]) -> None:
    """Send task `name` once the surrounding transaction commits, as task_enqueue_on_commit;
    when the broker cannot be reached (kombu's OperationalError: Redis stopped), call `undo`,
    which removes what the transaction wrote for the task, and raise Unavailable (503 with
    Retry-After). Why: a row waiting for a message that was never sent would be half-written
    (issue 28); the request is either queued or refused with nothing kept. Kombu retries the
    send for about a second before it gives up."""
    task = current_app.tasks[name]
    options = _options()

    def send() -> None:
        try:
            task.apply_async(args=args, **options)
        except BrokerError as exc:
            log.warning("broker unreachable (%s): %s%r refused and undone", exc, name, args)
            undo()
            raise Unavailable(
                gettext(
                    "The office's workers cannot be reached for a moment, so nothing was "
                    "received. Send it again in a minute."
                )
            ) from exc

    transaction.on_commit(send)


@shared_task(name="core.send_outbox_mail")
def send_outbox_mail(mail_id: int) -> str:
    """Send one outbox row (core.mail.mail_enqueue); a failure is recorded on the row and
    retried by core.flush_outbox."""
    return outbox_send(mail_id=mail_id)


@shared_task(name="core.send_outbox_batch")
def send_outbox_batch(mail_ids: list[int]) -> int:
    """Send outbox rows one after the other (core.mail.mail_enqueue_many); each is locked,
    sent and recorded as by core.send_outbox_mail. How many were sent."""
    return sum(outbox_send(mail_id=mail_id) == "sent" for mail_id in mail_ids)


@shared_task(name="core.flush_outbox")
def flush_outbox() -> int:
    """Celery beat, every OUTBOX_FLUSH_SECONDS: a task for each outbox row that is due (sent
    neither at commit nor by its last attempt)."""
    claimed = outbox_claim_due()
    for mail_id in claimed:
        send_outbox_mail.apply_async(args=(mail_id,), **_options())
    return len(claimed)


@shared_task(name="core.prune_outbox")
def prune_outbox(days: int) -> int:
    """Celery beat, nightly: sent outbox rows older than OUTBOX_KEEP_DAYS are deleted."""
    return outbox_prune(days=days)
