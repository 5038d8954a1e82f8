"""Benchmark of the API under gunicorn (2 workers on loopback) with wrk.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ro_api_bench \\
        .venv/bin/python bench/bench_api.py [--players 500000] [--duration 20] [--connections 4]

The registry comes from the synthetic generator (`manage.py generate_federation --games 0`,
run the first time; later runs reuse it). A published list with one entry per rated player
(500,000) is written once by one INSERT … SELECT from the players' states (a benchmark
fixture: the office's publication path is benchmarked by bench/bench_period.py). Then, with
gunicorn serving the site (DEBUG off, 2 workers, CACHE_URL as set — Redis in production):

- GET /api/v1/players/{fed_id}/ for random players (a player's card: ratings, K, history);
- GET /api/v1/lists/{id}/entries/?limit=100&cursor=… for pages spread over the whole list
  (100 entries each), first once each (cold: computed and cached), then under wrk (warm).

wrk is Debian's (`apt-get install -y wrk`). Prints wrk's requests/s and latency percentiles.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import ROOT, generate_federation, wrk_run

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

WRK_SCRIPT = """
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
math.randomseed(1)
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
"""


def ensure_data(players: int, system_code: str) -> tuple[list[str], int]:
    """The registry and a published list of every rated player; returns some federation IDs
    and the list's id."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from periods.models import RatingPeriod, RatingSystem
    from players.models import Player
    from ratings.lists.ranks import list_ranks_fill
    from ratings.models import PublishedList

    call_command("migrate", verbosity=0)
    if not RatingSystem.objects.filter(code=system_code).exists():
        print(f"generating {players:,} players (once) …", flush=True)
        generate_federation(players=players, games=0, system_code=system_code)
    system = RatingSystem.objects.get(code=system_code)
    published = PublishedList.objects.filter(system=system, note="bench_api").first()
    if published is None:
        print("writing a published list of every rated player (once) …", flush=True)
        period = RatingPeriod.objects.filter(system=system).order_by("start").first()
        assert period is not None, "the generator opens periods"
        started = time.perf_counter()
        published = PublishedList.objects.create(
            system=system,
            period=period,
            version=(period.lists.count() + 1),
            list_date=period.list_date,
            published_at=timezone.now(),
            ruleset=system.ruleset,
            engine_version="bench",
            note="bench_api",
            entry_count=0,
        )
        with connection.cursor() as cursor:
            cursor.execute(
                """INSERT INTO ratings_listentry (published_list_id, player_id, rating, change,
                       k, games, total_games, status, inactive, provisional, ruleset,
                       engine_version)
                   SELECT %s, player_id, rating, 0, 20, 0, games,
                          CASE WHEN rating IS NULL THEN 'unrated' ELSE 'rated' END,
                          false, false, %s, 'bench'
                   FROM ratings_playerrating WHERE system_id = %s ORDER BY player_id""",
                [published.pk, system.ruleset, system.pk],
            )
            cursor.execute("ANALYZE ratings_listentry")
        print(f"  {time.perf_counter() - started:.1f} s", flush=True)
    # What the publication's task does next (ratings.fill_list_ranks): the card reads ranks.
    filled = list_ranks_fill(list_id=published.pk)
    if filled:
        print(f"  ranks written: {filled:,}", flush=True)
    entries = published.entries.count()
    print(f"registry: {Player.objects.count():,} players; list {published.pk}: {entries:,} entries")
    rng = random.Random(1)
    ids = list(
        Player.objects.filter(ratings__system=system).values_list("fed_id", flat=True)[:20000]
    )
    return rng.sample(ids, min(500, len(ids))), published.pk


