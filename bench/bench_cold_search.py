"""Cold player searches beside a bare Django "hello" view, under the same gunicorn (2 sync
workers) and wrk, on a 500,000-player registry (issue 29 item 3).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth_h5 CACHE_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python bench/bench_cold_search.py [--duration 15] [--connections 2] \\
        [--searches 20000] [--seed 1]

The registry comes from the synthetic generator (`manage.py generate_federation --games 0`;
bench/README.md). Searches are drawn as bench/bench_public.py draws them (a random player of
the whole registry: his first surname, given name and surname, both folded surname first, or
his federation ID), each distinct search once, in order, on an emptied cache: every request
is a search nobody asked for lately. The hello view (bench/hello_wsgi.py) runs first and last
for the same time. Per run: req/s, wrk's p50 / p90 / p99, the server's time and SQL time per
request (bench/gunicorn_bench.py), gunicorn's CPU per request (workers and master, from
/proc), the load average; then the cold search's CPU per request over the hello view's (the
issue's target: at most 3, with p99 ≤ 50 ms).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_public import (  # noqa: E402  (SERVER_ENV is set by importing it)
    SERVER_ENV,
    cpu_seconds,
    load_average,
    pct,
    run_wrk,
    search_url,
    server_stats,
    wait_port,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=15, help="seconds of each run")
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--searches", type=int, default=20_000, help="distinct searches drawn")
    parser.add_argument("--port", type=int, default=8915)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a generated federation (bench/README.md)")

    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection

    rng = random.Random(args.seed)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM players_player")
        registry = cursor.fetchone()[0]
        cursor.execute("SELECT setseed(%s)", [1 / (args.seed + 1)])
        cursor.execute(
            "SELECT fed_id, surname, given_name FROM players_player ORDER BY random() LIMIT %s",
            [args.searches],
        )
        rows = cursor.fetchall()
    searches = list(dict.fromkeys(search_url(f, s, g, rng) for f, s, g in rows))
    rng.shuffle(searches)
    print(
        f"registry {registry:,} players; {len(searches):,} distinct searches; "
        f"load average {load_average():.2f} at the start",
        flush=True,
    )
    stats_dir = tempfile.mkdtemp(prefix="bench-cold-search-")
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bench.hello_wsgi:application",
            "-c",
            str(ROOT / "bench" / "gunicorn_bench.py"),
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, **SERVER_ENV, "BENCH_STATS_DIR": stats_dir},
        start_new_session=True,
    )
    rows_out = []
    try:
        wait_port(args.port)
        for url in ("/", "/players/", "/bench/hello/", "/players/?q=warmup", "/bench/hello/"):
            urllib.request.urlopen(f"http://127.0.0.1:{args.port}{url}").read()
        print(
            f"wrk: {args.connections} connections, gunicorn 2 sync workers, {args.duration} s "
            "per run",
            flush=True,
        )
        print(
            f"{'run':<12} {'req/s':>8} {'p50':>8} {'p90':>8} {'p99':>8}  "
            f"{'server ms p50/p99':>18}  {'DB ms p50/p99/mean':>20}  {'CPU ms/req':>10}  load",
            flush=True,
        )
        offset = 0
        for name in ("hello", "cold search", "hello"):
            if name == "hello":
                paths = ["/bench/hello/"]
            else:
                cache.clear()
                paths = searches[offset:]
            pids = [server.pid, *(int(n.split(".")[0]) for n in os.listdir(stats_dir))]
            cpu_before, since = cpu_seconds(pids), time.time()
            figures = run_wrk(paths, args.port, args.duration, args.connections, sequential=True)
            until = time.time()
            cpu = cpu_seconds(pids) - cpu_before
            walls, sqls, _last = server_stats(stats_dir, since, until)
            done = int(figures["requests"])
            note = ""
            if name != "hello":
                if done > len(paths):
                    note = f" ({done - len(paths)} requests repeated a search: draw more)"
                offset += done
            cpu_ms = cpu * 1000 / done if done else 0.0
            server_ms = f"{pct(walls, 0.5):.1f} / {pct(walls, 0.99):.1f}" if walls else "-"
            db_ms = (
                f"{pct(sqls, 0.5):.1f} / {pct(sqls, 0.99):.1f} / {statistics.mean(sqls):.1f}"
                if sqls
                else "-"
            )
            load = load_average()
            print(
                f"{name:<12} {figures['req/s']:>8} {figures['p50']:>8} {figures['p90']:>8} "
                f"{figures['p99']:>8}  {server_ms:>18}  {db_ms:>20}  {cpu_ms:>10.2f}  "
                f"{load:.2f}  non-2xx {figures['non-2xx']}{note}",
                flush=True,
            )
            rows_out.append((name, figures, cpu_ms))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    hello = statistics.mean(cpu for name, _f, cpu in rows_out if name == "hello")
    cold = next((f, cpu) for name, f, cpu in rows_out if name == "cold search")
    print(
        f"cold search: {cold[1]:.2f} ms CPU/request, hello {hello:.2f} ms CPU/request "
        f"(mean of its two runs), ratio {cold[1] / hello:.2f} (target ≤ 3); "
        f"p99 {cold[0]['p99']} (target ≤ 50 ms), {cold[0]['req/s']} req/s"
    )


if __name__ == "__main__":
    main()
