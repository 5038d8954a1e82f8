"""Benchmark of the public pages under gunicorn (2 workers) with wrk: the player card, a list
page of 100 entries, the player search.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ro_bench_public \\
        CACHE_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/bench_public.py [--duration 20] [--connections 2] [--sample 2000]

The database comes from bench/public_setup.py (500,000 players, 24 lists published through
the office's services). For each kind of page the script draws random URLs (cards of random
players of the newest list; list pages: random pages of the newest list, sorted by rating or
by name, unfiltered or filtered by region, sex or age group; searches: random surnames, given
names + surnames, without accents, and federation IDs of random players), measures them
in-process first (Django's test client, one at a time, SQL time summed by an execute wrapper:
"DB ms" is the database and its round trip), then serves them with gunicorn (2 workers,
loopback) and runs wrk (--latency) on them. Each kind is measured twice under wrk: cold
(cache emptied, every URL seen for the first time during the run) and warm (after one pass over the
URLs: a card's fragment is cached by the current list ids, and a list page by its list id,
since a published list never changes; search results for 2 minutes). The search's warm run
only holds while its 2-minute cache lasts.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
SERVER_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,testserver",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "STATIC_MANIFEST": "0",
}
os.environ.update({k: v for k, v in SERVER_ENV.items() if k not in os.environ})


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def draw_urls(sample: int, rng: random.Random) -> dict[str, list[str]]:
    from django.db import connection

    from players.names import fold
    from ratings.lists.selectors import list_current_ids
    from ratings.models import PublishedList

    newest = PublishedList.objects.get(pk=list_current_ids()[0])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.fed_id, p.surname, p.given_name, p.region FROM ratings_listentry e "
            "JOIN players_player p ON p.id = e.player_id WHERE e.published_list_id = %s "
            "ORDER BY random() LIMIT %s",
            [newest.pk, sample],
        )
        rows = cursor.fetchall()
    cards = [f"/players/{fed_id}/" for fed_id, *_rest in rows]
    regions = sorted({r[3] for r in rows if r[3]})
    pages = max(1, newest.entry_count // 100)
    lists = []
    for _ in range(sample):
        query: dict[str, Any] = {"page": rng.randint(1, min(pages, 200))}
        kind = rng.random()
        if kind < 0.2:
            query["sort"] = "name"
        elif kind < 0.4:
            query.update(region=rng.choice(regions), page=rng.randint(1, 5))
        elif kind < 0.5:
            query.update(sex="F", page=rng.randint(1, 20))
        elif kind < 0.6:
            query.update(age="u20", active="true", page=1)
        lists.append(f"/ratings/lists/{newest.pk}/?{urllib.parse.urlencode(query)}")
    searches = []
    for fed_id, surname, given, _region in rows:
        kind = rng.random()
        if kind < 0.3:
            q = surname.split()[0]
        elif kind < 0.6:
            q = f"{given.split()[0]} {surname.split()[0]}"
        elif kind < 0.8:
            q = fold(f"{surname.split()[0]} {given.split()[0]}")
        else:
            q = fed_id
        searches.append(f"/players/?{urllib.parse.urlencode({'q': q})}")
    return {"card": cards, "list": lists, "search": searches}


def in_process(urls: list[str]) -> tuple[list[float], list[float]]:
    """Wall ms and SQL ms per request through Django's test client."""
    from django.db import connection
    from django.test import Client

    client = Client()
    sql = [0.0]

    def timer(execute: Callable[..., Any], query: str, params: Any, many: bool, ctx: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(query, params, many, ctx)
        finally:
            sql[0] += time.perf_counter() - started

    walls, dbs = [], []
    with connection.execute_wrapper(timer):
        for url in urls:
            sql[0] = 0.0
            started = time.perf_counter()
            response = client.get(url)
            walls.append((time.perf_counter() - started) * 1000)
            dbs.append(sql[0] * 1000)
            if response.status_code != 200:
                raise SystemExit(f"{url}: {response.status_code}")
    return walls, dbs


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def run_wrk(paths: list[str], port: int, duration: int, connections: int) -> dict[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(paths) + "\n")
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "-s",
            str(ROOT / "bench" / "paths_wrk.lua"),
            f"http://127.0.0.1:{port}",
        ],
        env={**os.environ, "PATHS": f.name},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    os.unlink(f.name)
    figures = {"req/s": re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)}  # type: ignore[union-attr]
    for q in ("50", "90", "99"):
        m = re.search(rf"^\s+{q}%\s+(\S+)", out, re.M)
        figures[f"p{q}"] = m.group(1) if m else "?"
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["non-2xx"] = errors.group(1) if errors else "0"
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--sample", type=int, default=2000, help="URLs drawn per kind")
    parser.add_argument("--in-process", type=int, default=200, help="URLs measured in-process")
    parser.add_argument("--port", type=int, default=8913)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="card,list,search")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to the database of bench/public_setup.py")

    import django

    django.setup()
    from django.core.cache import cache

    rng = random.Random(args.seed)
    urls = draw_urls(args.sample, rng)
    kinds = args.kinds.split(",")
    print(f"{'page':<14} {'in-process p50/p99 ms':>22} {'DB p50/p99 ms':>16}", flush=True)
    cache.clear()
    for kind in kinds:
        walls, dbs = in_process(urls[kind][: args.in_process])
        print(
            f"{kind + ' (cold)':<14} {statistics.median(walls):>9.1f} / {pct(walls, 0.99):>6.1f}"
            f"     {statistics.median(dbs):>6.1f} / {pct(dbs, 0.99):>5.1f}",
            flush=True,
        )
        walls, dbs = in_process(urls[kind][: args.in_process])
        print(
            f"{kind + ' (warm)':<14} {statistics.median(walls):>9.1f} / {pct(walls, 0.99):>6.1f}"
            f"     {statistics.median(dbs):>6.1f} / {pct(dbs, 0.99):>5.1f}",
            flush=True,
        )
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, **SERVER_ENV},
        start_new_session=True,
    )
    try:
        wait_port(args.port)
        urllib.request.urlopen(f"http://127.0.0.1:{args.port}/").read()
        print(
            f"wrk: {args.connections} connections, {args.duration} s, gunicorn 2 workers",
            flush=True,
        )
        for kind in kinds:
            runs = [("cold", True), ("warm", False)]
            for label, clear in runs:
                if clear:
                    cache.clear()
                else:  # warm: one pass over every URL first
                    for url in urls[kind]:
                        urllib.request.urlopen(f"http://127.0.0.1:{args.port}{url}").read()
                figures = run_wrk(urls[kind], args.port, args.duration, args.connections)
                name = f"{kind} {label}".strip()
                print(
                    f"{name:<12} {figures['req/s']:>8} req/s  p50 {figures['p50']:>8}  "
                    f"p90 {figures['p90']:>8}  p99 {figures['p99']:>8}  "
                    f"non-2xx {figures['non-2xx']}",
                    flush=True,
                )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
