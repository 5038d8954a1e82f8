"""Benchmark of a rating period in PostgreSQL: read + calculate + write the draft, then publish.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office_bench \\
        .venv/bin/python bench/bench_period.py [--players 500000] [--games 300000] \\
        [--system-code bench]

The federation comes from the synthetic generator (`manage.py generate_federation`, run in a
subprocess the first time so its memory does not count here); later runs reuse it (each run
recalculates the period and publishes a new version of its list). Prints the seconds of the
calculation (one service call: COPY reads, NumPy bulk path, COPY writes, one transaction) and
of the publication (INSERT … SELECT, upsert of changed player states), the peak RSS of this
process, and the I/O floor: a bare COPY out of the same games and a bare COPY in of the same
list rows into a scratch table with the list's indexes.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported after django.setup() at run time
    from periods.models import RatingPeriod

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import generate_federation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def cpu_reference() -> float:
    """Seconds of a fixed pure-Python loop (the same as bench_import.py prints), so figures
    from different machines and days can be compared."""
    started = time.perf_counter()
    s = 0
    for i in range(10_000_000):
        s += i
    return time.perf_counter() - started


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--system-code", default="bench")
    parser.add_argument(
        "--months",
        type=int,
        default=1,
        help="generate this many periods of --games each; every unpublished one is measured in "
        "order (the second is a steady-state month: statuses already settled)",
    )
    args = parser.parse_args()
    pending = periods_pending(
        players=args.players, games=args.games, system_code=args.system_code, months=args.months
    )
    print(f"CPU reference: {cpu_reference():.2f} s (10,000,000-iteration Python loop)", flush=True)
    for period in pending:
        measure(period)


def periods_pending(
    *, players: int, games: int, system_code: str, months: int = 1
) -> list[RatingPeriod]:
    """The periods to measure: Django set up, the federation generated the first time (in a
    child process), every period not yet published, or else the latest one with games."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the benchmark measures COPY)")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from periods.models import PeriodStatus, RatingSystem

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=system_code).exists():
        print(f"generating {players:,} players and {games:,} games (once) …", flush=True)
        started = time.perf_counter()
        generate_federation(
            players=players,
            games=games * months,
            periods=months,
            system_code=system_code,
        )
        print(f"  generated in {time.perf_counter() - started:.1f} s", flush=True)
    system = RatingSystem.objects.get(code=system_code)
    pending = list(system.periods.exclude(status=PeriodStatus.PUBLISHED).order_by("start"))
    pending = [p for p in pending if p.tournaments.exists()] or list(
        system.periods.filter(tournaments__isnull=False).distinct().order_by("-start")[:1]
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return pending


def measure(period: RatingPeriod) -> dict[str, float]:
    """Calculate and publish the period, then the I/O floor; prints the figures and returns
    them (seconds, MiB)."""
    from django.db import connection, transaction

    from periods import services as period_services
    from periods.models import PeriodStatus
    from ratings.calculation import runs
    from ratings.publication import services as publication

    if period.status == PeriodStatus.OPEN:
        period_services.period_close(period=period)
    base_rss = peak_mib()
    print(f"--- period {period.start} – {period.end}", flush=True)

    # ---- calculate: one service call, as the Celery task makes it
    run = runs.calculation_request(period=period, enqueue=False)
    started = time.perf_counter()
    runs.calculation_run(run_id=run.pk)
    t_calc = time.perf_counter() - started
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    rss_calc = peak_mib()

    started = time.perf_counter()
    published = publication.list_publish(period=period, note="benchmark")
    t_pub = time.perf_counter() - started
    rss_pub = peak_mib()

    # ---- I/O floor
    games_sql = (
        "SELECT COALESCE(w.player_id, -w.id), COALESCE(b.player_id, -b.id), g.result, g.kind, "
        "g.tournament_id, "
        "g.round, t.end_date FROM tournaments_game g JOIN tournaments_tournament t ON t.id = "
        "g.tournament_id "
        "JOIN tournaments_tournamentplayer w ON w.id = g.white_id "
        "JOIN tournaments_tournamentplayer b ON b.id = g.black_id "
        f"WHERE t.period_id = {period.pk}"
    )
    with connection.cursor() as cursor:
        started = time.perf_counter()
        n = 0
        with cursor.cursor.copy(f"COPY ({games_sql}) TO STDOUT") as copy:
            for block in copy:
                n += len(block)
        t_copy_out = time.perf_counter() - started
        buf = io.StringIO()
        with cursor.cursor.copy(
            "COPY (SELECT published_list_id, player_id, rating, change, k, games, total_games, "
            "status, inactive, "
            "provisional, ruleset, engine_version FROM ratings_listentry WHERE published_list_id "
            f"= {published.pk}) "
            "TO STDOUT"
        ) as copy:
            for block in copy:
                buf.write(bytes(block).decode())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_listentry (LIKE ratings_listentry INCLUDING DEFAULTS "
            "INCLUDING IDENTITY "
            "INCLUDING INDEXES) ON COMMIT DROP"
        )
        started = time.perf_counter()
        with cursor.cursor.copy(
            "COPY bench_listentry (published_list_id, player_id, rating, change, k, games, "
            "total_games, status, "
            "inactive, provisional, ruleset, engine_version) FROM STDIN"
        ) as copy:
            copy.write(buf.getvalue())
        t_copy_in = time.perf_counter() - started

    print(
        f"rating period: {run.player_count:,} players, {run.game_count:,} game lines "
        f"({run.game_count // 2:,} rated games), {run.excluded_count:,} games left out; method "
        f"{run.method}"
    )
    print(
        f"calculate (read + rate + write draft): {t_calc:.2f} s   [target < 10 s; semester < 20 s]"
    )
    print(
        f"publish (list version {published.version}, player states): {t_pub:.2f} s   [target < 5 s]"
    )
    print(
        f"I/O floor: COPY out of the games {t_copy_out:.2f} s ({n / 2**20:.0f} MiB); "
        f"COPY in of the {published.entry_count:,} list rows {t_copy_in:.2f} s"
    )
    print(
        f"ratios: calculate / COPY out = {t_calc / t_copy_out:.1f}x; publish / COPY in = "
        f"{t_pub / t_copy_in:.1f}x"
    )
    print(
        f"peak RSS: {rss_calc:.0f} MiB after calculating, {rss_pub:.0f} MiB after publishing "
        f"(Django loaded: {base_rss:.0f} MiB)   [target < 1024 MiB]"
    )
    return {
        "calculate": t_calc,
        "publish": t_pub,
        "copy_out": t_copy_out,
        "copy_in": t_copy_in,
        "rss_calculate": rss_calc,
        "rss_publish": rss_pub,
    }


if __name__ == "__main__":
    main()
