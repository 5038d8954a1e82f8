"""Celery tasks of the tournaments app: thin, they take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from tournaments.services.decisions import corrections_lapse
from tournaments.services.upload_jobs import report_upload_job_run, report_upload_jobs_watch


@shared_task(name="tournaments.upload_report", acks_late=True, reject_on_worker_lost=True)
def upload_report(job_id: int) -> None:
    report_upload_job_run(job_id=job_id)


@shared_task(name="tournaments.watch_uploads")
def watch_uploads() -> list[int]:
    """Sent every minute by beat (CELERY_BEAT_SCHEDULE): upload jobs whose worker is gone."""
    return report_upload_jobs_watch()


@shared_task(name="tournaments.lapse_corrections")
def lapse_corrections() -> int:
    """Sent every night by beat (CELERY_BEAT_SCHEDULE): reports returned for correction whose
    deadline passed count as not reported (feda-1996 10.13, fide-2000 11.1 → B.01 7.13)."""
    return corrections_lapse()
