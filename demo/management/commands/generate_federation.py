"""``manage.py generate_federation``: a large synthetic federation for benchmarks."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.synthetic import federation_generate


class Command(BaseCommand):
    help = (
        "Generate a synthetic federation for benchmarks: a fide-2024 rating system, N players "
        "with ratings, and 9-round Swiss tournaments holding M played games (plus a few "
        "forfeits). Written by COPY."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=500_000)
        parser.add_argument("--games", type=int, default=300_000, help="played games")
        parser.add_argument(
            "--periods",
            type=int,
            default=1,
            help="monthly periods ending with the open one; games are split evenly",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--system-code", default="synth", help="code of the new rating system")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = federation_generate(
                players=options["players"],
                games=options["games"],
                seed=options["seed"],
                periods=options["periods"],
                system_code=options["system_code"],
                log=self.stdout.write,
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        counts = ", ".join(f"{what}: {n}" for what, n in result.counts.items())
        self.stdout.write(
            self.style.SUCCESS(
                f"Synthetic federation {options['system_code']!r} created with {result.method} "
                f"in {result.seconds:.1f} s ({counts})."
            )
        )
