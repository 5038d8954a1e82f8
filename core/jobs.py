"""Work done on a Celery worker and followed from a page: calculation runs, list imports.

Both store the same things: a status, a progress percentage and the phase it is in. The phase
is stored as an untranslated English msgid (marked with gettext_noop where it is written) and
translated when shown, so each reader sees it in their language whatever the worker's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")
    LOST = "lost", _("Worker lost")


ACTIVE_JOB_STATUSES = (JobStatus.QUEUED, JobStatus.RUNNING)


class Job(models.Model):
    status = models.CharField(
        _("status"), max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    phase = models.CharField(_("phase"), max_length=80, blank=True)  # an untranslated msgid
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # Set by the worker while it runs (core.heartbeat): a running job whose heartbeat is old and
    # whose advisory lock is free has lost its worker.
    heartbeat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        abstract = True
        ordering = ["-requested_at", "-id"]

    @property
    def done(self) -> bool:
        return self.status not in ACTIVE_JOB_STATUSES

    @property
    def phase_text(self) -> str:
        """The phase in the reader's language."""
        return gettext(self.phase) if self.phase else ""

    def progress_polled(self, *, stalled: bool = False) -> dict[str, Any]:
        """What a job's page polls (static/js/site.js follows every kind of job), in the
        reader's language."""
        return {
            "job": self.pk,
            "status": self.status,
            "status_label": self.get_status_display(),
            "progress": self.progress,
            "message": self.phase_text,
            "done": self.done,
            "stalled": stalled,
        }


def jobs_stale_ids(*, model: type[Job], now: dt.datetime) -> list[int]:
    """The running jobs of `model` whose worker has stopped beating: the last heartbeat (or,
    before the first one, the start) older than JOBS_HEARTBEAT_STALE_MINUTES. Only candidates:
    the watchdog of each kind locks each one and asks whether its advisory lock is free."""
    stale = now - dt.timedelta(minutes=float(settings.JOBS_HEARTBEAT_STALE_MINUTES))
    return list(
        model._default_manager.filter(status=JobStatus.RUNNING)
        .filter(Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale))
        .values_list("pk", flat=True)
    )
