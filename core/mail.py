"""E-mail from the office, sent by a worker, never in the request: a mail server that is slow
or refuses must not fail or hold up the page that caused the message (issue 28). The task
(core.tasks.send_mail) retries with backoff when the server does not answer."""

from __future__ import annotations

from core.tasks import task_enqueue_or_undo_on_commit

TASK = "core.send_mail"


def mail_enqueue(*, subject: str, body: str, to: list[str], html: str | None = None) -> None:
    """Send one message to `to` from DEFAULT_FROM_EMAIL, by a worker, once the current
    transaction commits. With the broker unreachable: core.errors.Unavailable (503; nothing
    was written for it, so nothing to undo)."""
    task_enqueue_or_undo_on_commit(TASK, subject, body, list(to), html, undo=_nothing)


def _nothing() -> None:
    return None
