"""Benchmark of a re-rating chain (issue 27 item 4): a correction in the first of N monthly
periods, then one worker job re-rates all N in order (ratings.rerating.chain).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth_h4 \\
        .venv/bin/python bench/bench_rerate.py [--players 500000] [--games 25000] \\
        [--periods 120] [--system-code chain]

The federation comes from the synthetic generator (`manage.py generate_federation --periods
N+1`, games split evenly, the last period open), generated once in a child process; the first
run publishes the N closed periods with a chain (printed, not the figure), every run then
reverses the decisive results of one tournament of the first period and times the chain that
re-rates the N periods, split into its steps (calculate, publish, states moved on).

The I/O floor, measured in the same run: a bare COPY out of the games of the N periods, plus N
times a bare COPY in of one list version's rows into a scratch table with the list's indexes
(what the chain must read and write at the least while publication writes every entry).

The ranks task each published version queues (ratings.fill_list_ranks) runs on other workers
after the chain's commits and is not in the chain's time: one is timed on the last list and
printed beside it. Tasks go to an in-process memory broker here (`memory://`), not run.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import generate_federation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
# The ranks tasks queued by each publication are not run in this process (see above).
os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def chain_periods(*, players: int, games: int, periods: int, system_code: str) -> list[Any]:
    """Django set up, the federation generated the first time, and its N closed periods
    published once (by a chain); returns them in order."""
    import django

    django.setup()
    from django.core.management import call_command

    from periods.models import PeriodStatus, RatingPeriod, RatingSystem
    from ratings.rerating import chain as chain_module
    from ratings.rerating import services as rerating

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=system_code).exists():
        print(
            f"generating {players:,} players and {periods + 1} periods of {games:,} games (once) …",
            flush=True,
        )
        started = time.perf_counter()
        generate_federation(
            players=players,
            games=games * (periods + 1),
            periods=periods + 1,
            system_code=system_code,
        )
        print(f"  generated in {time.perf_counter() - started:.1f} s", flush=True)
    chain = list(
        RatingPeriod.objects.filter(system__code=system_code)
        .exclude(status=PeriodStatus.OPEN)
        .order_by("start")
    )
    if any(p.status != PeriodStatus.PUBLISHED for p in chain):
        print(f"publishing the {len(chain)} periods once (a chain) …", flush=True)
        started = time.perf_counter()
        job = rerating.rerate_request(period=chain[0])
        chain_module.rerate_chain_run(chain_id=job.pk)
        print(f"  published in {time.perf_counter() - started:.1f} s", flush=True)
    return chain


def correction(*, period: Any) -> int:
    """The decisive results of the period's first tournament reversed (a corrected report);
    returns the games changed."""
    from django.db import connection

    from periods.services import period_mark_for_recalculation

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_game SET result = CASE result WHEN '1-0' THEN '0-1' ELSE '1-0' "
            "END, white_score = black_score, black_score = white_score "
            "WHERE result IN ('1-0', '0-1') AND tournament_id = (SELECT min(id) FROM "
            "tournaments_tournament WHERE period_id = %s)",
            [period.pk],
        )
        changed = cursor.rowcount
    period_mark_for_recalculation(period=period)
    return changed


def rerate_measure(*, periods: list[Any]) -> dict[str, Any]:
    """A correction of the first period and the chain re-rating all of them, timed by step;
    the I/O floor; the ranks task of the last list."""
    from django.db import connection, transaction

    from ratings.lists import ranks
    from ratings.models import PublishedList
    from ratings.rerating import chain as chain_module
    from ratings.rerating import services as rerating

    changed = correction(period=periods[0])
    steps: dict[str, float] = defaultdict(float)

    def timed(name: str, step: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(**kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return step(**kwargs)
            finally:
                steps[name] += time.perf_counter() - started

        return wrapper

    for name in ("chain_period_calculate", "chain_period_publish", "chain_states_advance"):
        setattr(chain_module, name, timed(name, getattr(chain_module, name)))
    job = rerating.rerate_request(period=periods[0])
    base_rss = peak_mib()
    started = time.perf_counter()
    chain_module.rerate_chain_run(chain_id=job.pk)
    t_chain = time.perf_counter() - started
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    rss = peak_mib()

    # ---- I/O floor: the games read, N list versions written.
    ids = ",".join(str(p.pk) for p in periods)
    games_sql = (
        "SELECT COALESCE(w.player_id, -w.id), COALESCE(b.player_id, -b.id), g.result, g.kind, "
        "g.tournament_id, g.round, t.end_date FROM tournaments_game g "
        "JOIN tournaments_tournament t ON t.id = g.tournament_id "
        "JOIN tournaments_tournamentplayer w ON w.id = g.white_id "
        "JOIN tournaments_tournamentplayer b ON b.id = g.black_id "
        f"WHERE t.period_id IN ({ids})"
    )
    last = PublishedList.objects.filter(period=periods[-1]).order_by("-version").first()
    assert last is not None
    columns = (
        "published_list_id, player_id, rating, change, k, games, total_games, status, "
        "inactive, provisional, ruleset, engine_version"
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
            f"COPY (SELECT {columns} FROM ratings_listentry WHERE published_list_id = {last.pk}) "
            "TO STDOUT"
        ) as copy:
            for block in copy:
                buf.write(bytes(block).decode())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_listentry (LIKE ratings_listentry INCLUDING DEFAULTS "
            "INCLUDING IDENTITY INCLUDING INDEXES) ON COMMIT DROP"
        )
        started = time.perf_counter()
        with cursor.cursor.copy(f"COPY bench_listentry ({columns}) FROM STDIN") as copy:
            copy.write(buf.getvalue())
        t_copy_in = time.perf_counter() - started

    started = time.perf_counter()
    ranks.list_ranks_fill(list_id=last.pk)
    ranks.list_rows_fill(list_id=last.pk)
    t_ranks = time.perf_counter() - started
    return {
        "chain": t_chain,
        "periods": len(periods),
        "games_changed": changed,
        "steps": dict(steps),
        "copy_out": t_copy_out,
        "copy_out_mib": n / 2**20,
        "copy_in_one": t_copy_in,
        "entries_per_list": last.entry_count,
        "floor": t_copy_out + len(periods) * t_copy_in,
        "ranks_one": t_ranks,
        "rss": rss,
        "rss_base": base_rss,
    }


def rerate_report(m: dict[str, Any]) -> None:
    steps = m["steps"]
    n = m["periods"]
    calc = steps.get("chain_period_calculate", 0.0)
    pub = steps.get("chain_period_publish", 0.0)
    states = steps.get("chain_states_advance", 0.0)
    print(
        f"re-rating chain of {n} periods ({m['games_changed']} games corrected in the first): "
        f"{m['chain']:.1f} s = calculate {calc:.1f} s + publish {pub:.1f} s + states moved on "
        f"{states:.1f} s   [target 300 s]"
    )
    print(
        f"I/O floor: COPY out of the {n} periods' games {m['copy_out']:.2f} s "
        f"({m['copy_out_mib']:.0f} MiB) + {n} x COPY in of one list's "
        f"{m['entries_per_list']:,} rows {m['copy_in_one']:.2f} s = {m['floor']:.1f} s"
    )
    print(
        f"ranks task of one list (other workers, after each commit): {m['ranks_one']:.2f} s "
        f"(x {n} = {m['ranks_one'] * n:.0f} s)"
    )
    print(f"peak RSS: {m['rss']:.0f} MiB (before the chain: {m['rss_base']:.0f} MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=25_000, help="games per period")
    parser.add_argument("--periods", type=int, default=120)
    parser.add_argument("--system-code", default="chain")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the benchmark measures COPY)")
    periods = chain_periods(
        players=args.players, games=args.games, periods=args.periods, system_code=args.system_code
    )
    rerate_report(rerate_measure(periods=periods))


if __name__ == "__main__":
    main()
