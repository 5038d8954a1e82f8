"""Import an external list (the ICCF list, the FPX list) dated and kept, so that a period reads
the list in force on its date (cnxc-2000 5.3, 7.3; docs/lists.md, "ICCF and FPX lists").

``external_list_import(*, source, list_date, data, filename="", dry_run=False, progress=None)``
reads the file as a stream (lists.imports.source, formats.lists.external) and, when no row has
a problem, in one transaction:

1. COPYs the rows, 20,000 at a time, into the TEMP table ``ext_rows`` (with each name's
   ``name_key``, players.names);
2. matches each row to one registry player, set-based (``MATCH_SQL``): by ICCF ID
   (``Player.iccf_id``, ICCF only), else by the player an earlier list of the same source
   matched to the same ID, else by FIDE ID (a column of the file), else by the name key when
   exactly one registry player and one row of the file have it (and, for ICCF, that player has
   no other ICCF ID). A player matched by two rows keeps the first. **No player is created**;
   a row matching nobody is kept in the list without a player (``unmatched``);
3. replaces the list of that source and day if one was imported before, and writes the
   ``ExternalList`` and its ``ExternalListEntry`` rows (INSERT … SELECT);
4. ICCF: sets ``Player.iccf_id`` of the players matched by another way and without one;
5. when the list is the latest of its source, sets the matched players' ``iccf_rating`` /
   ``fpx_rating`` (only the values that change): they mirror the list in force now (5.3).
   Players not in the list are not touched.

``dry_run=True`` (the preview) runs all of it and rolls it back, so the preview's counts are
the import's.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection, transaction

from core.pg.copy import copy_from_text, copy_text
from formats import lists as lf
from formats.lists import external as ext
from formats.lists.validate import split_name
from formats.problems import Problem
from lists.imports.result import (
    CHECKING,
    READING,
    SAVING,
    WRITING,
    ListImportError,
    Progress,
)
from lists.imports.source import ByteSource, NotUtf8, bytes_source, decode_pieces, newline_lines
from players.models import ExternalList
from players.names import full_name_key

log = logging.getLogger(__name__)

BATCH_ROWS = 20_000

#: The layouts accepted: the list as ICCF publishes it saved as text (tab-separated), or CSV;
#: both are read by formats.lists.external (delimiter found from the header).
FORMATS = ("txt", "csv")

#: The player's field each source's ratings go to (players.models.Player).
RATING_FIELD = {"iccf": "iccf_rating", "fpx": "fpx_rating"}

_COLUMNS = (
    "row_no",
    "ext_id",
    "name",
    "name_key",
    "federation",
    "title",
    "games",
    "rating",
    "fide_id",
)

MATCH_SQL = """
CREATE TEMP TABLE ext_stage ON COMMIT DROP AS
WITH file_keys AS (
    SELECT name_key FROM ext_rows GROUP BY name_key HAVING count(*) = 1
), one_player AS (
    SELECT p.name_key, min(p.id) AS id FROM players_player p
    WHERE p.name_key IN (SELECT name_key FROM file_keys)
    GROUP BY p.name_key
    HAVING count(*) = 1 AND (NOT %(iccf)s OR bool_and(p.iccf_id IS NULL))
)
SELECT r.*, COALESCE(by_id.id, by_prev.player_id, by_fide.id, by_name.id) AS player_id,
       by_id.id IS NULL AS id_missing
FROM ext_rows r
LEFT JOIN players_player by_id ON %(iccf)s AND by_id.iccf_id = r.ext_id
LEFT JOIN LATERAL (
    SELECT e.player_id FROM players_externallistentry e
    JOIN players_externallist l ON l.id = e.external_list_id
    WHERE l.source = %(source)s AND e.ext_id = r.ext_id AND e.player_id IS NOT NULL
    ORDER BY l.list_date DESC, l.id DESC LIMIT 1
) by_prev ON TRUE
LEFT JOIN players_player by_fide ON by_fide.fide_id = r.fide_id
LEFT JOIN one_player by_name ON by_name.name_key = r.name_key
"""

# A player matched by two rows keeps the first row's match.
DEDUP_SQL = """
UPDATE ext_stage s SET player_id = NULL
FROM (SELECT player_id, min(row_no) AS first FROM ext_stage WHERE player_id IS NOT NULL
      GROUP BY player_id HAVING count(*) > 1) d
WHERE s.player_id = d.player_id AND s.row_no <> d.first
"""

ENTRIES_SQL = """
INSERT INTO players_externallistentry
    (external_list_id, "row", ext_id, name, federation, title, games, rating, fide_id, player_id)
