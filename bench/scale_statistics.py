"""Benchmark of the publication's statistics step (ratings.statistics.services.
list_statistics_compute: one INSERT … SELECT over the list) on a 500,000-entry list, beside
that list's COPY time (the floor: a bare COPY in of the same entries into a scratch table with
the list's indexes, as bench/bench_period.py measures it).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office_bench \\
        .venv/bin/python bench/scale_statistics.py [--players 500000] [--system-code bench]

The federation comes from the synthetic generator (`manage.py generate_federation`, in a
subprocess the first time; later runs reuse it, as bench_period.py does); the list is one
published version written once from the players' states by INSERT … SELECT (reused too). Each
run computes the statistics --repeat times, each in a transaction rolled back, and prints the
best: `statistics: <s> s, floor <s> s, ratio <x>`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported after django.setup() at run time
    from periods.models import RatingSystem
    from ratings.models import PublishedList

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import generate_federation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

LIST_NOTE = "bench/scale_statistics.py"
COLUMNS = (
    "published_list_id, player_id, rating, change, k, games, total_games, status, inactive, "
    "provisional, ruleset, engine_version"
)


class _Rollback(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--system-code", default="bench")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the benchmark measures COPY)")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from core.pg.connections import tune_transaction
    from periods.models import RatingSystem
    from ratings.models import PublishedList
    from ratings.statistics.services import list_statistics_compute

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=args.system_code).exists():
        print(f"generating {args.players:,} players and {args.games:,} games (once) …", flush=True)
        generate_federation(players=args.players, games=args.games, system_code=args.system_code)
    system = RatingSystem.objects.get(code=args.system_code)
    published = PublishedList.objects.filter(system=system, note=LIST_NOTE).first()
    if published is None:
        published = _list_write(system=system, note=LIST_NOTE, now=timezone.now())
    print(f"list {published.pk}: {published.entry_count:,} entries", flush=True)

    best = float("inf")
    rows = 0
    for _ in range(args.repeat):
        try:
            with transaction.atomic():
                tune_transaction()  # as list_publish's transaction is
                started = time.perf_counter()
                rows = list_statistics_compute(published=published)
                best = min(best, time.perf_counter() - started)
                raise _Rollback
        except _Rollback:
            pass

    # ---- the floor: COPY in of the same entries into a scratch table with the list's indexes
    buf = io.StringIO()
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY (SELECT {COLUMNS} FROM ratings_listentry WHERE published_list_id = "
            f"{published.pk}) TO STDOUT"
        ) as copy:
            for block in copy:
                buf.write(bytes(block).decode())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_listentry (LIKE ratings_listentry INCLUDING DEFAULTS "
            "INCLUDING IDENTITY INCLUDING INDEXES) ON COMMIT DROP"
        )
        started = time.perf_counter()
        with cursor.cursor.copy(f"COPY bench_listentry ({COLUMNS}) FROM STDIN") as copy:
            copy.write(buf.getvalue())
        floor = time.perf_counter() - started
    print(f"{rows} rows of figures (whole list, regions, age bands)")
    print(f"statistics: {best:.2f} s, floor {floor:.2f} s, ratio {best / floor:.2f}")


def _list_write(*, system: RatingSystem, note: str, now: dt.datetime) -> PublishedList:
    """One published version of the system's open period's list, every player state with a
    rating as an entry, written by INSERT … SELECT (the statistics need no calculation)."""
    from django.db import connection

    from core.pg.ids import reserve_id
    from ratings.models import PublishedList

    period = system.periods.order_by("-start").first()
    assert period is not None
    version = (period.lists.order_by("-version").values_list("version", flat=True).first() or 0) + 1
    list_id = reserve_id("ratings_publishedlist")
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH entries AS (
                INSERT INTO ratings_listentry ({COLUMNS})
                SELECT %s, player_id, rating, (player_id %% 21) - 10, NULL,
                       CASE WHEN player_id %% 3 = 0 THEN 9 ELSE 0 END, games,
                       CASE WHEN player_id %% 50 = 0 THEN 'new' ELSE 'rated' END,
                       activity = 'inactive', kind = 'provisional', %s, 'bench'
                FROM ratings_playerrating WHERE system_id = %s AND rating IS NOT NULL
                ORDER BY player_id RETURNING 1)
            INSERT INTO ratings_publishedlist (id, system_id, period_id, version, list_date,
                published_at, ruleset, engine_version, regulation_version, note, entry_count)
            SELECT %s, %s, %s, %s, %s, %s, %s, 'bench', '', %s, count(*) FROM entries""",
            [
                list_id,
                system.ruleset,
                system.pk,
                list_id,
                system.pk,
                period.pk,
                version,
                period.list_date,
                now,
                system.ruleset,
                note,
            ],
        )
        cursor.execute("ANALYZE ratings_listentry")
    return PublishedList.objects.get(pk=list_id)


if __name__ == "__main__":
    main()
