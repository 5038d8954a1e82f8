"""The notices' Celery tasks: thin, each calls one service."""

from __future__ import annotations

from celery import shared_task

from notices.digest import digest_send
from notices.publication import list_notices_send, list_notices_watch


@shared_task(name="notices.list_published")
def list_published(list_id: int) -> int:
    """The notices of a published list (notices.publication)."""
    return list_notices_send(list_id=list_id)


@shared_task(name="notices.watch_lists")
def watch_lists() -> int:
    """Celery beat: lists whose notices were never written get their task again."""
    return len(list_notices_watch())


@shared_task(name="notices.officer_digest")
def officer_digest() -> int:
    """Celery beat, daily: the officers' digest (notices.digest)."""
    return digest_send()
