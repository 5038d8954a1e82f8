"""manage.py db_restore FILE [--database-url URL] [--force-clean] [--no-privileges]

Restores a backup of `manage.py db_backup` into an empty database: the site's (DATABASE_URL)
or the one named by --database-url, created when it does not exist. A database that has tables
is refused unless --force-clean, which drops it and creates it again first. Then prints what it
holds: published lists, list entries, reports, protests' attachments, players
(core/backups, docs/backups.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.utils.translation import gettext as _

from core.backups.services import backup_restore
from core.backups.tools import BackupError, conninfo_of_database, conninfo_of_url


class Command(BaseCommand):
    help = (
        "Restore a backup of db_backup into an empty database (the site's, or --database-url), "
        "then print what it holds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="A .dump file written by db_backup.")
        parser.add_argument(
            "--database-url",
            default=None,
            help="postgres://user:password@host:port/name; by default the site's own database.",
        )
        parser.add_argument(
            "--force-clean",
            action="store_true",
            help="Drop the database first if it has tables (everything in it is lost).",
        )
        parser.add_argument(
            "--no-privileges",
            action="store_true",
            help="Leave out the backup's GRANTs (when its roles do not exist on this server).",
        )

    def handle(self, *args: object, **options: Any) -> None:
        try:
            url = options["database_url"]
            conninfo = conninfo_of_url(url=url) if url else conninfo_of_database()
            # This process's own connection must not hold the database a clean drops.
            connections.close_all()
            restore = backup_restore(
                path=options["file"],
                conninfo=conninfo,
                force_clean=options["force_clean"],
                privileges=not options["no_privileges"],
            )
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        if restore.cleaned:
            self.stdout.write(_("The database had tables: it was dropped and created again."))
        elif restore.created:
            self.stdout.write(_("The database did not exist: it was created."))
        self.stdout.write(
            _(
                "Restored %(file)s (taken %(taken)s from %(source)s, PostgreSQL %(server)s) "
                "into %(target)s in %(seconds)s s. It holds:"
            )
            % {
                "file": options["file"],
                "taken": restore.archive.created,
                "source": restore.archive.database,
                "server": restore.archive.server,
                "target": restore.target,
                "seconds": f"{restore.seconds:.1f}",
            }
        )
        for what, count in restore.counts:
            shown = _("no such table") if count is None else f"{count:,}"
            self.stdout.write(f"  {what}: {shown}")
        self.stdout.write(
            _(
                "Run `manage.py migrate` with this code before starting the site on it: it "
                "applies the migrations newer than the backup, if any."
            )
        )
