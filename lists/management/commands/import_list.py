"""manage.py import_list --system CODE [--format txt|csv|xml] [--target fide|system]
[--players update|federation|all] [--preview] FILE"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from core.history import history_context
from lists.imports.importer import (
    FORMATS,
    PLAYER_CHOICES,
    TARGETS,
    ListImportError,
    list_import,
)
from lists.imports.source import file_source
from periods.models import RatingSystem


class Command(BaseCommand):
    help = (
        "Import a rating list (FIDE TXT or XML, or CSV): the players' FIDE ratings, or a "
        "rating system's ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--system", required=True, help="Rating system code.")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default=None,
            help="txt, csv or xml; by default from the file's extension (else txt).",
        )
        parser.add_argument(
            "--target",
            choices=TARGETS,
            default=None,
            help="fide: the players' FIDE ratings (default for txt and xml); system: the "
            "rating system's ratings (default for csv).",
        )
        parser.add_argument(
            "--players",
            choices=PLAYER_CHOICES,
            default=None,
            help="Which players not in the registry are created: update (none, only the "
            "players already in it are updated, by FIDE ID; the default with --target fide), "
            "federation (the federation's own, FEDERATION_CODE), all (foreign ones too; the "
            "default with --target system).",
        )
        parser.add_argument(
            "--preview",
            action="store_true",
            help="Read and check the whole file and print what would be created, updated and "
            "skipped; write nothing.",
        )

    def handle(self, *args: object, **options: Any) -> None:
        path: Path = options["file"]
        try:
            system = RatingSystem.objects.get(code=options["system"])
        except RatingSystem.DoesNotExist:
            raise CommandError(
                _("No rating system with the code %(code)s.") % {"code": options["system"]}
            ) from None
        if not path.is_file():
            raise CommandError(_("No such file: %(path)s") % {"path": path})
        suffix = path.suffix.lower().lstrip(".")
        fmt = options["format"] or (suffix if suffix in ("csv", "xml") else "txt")
        try:
            with history_context(command="import_list", file=path.name):
                result = list_import(
                    system=system,
                    data=file_source(path),
                    format=str(fmt),
                    target=options["target"],
                    players=options["players"],
                    dry_run=options["preview"],
                )
        except ListImportError as exc:
            for problem in exc.problems:
                self.stderr.write(_(problem.template) % dict(problem.params))
            if exc.total > len(exc.problems):
                self.stderr.write(
                    _("%(count)s problems in all; the first %(shown)s are shown.")
                    % {"count": exc.total, "shown": len(exc.problems)}
                )
            raise CommandError(_("Nothing was imported.")) from None
        if options["preview"]:
            self.stdout.write(_("Preview: nothing was written."))
        self.stdout.write(
            _(
                "%(rows)s rows: %(created)s players created, %(updated)s completed, "
                "%(ratings)s ratings written (%(method)s)."
            )
            % {
                "rows": result.rows,
                "created": result.players_created,
                "updated": result.players_updated,
                "ratings": result.ratings_written,
                "method": result.method,
            }
        )
        self.stdout.write(
            _("%(skipped)s rows skipped: players not in the registry, not created.")
            % {"skipped": result.players_skipped}
        )
