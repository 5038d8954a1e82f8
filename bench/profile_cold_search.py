"""Cold player searches in-process beside the bare "hello" view: CPU per request of each
(time.process_time, Django's test client, an anonymous visitor, the site's middleware), and
optionally a cProfile of the searches (issue 29 item 3).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<copy of a federation> \\
        CACHE_URL=redis://127.0.0.1:6379/<db> \\
        .venv/bin/python bench/profile_cold_search.py [--searches 150] [--rounds 8] \\
        [--breakdown] [--profile 30]

Searches are drawn as bench/bench_cold_search.py draws them (bench_public.search_url), each
distinct search asked once on an emptied cache: every request renders its page and runs its
SQL. CPU here excludes PostgreSQL's (another process) but includes the client's own work,
which the hello view pays too; gunicorn's figures come from bench/bench_cold_search.py.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_public import search_url  # noqa: E402  (sets the server's environment)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=150, help="cold searches per round")
    parser.add_argument("--profile", type=int, default=0, help="functions of the profile shown")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--breakdown", action="store_true", help="CPU of the page's parts (inclusive), per request"
    )
    parser.add_argument("--rounds", type=int, default=8, help="hello / search rounds")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a copy of a generated federation (bench/README.md)")

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client

    settings.ROOT_URLCONF = "bench.hello_urls"
    rng = random.Random(args.seed)
    with connection.cursor() as cursor:
        cursor.execute("SELECT setseed(%s)", [1 / (args.seed + 1)])
        cursor.execute(
            "SELECT fed_id, surname, given_name FROM players_player ORDER BY random() LIMIT %s",
            [args.searches * (args.rounds + 1) * 2],
        )
        rows = cursor.fetchall()
    searches = list(dict.fromkeys(search_url(f, s, g, rng) for f, s, g in rows))
    rng.shuffle(searches)
    client = Client()
    for url in ("/players/", "/players/?q=warmup", "/bench/hello/"):
        assert client.get(url).status_code == 200, url

    def clear() -> None:
        for alias in ("default", "local"):
            caches[alias].clear()

    def cpu_per_request(urls: list[str]) -> tuple[float, float]:
        """CPU ms per request and wall p99 ms."""
        walls = []
        started = time.process_time()
        for url in urls:
            t0 = time.perf_counter()
            response = client.get(url)
            walls.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        cpu = (time.process_time() - started) * 1000 / len(urls)
        return cpu, sorted(walls)[int(0.99 * len(walls)) - 1]

    parts: dict[str, float] = {}
    if args.breakdown:
        _instrument(parts)
    n = args.searches
    hellos, colds = [], []
    for r in range(args.rounds):
        hello = cpu_per_request(["/bench/hello/"] * n)
        clear()
        cold = cpu_per_request(searches[r * n : (r + 1) * n])
        hellos.append(hello[0])
        colds.append(cold[0])
        print(
            f"round {r + 1:>2}: hello {hello[0]:.3f} ms CPU/request; cold search {cold[0]:.3f} ms "
            f"CPU/request (wall p99 {cold[1]:.1f} ms); ratio {cold[0] / hello[0]:.2f}",
            flush=True,
        )
    hello_ms, cold_ms = statistics.median(hellos), statistics.median(colds)
    print(
        f"median: hello {hello_ms:.3f}, cold search {cold_ms:.3f} ms CPU/request, "
        f"ratio {cold_ms / hello_ms:.2f}; lowest: hello {min(hellos):.3f}, "
        f"cold search {min(colds):.3f} ms"
    )
    if parts:
        requests = n * args.rounds
        for name, seconds in parts.items():
            print(f"  {name:<40} {seconds * 1000 / requests:.3f} ms CPU/request (inclusive)")
    if args.profile:
        clear()
        urls = searches[args.rounds * n : (args.rounds + 1) * n]
        # CPU time, not wall time: waits on PostgreSQL and Redis are not charged to the code.
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for url in urls:
            client.get(url)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)
        print(out.getvalue())


def _instrument(parts: dict[str, float]) -> None:
    """Wrap the page's parts so each one's CPU time adds up in `parts` (inclusive of what
    they call; counted in the searches' rounds and in the hello rounds, which call none)."""
    from django.template import base, loader_tags
    from django.templatetags import cache as cache_tags

    import core.caching
    import players.selectors
    import players.views

    def wrap(owner: object, attribute: str, name: str) -> None:
        original = getattr(owner, attribute)

        def timed(*args: object, **kwargs: object) -> object:
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                parts[name] = parts.get(name, 0.0) + time.process_time() - started

        setattr(owner, attribute, timed)

    import zlib

    from django.core.handlers import base as handlers

    wrap(handlers.BaseHandler, "get_response", "request (middleware and view)")
    wrap(players.views, "page_cached", "page_cached")
    wrap(zlib, "compress", "zlib.compress")
    wrap(core.caching, "_public", "public headers (_public)")
    wrap(players.views, "_player_list", "render (page)")
    wrap(core.caching, "cached_get", "page cache get")
    wrap(core.caching, "cached_set", "page cache set")
    wrap(players.views, "player_search_rows", "search (selector)")
    wrap(cache_tags.CacheNode, "render", "{% cache %} results")
    wrap(loader_tags.IncludeNode, "render", "{% include %} results")
    wrap(base.Template, "render", "Template.render (all)")


if __name__ == "__main__":
    main()