SELECT %(list)s, row_no, ext_id, name, federation, title, games, rating, fide_id, player_id
FROM ext_stage ORDER BY row_no
"""

ICCF_ID_SQL = """
UPDATE players_player p SET iccf_id = s.ext_id
FROM ext_stage s
WHERE p.id = s.player_id AND s.id_missing AND p.iccf_id IS NULL AND s.ext_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM players_player o WHERE o.iccf_id = s.ext_id)
"""

RATINGS_SQL = """
UPDATE players_player p SET {field} = s.rating
FROM ext_stage s
WHERE p.id = s.player_id AND s.rating IS NOT NULL AND p.{field} IS DISTINCT FROM s.rating
"""


@dataclass(frozen=True)
class ExternalImportResult:
    """What an external import wrote (or, dry run, would write)."""

    rows: int
    matched: int
    unmatched: int
    #: Never created by these imports (the registry's players come from the federation).
    created: int
    #: Players whose iccf_rating / fpx_rating changed (0 when the list is not the latest).
    ratings_written: int
    #: The list is the latest of its source: the players' fields follow it.
    latest: bool
    external_list_id: int | None


class _DryRun(Exception):
    def __init__(self, result: ExternalImportResult) -> None:
        self.result = result


def external_list_import(
    *,
    source: str,
    list_date: dt.date,
    data: bytes | ByteSource,
    filename: str = "",
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ExternalImportResult:
    """Import an ICCF or FPX list dated ``list_date`` (the module's docstring). Raises
    ListImportError (nothing written) when a row has a problem."""
    if source not in ext.EXTERNAL_SOURCES:
        raise ValueError(f"unknown external list {source!r}")
    stream = bytes_source(data) if isinstance(data, bytes) else data
    if progress is not None:
        progress(5, READING)
    for latin1 in (False, True):
        try:
            return _import(
                source=source,
                list_date=list_date,
                stream=stream,
                latin1=latin1,
                filename=filename,
                dry_run=dry_run,
                progress=progress,
            )
        except NotUtf8:
            log.info("external list import: not UTF-8, read again as Latin-1")
        except _DryRun as done:
            return done.result
    raise AssertionError("Latin-1 decodes any byte")


def _copy_lines(
    rows: Iterator[ext.ExternalRow], problems: list[Problem], counter: list[int]
) -> Iterator[str]:
    """The COPY text of the rows, a batch at a time; the rows' problems go to ``problems``
    (the first MAX_PROBLEMS; ``counter[0]`` counts them all)."""
    batch: list[str] = []
    for row in rows:
        if row.problems:
            counter[0] += len(row.problems)
            room = lf.MAX_PROBLEMS - len(problems)
            if room > 0:
                problems.extend(row.problems[:room])
            continue
        surname, given = split_name(row.name)
        values = (
            row.row,
            row.ext_id,
            row.name[:200],
            full_name_key(surname, given),
            row.federation,
            row.title,
            row.games,
            row.rating,
            row.fide_id,
        )
        batch.append("\t".join(copy_text(v) for v in values) + "\n")
        if len(batch) >= BATCH_ROWS:
            yield "".join(batch)
            batch.clear()
    if batch:
        yield "".join(batch)


def _import(
    *,
    source: str,
    list_date: dt.date,
    stream: ByteSource,
    latin1: bool,
    filename: str,
    dry_run: bool,
    progress: Progress | None,
) -> ExternalImportResult:
    field = RATING_FIELD[source]
    with transaction.atomic(), connection.cursor() as cursor:
        for table in ("ext_rows", "ext_stage"):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(
            "CREATE TEMP TABLE ext_rows (row_no integer, ext_id bigint, name text, "
            "name_key text, federation text, title text, games integer, rating integer, "
            "fide_id bigint) ON COMMIT DROP"
        )
        header, rows = ext.read_external(
            newline_lines(decode_pieces(stream(), latin1=latin1)), source=source
        )
        if header:
            raise ListImportError(header)
        problems: list[Problem] = []
        counter = [0]
        copy_from_text(
            f"COPY ext_rows ({', '.join(_COLUMNS)}) FROM STDIN",
            _copy_lines(rows, problems, counter),
        )
        if counter[0]:
            raise ListImportError(problems, total=counter[0])
        if progress is not None:
            progress(50, CHECKING)
        cursor.execute(MATCH_SQL, {"iccf": source == "iccf", "source": source})
        cursor.execute(DEDUP_SQL)
        cursor.execute(
            "SELECT count(*), count(player_id) FROM ext_stage",
        )
        total, matched = cursor.fetchone()
        if progress is not None:
            progress(70, WRITING)
        ExternalList.objects.filter(source=source, list_date=list_date).delete()
        latest = not ExternalList.objects.filter(source=source, list_date__gt=list_date).exists()
        created = ExternalList.objects.create(
            source=source,
            list_date=list_date,
            filename=filename[:255],
            rows=total,
            matched=matched,
            unmatched=total - matched,
        )
        cursor.execute(ENTRIES_SQL, {"list": created.pk})
        if source == "iccf":
            cursor.execute(ICCF_ID_SQL)
        written = 0
        if latest:
            cursor.execute(RATINGS_SQL.format(field=field))
            written = cursor.rowcount
        if progress is not None:
            progress(95, SAVING)
        result = ExternalImportResult(
            rows=total,
            matched=matched,
            unmatched=total - matched,
            created=0,
            ratings_written=written,
            latest=latest,
            external_list_id=None if dry_run else created.pk,
        )
        if dry_run:
            raise _DryRun(result)  # rolls the transaction back
    return result


def external_preview(
    *, source: str, list_date: dt.date, data: bytes | ByteSource
) -> ExternalImportResult:
    """The import run on the whole file and rolled back: the counts it would write. ``data``
    may be a ByteSource over the upload (read in pieces, never held whole)."""
    return external_list_import(source=source, list_date=list_date, data=data, dry_run=True)


def external_lists_recent(*, limit: int = 20) -> list[ExternalList]:
    """The latest imported external lists, newest first."""
    return list(ExternalList.objects.order_by("-imported_at", "-id")[:limit])
