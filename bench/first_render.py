"""The first render of the player card and of list pages, in-process (issue 29: "first card and
list page after a publication p99 <= 50 ms"): the newest list's cards and pages, drawn as
bench/bench_public.py draws them, each asked once through Django's test client on an empty
cache (what a request after a publication finds: new state, new keys, no count kept), one at a
time. For each kind: wall time p50 / p99, this process's CPU per request (the database's is
apart), statements per page (mean / max) and their time (p50 / p99).

    DATABASE_URL=postgres://... CACHE_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python bench/first_render.py [--sample 200] [--seed 3]

Run it on a copy of the database of bench/public_setup.py; figures in docs/benchmarks.md.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    from bench.bench_public import SERVER_ENV, draw_urls

    os.environ.update({k: v for k, v in SERVER_ENV.items() if k not in os.environ})
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200, help="URLs per kind")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--kinds", default="card,list")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a copy of the database of bench/public_setup.py")

    import django

    django.setup()
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client

    urls = draw_urls(args.sample, random.Random(args.seed))
    client = Client()
    statements = [0]
    sql = [0.0]

    def timer(execute: Callable[..., Any], query: str, params: Any, many: bool, ctx: Any) -> Any:
        started = time.perf_counter()
        statements[0] += 1
        try:
            return execute(query, params, many, ctx)
        finally:
            sql[0] += time.perf_counter() - started

    # Imports, templates and connections, not measured: pages of another list.
    for address in ("/", "/players/", "/ratings/", urls["card"][-1], urls["list"][-1]):
        client.get(address)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.sample} URLs per kind, one at a time")
    print(
        f"{'kind':<6} {'wall p50/p99 ms':>16} {'CPU ms mean/p99':>16} {'statements':>11} "
        f"{'SQL p50/p99 ms':>15}  load"
    )
    with connection.execute_wrapper(timer):
        for kind in args.kinds.split(","):
            for alias in ("default", "local"):
                caches[alias].clear()
            walls, cpus, counts, sqls = [], [], [], []
            for address in list(dict.fromkeys(urls[kind])):
                statements[0], sql[0] = 0, 0.0
                cpu, wall = time.process_time(), time.perf_counter()
                response = client.get(address)
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
                counts.append(statements[0])
                sqls.append(sql[0] * 1000)
                if response.status_code != 200:
                    raise SystemExit(f"{address}: {response.status_code}")
            print(
                f"{kind:<6} {pct(walls, 0.5):>7.1f} / {pct(walls, 0.99):>6.1f} "
                f"{statistics.mean(cpus):>7.1f} / {pct(cpus, 0.99):>6.1f} "
                f"{statistics.mean(counts):>5.1f} / {max(counts):<3} "
                f"{pct(sqls, 0.5):>6.1f} / {pct(sqls, 0.99):>6.1f}  {os.getloadavg()[0]:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
