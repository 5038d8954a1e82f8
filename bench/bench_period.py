"""Benchmark of a rating period in PostgreSQL: read + calculate + write the draft, then publish.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office_bench \\
        .venv/bin/python bench/bench_period.py [--players 500000] [--games 300000] \\
        [--system-code bench]

The federation comes from the synthetic generator (`manage.py generate_federation`, run in a
subprocess the first time so its memory does not count here); later runs reuse it (each run
recalculates the period and publishes a new version of its list). Prints the seconds of the
calculation (one service call: COPY reads, NumPy bulk path, COPY writes, one transaction) and
of the publication (INSERT … SELECT, upsert of changed player states), the peak RSS of this
process, and the I/O floor measured in the same run: the bare COPY of exactly what the
calculation read (its own queries of the player states and of the games) and wrote (its draft
rows, game lines and games left out), and of the list entries the publication wrote, each
into a scratch table with the real one's indexes; then one line per step
`<name>: <seconds> s, floor <seconds> s, ratio <x>` with the load average.
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

    from periods import services as period_services
    from periods.models import PeriodStatus
    from ratings.calculation import runs
    from ratings.publication import services as publication

    if period.status == PeriodStatus.OPEN:
        period_services.period_close(period=period)
    base_rss = peak_mib()
    print(f"--- period {period.start} – {period.end}", flush=True)

    # The queries the calculation runs (a published period reads from another state).
    players_sql, games_sql = calculation_queries(period=period)
    # ---- calculate: one service call, as the Celery task makes it
    run = runs.calculation_request(period=period, enqueue=False)
    started = time.perf_counter()
    runs.calculation_run(run_id=run.pk)
    t_calc = time.perf_counter() - started
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    rss_calc = peak_mib()
    # The reads' floor now: the publication moves the states these queries read.
    floor = io_reads(players_sql=players_sql, games_sql=games_sql)

    started = time.perf_counter()
    published = publication.list_publish(period=period, note="benchmark")
    t_pub = time.perf_counter() - started
    rss_pub = peak_mib()

    # ---- I/O floor: the bare COPY of exactly what the calculation read and wrote (the
    # player states and the games, as it queries them; its draft rows, game lines and games
    # left out) and of what the publication wrote (the list entries), in the same run.
    floor.update(io_writes(run_id=run.pk, list_id=published.pk))
    t_floor_calc = floor["players out"] + floor["games out"] + floor["draft in"]
    t_floor_pub = floor["entries in"]
    load = os.getloadavg()[0]
    print(
        f"rating period: {run.player_count:,} players, {run.game_count:,} game lines "
        f"({run.game_count // 2:,} rated games), {run.excluded_count:,} games left out; method "
        f"{run.method}; {floor['players rows']:,} player states read"
    )
    print(
        f"calculate (read + rate + write draft): {t_calc:.2f} s   [target < 10 s; semester < 20 s]"
    )
    print(
        f"publish (list version {published.version}, player states): {t_pub:.2f} s   [target < 5 s]"
    )
    print(
        "I/O floor: "
        + ", ".join(
            f"{name} {seconds:.2f} s"
            for name, seconds in floor.items()
            if name.endswith((" in", " out"))
        )
        + f" ({floor['players rows']:,} states, {floor['draft rows']:,} draft rows, "
        f"{floor['entries rows']:,} entries)"
    )
    print(
        f"calculate: {t_calc:.2f} s, floor {t_floor_calc:.2f} s, ratio {t_calc / t_floor_calc:.1f}"
        f"  (load average {load:.1f})"
    )
    print(
        f"publish: {t_pub:.2f} s, floor {t_floor_pub:.2f} s, ratio {t_pub / t_floor_pub:.1f}"
        f"  (load average {load:.1f})"
    )
    total, total_floor = t_calc + t_pub, t_floor_calc + t_floor_pub
    print(
        f"calculate + publish: {total:.2f} s, floor {total_floor:.2f} s, ratio "
        f"{total / total_floor:.1f}  (load average {load:.1f})   [target ratio <= 2]"
    )
    print(
        f"peak RSS: {rss_calc:.0f} MiB after calculating, {rss_pub:.0f} MiB after publishing "
        f"(Django loaded: {base_rss:.0f} MiB)   [target < 1024 MiB]"
    )
    return {
        "calculate": t_calc,
        "publish": t_pub,
        "floor_calculate": t_floor_calc,
        "floor_publish": t_floor_pub,
        "rss_calculate": rss_calc,
        "rss_publish": rss_pub,
    }


def calculation_queries(*, period: RatingPeriod) -> tuple[str, str]:
    """The bulk path's two queries for ``period`` as it is now: the player states, the games."""
    import inspect

    from rating_engine.registry import get_regulation
    from ratings.calculation import bulk_path
    from ratings.calculation.rulesets import period_ruleset_in_force

    in_force = period_ruleset_in_force(period=period)
    if "changes" in inspect.signature(bulk_path.players_sql_build).parameters:
        changes = get_regulation(in_force.ruleset).calendar_changes(period.end, in_force.parameters)
        players_sql = bulk_path.players_sql_build(period=period, changes=changes)
    else:  # the code before issue 27 item 2 read every player
        players_sql = bulk_path.players_sql_build(period=period)
    return players_sql, bulk_path.games_sql_build(period=period)


