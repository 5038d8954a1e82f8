"""``manage.py demo_federation``: load the demo federation (skipped if already loaded)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from demo.federation import demo_federation_create


class Command(BaseCommand):
    help = (
        "Create a demo federation: players, three rating systems, published lists, open periods, "
        "tournaments with games, and demo users (arbiter/arbiter, officer/officer, player/player, "
        "admin/admin). Does nothing if the demo rating systems already exist."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=int, default=2000, help="number of players (default 2000)"
        )
        parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        summary = demo_federation_create(
            players=options["players"], seed=options["seed"], log=self.stdout.write
        )
        if not summary.created:
            self.stdout.write(self.style.WARNING(summary.message))
            return
        for what, count in summary.counts.items():
            self.stdout.write(f"  {what}: {count}")
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary.message} ({time.perf_counter() - started:.1f} s). "
                "Users: arbiter/arbiter, officer/officer, player/player, admin/admin."
            )
        )
