"""Enqueue a Celery task by its registered name, after the current transaction commits.

Services start work on the workers, and tasks call services: if services imported the task
modules the two would import each other. A task is named once (`@shared_task(name=...)`) and
services enqueue it by that name; `current_app.tasks[name]` is the registered task, so eager
mode in tests still runs it in-process.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from celery.canvas import Signature, chain
from django.conf import settings
from django.db import transaction


def _options() -> dict[str, Any]:
    queue = getattr(settings, "RATINGS_QUEUE", None)
    return {"queue": queue} if queue else {}


def task_enqueue_on_commit(name: str, *args: Any) -> None:
    """Send task `name` with `args` once the surrounding transaction commits (at once
    outside one): a worker must never read rows that are not there yet."""
    task = current_app.tasks[name]
    options = _options()
    transaction.on_commit(lambda: task.apply_async(args=args, **options))


def task_chain_on_commit(name: str, calls: list[tuple[Any, ...]]) -> None:
    """Send one chain of task `name`, one link per argument tuple, in order, after commit."""
    task = current_app.tasks[name]
    options = _options()
    links: list[Signature] = [task.si(*args).set(**options) for args in calls]
    signature = chain(*links)
    transaction.on_commit(lambda: signature.apply_async())
