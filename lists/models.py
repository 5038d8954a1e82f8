"""Imports of existing rating lists: the job and the uploaded file's pieces."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.jobs import Job
from periods.models import RatingSystem
from players.models import ExternalList


class ListImportJob(Job):
    """One import of an existing rating list (lists/imports/jobs.py), run by a Celery worker.

    The uploaded file waits in ListImportChunk rows until the worker has read it; they are
    deleted when the job finishes, whatever the outcome. ``problems`` keeps what a failed
    import reported (the first lf.MAX_PROBLEMS, ``problem_total`` counts them all) as
    untranslated templates with their params, so each reader sees them in their language.
    """

    # None for an external list (``source`` iccf/fpx), which belongs to no rating system.
    system = models.ForeignKey(
        RatingSystem,
        on_delete=models.PROTECT,
        related_name="import_jobs",
        verbose_name=_("rating system"),
        null=True,
        blank=True,
    )
    # What the file is: a FIDE or national list (lists.imports.importer) or an external list
    # kept with its date (lists.imports.external: the ICCF list, the FPX list).
    source = models.CharField(
        _("list"),
        max_length=4,
        choices=[
            ("fide", _("FIDE or national list")),
            ("iccf", _("ICCF list")),
            ("fpx", _("FPX list")),
        ],
        default="fide",
    )
    # An external list: the day it comes into force, and the list written once it succeeded.
    list_date = models.DateField(_("list date"), null=True, blank=True)
    external_list = models.ForeignKey(
        ExternalList,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="import_jobs",
        verbose_name=_("external list"),
    )
    format = models.CharField(_("format"), max_length=10)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    # lists.imports.importer: "fide" writes the players' FIDE ratings, "system" the system's
    # ratings (the jobs before this field all wrote the system's).
    target = models.CharField(
        _("ratings written"),
        max_length=10,
        choices=[
            ("fide", _("FIDE ratings of the players")),
            ("system", _("This rating system's ratings")),
        ],
        default="system",
    )
    # lists.imports.importer: which rows of players not in the registry create one (issue 24
    # item 7; the jobs before this field created every one, "all").
    players = models.CharField(
        _("players created"),
        max_length=10,
        choices=[
            ("update", _("None: only update the players already in the registry")),
            ("federation", _("The federation's own players")),
            ("all", _("Every player of the file, foreign ones too")),
        ],
        default="all",
    )
    # lists.imports.importer.ListImportResult, once it succeeded.
    rows = models.PositiveIntegerField(_("rows"), null=True, blank=True)
    players_created = models.PositiveIntegerField(_("players created"), null=True, blank=True)
    players_updated = models.PositiveIntegerField(_("players completed"), null=True, blank=True)
    players_skipped = models.PositiveIntegerField(_("players skipped"), null=True, blank=True)
    ratings_written = models.PositiveIntegerField(_("ratings written"), null=True, blank=True)
    method = models.CharField(_("method"), max_length=10, blank=True)
    # When it failed: [{"line", "field", "code", "template", "params"}, …], or ``error`` for
    # anything else (the exception, for the office's technicians).
    problems = models.JSONField(_("problems"), default=list, blank=True)
    problem_total = models.PositiveIntegerField(_("problems in all"), default=0)

    class Meta:
        # The tables keep the names they had in the ratings app (migrations/0001_move_imports.py).
        db_table = "ratings_listimportjob"
        verbose_name = _("list import")
        verbose_name_plural = _("list imports")
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"{self.system or self.source} import {self.pk} ({self.status})"


class ListImportChunk(models.Model):
    """A piece (at most 1 MiB) of an uploaded list file, until its import job has read it.

    In the database rather than on disk because the worker may run on another machine than
    the web server, and a table of its own rather than a BinaryField on the job so that
    (1) the file is written a piece at a time from the upload, never held whole in the web
    process, (2) the job row that the progress page polls and the worker updates stays
    small, and (3) dropping the file is a plain DELETE of these rows.
    """

    # Read by (job, seq) only: the unique index below serves it.
    job = models.ForeignKey(
        ListImportJob, on_delete=models.CASCADE, related_name="chunks", db_index=False
    )
    seq = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        db_table = "ratings_listimportchunk"
        verbose_name = _("list import file piece")
        verbose_name_plural = _("list import file pieces")
        constraints = [
            models.UniqueConstraint(fields=["job", "seq"], name="list_import_chunk_job_seq")
        ]
