"""The planner's statistics after a bulk write (issue 29).

A publication adds a list of 417,000 entries to a table of millions of rows. Autovacuum
analyzes a table only once 10 % of it has changed (two or three publications), so until then
the planner does not know the new list's id: it estimates one row and reads a page of 100
entries by scanning all the list's rows (650 ms instead of 2 ms on the benchmark's federation,
docs/benchmarks.md). The writer tells the planner itself, right after its write.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection


def planner_refresh(*, tables: Sequence[str]) -> None:
    """ANALYZE `tables` (PostgreSQL; nothing elsewhere). Outside a transaction VACUUM
    (ANALYZE), which also marks the new pages all-visible, so an index-only scan (a filter's
    count) reads no table page; inside one (the writer's own transaction, a test) ANALYZE
    alone, which counts the transaction's own new rows."""
    if connection.vendor != "postgresql" or not tables:
        return
    verb = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
    names = ", ".join(connection.ops.quote_name(table) for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"{verb} {names}")
