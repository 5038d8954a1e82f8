"""manage.py prune_import_jobs --days N

Deletes the list import jobs (lists.ListImportJob, with the problems they kept) that finished
more than N days ago. Queued and running jobs are never deleted. Run it by hand or from cron;
docs/lists.md.
"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import gettext as _

from lists.imports.jobs import list_import_jobs_prune


class Command(BaseCommand):
    help = (
        "Delete the list import jobs that finished more than N days ago (queued and running jobs "
        "are kept)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            required=True,
            help=(
                "Keep the jobs that finished within this many days (0: delete every finished job)."
            ),
        )

    def handle(self, *args: object, **options: object) -> None:
        days = options["days"]
        assert isinstance(days, int)
        if days < 0:
            raise CommandError(_("--days must be 0 or more."))
        now = timezone.now()
        deleted = list_import_jobs_prune(days=days, now=now)
        cutoff = timezone.localtime(now - dt.timedelta(days=days))
        self.stdout.write(
            _("Import jobs deleted: %(count)s (finished before %(date)s).")
            % {"count": deleted, "date": cutoff.strftime("%Y-%m-%d %H:%M")}
        )
