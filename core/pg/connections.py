"""A second connection beside Django's, and settings for big set-based transactions.

Progress written inside a long transaction is invisible to the page polling it until the
commit; the same UPDATE sent on a second, autocommit connection is seen at once. Progress is
cosmetic: a failure to record it is logged and never stops the work.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection

log = logging.getLogger(__name__)


def side_connection() -> psycopg.Connection[Any]:
    """An autocommit psycopg connection with Django's connection parameters."""
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)  # Django's own adapters; the plain connection needs none
    return psycopg.connect(**params, autocommit=True)


class SideWriter:
    """Statements committed at once on a second connection, opened on first use."""

    def __init__(self) -> None:
        self._conn: psycopg.Connection[Any] | None = None

    def execute(self, sql: str, params: Sequence[Any]) -> None:
        try:
            if self._conn is None:
                self._conn = side_connection()
            self._conn.execute(sql, params)
        except Exception:  # cosmetic: never let a progress report stop the work
            log.debug("side write failed: %s", sql, exc_info=True)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None


def tune_transaction() -> None:
    """Big set-based statements: no JIT (its compile time exceeds its gain here), memory for
    hash joins, and no nested loops over half a million rows when statistics lag behind."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SET LOCAL jit = off; SET LOCAL work_mem = '256MB'; SET LOCAL enable_nestloop = off"
        )
