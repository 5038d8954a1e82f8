"""Large uploads on a worker: an upload over REPORT_INLINE_BYTES is stored as a
ReportUploadJob and read, checked and stored by the worker (the same ``report_upload``), so
no web request waits for the parser; the job's page follows it and shows the outcome."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from core.jobs import JobStatus
from core.tasks import task_enqueue_or_undo_on_commit
from tournaments.models import Report, ReportUploadJob, Tournament

from .access import ReportLocked, report_change_authorize
from .uploads import report_reject_oversize, report_upload

log = logging.getLogger(__name__)

TASK = "tournaments.upload_report"
WAITING = gettext_noop("Waiting for a worker")
READING = gettext_noop("Reading and checking the report")
STORED = gettext_noop("Report stored")
FAILED = gettext_noop("The report could not be read; nothing was stored. Try the upload again.")
LOST = gettext_noop("The worker stopped; nothing was stored. Upload the file again.")


def report_upload_enqueue(
    *, tournament: Tournament, user: Any, data: bytes, filename: str, declared_format: str
) -> ReportUploadJob:
    """Refuse now what would be refused anyway (the permission), store the bytes in a job and
    send it to the workers once this transaction commits. When the workers' broker cannot be
    reached the job is deleted again and core.errors.Unavailable raised (503, nothing kept)."""
    report_change_authorize(tournament=tournament, user=user)
    with transaction.atomic():
        job = ReportUploadJob.objects.create(
            tournament=tournament,
            requested_by=user,
            filename=filename[:255],
            declared_format=(declared_format or "")[:8],
            data=data,
            phase=WAITING,
        )
        task_enqueue_or_undo_on_commit(
            TASK, job.pk, undo=ReportUploadJob.objects.filter(pk=job.pk).delete
        )
    return job


def report_upload_job_run(*, job_id: int) -> None:
    """The worker's side. Claimed by one UPDATE from queued to running, so a message delivered
    twice stores one report; the report, the job's outcome and the dropped bytes commit
    together."""
    claimed = ReportUploadJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING,
        started_at=timezone.now(),
        heartbeat_at=timezone.now(),
        progress=10,
        phase=READING,
        attempts=1,
    )
    if not claimed:
        return
    job = ReportUploadJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    try:
        if job.requested_by is None:
            raise ReportLocked(gettext("The account that sent this upload no longer exists."))
        with transaction.atomic():
            report = report_upload(
                tournament=job.tournament,
                user=job.requested_by,
                data=bytes(job.data),
                filename=job.filename,
                declared_format=job.declared_format or None,
            )
            ReportUploadJob.objects.filter(pk=job.pk).update(
                status=JobStatus.SUCCEEDED,
                progress=100,
                phase=STORED,
                report=report,
                data=b"",
                finished_at=timezone.now(),
            )
    except Exception as exc:
        if not isinstance(exc, ReportLocked):
            log.exception("report upload job %s failed", job_id)
        ReportUploadJob.objects.filter(pk=job.pk).update(
            status=JobStatus.FAILED,
            phase=FAILED,
            error=str(exc) if isinstance(exc, ReportLocked) else "",
            data=b"",
            finished_at=timezone.now(),
        )


def report_upload_job_progress(*, job: ReportUploadJob) -> dict[str, Any]:
    """What the job's page polls (translated for the current language); the keys are those
    of the list import's page, so static/js/site.js follows both."""
    return job.progress_polled()


def report_upload_jobs_watch(*, now: dt.datetime | None = None) -> list[int]:
    """The watchdog (beat, every minute: tournaments.watch_uploads). A job running for longer
    than JOBS_HEARTBEAT_STALE_MINUTES lost its worker (a 5 MiB file takes seconds): it becomes
    `lost` with a sentence on its page; its report was never committed (the write is one
    transaction), so the arbiter uploads again. Returns the jobs marked."""
    now = now or timezone.now()
    limit = now - dt.timedelta(minutes=settings.JOBS_HEARTBEAT_STALE_MINUTES)
    stale = ReportUploadJob.objects.filter(status=JobStatus.RUNNING, started_at__lt=limit)
    marked = list(stale.values_list("pk", flat=True))
    ReportUploadJob.objects.filter(pk__in=marked, status=JobStatus.RUNNING).update(
        status=JobStatus.LOST, phase=LOST, data=b"", finished_at=now
    )
    return marked


def report_receive(
    *, tournament: Tournament, user: Any, file: Any, declared_format: str
) -> Report | ReportUploadJob:
    """An uploaded file, from the page or the API, by its size: over REPORT_MAX_BYTES it is
    recorded as rejected without being read; over REPORT_INLINE_BYTES it goes to a worker
    (a ReportUploadJob to follow); otherwise it is read, checked and stored now."""
    name = (file.name or "")[:255]
    if file.size > settings.REPORT_MAX_BYTES:
        return report_reject_oversize(
            tournament=tournament, user=user, filename=name, size=file.size
        )
    upload: dict[str, Any] = {
        "tournament": tournament,
        "user": user,
        "data": file.read(),
        "filename": name,
        "declared_format": declared_format,
    }
    if file.size > settings.REPORT_INLINE_BYTES:
        return report_upload_enqueue(**upload)
    return report_upload(**upload)
