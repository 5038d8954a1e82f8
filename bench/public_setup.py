"""Set-up of the public pages' benchmark (bench/bench_public.py): a synthetic federation with
its periods calculated and published, one list per period, through the office's own services.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ro_bench_public \\
        .venv/bin/python bench/public_setup.py [--players 500000] [--periods 24] \\
        [--games-per-period 20000] [--system-code synth]

The generator (`manage.py generate_federation`) writes the players, their states and the
tournaments of every period; each period is then closed, calculated (the bulk path, as the
Celery task does) and published in order, so every list has its calculation run and per-game
lines, and every list's ranks (ratings.lists.ranks) are written. Runs again resume where
they stopped (published periods and written ranks are skipped).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--periods", type=int, default=24)
    parser.add_argument("--games-per-period", type=int, default=20_000)
    parser.add_argument("--system-code", default="synth")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from periods import services as period_services
    from periods.models import PeriodStatus, RatingSystem
    from ratings.calculation import runs
    from ratings.lists import ranks
    from ratings.publication import services as publication

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=args.system_code).exists():
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "generate_federation",
                f"--players={args.players}",
                f"--games={args.games_per_period * args.periods}",
                f"--periods={args.periods}",
                f"--system-code={args.system_code}",
            ],
            cwd=ROOT,
            check=True,
            env={**os.environ},
        )
        print(f"generated in {time.perf_counter() - started:.1f} s", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    system = RatingSystem.objects.get(code=args.system_code)
    pending = (
        system.periods.exclude(status=PeriodStatus.PUBLISHED)
        .filter(tournaments__isnull=False)
        .distinct()
        .order_by("start")
    )
    for period in pending:
        started = time.perf_counter()
        if period.status == PeriodStatus.OPEN:
            period_services.period_close(period=period)
        run = runs.calculation_request(period=period, enqueue=False)
        runs.calculation_run(run_id=run.pk)
        run.refresh_from_db()
        if run.status != "succeeded":
            sys.exit(f"{period}: {run.error}")
        published = publication.list_publish(period=period, note="benchmark")
        print(
            f"{period.start}: list {published.pk} ({published.entry_count:,} entries) "
            f"in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
    # The card's ranks and the list page's filter rows (a Celery task after each publication;
    # here, in-process).
    for list_id in system.lists.order_by("id").values_list("id", flat=True):
        started = time.perf_counter()
        written = ranks.list_ranks_fill(list_id=list_id)
        if written:
            print(f"ranks of list {list_id}: {written:,} in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        written = ranks.list_rows_fill(list_id=list_id)
        if written:
            took = time.perf_counter() - started
            print(f"filter rows of list {list_id}: {written:,} in {took:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # index-only scans need the visibility map


if __name__ == "__main__":
    main()
