"""Which games a period reads (ratings/calculation/period_games.py, tournaments in parts): the
period's games query timed with the filter it replaced (one period per tournament), with the
one the calculation uses now, and with the COALESCE form it does not use.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth_h1 \\
        .venv/bin/python bench/bench_period_games.py [--period ID] [--repeat 6]

On a database from ``manage.py generate_federation`` (bench/README.md). Prints, per form, the
lowest of ``--repeat`` server execution times (EXPLAIN ANALYZE) and the planner's row estimate
against the rows found: the COALESCE form hides the games' selectivity from the planner.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

SELECT = """
    EXPLAIN ANALYZE SELECT g.id
    FROM tournaments_game g
    JOIN tournaments_tournament t ON t.id = g.tournament_id
    JOIN tournaments_tournamentplayer w ON w.id = g.white_id
    JOIN tournaments_tournamentplayer b ON b.id = g.black_id
    WHERE {where} AND t.status IN ('validated', 'rated', 'published')
      AND g.black_id IS NOT NULL AND g.left_out_code = ''
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--period", type=int, default=None, help="default: the most games")
    parser.add_argument("--repeat", type=int, default=6)
    args = parser.parse_args()
    import django

    django.setup()
    from django.db import connection

    from ratings.calculation.period_games import period_games_sql, period_tournaments_sql

    with connection.cursor() as cursor:
        period = args.period
        if period is None:
            cursor.execute(
                "SELECT t.period_id FROM tournaments_game g JOIN tournaments_tournament t "
                "ON t.id = g.tournament_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
            )
            period = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM tournaments_game")
        total = cursor.fetchone()[0]
        p = str(int(period))
        forms = {
            "one period per tournament (before)": f"t.period_id = {p}",
            "period_games_sql (now)": period_games_sql(period=p),
            "COALESCE (not used)": f"{period_tournaments_sql(period=p)} "
            f"AND COALESCE(g.period_id, t.period_id) = {p}",
        }
        print(f"period {period}; {total} games in the database")
        for name, where in forms.items():
            times, estimate, found = [], "", ""
            for _ in range(args.repeat):
                cursor.execute(SELECT.format(where=where))
                plan = [row[0] for row in cursor.fetchall()]
                took = re.search(r"Execution Time: ([\d.]+)", plan[-1])
                assert took is not None, plan[-1]
                times.append(float(took.group(1)))
                m = re.search(
                    r"rows=(\d+) width=\d+\) \(actual time=[\d.]+\.\.[\d.]+ rows=(\d+)", plan[0]
                )
                if m:
                    estimate, found = m.group(1), m.group(2)
            print(
                f"  {name:38} {min(times):8.1f} ms (lowest of {args.repeat}); "
                f"rows estimated {estimate}, found {found}"
            )


if __name__ == "__main__":
    main()
