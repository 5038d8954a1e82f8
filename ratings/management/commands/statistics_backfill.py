"""manage.py statistics_backfill [--system CODE]: the scale's figures (ratings.statistics) of
every published list that has none: lists published before the statistics existed. Each list
by the same one statement as a publication; the drift check then reads them."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from periods.models import RatingSystem
from ratings.statistics.services import statistics_backfill


class Command(BaseCommand):
    help = "Compute the statistics of every published list that has none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--system", help="Only this rating system's lists (its code).")

    def handle(self, *args: Any, **options: Any) -> None:
        system = None
        if options.get("system"):
            system = RatingSystem.objects.filter(code=options["system"]).first()
            if system is None:
                raise CommandError(f"no rating system {options['system']!r}")
        started = time.perf_counter()
        done = statistics_backfill(system=system)
        took = time.perf_counter() - started
        self.stdout.write(f"{done} lists computed in {took:.1f} s")