def io_reads(*, players_sql: str, games_sql: str) -> dict[str, float]:
    """Seconds of bare COPYs out of the calculation's own two queries (bulk_path's), and the
    rows of the first (key "players rows")."""
    from django.db import connection

    out: dict[str, float] = {}

    def copy_out(sql: str) -> tuple[float, int]:
        buf = io.StringIO()
        with connection.cursor() as cursor:
            started = time.perf_counter()
            with cursor.cursor.copy(f"COPY ({sql}) TO STDOUT") as copy:
                for block in copy:
                    buf.write(bytes(block).decode())
            seconds = time.perf_counter() - started
        return seconds, buf.getvalue().count("\n")

    out["players out"], out["players rows"] = copy_out(players_sql)
    out["games out"], _rows = copy_out(games_sql)
    return out


def io_writes(*, run_id: int, list_id: int) -> dict[str, float]:
    """Seconds of bare COPYs in of the run's draft rows and of the list's entries, each into
    a scratch table with the indexes of the real one, and their rows ("… rows")."""
    out: dict[str, float] = {}
    out["draft in"] = 0.0
    out["draft rows"] = 0
    for table, key in (
        ("ratings_draftresult", "run_id"),
        ("ratings_drafttournament", "run_id"),
        ("ratings_draftexcluded", "run_id"),
    ):
        seconds, rows = copy_in(table=table, where=f"{key} = {int(run_id)}")
        out["draft in"] += seconds
        if table == "ratings_draftresult":
            out["draft rows"] = rows
    out["entries in"], out["entries rows"] = copy_in(
        table="ratings_listentry", where=f"published_list_id = {int(list_id)}"
    )
    return out


def copy_in(*, table: str, where: str) -> tuple[float, int]:
    """Seconds of a bare COPY in of ``table``'s rows matching ``where`` into a scratch table
    with its indexes (rolled back)."""
    from django.db import connection, transaction

    buf = io.StringIO()
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY (SELECT * FROM {table} WHERE {where}) TO STDOUT") as copy:
            for block in copy:
                buf.write(bytes(block).decode())
    text = buf.getvalue()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMP TABLE bench_copy (LIKE {table} INCLUDING DEFAULTS INCLUDING INDEXES) "
            "ON COMMIT DROP"
        )
        started = time.perf_counter()
        with cursor.cursor.copy("COPY bench_copy FROM STDIN") as copy:
            copy.write(text)
        seconds = time.perf_counter() - started
    return seconds, text.count("\n")


if __name__ == "__main__":
    main()
