"""Celery tasks of list imports: thin, they take ids (or plain values) and call one service.

acks_late + reject_on_worker_lost (also the project defaults, config/settings.py): a worker
killed mid-run does not lose the message; an import's writes and the job's outcome are one
transaction, so the redelivered message runs the job again.

The task names keep the ``ratings.`` prefix they had when imports were part of the ratings app:
a name is what the broker's messages and the beat schedule (CELERY_BEAT_SCHEDULE) carry, so a
message queued before an upgrade still finds its task.
"""

from __future__ import annotations

from celery import shared_task

from lists.imports.jobs import list_import_jobs_prune, list_import_jobs_watch, list_import_run


@shared_task(name="ratings.import_list", acks_late=True, reject_on_worker_lost=True)
def import_list(job_id: int) -> None:
    list_import_run(job_id=job_id)


@shared_task(name="ratings.prune_import_jobs")
def prune_import_jobs(days: int) -> int:
    """Sent every night by beat (CELERY_BEAT_SCHEDULE, days=LIST_IMPORT_KEEP_DAYS); the same
    service as `manage.py prune_import_jobs`. Returns the count, which the worker logs."""
    return list_import_jobs_prune(days=days)


@shared_task(name="ratings.watch_import_jobs")
def watch_import_jobs() -> list[int]:
    """Sent every minute by beat: list imports whose worker is gone are marked lost and
    queued again (core/heartbeat.py). Returns their ids, which the worker logs."""
    return list_import_jobs_watch()
