"""A quick in-process comparison of the public pages (issue 29 items 1-2): the card, a list
page and a search, each asked once on an empty cache ("first") and again ("warm"), through
Django's test client (no server, no proxy), as an anonymous visitor. Run from the checkout to
measure, on a database with the demo federation (`manage.py demo_federation`):

    DATABASE_URL=postgres://... CACHE_URL= .venv/bin/python bench/public_inprocess.py

Figures: docs/benchmarks.md, "Public pages in templates, behind a caching proxy (issue 29)".
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.update(
    {
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_MANIFEST": "0",
    }
)


def main(count: int = 150) -> None:
    import django

    django.setup()
    from django.core.cache import caches
    from django.test import Client

    from ratings.models import PublishedList

    rng = random.Random(7)
    newest = PublishedList.objects.order_by("-id").first()
    assert newest is not None, "no published list: load the demo federation"
    people = list(newest.entries.values_list("player__fed_id", "player__surname")[:2000])
    rng.shuffle(people)
    pages = max(1, newest.entries.count() // 100)
    urls = {
        "card": [f"/players/{fed_id}/" for fed_id, _ in people[:count]],
        "list": [
            f"/ratings/lists/{newest.pk}/?page={rng.randint(1, pages)}"
            f"&sort={rng.choice(['rating', 'name'])}"
            for _ in range(count)
        ],
        "search": [f"/players/?q={surname}" for _, surname in people[count : 2 * count]],
    }

    def run(addresses: list[str]) -> tuple[float, float]:
        client = Client()
        times = []
        for address in addresses:
            started = time.perf_counter()
            response = client.get(address)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (address, response.status_code)
        return statistics.mean(times), sorted(times)[int(0.99 * len(times)) - 1]

    for addresses in urls.values():  # imports and templates loaded
        Client().get(addresses[0])
    for name, addresses in urls.items():
        for alias in ("default", "local"):
            caches[alias].clear()
        first = run(addresses)
        run(addresses)
        warm = run(addresses)
        print(
            f"{name:7} first mean {first[0]:6.2f} ms p99 {first[1]:6.2f} | "
            f"warm mean {warm[0]:5.2f} ms p99 {warm[1]:5.2f}"
        )


if __name__ == "__main__":
    main()
