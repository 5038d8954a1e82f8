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


def planner_refresh(*, tables: Sequence[str], columns: Sequence[str] = ()) -> None:
    """ANALYZE `tables` (PostgreSQL; nothing elsewhere). Outside a transaction VACUUM
    (ANALYZE), which also marks the new pages all-visible, so an index-only scan (a filter's
    count) reads no table page; inside one (the writer's own transaction, a test) ANALYZE
    alone, which counts the transaction's own new rows.

    With `columns` (each of them in every table), only those columns' statistics and the
    tables' row counts: the same sample is read, but only the new key (a list's id, never seen
    before) is worked out; the other columns keep theirs, which one more list of the same shape
    hardly moves, until autovacuum analyzes the table (a fifth to a half of the whole
    ANALYZE's time on the benchmark's entries, docs/benchmarks.md "The month's publication at
    its floor")."""
    if connection.vendor != "postgresql" or not tables:
        return
    verb = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
    quote = connection.ops.quote_name
    keys = f" ({', '.join(quote(column) for column in columns)})" if columns else ""
    names = ", ".join(quote(table) + keys for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"{verb} {names}")
