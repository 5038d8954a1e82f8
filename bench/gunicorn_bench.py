"""gunicorn settings of bench/bench_public.py: each worker writes, for every request it
serves, the time it ended, its wall time and its SQL time (execute + fetch through an execute
wrapper: the database and its round trip) to `$BENCH_STATS_DIR/<pid>.tsv`, so the benchmark
prints the database's share beside wrk's figures.

    gunicorn -c bench/gunicorn_bench.py config.wsgi:application ...

Not for production: it only measures.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import connections

_local = threading.local()
_out: list[Any] = []


def _timer(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        _local.sql = getattr(_local, "sql", 0.0) + time.perf_counter() - started


def _started(**_kwargs: Any) -> None:
    connection = connections["default"]
    if _timer not in connection.execute_wrappers:
        connection.execute_wrappers.append(_timer)
    _local.sql = 0.0
    _local.started = time.perf_counter()


def _finished(**_kwargs: Any) -> None:
    wall = (time.perf_counter() - getattr(_local, "started", time.perf_counter())) * 1000
    if _out:  # one line, written at once (line-buffered)
        _out[0].write(f"{time.time():.4f}\t{wall:.3f}\t{_local.sql * 1000:.3f}\n")


def post_fork(server: Any, worker: Any) -> None:
    folder = os.environ.get("BENCH_STATS_DIR")
    if folder:
        _out.append(open(os.path.join(folder, f"{os.getpid()}.tsv"), "a", buffering=1))
    request_started.connect(_started, weak=False)
    request_finished.connect(_finished, weak=False)
