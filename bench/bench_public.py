"""Benchmark of the public pages under gunicorn (2 workers) with wrk: the player card, a list
page of 100 entries, the player search.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ro_bench_public \\
        CACHE_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/bench_public.py [--duration 20] [--cold-duration 5] \\
        [--connections 2] [--sample 2000] [--worker-class sync|gthread --threads N] \\
        [--port 8913] [--proxy-port 8914] [--proxy-connections 8] [--no-proxy] [--no-publish]

The database comes from bench/public_setup.py (500,000 players, 24 lists published through
the office's services). For each kind of page the script draws random URLs (cards of random
players of the newest list; list pages: random pages of the newest list, sorted by rating or
by name, unfiltered or filtered by region, sex or age group; searches: random surnames, given
names + surnames, without accents, and federation IDs of random players), measures them
in-process first (Django's test client, one at a time, on an empty cache then again; SQL
time summed by an execute wrapper: "DB ms" is the database and its round trip), then serves
them with gunicorn (2 workers, loopback, bench/gunicorn_bench.py records each request's
server time and SQL time) and runs wrk (--latency) on them twice: "first" (cache emptied,
each URL asked once in turn: every request renders its page) and "warm" (after one pass over
the URLs, random ones: what anonymous visitors get from the cache, core/caching.py); the
search has a third run, "random": searches for players drawn from the whole registry (--stream
of them, with the repeats the generator's names make), asked at random from an empty cache
(after the workers' own cache has expired), what the issue's "random names from the
generator's name lists and random IDs" gives. Beside
each run: the server's time and SQL time per request (p50 / p99 / mean), gunicorn's CPU per
request, and the machine's load average (the cores are shared with wrk and PostgreSQL).
The search's warm run only holds while its 2-minute cache lasts.

Issue 29 (`--proxy`, `--publish`, on by default):
- gunicorn serves bench/hello_wsgi.py: the site plus a bare Django "hello" view
  (/bench/hello/), measured first and last ("hello", "hello (again)") with the same wrk: the
  framework's floor beside the pages; "hello page" (/bench/hello-page/) is the same word in
  the site's layout (base.html), what any page costs before its own content.
- "proxy": each kind warm through nginx (Debian's: `apt-get install nginx`) running the
  project's own deploy/nginx.conf, only its upstream, listen address and cache folder
  changed (proxy_config), after one pass through it; --proxy-connections of wrk
  (8 by default: a proxy serves many visitors at once), beside it how many of the requests
  reached gunicorn and nginx's CPU per request.
- "after publication": a new version of the newest list is published through the office's
  services (its period calculated again, list_publish, then its ranks and filter rows as the
  Celery task does), then cards of random players of the new list and pages of it are asked
  once each, straight to gunicorn: every one of them renders (new state, new keys). Each run
  adds a version to the database (about 410,000 entries). `--kinds ""` runs the hello view and
  this part only (with --no-proxy); bench/first_render.py measures the same first renders
  in-process (CPU, statements).
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
    searches = [search_url(fed_id, surname, given, rng) for fed_id, surname, given, _r in rows]
    return {"card": cards, "list": lists, "search": searches}


def search_url(fed_id: str, surname: str, given: str, rng: random.Random) -> str:
    """A search for a player as people type it: his first surname (3 in 10), given name and
    surname (3 in 10), both without accents, surname first (2 in 10), or his federation ID."""
    from players.names import fold

    kind = rng.random()
    if kind < 0.3:
        q = surname.split()[0]
    elif kind < 0.6:
        q = f"{given.split()[0]} {surname.split()[0]}"
    elif kind < 0.8:
        q = fold(f"{surname.split()[0]} {given.split()[0]}")
    else:
        q = fed_id
    return f"/players/?{urllib.parse.urlencode({'q': q})}"


def draw_search_stream(size: int, rng: random.Random) -> list[str]:
    """`size` searches for players drawn at random from the whole registry (repeats as they
    come: the generator's names repeat, IDs seldom), for the 'random' run."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT fed_id, surname, given_name FROM players_player ORDER BY random() LIMIT %s",
            [size],
        )
        rows = cursor.fetchall()
    return [search_url(fed_id, surname, given, rng) for fed_id, surname, given in rows]


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


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of the processes `pids` so far (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def run_wrk(
    paths: list[str], port: int, duration: int, connections: int, sequential: bool = False
) -> dict[str, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(paths) + "\n")
    threads = min(2, connections)
    out = subprocess.run(
        [
            "wrk",
            f"-t{threads}",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "-s",
            str(ROOT / "bench" / "paths_wrk.lua"),
            f"http://127.0.0.1:{port}",
        ],
        env={
            **os.environ,
            "PATHS": f.name,
            "SEQUENTIAL": "1" if sequential else "0",
            "WRK_THREADS": str(threads),
        },
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
    done = re.search(r"(\d+) requests in", out)
    figures["requests"] = done.group(1) if done else "0"
    return figures


def server_stats(folder: str, since: float, until: float) -> tuple[list[float], list[float], float]:
    """Wall ms and SQL ms of the requests the workers finished between `since` and `until`
    (bench/gunicorn_bench.py writes them), and when the last of them ended (`since` if none)."""
    walls, sqls, last = [], [], since
    for name in os.listdir(folder):
        for line in Path(folder, name).read_text().splitlines():
            at, wall, sql = (float(x) for x in line.split("\t"))
            if since <= at <= until:
                walls.append(wall)
                sqls.append(sql)
                last = max(last, at)
    return walls, sqls, last


def proxy_config(*, folder: str, upstream_port: int, proxy_port: int) -> str:
    """The main nginx configuration of the bench: the project's own deploy/nginx.conf, its
    three deployment-specific lines only changed (upstream, listen, cache folder: each must
    be found exactly once, so a change of the file stops the bench instead of measuring
    something else), inside the main context of the nginx:1.27-alpine image's own
    nginx.conf (worker_processes auto, worker_connections 1024, sendfile on, keepalive 65 s,
    access log written)."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for old, new in (
        ("server web:8000;", f"server 127.0.0.1:{upstream_port};"),
        ("listen 8000;", f"listen 127.0.0.1:{proxy_port};"),
        ("/var/cache/nginx/pages", f"{folder}/pages"),
    ):
        if site.count(old) != 1:
            raise SystemExit(f"deploy/nginx.conf: {old!r} not found once; adapt the bench")
        site = site.replace(old, new)
    Path(folder, "site.conf").write_text(site)
    return f"""worker_processes auto;
pid {folder}/nginx.pid;
error_log {folder}/error.log notice;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {folder}/access.log;
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""


def proxy_start(*, upstream_port: int, proxy_port: int) -> tuple[subprocess.Popen[bytes], str]:
    """nginx (Debian's, `apt-get install nginx`) with deploy/nginx.conf in front of gunicorn."""
    folder = tempfile.mkdtemp(prefix="bench-proxy-")
    os.chmod(folder, 0o755)  # nginx's workers (user nobody) write the cache under it
    conf = Path(folder, "nginx.conf")
    conf.write_text(proxy_config(folder=folder, upstream_port=upstream_port, proxy_port=proxy_port))
    subprocess.run(["nginx", "-t", "-q", "-c", str(conf), "-p", folder], check=True)
    proxy = subprocess.Popen(
        ["nginx", "-c", str(conf), "-p", folder, "-g", "daemon off;"], start_new_session=True
    )
    wait_port(proxy_port)
    return proxy, folder


def children(pid: int) -> list[int]:
    """`pid` and its children (nginx's master and workers)."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def publish_new_version() -> tuple[int, float, float]:
    """A new version of the newest list (a correction: its period calculated again and
    published, through the office's services), and its ranks and filter rows written in this
    process by the Celery task `ratings.fill_list_ranks`'s own code. Returns
    the new list's id, the seconds of calculation + publication, and of ranks + rows."""
    from ratings.calculation import runs
    from ratings.lists.selectors import list_current_ids
    from ratings.models import PublishedList
    from ratings.publication import services as publication
    from ratings.tasks import fill_list_ranks

    newest = PublishedList.objects.select_related("period").get(pk=list_current_ids()[0])
    started = time.perf_counter()
    run = runs.calculation_request(period=newest.period, enqueue=False)
    runs.calculation_run(run_id=run.pk)
    published = publication.list_publish(period=newest.period, note="bench_public.py")
    published_in = time.perf_counter() - started
    started = time.perf_counter()
    fill_list_ranks(published.pk)  # the task's own code, in this process
    if list_current_ids()[0] != published.pk:
        raise SystemExit(f"list {published.pk} is not the newest current list")
    return published.pk, published_in, time.perf_counter() - started


def unique(urls: list[str], rng: random.Random) -> list[str]:
    seen = list(dict.fromkeys(urls))
    rng.shuffle(seen)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds of each warm run")
    parser.add_argument(
        "--cold-duration", type=int, default=5, help="seconds of each first-request run"
    )
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--sample", type=int, default=2000, help="URLs drawn per kind")
    parser.add_argument("--in-process", type=int, default=200, help="URLs measured in-process")
    parser.add_argument("--port", type=int, default=8913)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="card,list,search")
    parser.add_argument(
        "--stream", type=int, default=100_000, help="searches drawn for the 'random' run"
    )
    parser.add_argument("--worker-class", default="sync", help="gunicorn's: sync or gthread")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn's, for gthread")
    parser.add_argument(
        "--proxy",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the 'proxy' runs: nginx with deploy/nginx.conf in front of gunicorn",
    )
    parser.add_argument("--proxy-port", type=int, default=8914)
    parser.add_argument(
        "--proxy-connections", type=int, default=8, help="wrk's connections to the proxy"
    )
    parser.add_argument("--hello-duration", type=int, default=10, help="seconds of each hello run")
    parser.add_argument(
        "--publish",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the 'after publication' runs (each run publishes a new version of the newest list)",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to the database of bench/public_setup.py")

    import django

    django.setup()
    from django.core.cache import cache

    from core.api.caching import LOCAL_SECONDS

    rng = random.Random(args.seed)
    urls = draw_urls(args.sample, rng)
    kinds = [kind for kind in args.kinds.split(",") if kind]  # "": the publication's runs only
    print(f"load average {load_average():.2f} at the start", flush=True)
    print(f"{'page':<14} {'in-process p50/p99 ms':>22} {'DB p50/p99 ms':>16}  load", flush=True)
    cache.clear()
    in_process(["/", "/players/", "/ratings/"])  # templates and connections, not measured
    for kind in kinds:
        cache.clear()
        for label in ("first", "again"):
            walls, dbs = in_process(urls[kind][: args.in_process])
            print(
                f"{kind + ' (' + label + ')':<14} {statistics.median(walls):>9.1f} / "
                f"{pct(walls, 0.99):>6.1f}     {statistics.median(dbs):>6.1f} / "
                f"{pct(dbs, 0.99):>5.1f}  {load_average():.2f}",
                flush=True,
            )
    stats_dir = tempfile.mkdtemp(prefix="bench-public-")
    gunicorn = [
        str(Path(sys.executable).parent / "gunicorn"),
        "bench.hello_wsgi:application",  # the site, and the "hello" view at /bench/hello/
        "-c",
        str(ROOT / "bench" / "gunicorn_bench.py"),
        "--bind",
        f"127.0.0.1:{args.port}",
        "--workers",
        "2",
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--log-level",
        "warning",
    ]
    server = subprocess.Popen(
        gunicorn,
        cwd=ROOT,
        env={**os.environ, **SERVER_ENV, "BENCH_STATS_DIR": stats_dir},
        start_new_session=True,
    )
    proxy: subprocess.Popen[bytes] | None = None
    rows = []

    def measure(
        name: str, paths: list[str], *, port: int, duration: int, sequential: bool = False
    ) -> None:
        """One wrk run on `paths` at `port` (gunicorn's or the proxy's), printed with what
        gunicorn did meanwhile (its requests' time and SQL, its CPU) and the proxy's CPU."""
        via_proxy = port != args.port
        connections = args.proxy_connections if via_proxy else args.connections
        pids = [server.pid, *(int(n.split(".")[0]) for n in os.listdir(stats_dir))]
        nginx = children(proxy.pid) if proxy is not None else []
        cpu_before, nginx_before, since = cpu_seconds(pids), cpu_seconds(nginx), time.time()
        figures = run_wrk(paths, port, duration, connections, sequential=sequential)
        until = time.time()
        cpu, nginx_cpu = cpu_seconds(pids) - cpu_before, cpu_seconds(nginx) - nginx_before
        walls, sqls, last = server_stats(stats_dir, since, until)
        done = int(figures["requests"])
        if sequential and done and last > since:
            # wrk waits out its duration after its threads stopped at the last URL (its rate
            # would be the URLs over the duration): the rate until the last request ended.
            figures["req/s"] = f"{done / (last - since):.2f}"
        note = f" ({connections} connections)" if via_proxy else ""
        if via_proxy:
            note += f" gunicorn served {len(walls)} of {done}; nginx CPU " + (
                f"{nginx_cpu * 1000 / done:.3f} ms/req" if done else "-"
            )
        if sequential and done > len(paths):
            note += f" ({done - len(paths)} of {done} requests repeated a URL)"
        load = load_average()
        server_ms = f"{pct(walls, 0.5):.1f} / {pct(walls, 0.99):.1f}" if walls else "-"
        db_ms = (
            f"{pct(sqls, 0.5):.1f} / {pct(sqls, 0.99):.1f} / {statistics.mean(sqls):.1f}"
            if sqls
            else "-"
        )
        cpu_ms = cpu * 1000 / done if done else 0.0
        print(
            f"{name:<19} {figures['req/s']:>8} {figures['p50']:>8} {figures['p90']:>8} "
            f"{figures['p99']:>8}  {server_ms:>18}  {db_ms:>20}  {cpu_ms:>10.2f}  "
            f"{load:.2f}  non-2xx {figures['non-2xx']}{note}",
            flush=True,
        )
        rows.append((name, figures, server_ms, db_ms, cpu_ms, load))

    def warm_pass(paths: list[str], port: int) -> None:
        for url in paths:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{url}").read()

    hello = ["/bench/hello/"]
    try:
        wait_port(args.port)
        for _ in range(4):  # both workers loaded
            urllib.request.urlopen(f"http://127.0.0.1:{args.port}/").read()
        if args.proxy:
            proxy, proxy_dir = proxy_start(upstream_port=args.port, proxy_port=args.proxy_port)
            print(f"proxy: nginx with deploy/nginx.conf ({proxy_dir}/site.conf)", flush=True)
        print(
            f"wrk: {args.connections} connections to gunicorn 2 workers ({args.worker_class}, "
            f"{args.threads} thread(s)), {args.proxy_connections} to the proxy; 'first': every "
            f"URL asked once, on an empty cache ({args.cold_duration} s); 'warm': random URLs "
            f"after one pass over them ({args.duration} s); 'proxy': the same through nginx "
            f"after one pass through it; search 'random': searches for players drawn from the "
            f"whole registry, with their repeats, from an empty cache ({args.duration} s); "
            f"'after publication': a new version of the newest list published, then its cards "
            f"and list pages, each asked once ({args.cold_duration} s)",
            flush=True,
        )
        print(
            f"{'run':<19} {'req/s':>8} {'p50':>8} {'p90':>8} {'p99':>8}  "
            f"{'server ms p50/p99':>18}  {'DB ms p50/p99/mean':>20}  {'CPU ms/req':>10}  load",
            flush=True,
        )
        measure("hello", hello, port=args.port, duration=args.hello_duration)
        # The same word in the site's layout (base.html): what every page costs before its own
        # content, beside the bare view.
        measure("hello page", ["/bench/hello-page/"], port=args.port, duration=args.hello_duration)
        for kind in kinds:
            labels = ["first", "warm"]
            if proxy is not None:  # while Django's cache is warm: the pass through is quick
                labels.append("proxy")
            if kind == "search":
                labels.append("random")
            for label in labels:
                paths = unique(urls[kind], rng)
                port = args.port
                if label == "first":
                    cache.clear()
                elif label == "warm":  # one pass over every URL first
                    warm_pass(paths, args.port)
                elif label == "proxy":  # one pass through the proxy: it keeps every page
                    port = args.proxy_port
                    warm_pass(paths, port)
                else:  # an empty cache, the workers' memory too (core.api.caching)
                    paths = draw_search_stream(args.stream, rng)
                    print(f"(waiting {LOCAL_SECONDS + 1} s: the workers' cache)", flush=True)
                    time.sleep(LOCAL_SECONDS + 1)
                    cache.clear()
                measure(
                    f"{kind} {label}",
                    paths,
                    port=port,
                    duration=args.cold_duration if label == "first" else args.duration,
                    sequential=label == "first",
                )
        measure("hello (again)", hello, port=args.port, duration=args.hello_duration)
        if args.publish:
            list_id, published_in, ranks_in = publish_new_version()
            print(
                f"(list {list_id} published: calculation and publication {published_in:.1f} s, "
                f"ranks and filter rows {ranks_in:.1f} s)",
                flush=True,
            )
            fresh = draw_urls(args.sample, rng)
            for kind in ("card", "list"):
                measure(
                    f"{kind} after publ.",
                    unique(fresh[kind], rng),
                    port=args.port,
                    duration=args.cold_duration,
                    sequential=True,
                )
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=10)
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    print(
        "\n| run | req/s | p50 | p90 | p99 | server p50 / p99 ms | DB p50 / p99 / mean ms "
        "| server CPU ms/request | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, figures, server_ms, db_ms, cpu_ms, load in rows:
        print(
            f"| {name} | {figures['req/s']} | {figures['p50']} | {figures['p90']} | "
            f"{figures['p99']} | {server_ms} | {db_ms} | {cpu_ms:.2f} | {load:.2f} |"
        )


if __name__ == "__main__":
    main()
