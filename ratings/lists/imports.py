"""Import an existing rating list (FIDE TXT or XML, or CSV) so a federation starts from its ratings.

``list_import(*, system, data, format, progress=None)`` reads the file, checks every row and,
only when no row has a problem, writes in one transaction:

- players_player, matched by FIDE ID. A new player gets ``fed_id = "FIDE-<FIDE ID>"`` and
  its ``name_key`` from players.names.fold (computed in Python, see _stage_keys). An existing
  player keeps its registry data; only a missing birth year or title is filled in.
- ratings_playerrating for ``system``: rating (0 or blank = none), games, kind
  (effective / unrated), activity (flag ``i`` = inactive), reached_2400 / reached_2200.

PostgreSQL: COPY into a TEMP staging table, typing and validation in SQL (one typed stage
table), then UPDATE … FROM and INSERT … SELECT from it; each step's seconds are logged.
docs/lists.md has the details.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pgtrigger
from django.db import DatabaseError, connection, transaction

from core.pg.copy import copy_from_text
from core.pg.ids import reserve_ids
from core.pg.indexes import secondary_indexes_deferred, worth_deferring
from core.timing import StepTimer
from periods.models import RatingSystem
from players.names import fold_all
from ratings.lists import formats as lf
from ratings.lists import import_sql as sql
from ratings.lists.import_result import (
    CHECKING,
    ENGINE_VERSION,
    FED_ID_PREFIX,
    FORMATS,
    PLAYER_INSERT_EVENT,
    READING,
    SAVING,
    WRITING,
    ListImportError,
    ListImportResult,
    Progress,
    _fail,
    _rate,
    _step_progress,
    decode_list,
)
from ratings.lists.import_rows import (
    _FIELD_COLUMNS,
    _cut_txt_chunks,
    _field_lines,
    _key_lines,
    _name_keys,
    _problems_from,
    _tuples,
    name_key,
)

# The public names of an import, defined beside it, are imported from here by their callers.
__all__ = [
    "CHECKING",
    "FORMATS",
    "READING",
    "SAVING",
    "WRITING",
    "ListImportError",
    "ListImportResult",
    "Progress",
    "decode_list",
    "list_import",
    "name_key",
]

log = logging.getLogger(__name__)


def list_import(
    *, system: RatingSystem, data: bytes, format: str, progress: Progress | None = None
) -> ListImportResult:
    fmt = format.lower()
    text = decode_list(data)
    if fmt not in FORMATS:
        raise ValueError(f"unknown list format {fmt!r}")
    if progress is not None:
        progress(5, READING)
    try:
        return _import_postgresql(system=system, text=text, fmt=fmt, progress=progress)
    except lf.ListReadError as exc:  # the reader stopped part-way (XML): nothing was written
        raise _fail(exc.problems) from None
    except ListImportError as exc:
        if fmt != "xml":
            raise
        # XML rows are numbered by player; name the line of each player's element instead.
        raise ListImportError(
            lf.xml_problems_at_lines(text, exc.problems), total=exc.total
        ) from None


# ---------------------------------------------------------------------------------------------
# PostgreSQL: COPY into a staging table, validate in SQL, write set-based.
#
# 1. The rows go, split into their raw fields, into list_fields: a TXT file is cut by
#    map()/zip() over the lines with no Python code per row (_cut_txt); CSV, or a TXT file
#    with tabs, goes through the reader one row at a time (_field_lines).
# 2. One CREATE TABLE … AS SELECT types the numbers, normalises sex, title and federation,
#    flags the rows with a problem and looks up each row's player and current rating:
#    list_stage.
# 3. One query lists the problems (row-numbered); nothing has been written yet.
# 4. The writes read list_stage only: players completed, new players inserted together with
#    the missing ratings (one statement), changed ratings updated. The new players' name_key
#    (players.names.fold) is computed in Python for those rows only (_stage_keys).


def _import_postgresql(
    *, system: RatingSystem, text: str, fmt: str, progress: Progress | None = None
) -> ListImportResult:
    rate = _rate(system)
    block = lf.read_txt_block(text, rate=rate) if fmt == "txt" else None
    if block is not None and block.problems:
        raise _fail(block.problems)
    # A tab inside a field would need escaping field by field: such files take the slow way.
    cut = block is not None and "\t" not in text
    names: list[tuple[int, str]] = []  # rows read in Python: (row, "surname given")
    if cut:
        assert block is not None  # cut implies a TXT block
        labels = dict(block.labels)
    else:
        header_problems, labels, rows = _tuples(text, fmt, rate)
        if header_problems:
            raise _fail(header_problems)
    limits = {
        "rmin": lf.RATING_MIN,
        "rmax": lf.RATING_MAX,
        "bmin": lf.BIRTH_MIN,
        "bmax": lf.BIRTH_MAX,
        "limit": lf.MAX_PROBLEMS,
    }
    timer = StepTimer("list import", log, on_step=_step_progress(progress))
    with transaction.atomic(), connection.cursor() as cursor:
        for table in ("list_fields", "list_keys", "list_stage"):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
        # Bulk work in one transaction: room to hash/sort 500,000 rows in memory, and no JIT
        # compilation (it costs more than it saves on these one-pass queries).
        cursor.execute("SET LOCAL work_mem = '256MB'; SET LOCAL jit = off")
        _room_for_stage_tables(cursor)
        cursor.execute("CREATE TEMP TABLE list_keys (row_no integer, name_key text) ON COMMIT DROP")
        cursor.execute(
            "CREATE TEMP TABLE list_fields (row_no integer, "
            f"{', '.join(c + ' text' for c in _FIELD_COLUMNS[1:])})"
            " ON COMMIT DROP"
        )
        copy_sql = f"COPY list_fields ({', '.join(_FIELD_COLUMNS)}) FROM STDIN"
        keys: Future[list[str]] | None = None
        if cut:
            assert block is not None
            copy_from_text(copy_sql, _cut_txt_chunks(block))
            if _likely_new(cursor, block):
                # The new players' name keys are computed in a thread while PostgreSQL types
                # and checks the rows (waiting for the server releases the GIL).
                pool = ThreadPoolExecutor(max_workers=1)
                keys = pool.submit(_name_keys, block)
                pool.shutdown(wait=False)
        else:
            copy_from_text(copy_sql, _field_lines(rows, names))
        timer.step("read + COPY")
        cursor.execute(sql.STAGE_SQL, {**limits, "system": system.pk})
        timer.step("staged")
        cursor.execute(sql.SUMMARY_SQL)
        rows_count, new, complete, missing, changed, bad, duplicated = cursor.fetchone()
        if bad or duplicated:
            cursor.execute(sql.PROBLEMS_SQL, limits)
            found = cursor.fetchall()
            raise ListImportError(_problems_from(found, labels), total=found[0][5])
        # No ANALYZE of the stage: PostgreSQL sizes it from its pages, and every later
        # statement is a hash join or a scan whatever the statistics say (0.2 s saved).
        timer.step("checks")
        params: dict[str, int | str] = {
            "prefix": FED_ID_PREFIX,
            "limit": lf.MAX_PROBLEMS,
            "system": system.pk,
            "ruleset": system.ruleset,
            "engine": ENGINE_VERSION,
        }
        if new:
            # A new player's derived fed_id must be free.
            cursor.execute(sql.FED_ID_TAKEN_SQL, params)
            clashes = cursor.fetchall()
            if clashes:
                raise ListImportError(_problems_from(clashes, labels))
            _stage_keys(
                cursor,
                block if cut else None,
                names,
                new,
                rows_count,
                keys.result() if keys is not None else None,
            )
            timer.step("name keys")
        updated = 0
        if complete:
            cursor.execute(sql.COMPLETE_SQL)
            updated = cursor.rowcount
            timer.step("players completed")
        written = 0
        if missing:
            # An import that at least doubles the registry (a federation's first list) builds
            # the secondary indexes once after the insert instead of row by row (core.pg.indexes).
            cursor.execute(
                "SELECT (SELECT count(*) FROM players_player), "
                "(SELECT count(*) FROM ratings_playerrating)"
            )
            players_before, ratings_before = cursor.fetchone()
            with (
                secondary_indexes_deferred(
                    cursor,
                    "players_player",
                    defer=worth_deferring(new_rows=new, existing_rows=players_before),
                ),
                secondary_indexes_deferred(
                    cursor,
                    "ratings_playerrating",
                    defer=worth_deferring(new_rows=missing, existing_rows=ratings_before),
                ) as deferred,
            ):
                params.update(first=0, first_row=0)
                if new:
                    cursor.execute(
                        "SELECT min(row_no), max(row_no) FROM list_stage WHERE player_id IS NULL"
                    )
                    first_row, last_row = cursor.fetchone()
                    params.update(
                        first=reserve_ids(cursor, "players_player", last_row - first_row + 1),
                        first_row=first_row,
                    )
                    # No insert event per new player: the import job is the record of who
                    # imported which file when (docs/audit.md); a first list creates half a
                    # million players, and the event rows cost it about 3 s. Changes to
                    # existing players (the completion above) are recorded as usual.
                    with pgtrigger.ignore(PLAYER_INSERT_EVENT):
                        cursor.execute(
                            sql.INSERT_PLAYERS_SQL,
                            [params["first"], params["first_row"], params["prefix"]],
                        )
                    timer.step("players inserted")
                cursor.execute(sql.INSERT_RATINGS_SQL, params)
                written += cursor.rowcount
                timer.step("ratings inserted")
            if deferred:
                timer.step("indexes rebuilt")
        if changed:
            cursor.execute(sql.UPDATE_RATINGS_SQL, params)
            written += cursor.rowcount
            timer.step("ratings updated")
        for table in ("list_fields", "list_keys", "list_stage"):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
    timer.step("commit")
    return ListImportResult(
        rows=rows_count,
        players_created=new,
        players_updated=updated,
        ratings_written=written,
        method="copy",
    )


def _room_for_stage_tables(cursor: Any) -> None:
    """Temporary tables live in the session's own buffers, 8 MB by default: the stage of a
    500,000-row list (about 100 MB) would go through temporary files. PostgreSQL accepts a
    larger setting only before the session's first temporary table; a reused connection
    keeps whatever it had (a savepoint absorbs the refusal)."""
    try:
        with transaction.atomic():
            cursor.execute("SET LOCAL temp_buffers = '256MB'")
    except DatabaseError:
        log.debug("temp_buffers already fixed for this session")


def _likely_new(cursor: Any, block: lf.TxtBlock) -> bool:
    """Will many rows create a player? A sample of 256 FIDE IDs, looked up by index."""
    fide = next((slice(a, b) for f, a, b in block.spans if f == "fide_id"), None)
    assert fide is not None  # a block has the header's required columns
    step = max(1, len(block.lines) // 256)
    ids = [
        int(v)
        for v in (line[fide].strip() for line in block.lines[::step])
        if v.isascii() and v.isdigit() and len(v) <= 18
    ]
    if not ids:
        return False
    cursor.execute("SELECT count(*) FROM players_player WHERE fide_id = ANY(%s)", [ids])
    return cursor.fetchone()[0] < 0.9 * len(ids)


def _stage_keys(
    cursor: Any,
    block: lf.TxtBlock | None,
    names: list[tuple[int, str]],
    new: int,
    total: int,
    all_keys: list[str] | None,
) -> None:
    """name_key (players.names.fold) of the new players' rows into list_keys."""
    wanted: list[int] | None = None
    if new < total:
        cursor.execute("SELECT row_no FROM list_stage WHERE player_id IS NULL ORDER BY 1")
        wanted = [r for (r,) in cursor.fetchall()]
    if block is None:
        pairs = names
        if wanted is not None:
            chosen = set(wanted)
            pairs = [(r, n) for r, n in names if r in chosen]
        rows = [r for r, _n in pairs]
        keys = fold_all([n for _r, n in pairs])
    else:
        first = block.first_row
        if wanted is None:
            rows = list(range(first, first + len(block.lines)))
            keys = all_keys if all_keys is not None else _name_keys(block)
        else:
            rows = wanted
            if all_keys is not None:
                keys = [all_keys[r - first] for r in rows]
            else:
                name = next(slice(a, b) for f, a, b in block.spans if f == "name")
                keys = fold_all([block.lines[r - first][name] for r in rows])
    copy_from_text("COPY list_keys (row_no, name_key) FROM STDIN", [_key_lines(rows, keys)])
