"""Bulk loads into indexed PostgreSQL tables: build secondary indexes once, not row by row.

Inserting half a million rows into a table maintains every index one row at a time; when the
rows arrive in an order unrelated to an index (names, FIDE IDs), each insert lands on a random
leaf page. Measured on the player registry (500,000 rows, six indexes): 5.2 s with the
indexes in place, 2.1 s with only the primary key, and a sorted build of each text index is a
fraction of a second. So a load that at least doubles a table drops its secondary indexes in
the transaction, inserts, and recreates them from their saved definitions
(`pg_get_indexdef` / `pg_get_constraintdef`, so names, collations, conditions and uniqueness
are exactly as the migrations made them).

Kept: the primary key, and any index a foreign key of another table depends on. Dropping an
index takes an ACCESS EXCLUSIVE lock until the transaction ends: readers of the table wait
for the load (seconds, for an initial import). A unique index rebuilt over duplicates fails
the CREATE, so the transaction rolls back and nothing is written, as a per-row check would.

Dropping and creating an index takes the table's owner, and the site connects as a role that
owns nothing (core/pg/roles.py). So the work is done in PostgreSQL by two SECURITY DEFINER
functions owned by the role that ran the migrations (ratings/migrations/0023):
`core_indexes_drop(tables)` reads the definitions from the catalogue, keeps them in a table the
site's role cannot read or write, and drops the indexes; `core_indexes_restore(tables)`
rebuilds them. A transaction that drops and does not rebuild cannot commit (a deferred check).

After the commit (core/migrations/0004): a load may rebuild only the unique indexes and
constraints before it commits (`after_commit=True`) and build the others — indexes that only
speed reads up, the players' name and search GINs among them — once the rows are committed
(`secondary_indexes_rebuild`), with a plain CREATE INDEX in its own transaction: readers go on
meanwhile (from the table, slower), writers of the table wait for the build. CREATE INDEX
CONCURRENTLY is not possible here: the SECURITY DEFINER function runs in a transaction. A
rebuild that never ran (the process died after the commit) is run by the table's next load.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction


def worth_deferring(*, new_rows: int, existing_rows: int) -> bool:
    """A rebuild sorts every row; row-by-row maintenance costs more once the load at least
    matches what the table holds."""
    return new_rows >= max(existing_rows, 10_000)


@contextmanager
def secondary_indexes_deferred(
    cursor: Any, *tables: str, after_commit: bool = False
) -> Iterator[list[str]]:
    """Within an open transaction: drop the secondary indexes of `tables`, run the block,
    recreate them. Yields the names of the indexes dropped (nothing is done for no table).
    With `after_commit`, only the unique ones are recreated here: the caller commits, then
    calls secondary_indexes_rebuild(*tables) for the others."""
    if not tables:
        yield []
        return
    if after_commit:
        # A rebuild left by an earlier load (its process died after its commit) first.
        cursor.execute("SELECT core_indexes_restore(%s::regclass[])", [list(tables)])
    cursor.execute("SELECT core_indexes_drop(%s::regclass[])", [list(tables)])
    dropped = [row[0] for row in cursor.fetchall()]
    # Room to sort the rebuilt indexes in memory (the default 64 MB spills to disk).
    cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
    yield dropped
    if after_commit:
        cursor.execute("SELECT core_indexes_restore_unique(%s::regclass[])", [list(tables)])
        cursor.fetchall()
    else:
        cursor.execute("SELECT core_indexes_restore(%s::regclass[])", [list(tables)])


def secondary_indexes_rebuild(*tables: str) -> None:
    """After the commit of a load run with `secondary_indexes_deferred(…, after_commit=True)`:
    build the indexes of `tables` it left, in a transaction of their own."""
    if not tables:
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
        cursor.execute("SELECT core_indexes_restore(%s::regclass[])", [list(tables)])
