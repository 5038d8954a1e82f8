"""List import jobs: an import from the browser runs on a Celery worker, not in the request.

- ``list_import_request(*, system, data, format, target, filename, user)`` stores the file
  (as ListImportChunk pieces) and a ListImportJob in one transaction and enqueues the task
  ``ratings.import_list`` once that commits.
- ``list_import_run(*, job_id)`` (the task) copies the pieces to a temporary file, one at a
  time, calls ``lists.imports.importer.list_import`` on it (read in pieces: memory bounded
  whatever the file's size) with a progress callback and records the outcome: the counts, or
  the row-numbered problems. The import and the job's "succeeded" are one
  transaction, so a job never says succeeded for a list that was not written, and a failed
  import writes nothing (list_import is atomic). The pieces are deleted when the job ends.
- ``list_import_job_progress(*, job)`` and ``list_import_jobs_recent()`` are the reads the
  pages need; ``list_import_stalled(*, job)`` says whether a queued job has waited longer than
  ``LIST_IMPORT_REQUEUE_MINUTES`` (its message may have been lost by the broker), and
  ``list_import_requeue(*, job)`` sends such a job to the workers again.
- ``list_import_jobs_prune(*, days)`` deletes finished jobs (``manage.py prune_import_jobs``).

With no broker (the embedded default) Celery runs the task eagerly, right after the request's
commit, so the job is finished when the page redirects to it. docs/lists.md has the details.
"""

from __future__ import annotations

import datetime as dt
import logging
import tempfile
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import IO, Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, QuerySet, Sum
from django.db.models.functions import Length
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from core.heartbeat import Heartbeat
from core.jobs import ACTIVE_JOB_STATUSES, JobStatus, jobs_stale_ids
from core.messages import json_ready, stored_message
from core.pg import locks
from core.pg.connections import SideWriter
from core.tasks import task_enqueue_or_undo_on_commit
from formats.lists.external import EXTERNAL_SOURCES
from formats.problems import Problem
from lists.imports import external, importer
from lists.imports.source import ByteSource, file_source
from lists.models import ListImportChunk, ListImportJob
from periods.models import RatingSystem

log = logging.getLogger(__name__)

CHUNK_BYTES = 1 << 20  # one ListImportChunk row
MAX_ATTEMPTS = 3  # a worker killed this many times on one job (memory?) fails it

QUEUED = gettext_noop("Queued")
DONE = gettext_noop("Done")
FAILED = gettext_noop("Failed")
WORKER_LOST = gettext_noop(
    "The worker stopped during this import several times (a file too large for its memory?)."
)
INCOMPLETE = gettext_noop("The uploaded file is incomplete; upload it again.")
REQUEUED = gettext_noop("Queued again")
LOST_REQUEUED = gettext_noop("The worker stopped during this import; queued again.")


class ListImportRefused(Exception):
    """The file was not accepted (too large); no job was created."""


def max_bytes() -> int:
    return int(settings.LIST_IMPORT_MAX_BYTES)


def too_large_message() -> str:
    return gettext("The file is larger than %(limit)s.") % {"limit": filesizeformat(max_bytes())}


# --------------------------------------------------------------------------- request


def _pieces(data: bytes | Iterable[bytes]) -> Iterator[bytes]:
    """``data`` cut into pieces of CHUNK_BYTES (the last one shorter)."""
    if isinstance(data, bytes | bytearray | memoryview):
        view = memoryview(data)
        for start in range(0, len(view), CHUNK_BYTES):
            yield bytes(view[start : start + CHUNK_BYTES])
        return
    buf = bytearray()
    for part in data:
        buf += part
        while len(buf) >= CHUNK_BYTES:
            yield bytes(buf[:CHUNK_BYTES])
            del buf[:CHUNK_BYTES]
    if buf:
        yield bytes(buf)


