"""Waiting for something another process does (a worker, a database session): standard library
only, so the benchmarks' probes use it too (bench/probe_workers.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(predicate: Callable[..., Any], timeout: float = 60, what: str = "condition") -> Any:
    """``predicate()``'s first true value, asked every 0.2 s; AssertionError after ``timeout``
    seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")
