"""A throw-away database for a benchmark: Django set up, a fresh copy of the schema (the test
runner's machinery, named ``bench_<name>``), dropped again when the benchmark ends."""

from __future__ import annotations

from collections.abc import Callable

import django


def run_in_scratch_database(benchmark: Callable[[], None]) -> None:
    django.setup()
    # After setup: the settings and the connection exist only once Django is configured.
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = "bench_" + database["NAME"]
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        benchmark()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