def entry_cursors(list_id: int, pages: int) -> list[str]:
    """`pages` cursors spread over the whole list (the positions of every N-th entry)."""
    from django.db import connection

    from ratings.api.lists import _cursor_encode

    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT r, p FROM (
                   SELECT COALESCE(rating, -1) AS r, player_id AS p,
                          row_number() OVER (ORDER BY COALESCE(rating, -1) DESC, player_id) AS n
                   FROM ratings_listentry WHERE published_list_id = %s) ranked
               WHERE n %% (SELECT GREATEST(1, COUNT(*) / %s) FROM ratings_listentry
                           WHERE published_list_id = %s) = 0""",
            [list_id, pages, list_id],
        )
        return [_cursor_encode(r, p) for r, p in cursor.fetchall()][:pages]


def wrk(url: str, paths: list[str], duration: int, connections: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "paths.txt"
        listing.write_text("\n".join(paths) + "\n")
        script = Path(tmp) / "paths.lua"
        script.write_text(WRK_SCRIPT)
        return wrk_run(script, url, listing, duration, connections)


def server_cpu(server: subprocess.Popen[bytes]) -> float:
    """CPU seconds used so far by gunicorn's master and workers."""
    master = psutil.Process(server.pid)
    total = 0.0
    for proc in [master, *master.children(recursive=True)]:
        times = proc.cpu_times()
        total += times.user + times.system
    return total


def measured(
    name: str, server: subprocess.Popen[bytes], url: str, paths: list[str], args: Any
) -> None:
    for _ in range(3):  # every path in both workers' memory (a worker's cache is its own)
        for path in paths:
            urllib.request.urlopen(url + path, timeout=30).read()
    cpu = server_cpu(server)
    out = wrk(url, paths, args.duration, args.connections)
    cpu = server_cpu(server) - cpu
    done = re.search(r"(\d+) requests in", out)
    requests = int(done.group(1)) if done else 0
    per_request = cpu / requests * 1000 if requests else 0.0
    print(f"{name}: {summary(out)}; server CPU {per_request:.2f} ms/request", flush=True)


def summary(out: str) -> str:
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    pcts = dict(re.findall(r"\s+(50|90|99)%\s+([\d.]+\w+)", out))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return (
        f"{float(rps.group(1)) if rps else 0:,.0f} req/s, p50 {pcts.get('50')}, "
        f"p90 {pcts.get('90')}, p99 {pcts.get('99')}"
        + (f", {errors.group(1)} non-2xx" if errors else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--system-code", default="synth")
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--pages", type=int, default=500)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install -y wrk")
    fed_ids, list_id = ensure_data(args.players, args.system_code)
    cursors = entry_cursors(list_id, args.pages)

    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghij"),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_MANIFEST": "0",
        # One client makes every request: the throttles would refuse it (each costs a cache
        # round trip per request in production).
        "API_THROTTLE_ANON": "off",
        "API_THROTTLE_USER": "off",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application"]
        + ["--bind", f"127.0.0.1:{args.port}", "--workers", "2", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{url}/api/v1/systems/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        # Warm the processes first (each gunicorn worker's first requests load the URL
        # resolver, the catalogues, the serializers): "cold" below means a page not in the
        # cache, not a process that has served nothing yet.
        # Other pages than those timed (limits 1-20), so the entries code is warm too.
        for n in range(1, 21):
            urllib.request.urlopen(f"{url}/api/v1/lists/{list_id}/", timeout=10).read()
            urllib.request.urlopen(
                f"{url}/api/v1/lists/{list_id}/entries/?limit={n}", timeout=10
            ).read()
        base = f"/api/v1/lists/{list_id}/entries/?limit=100"
        pages = [base] + [f"{base}&cursor={c}" for c in cursors]
        cold = []
        for path in pages:  # each page once: computed and put in the cache
            started = time.perf_counter()
            urllib.request.urlopen(url + path, timeout=30).read()
            cold.append(time.perf_counter() - started)
        cold.sort()
        print(
            f"entries, cold (first request of each of {len(pages)} pages): "
            f"p50 {cold[len(cold) // 2] * 1000:.1f} ms, "
            f"p99 {cold[int(len(cold) * 0.99)] * 1000:.1f} ms, max {cold[-1] * 1000:.1f} ms"
        )
        players = [f"/api/v1/players/{f}/" for f in fed_ids]
        print(f"load average before wrk: {os.getloadavg()[0]:.1f}", flush=True)
        measured("player detail", server, url, players, args)
        measured("entries page of 100 (warm)", server, url, pages, args)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
