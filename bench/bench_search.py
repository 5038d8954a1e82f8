"""Benchmark of the player search (players.selectors.player_search) on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office_bench_search \\
        .venv/bin/python bench/bench_search.py [--players 500000] [--queries 200] [--seed 1]

The registry comes from the synthetic generator (`manage.py generate_federation --games 0`,
run in a subprocess the first time; later runs reuse it). Queries are drawn at random from
the name lists of demo/names.py (so some find nobody, as real searches do) and from the
registry's IDs, in several kinds; each runs `player_search(query=…, page=1, per_page=50)` as
the players page does. Per kind it prints p50 / p99 / max of the selector's wall time and,
beside them, of its SQL time (cursor execute + fetch, measured with an execute wrapper: the
database and the round trip, without the ORM building Player objects), plus the mean number
of matches. A second pass over the same queries is measured (warm cache): the figures are
from that pass.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import generate_federation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--queries", type=int, default=200, help="per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--system-code", default="synth")
    parser.add_argument(
        "--write-queries",
        metavar="PATH",
        help="also write the queries, one per line (for bench/search_wrk.lua)",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the search needs pg_trgm)")

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from demo.names import CATALAN_SURNAMES, GIVEN_NAMES, PORTUGUESE_SURNAMES, SPANISH_SURNAMES
    from periods.models import RatingSystem
    from players.models import Player
    from players.selectors import player_search

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=args.system_code).exists():
        print(f"generating {args.players:,} players (once) …", flush=True)
        generate_federation(players=args.players, games=0, system_code=args.system_code)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE players_player")
    print(f"registry: {Player.objects.count():,} players", flush=True)

    rng = random.Random(args.seed)
    surnames = SPANISH_SURNAMES + CATALAN_SURNAMES + PORTUGUESE_SURNAMES
    given = [g for lang in GIVEN_NAMES.values() for names in lang.values() for g in names]
    ids = list(Player.objects.order_by("?").values_list("fed_id", "fide_id")[: args.queries * 2])
    fide_ids = [f for _, f in ids if f][: args.queries]

    kinds: dict[str, Callable[[], str]] = {
        "given surname (Raúl García)": lambda: f"{rng.choice(given)} {rng.choice(surnames)}",
        "surnames given, folded (garcia lopez raul)": lambda: (
            f"{rng.choice(surnames)} {rng.choice(surnames)} {rng.choice(given)}".lower()
        ),
        "surname, initial (García, R.)": lambda: f"{rng.choice(surnames)}, {rng.choice(given)[0]}.",
        "one surname (García)": lambda: rng.choice(surnames),
        "federation ID": lambda: rng.choice(ids)[0],
        "FIDE ID": lambda: str(rng.choice(fide_ids)),
        "FIDE ID, unknown": lambda: str(rng.randint(1, 99_999_999)),
    }

    sql_seconds: list[float] = []

    def timed(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            sql_seconds.append(time.perf_counter() - started)

    if args.write_queries:
        state = rng.getstate()
        with open(args.write_queries, "w", encoding="utf-8") as out:
            out.writelines(make() + "\n" for make in kinds.values() for _ in range(args.queries))
        rng.setstate(state)
    print(
        f"{'kind':44} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} | {'SQL p50':>7} {'p99':>7} | "
        "matches"
    )
    with connection.execute_wrapper(timed):
        for kind, make in kinds.items():
            queries = [make() for _ in range(args.queries)]
            for _ in range(2):  # the first pass warms the cache; the second is measured
                wall: list[float] = []
                sql: list[float] = []
                matches: list[int] = []
                for query in queries:
                    sql_seconds.clear()
                    started = time.perf_counter()
                    result = player_search(query=query, page=1, per_page=50)
                    wall.append(time.perf_counter() - started)
                    sql.append(sum(sql_seconds))
                    matches.append(result.total)
            print(
                f"{kind:44} {pct(wall, 0.5) * 1000:7.1f} {pct(wall, 0.99) * 1000:7.1f} "
                f"{max(wall) * 1000:7.1f} | {pct(sql, 0.5) * 1000:7.1f} "
                f"{pct(sql, 0.99) * 1000:7.1f} "
                f"| {statistics.mean(matches):,.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
