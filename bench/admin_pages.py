"""Every admin page at federation scale: the figures of tests/project/test_admin_scale.py.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rating_office \\
        .venv/bin/python bench/admin_pages.py [--repeat 3] [--top 12] [--keep]

Creates (and drops, unless --keep) the database ``<name>_admin_pages`` on the server of
DATABASE_URL (``<name>``: its database's), migrates it, builds the world of
tests/project/admin_scale_world.py (100,000 players, 100,000 games, rows of every model the
admin shows; committed) and renders every registered admin's list, add and change page as a
superuser through Django's test client, in-process, with DEBUG off, --repeat times. Prints
the slowest pages (median and worst time, queries) and the most queries and the largest
<select> of any page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for key, value in {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "testserver",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "STATIC_MANIFEST": "0",
}.items():
    os.environ.setdefault(key, value)

from bench.common import scratch_create, scratch_drop  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=12, help="pages printed, slowest first")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database")
    server, database = url.rsplit("/", 1)
    name = database + "_admin_pages"
    # Created from the server's maintenance database: DATABASE_URL's need not exist.
    admin_connection = scratch_create(admin_url=server + "/postgres", name=name)
    try:
        run(args)
    finally:
        scratch_drop(admin_connection, name=name, keep=args.keep)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client, RequestFactory

    from tests.project.admin_scale import (
        QUERY_BUDGET,
        SECONDS_BUDGET,
        admin_pages,
        page_render,
    )
    from tests.project.admin_scale_world import world_build

    call_command("migrate", verbosity=0)
    with transaction.atomic():
        world = world_build()
    client = Client()
    client.force_login(world.superuser)
    client.get("/admin/")
    request = RequestFactory().get("/admin/")
    request.user = world.superuser
    pages = admin_pages(request)
    times: dict[str, list[float]] = {p.name: [] for p in pages}
    queries: dict[str, int] = {}
    selects: dict[str, int] = {}
    for _ in range(args.repeat):
        for page in pages:
            # A budget far above QUERY_BUDGET: measure a page that breaks it, do not stop it.
            rendered = page_render(client, page, world.pks.get(page.model), budget=100_000)
            assert rendered.status == 200, (page.name, rendered.status)
            times[page.name].append(rendered.seconds)
            queries[page.name] = rendered.queries
            selects[page.name] = rendered.largest_select
    print(
        f"{len(pages)} pages, {args.repeat} rounds; budgets {QUERY_BUDGET} queries, "
        f"{SECONDS_BUDGET} s. Slowest first:"
    )
    print(f"| {'page':42} | median ms | worst ms | queries |")
    print(f"|{'-' * 44}|-----------|----------|---------|")
    ranked = sorted(times, key=lambda n: -statistics.median(times[n]))
    for name in ranked[: args.top]:
        print(
            f"| {name:42} | {statistics.median(times[name]) * 1000:9.0f} "
            f"| {max(times[name]) * 1000:8.0f} | {queries[name]:7d} |"
        )
    most = max(queries, key=lambda n: queries[n])
    widest = max(selects, key=lambda n: selects[n])
    print(
        f"most queries: {most} ({queries[most]}); pages over the query budget: "
        f"{sum(q > QUERY_BUDGET for q in queries.values())}; largest <select>: {widest} "
        f"({selects[widest]} options)"
    )


if __name__ == "__main__":
    main()