def list_import_request(
    *,
    system: RatingSystem | None,
    data: bytes | Iterable[bytes],
    format: str,
    target: str | None = None,
    filename: str = "",
    user: Any = None,
    enqueue: bool = True,
    source: str = "fide",
    list_date: dt.date | None = None,
    players: str | None = None,
) -> ListImportJob:
    """Store the file and a queued job; enqueue the import after commit. ``data`` is the
    file's bytes or an iterable of byte strings (an upload's ``chunks()``, so the web process
    never holds the whole file). ``target``: importer.list_import's (by default the format's:
    FIDE ratings for TXT and XML, the system's for CSV). ``source`` "iccf" or "fpx": an
    external list dated ``list_date`` (lists.imports.external), of no rating system (which
    never creates players). ``players``: importer.list_import's (by default the target's: none
    created for FIDE ratings, all for the system's)."""
    fmt = format.lower()
    if source != "fide":
        if source not in EXTERNAL_SOURCES or list_date is None:
            raise ValueError(f"an external list needs a known source and a date ({source!r})")
        if fmt not in external.FORMATS:
            raise ValueError(f"unknown external list format {fmt!r}")
        system, target, players = None, "system", importer.PLAYERS_UPDATE
    else:
        if fmt not in importer.FORMATS:
            raise ValueError(f"unknown list format {fmt!r}")
        if system is None:
            raise ValueError("a FIDE or national list is imported into a rating system")
        target = target or importer.default_target(fmt)
        if target not in importer.TARGETS:
            raise ValueError(f"unknown import target {target!r}")
        players = players or importer.default_players(target)
        if players not in importer.PLAYER_CHOICES:
            raise ValueError(f"unknown choice of players {players!r}")
    limit = max_bytes()
    with transaction.atomic():
        job = ListImportJob.objects.create(
            system=system,
            source=source,
            list_date=list_date,
            format=fmt,
            target=target,
            players=players,
            filename=filename[:255],
            phase=QUEUED,
            requested_by=user if getattr(user, "is_authenticated", False) else None,
        )
        size = 0
        batch: list[ListImportChunk] = []
        for seq, piece in enumerate(_pieces(data)):
            size += len(piece)
            if size > limit:
                raise ListImportRefused(too_large_message())
            batch.append(ListImportChunk(job=job, seq=seq, data=piece))
            if len(batch) == 4:
                ListImportChunk.objects.bulk_create(batch)
                batch.clear()
        ListImportChunk.objects.bulk_create(batch)
        ListImportJob.objects.filter(pk=job.pk).update(size=size)
        job.size = size
        if enqueue:
            _enqueue_on_commit(job.pk, undo=partial(_job_delete, job.pk))
    return job


def _enqueue_on_commit(job_id: int, *, undo: Callable[[], object] | None = None) -> None:
    """Send the import to the workers after commit. With the broker unreachable the request
    is refused with 503 (core.errors.Unavailable); `undo` removes what was stored for it (a new
    job: the job and its file), so nothing waits for a message that was never sent (issue 28).
    A job queued again (by hand or by the watchdog) keeps its row: its page offers to send it
    again once the workers answer."""
    task_enqueue_or_undo_on_commit("ratings.import_list", job_id, undo=undo or _nothing)


def _job_delete(job_id: int) -> None:
    """A new job whose message could not be sent: the job and its file chunks (cascade)."""
    ListImportJob.objects.filter(pk=job_id, status=JobStatus.QUEUED).delete()


def _nothing() -> None:
    return None


def requeue_after() -> dt.timedelta:
    return dt.timedelta(minutes=int(settings.LIST_IMPORT_REQUEUE_MINUTES))


def list_import_stalled(*, job: ListImportJob, now: dt.datetime | None = None) -> bool:
    """A job still queued LIST_IMPORT_REQUEUE_MINUTES after it was requested: no worker has
    taken it, and its message may be lost (the broker's data wiped, a queue nobody consumes)."""
    return (
        job.status == JobStatus.QUEUED
        and (now or timezone.now()) - job.requested_at >= requeue_after()
    )


