"""Ids reserved up front for rows a bulk load numbers itself (COPY gives no RETURNING)."""

from __future__ import annotations

from typing import Any

from django.db import connection


def reserve_ids(cursor: Any, table: str, n: int) -> int:
    """The first of `n` consecutive ids of `table` nobody else will take, for rows a bulk load
    numbers itself. Other inserts into the table wait for this transaction (SHARE ROW
    EXCLUSIVE); the id sequence is moved past the block."""
    cursor.execute(f'LOCK TABLE "{table}" IN SHARE ROW EXCLUSIVE MODE')
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
    sequence = cursor.fetchone()[0]
    cursor.execute(f'SELECT COALESCE(max(id), 0) FROM "{table}"')
    top = cursor.fetchone()[0]
    cursor.execute("SELECT nextval(%s)", [sequence])
    first = max(cursor.fetchone()[0], top + 1)
    if n:
        cursor.execute("SELECT setval(%s, %s)", [sequence, first + n - 1])
    return int(first)


def reserve_id(table: str) -> int:
    """One id of `table` taken from its sequence, for a row written by a set-based statement
    that must know its own id (a published list and its entries in one statement)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
        return int(cursor.fetchone()[0])
