"""Parsing with CPython's cyclic garbage collector paused.

A 5 MiB report becomes up to a million small records (games, round entries) that stay alive
until the report is returned. Each full collection walks every one of them, and a few run
while they are being built: on the 1,500-player crosstable that was half the parse time
(docs/benchmarks.md). The parsers make no reference cycles, so pausing the collector loses
nothing; reference counting still frees everything as usual. The collector's state is
restored on the way out (it is left off if it was off when the parse started).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
