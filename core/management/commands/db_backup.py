"""manage.py db_backup [--directory DIR] [--keep N] [--loop | --check]

Backs up the site's database with pg_dump (custom format) into BACKUP_DIR, checked and renamed
into place, and keeps the newest BACKUP_KEEP backups (core/backups, docs/backups.md). With
--loop it takes one now and another every BACKUP_INTERVAL seconds until stopped: the `backup`
service of docker-compose.yml, whose health check is --check: the newest backup is younger
than twice BACKUP_INTERVAL.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from core.backups.services import Backup, backup_create, backup_taken_at, backups_list
from core.backups.tools import BackupError, conninfo_of_database


class Command(BaseCommand):
    help = (
        "Back up the site's database (pg_dump, custom format) into BACKUP_DIR and keep the "
        "newest BACKUP_KEEP backups; --loop repeats it every BACKUP_INTERVAL seconds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, default=None, help="Instead of BACKUP_DIR.")
        parser.add_argument("--keep", type=int, default=None, help="Instead of BACKUP_KEEP.")
        parser.add_argument(
            "--database", default="default", help="The settings.DATABASES alias to back up."
        )
        parser.add_argument(
            "--loop",
            action="store_true",
            help="Back up now and then every BACKUP_INTERVAL seconds until stopped; a failed "
            "backup is reported and the next one still runs.",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Take no backup: fail unless the newest is younger than twice BACKUP_INTERVAL "
            "(a health check).",
        )

    def handle(self, *args: object, **options: Any) -> None:
        if options["check"]:
            self._check(options["directory"] or settings.BACKUP_DIR, options["database"])
            return
        backup = {
            "alias": options["database"],
            "directory": options["directory"],
            "keep": options["keep"],
        }
        if not options["loop"]:
            try:
                self._report(backup_create(**backup))
            except BackupError as exc:
                raise CommandError(str(exc)) from None
            return
        while True:
            try:
                self._report(backup_create(**backup))
            except BackupError as exc:
                failed = _("Backup failed: %(error)s") % {"error": exc}
                self.stderr.write(f"{self._now()} {failed}")
            self.stdout.flush()
            time.sleep(settings.BACKUP_INTERVAL)

    def _check(self, directory: Path, alias: str) -> None:
        database = conninfo_of_database(alias=alias)["dbname"]
        found = backups_list(directory=Path(directory), database=database)
        if not found:
            raise CommandError(
                _("No backup of %(database)s in %(folder)s.")
                % {"database": database, "folder": directory}
            )
        age = timezone.now() - backup_taken_at(found[-1])
        hours = f"{age.total_seconds() / 3600:.1f}"
        if age.total_seconds() > 2 * settings.BACKUP_INTERVAL:
            raise CommandError(
                _("The newest backup, %(name)s, is %(hours)s hours old.")
                % {"name": found[-1].name, "hours": hours}
            )
        self.stdout.write(
            _("The newest backup, %(name)s, is %(hours)s hours old.")
            % {"name": found[-1].name, "hours": hours}
        )

    def _now(self) -> str:
        return timezone.localtime().strftime("%Y-%m-%d %H:%M:%S")

    def _report(self, backup: Backup) -> None:
        self.stdout.write(
            f"{self._now()} "
            + _(
                "Backup written: %(path)s (%(size)s, %(tables)s tables, %(seconds)s s; "
                "pg_dump %(client)s, server %(server)s)."
            )
            % {
                "path": backup.path,
                "size": filesizeformat(backup.size),
                "tables": backup.archive.tables,
                "seconds": f"{backup.seconds:.1f}",
                "client": backup.tools.version.text,
                "server": backup.server.text,
            }
        )
        if backup.removed:
            self.stdout.write(
                _("Older backups removed: %(names)s.")
                % {"names": ", ".join(path.name for path in backup.removed)}
            )