def _file_stored(job_id: int, size: int) -> bool:
    """The job's pieces are all there (without reading them)."""
    found = ListImportChunk.objects.filter(job_id=job_id).aggregate(
        pieces=Count("pk"), bytes=Sum(Length("data"))
    )
    expected_pieces = -(-size // CHUNK_BYTES)
    return found["pieces"] == expected_pieces and (found["bytes"] or 0) == size


def list_import_requeue(*, job: ListImportJob) -> ListImportJob:
    """Send a stalled queued job to the workers again (after commit). The task runs a job at
    most once whatever the number of messages (``list_import_run`` leaves a finished job alone,
    and a second message waits for the system's lock), so a message that was not lost after all
    costs nothing. A job whose stored file is gone can never run: it is failed instead, and
    ListImportRefused says so."""
    with transaction.atomic():
        job = ListImportJob.objects.select_for_update().get(pk=job.pk)
        if job.status != JobStatus.QUEUED:
            raise ListImportRefused(gettext("This import is no longer queued."))
        if not list_import_stalled(job=job):
            raise ListImportRefused(
                gettext("Wait a little longer: a worker may still take this import.")
            )
        stored = _file_stored(job.pk, job.size)
        if stored:
            ListImportJob.objects.filter(pk=job.pk).update(phase=REQUEUED)
            _enqueue_on_commit(job.pk)
        else:
            _finish_failed(job.pk, error=INCOMPLETE)
    if not stored:  # raised once the failure is committed
        raise ListImportRefused(gettext(INCOMPLETE))
    log.warning(
        "list import %s: queued since %s, sent to the workers again", job.pk, job.requested_at
    )
    job.refresh_from_db()
    return job


def list_import_jobs_prune(*, days: int, now: dt.datetime | None = None) -> int:
    """Delete the jobs that finished more than ``days`` days ago (their problems with them);
    queued and running jobs are kept whatever their age. Returns how many were deleted."""
    if days < 0:
        raise ValueError("days must not be negative")
    cutoff = (now or timezone.now()) - dt.timedelta(days=days)
    old = ListImportJob.objects.exclude(status__in=ACTIVE_JOB_STATUSES).filter(
        finished_at__lt=cutoff
    )
    with transaction.atomic():
        _, per_model = old.delete()  # a finished job has no pieces left; any would go with it
    return per_model.get(ListImportJob._meta.label, 0)


# --------------------------------------------------------------------------- run (the task)


class _Progress:
    """list_import's progress callback: each report is committed at once so the page sees it;
    inside the import's transaction it goes through a second connection. Progress is
    cosmetic: a failure to report it never stops the import."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.side = SideWriter()

    def __call__(self, percent: int, message: str) -> None:
        if connection.in_atomic_block:
            self.side.execute(
                f"UPDATE {ListImportJob._meta.db_table} SET progress = %s, phase = %s, "
                "heartbeat_at = now() "
                "WHERE id = %s",
                [percent, message, self.job_id],
            )
        else:
            ListImportJob.objects.filter(pk=self.job_id).update(
                progress=percent, phase=message, heartbeat_at=timezone.now()
            )

    def close(self) -> None:
        self.side.close()


def _spool(job: ListImportJob, out: IO[bytes]) -> bool:
    """Copy the uploaded pieces, in order, to ``out`` (a temporary file on the worker); False
    if pieces are missing. One piece at a time (a server-side cursor on PostgreSQL): the worker
    never holds more than a piece of the file. The import then reads the file from disk in
    pieces (lists.imports.source.file_source): it cannot read the database while its COPY is going
    on, on the same connection, and it may read the file twice (a Latin-1 file, the lines of
    XML problems)."""
    size = 0
    pieces = (
        ListImportChunk.objects.filter(job_id=job.pk)
        .order_by("seq")
        .values_list("seq", "data")
        .iterator(chunk_size=1)
    )
    for expected, (seq, piece) in enumerate(pieces):
        if seq != expected:
            return False
        out.write(piece)
        size += len(piece)
    out.flush()
    return size == job.size


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "line": problem.line,
        "field": problem.field,
        "code": problem.code,
        "template": problem.template,
        "params": json_ready(dict(problem.params)),
    }


def _finish_failed(
    job_id: int, *, problems: list[Problem] | None = None, total: int = 0, error: str = ""
) -> None:
    with transaction.atomic():
        ListImportJob.objects.filter(pk=job_id).update(
            status=JobStatus.FAILED,
            finished_at=timezone.now(),
            phase=FAILED,
            problems=[_problem_json(p) for p in problems or []],
            problem_total=total,
            error=error[:2000],
        )
        ListImportChunk.objects.filter(job_id=job_id).delete()


def list_import_run(*, job_id: int) -> ListImportJob:
    """Run a queued job. A redelivered message (the worker died: the import's transaction was
    rolled back) runs it again; a finished job is left alone."""
    job = ListImportJob.objects.select_related("system").get(pk=job_id)
    if job.done:
        return job
    with locks.advisory_lock(locks.LIST_IMPORT, _lock_key(job)):
        job.refresh_from_db()
        if job.done:  # another worker finished it while we waited
            return job
        if job.attempts >= MAX_ATTEMPTS:
            _finish_failed(job_id, error=WORKER_LOST)
            return ListImportJob.objects.get(pk=job_id)
        ListImportJob.objects.filter(pk=job_id).update(
            status=JobStatus.RUNNING,
            started_at=timezone.now(),
            attempts=F("attempts") + 1,
            progress=1,
            phase=importer.READING,
            error="",
            heartbeat_at=timezone.now(),
        )
        progress = _Progress(job_id)
        # Beats while the import runs (core.heartbeat); the watchdog reads them.
        with Heartbeat(ListImportJob._meta.db_table, job_id):
            try:
                with tempfile.NamedTemporaryFile(prefix="list-import-") as spooled:
                    if not _spool(job, spooled):
                        _finish_failed(job_id, error=INCOMPLETE)
                        return ListImportJob.objects.get(pk=job_id)
                    with transaction.atomic():
                        outcome = _import_file(job, file_source(spooled.name), progress)
                        ListImportJob.objects.filter(pk=job_id).update(
                            status=JobStatus.SUCCEEDED,
                            progress=100,
                            phase=DONE,
                            finished_at=timezone.now(),
                            **outcome,
                        )
                        ListImportChunk.objects.filter(job_id=job_id).delete()
            except importer.ListImportError as exc:
                _finish_failed(job_id, problems=exc.problems, total=exc.total)
            except Exception as exc:
                # Recorded, not raised: the job row is the outcome the page shows, and an eager
                # run (no broker) would otherwise turn the redirect into a server error.
                log.exception("list import %s failed", job_id)
                _finish_failed(job_id, error=f"{type(exc).__name__}: {exc}")
            finally:
                progress.close()
    return ListImportJob.objects.get(pk=job_id)


def _lock_key(job: ListImportJob) -> int:
    """The import lock's key: the rating system, or (an external list, no system) a negative
    key per source, so two imports of the same external list wait for each other."""
    if job.system_id is not None:
        return job.system_id
    return -1 - EXTERNAL_SOURCES.index(job.source)


def _import_file(job: ListImportJob, data: ByteSource, progress: _Progress) -> dict[str, Any]:
    """Run the job's import on its spooled file; the job's fields to record."""
    if job.source != "fide":
        assert job.list_date is not None
        done = external.external_list_import(
            source=job.source,
            list_date=job.list_date,
            data=data,
            filename=job.filename,
            progress=progress,
        )
        return {
            "rows": done.rows,
            "players_created": done.created,
            "players_updated": done.matched,
            "ratings_written": done.ratings_written,
            "method": "copy",
            "external_list_id": done.external_list_id,
        }
    assert job.system is not None
    result = importer.list_import(
        system=job.system,
        data=data,
        format=job.format,
        target=job.target,
        players=job.players,
        progress=progress,
    )
    return {
        "rows": result.rows,
        "players_created": result.players_created,
        "players_updated": result.players_updated,
        "players_skipped": result.players_skipped,
        "ratings_written": result.ratings_written,
        "method": result.method,
    }


def list_import_jobs_watch(*, now: dt.datetime | None = None) -> list[int]:
    """The watchdog (Celery beat, every minute: ratings.watch_import_jobs). A running import
    whose heartbeat (core.heartbeat) is older than JOBS_HEARTBEAT_STALE_MINUTES and whose
    system's import lock is free has lost its worker (its transaction was rolled back): it is
    queued again (the page says so), or failed once it has been tried MAX_ATTEMPTS times.
    Returns the ids of the jobs it found lost."""
    now = now or timezone.now()
    candidates = jobs_stale_ids(model=ListImportJob, now=now)
    lost: list[int] = []
    for job_id in candidates:
        with transaction.atomic():
            job = (
                ListImportJob.objects.select_for_update()
                .filter(pk=job_id, status=JobStatus.RUNNING)
                .first()
            )
            if job is None or not locks.advisory_is_free(locks.LIST_IMPORT, _lock_key(job)):
                continue
            if job.attempts >= MAX_ATTEMPTS:
                _finish_failed(job.pk, error=WORKER_LOST)
            else:
                ListImportJob.objects.filter(pk=job.pk).update(
                    status=JobStatus.QUEUED, phase=LOST_REQUEUED
                )
                _enqueue_on_commit(job.pk)
        log.warning(
            "list import %s: no heartbeat since %s, lock free; %s",
            job_id,
            job.heartbeat_at,
            "failed" if job.attempts >= MAX_ATTEMPTS else "queued again",
        )
        lost.append(job_id)
    return lost


# --------------------------------------------------------------------------- reads


def list_import_jobs_recent(*, limit: int = 20) -> QuerySet[ListImportJob]:
    return ListImportJob.objects.select_related("system", "requested_by").order_by(
        "-requested_at", "-id"
    )[:limit]


def problem_message(entry: dict[str, Any]) -> str:
    """A stored problem in the reader's language."""
    params = entry.get("params")
    return stored_message(
        str(entry.get("template", "")), params if isinstance(params, dict) else {}
    )


def list_import_job_progress(*, job: ListImportJob) -> dict[str, Any]:
    """What the job page polls (translated for the current language)."""
    return {
        "job": job.pk,
        "status": job.status,
        "status_label": job.get_status_display(),
        "progress": job.progress,
        "message": gettext(job.phase) if job.phase else "",
        "done": job.done,
        "stalled": list_import_stalled(job=job),
    }
