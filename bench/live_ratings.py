"""Benchmark of live ratings (ratings.live): one tournament's players recomputed in a period
of 300,000 games, as the task does when its report is validated.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office_bench \\
        .venv/bin/python bench/live_ratings.py [--players 500000] [--games 300000] \\
        [--system-code live] [--tournaments 5]

The federation comes from the synthetic generator (`manage.py generate_federation`, set-based
COPY, in a subprocess the first time); later runs reuse it. Its period is open with every
tournament validated. Prints, for the largest tournament and for a few others picked at random
(seeded), the seconds of `live_ratings_update` (scope, states, games, engine, write in one
transaction) and the size of the scope it rated.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import generate_federation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--system-code", default="live")
    parser.add_argument(
        "--tournaments", type=int, default=5, help="random ones besides the largest"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count

    from periods.models import PeriodStatus, RatingSystem
    from ratings.live import services as live
    from tournaments.models import Game, Tournament

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=args.system_code).exists():
        print(f"generating {args.players:,} players and {args.games:,} games (once) …", flush=True)
        started = time.perf_counter()
        generate_federation(
            players=args.players, games=args.games, periods=1, system_code=args.system_code
        )
        print(f"  generated in {time.perf_counter() - started:.1f} s", flush=True)
    system = RatingSystem.objects.get(code=args.system_code)
    period = system.periods.filter(tournaments__isnull=False).distinct().order_by("start").first()
    assert period is not None
    if period.status != PeriodStatus.OPEN:  # a run of bench_period.py closed it
        type(period).objects.filter(pk=period.pk).update(status=PeriodStatus.OPEN)
        period.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    games = Game.objects.filter(tournament__period=period).count()
    ranked = list(
        Tournament.objects.filter(period=period, status="validated")
        .annotate(n=Count("players"))
        .order_by("-n", "id")
        .values_list("id", "n")
    )
    print(
        f"period {period.start} – {period.end} ({system.ruleset}): {games:,} games, "
        f"{len(ranked):,} validated tournaments",
        flush=True,
    )
    picks = [ranked[0]] + random.Random(1).sample(
        ranked[1:], min(args.tournaments, len(ranked) - 1)
    )
    for t_id, n in picks:
        started = time.perf_counter()
        scope_t, states = live.live_scope(
            period=period,
            player_ids=set(
                Tournament.objects.get(pk=t_id)
                .players.exclude(player=None)
                .values_list("player_id", flat=True)
            ),
        )
        t_scope = time.perf_counter() - started
        started = time.perf_counter()
        written = live.live_ratings_update(tournament_id=t_id)
        seconds = time.perf_counter() - started
        print(
            f"tournament {t_id} ({n} players): {written} live ratings in {seconds:.2f} s "
            f"(scope: {len(scope_t)} tournaments, {len(states)} players; the scope alone "
            f"{t_scope:.2f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
