"""PostgreSQL COPY in and out, shared by every bulk writer and reader (generator, calculation
drafts, publication, list import).

One text encoder so that NULL, booleans, JSON and the escapes of backslash, tab and newlines
are written the same way everywhere; one writer that sends while Python formats the next
chunk; one reader of integer columns parsed in C.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from django.db import connection, transaction
from psycopg.copy import QueuedLibpqWriter

from core.pg.connections import tune_transaction

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value: Any) -> str:
    """One field of a COPY … FROM STDIN line (text format)."""
    if value is None:
        return r"\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, (list, dict)):
        value = json.dumps(value)
    if isinstance(value, str):
        return value.translate(_ESCAPES)
    return str(value)  # int, float, Decimal, date, aware datetime: ISO forms PostgreSQL accepts


def copy_from_text(sql: str, pieces: Iterable[str], *, block: int = 4_000_000) -> None:
    """Run `COPY … FROM STDIN` (text format) on Django's connection with the text of
    `pieces` (lines or ready chunks), sent in blocks of about `block` characters. A writer
    thread sends each block while Python makes the next."""
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        with raw.copy(sql, writer=QueuedLibpqWriter(raw)) as copy:
            buf = io.StringIO()
            size = 0
            for piece in pieces:
                buf.write(piece)
                size += len(piece)
                if size >= block:
                    copy.write(buf.getvalue())
                    buf = io.StringIO()
                    size = 0
            if size:
                copy.write(buf.getvalue())


def copy_in(
    table: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]] | None = None,
    text: Iterable[str] | None = None,
) -> None:
    """COPY rows (or ready tab-separated lines) into a table on Django's connection."""
    lines = (
        text if text is not None else ("\t".join(map(copy_text, row)) + "\n" for row in rows or ())
    )
    copy_from_text(f"COPY {table} ({', '.join(columns)}) FROM STDIN", lines)


def copy_in_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """COPY typed rows into a table on Django's connection; psycopg adapts each value
    (dates, Decimals, None) so the caller writes Python values, not COPY text."""
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def copy_in_binary(
    table: str, columns: Sequence[str], types: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """COPY (binary) rows whose bytes must go as they are (packed arrays): no hex text."""
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(list(types))
            for row in rows:
                copy.write_row(row)


def copy_out_ints(sql: str, ncols: int) -> Any:
    """Read a query of integer columns as one text value (string_agg, set-based in the server)
    and parse it in C (numpy); shape (rows, ncols). One round trip instead of COPY's one
    message per row, which costs more in Python than the server's work."""
    cols = " || ' ' || ".join(f"c{i}" for i in range(ncols))
    names = ", ".join(f"c{i}" for i in range(ncols))
    with transaction.atomic(), connection.cursor() as cursor:
        tune_transaction()
        cursor.execute(f"SELECT string_agg({cols}, ' ') FROM ({sql}) AS q ({names})")
        text = cursor.fetchone()[0] or ""
    arr = np.fromstring(text, dtype=np.int64, sep=" ") if text else np.zeros(0, dtype=np.int64)
    return arr.reshape(-1, ncols)
