"""Import an existing rating list (FIDE TXT or XML, or CSV) so a federation starts from its ratings.

``list_import(*, system, data, format, target=None, players=None, dry_run=False,
progress=None)`` reads the file as a
stream, checks every row and, only when no row has a problem, writes in one transaction:

- players_player, matched by FIDE ID. ``players`` chooses which rows of players not in the
  registry create one (result.PLAYER_CHOICES: none — the default for target "fide" —, the
  federation's own, or all — the default for target "system"); the others are skipped and
  counted. A new player gets ``fed_id = "FIDE-<FIDE ID>"`` and
  its ``name_key`` from players.names.fold (computed in Python). An existing player keeps its
  registry data; only a missing birth year or title is filled in.
- target ``"fide"`` (the default for FIDE's TXT and XML lists): the players' FIDE ratings
  (fide_standard, fide_rapid, fide_blitz) of the list's rate(s) of play. The rating system's
  ratings are not touched.
- target ``"system"`` (the default for CSV): ratings_playerrating for ``system``: rating (0 or
  blank = none), games, kind (effective / unrated), activity (flag ``i`` = inactive),
  reached_2400 / reached_2200.

PostgreSQL: COPY into a TEMP staging table, typing and validation in SQL (one typed stage
table), then UPDATE … FROM and INSERT … SELECT from it; each step's seconds are logged.
docs/lists.md has the details.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pgtrigger
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from core.pg.copy import copy_from_text
from core.pg.ids import reserve_ids
from core.pg.indexes import (
    secondary_indexes_deferred,
    secondary_indexes_rebuild,
    worth_deferring,
)
from core.timing import StepTimer
from formats import lists as lf
from lists.imports import sql
from lists.imports.result import (
    CHECKING,
    ENGINE_VERSION,
    FED_ID_PREFIX,
    FORMATS,
    PLAYER_CHOICES,
    PLAYER_INSERT_EVENT,
    PLAYER_NAME_WORDS_INSERT,
    PLAYER_NAME_WORDS_UPDATE,
    PLAYERS_ALL,
    PLAYERS_UPDATE,
    READING,
    SAVING,
    TARGETS,
    WRITING,
    ListImportError,
    ListImportResult,
    Progress,
    _fail,
    _rate,
    _step_progress,
    decode_list,
)
from lists.imports.rows import (
    BATCH_ROWS,
    add_words,
    checks_failed,
    key_lines,
    key_lines_words,
    list_stream,
    name_key,
    problems_from,
)
from lists.imports.source import ByteSource, NotUtf8, bytes_source, decode_pieces
from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from players.names import fold_all

# The public names of an import, defined beside it, are imported from here by their callers.
__all__ = [
    "CHECKING",
    "FORMATS",
    "PLAYERS_ALL",
    "PLAYERS_UPDATE",
    "PLAYER_CHOICES",
    "READING",
    "SAVING",
    "TARGETS",
    "WRITING",
    "ListImportError",
    "ListImportResult",
    "Progress",
    "decode_list",
    "default_players",
    "default_target",
    "list_import",
    "name_key",
]

log = logging.getLogger(__name__)


def default_target(fmt: str) -> str:
    """A FIDE list (TXT or XML) updates the players' FIDE ratings; a CSV file seeds a rating
    system (docs/lists.md, "Which ratings an import writes")."""
    return sql.TARGET_SYSTEM if fmt.lower() == "csv" else sql.TARGET_FIDE


def default_players(target: str) -> str:
    """A FIDE list (target "fide") only updates the players already in the registry: FIDE's
    list holds every federation's players, and the registry is the federation's (issue 24
    item 7). A file seeding a rating system (target "system") is the federation's own list:
    every row is a player of it, as before."""
    return PLAYERS_UPDATE if target == sql.TARGET_FIDE else PLAYERS_ALL


def list_import(
    *,
    system: RatingSystem,
    data: bytes | ByteSource,
    format: str,
    target: str | None = None,
    players: str | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ListImportResult:
    """Import a list. ``data`` is the file's bytes or a ByteSource (the file read in pieces:
    the worker's path, so memory stays bounded whatever the file's size). ``target``:
    ``"fide"`` writes the players' FIDE ratings of the list's rate(s) of play, ``"system"``
    the ratings of ``system``; by default ``default_target(format)``. ``players``: which rows
    of players not in the registry create one (``default_players(target)``). ``dry_run``:
    read, check and count exactly as the import would, then roll everything back (the
    preview's counts: what will be created, updated and skipped)."""
    fmt = format.lower()
    if fmt not in FORMATS:
        raise ValueError(f"unknown list format {fmt!r}")
    target = target or default_target(fmt)
    if target not in TARGETS:
        raise ValueError(f"unknown import target {target!r}")
    players = players or default_players(target)
    if players not in PLAYER_CHOICES:
        raise ValueError(f"unknown choice of players {players!r}")
    source = bytes_source(data) if isinstance(data, bytes) else data
    if progress is not None:
        progress(5, READING)
    for latin1 in (False, True):
        try:
            return _import_postgresql(
                system=system,
                source=source,
                latin1=latin1,
                fmt=fmt,
                target=target,
                players=players,
                dry_run=dry_run,
                progress=progress,
            )
        except NotUtf8:
            # Non-ASCII text was read as UTF-8 before a byte that is not: the whole file is
            # Latin-1 (as decode_list reads it). The import's transaction was rolled back.
            log.info("list import: not UTF-8, read again as Latin-1")
        except lf.ListReadError as exc:  # the reader stopped part-way (XML): nothing was written
            raise _fail(exc.problems) from None
        except ListImportError as exc:
            if fmt != "xml":
                raise
            # XML rows are numbered by player; name the line of each player's element instead.
            text = decode_pieces(source(), latin1=latin1)
            raise ListImportError(
                lf.xml_problems_at_lines(text, exc.problems), total=exc.total
            ) from None
    raise AssertionError("Latin-1 decodes any byte")


# ---------------------------------------------------------------------------------------------
# PostgreSQL: COPY into a staging table, validate in SQL, write set-based.
#
# 1. The file is read as a stream (source.py: pieces of bytes, decoded incrementally, cut
#    into lines) and its rows go, split into their raw fields, into list_fields by one COPY,
#    a batch of 20,000 rows at a time (rows.py). Nothing holds the whole file.
# 2. One CREATE TABLE … AS SELECT types the numbers, normalises sex, title and federation,
#    flags the rows with a problem and looks up each row's player (and current rating in the
#    system): list_stage.
# 3. One query lists the problems (row-numbered, at most lf.MAX_PROBLEMS); nothing has been
#    written yet.
# 4. The writes read list_stage only: players completed (and, target "fide", their FIDE
#    ratings set), new players inserted, then (target "system") the missing ratings inserted
#    and the changed ones updated. The new players' name_key (players.names.fold) is computed
#    while reading when the first rows show many new players, else afterwards for the new
#    rows only (_stage_missing_keys).


def _import_postgresql(
    *,
    system: RatingSystem,
    source: ByteSource,
    latin1: bool,
    fmt: str,
    target: str,
    players: str = PLAYERS_ALL,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ListImportResult:
    rate = _rate(system)
    fide = target == sql.TARGET_FIDE
    limits = {
        "rmin": lf.RATING_MIN,
        "rmax": lf.RATING_MAX,
        "bmin": lf.BIRTH_MIN,
        "bmax": lf.BIRTH_MAX,
        "limit": lf.MAX_PROBLEMS,
    }
    timer = StepTimer("list import", log, on_step=_step_progress(progress))
    after_commit: list[str] = []  # tables whose read-only indexes wait for the commit
    with transaction.atomic(), connection.cursor() as cursor:
        for table in ("list_fields", "list_keys", "list_stage", "list_words"):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
        # Bulk work in one transaction: room to hash/sort 500,000 rows in memory, and no JIT
        # compilation (it costs more than it saves on these one-pass queries).
        cursor.execute("SET LOCAL work_mem = '256MB'; SET LOCAL jit = off")
        _room_for_stage_tables(cursor)
        cursor.execute("CREATE TEMP TABLE list_keys (row_no integer, name_key text) ON COMMIT DROP")
        stream = list_stream(decode_pieces(source(), latin1=latin1), fmt, rate=rate, fide=fide)
        columns = sql.field_columns(stream.ratings)
        cursor.execute(
            "CREATE TEMP TABLE list_fields (row_no integer, "
            f"{', '.join(c + ' text' for c in columns[1:])}) ON COMMIT DROP"
        )
        # Many new players (a first list): their name keys are computed while reading.
        keys = _likely_new(cursor, stream.sample_ids)
        copy_from_text(f"COPY list_fields ({', '.join(columns)}) FROM STDIN", stream.chunks(keys))
        timer.step("read + COPY")
        cursor.execute(sql.stage_sql(stream.ratings, target), {**limits, "system": system.pk})
        timer.step("staged")
        cursor.execute(sql.summary_sql(target))
        rows_count, new, complete, missing, changed, bad, duplicated = cursor.fetchone()
        if bad or duplicated:
            cursor.execute(sql.problems_sql(stream.ratings), limits)
            raise checks_failed(cursor.fetchall(), stream.labels)
        # No ANALYZE of the stage: PostgreSQL sizes it from its pages, and every later
        # statement is a hash join or a scan whatever the statistics say (0.2 s saved).
        skipped = 0
        if new and players != PLAYERS_ALL:
            # The rows the choice does not let create a player leave the stage (issue 24
            # item 7); the counts are taken again from what is left. The ids reserved below
            # span the first to the last new row, so a skipped row between them leaves its
            # id unused (a gap in the sequence, harmless).
            cursor.execute(
                sql.SKIP_ALL_NEW_SQL if players == PLAYERS_UPDATE else sql.SKIP_FOREIGN_SQL,
                {"federation": settings.FEDERATION_CODE},
            )
            skipped = cursor.rowcount
            cursor.execute(sql.summary_sql(target))
            _rows, new, complete, missing, changed, _bad, _dup = cursor.fetchone()
        timer.step("checks")
        params: dict[str, int | str] = {
            "prefix": FED_ID_PREFIX,
            "limit": lf.MAX_PROBLEMS,
            "system": system.pk,
            # The regulation in force today on the system's timeline (periods.rulesets), which
            # a rating state written today answers to; not an entry planned for later.
            "ruleset": system_ruleset_on(system=system, day=timezone.localdate()).ruleset,
            "engine": ENGINE_VERSION,
        }
        if new:
            # A new player's derived fed_id must be free.
            cursor.execute(sql.FED_ID_TAKEN_SQL, params)
            clashes = cursor.fetchall()
            if clashes:
                raise ListImportError(problems_from(clashes, stream.labels))
        if dry_run:
            # What the writes below will do, counted from the same stage: then nothing is
            # kept (the temporary tables go with the rollback).
            transaction.set_rollback(True)
            return ListImportResult(
                rows=rows_count,
                players_created=new,
                players_updated=complete,
                ratings_written=changed if fide else missing + changed,
                method="copy",
                target=target,
                players_skipped=skipped,
                players=players,
            )
        if new:
            _stage_missing_keys(stream.words)
            timer.step("name keys")
        updated = complete
        if fide and (complete or changed):
            # The FIDE ratings (and completions) of existing players, one statement. Each
            # changed player gets its history event (docs/lists.md: measured on 500,000 rows).
            # Names are never changed by an import: the vocabulary's update trigger, which
            # would join the statement's old and new rows to find renames, is left out.
            with pgtrigger.ignore(PLAYER_NAME_WORDS_UPDATE):
                cursor.execute(sql.update_fide_sql(stream.ratings))
            timer.step("players updated")
        elif complete:
            with pgtrigger.ignore(PLAYER_NAME_WORDS_UPDATE):
                cursor.execute(sql.COMPLETE_SQL)
            updated = cursor.rowcount
            timer.step("players completed")
        written = changed if fide else 0
        if new or missing:
            written += _insert(
                cursor,
                stream.ratings,
                target,
                new,
                missing,
                params,
                timer,
                after_commit,
                stream.words,
            )
        if changed and not fide:
            cursor.execute(sql.UPDATE_RATINGS_SQL, params)
            written += cursor.rowcount
            timer.step("ratings updated")
        for table in ("list_fields", "list_keys", "list_stage", "list_words"):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
    timer.step("commit")
    indexes_seconds = _indexes_after_commit(after_commit, timer)
    return ListImportResult(
        rows=rows_count,
        players_created=new,
        players_updated=updated,
        ratings_written=written,
        method="copy",
        target=target,
        players_skipped=skipped,
        players=players,
        indexes_after_commit_seconds=indexes_seconds,
    )


def _indexes_after_commit(tables: list[str], timer: StepTimer) -> float:
    """The read-only indexes the insert left (core.pg.indexes, after_commit): built now that
    the rows are committed, while the search answers from the table; inside a caller's
    transaction, when it commits."""
    if not tables:
        return 0.0
    if connection.in_atomic_block:
        transaction.on_commit(lambda: secondary_indexes_rebuild(*tables))
        return 0.0
    started = time.perf_counter()
    secondary_indexes_rebuild(*tables)
    timer.step("indexes built after the commit")
    return time.perf_counter() - started


def _insert(
    cursor: Any,
    ratings: tuple[str, ...],
    target: str,
    new: int,
    missing: int,
    params: dict[str, int | str],
    timer: StepTimer,
    after_commit: list[str],
    words: set[str],
) -> int:
    """New players, then (target "system") every missing rating; returns the ratings written.
    An import that at least doubles the registry (a federation's first list) builds the
    secondary indexes once after the insert instead of row by row (core.pg.indexes): the
    unique ones before the commit, the others (names, search, the vocabulary of name words)
    after it — their tables are added to `after_commit`.

    The vocabulary of name words (players.models.NameWord, the search's) gets the new
    players' words here rather than through its trigger: `words` (the words of every name key
    the import folded in Python, split there in C) copied in sorted and added where missing —
    splitting half a million keys again in SQL cost seconds. It may hold words of rows that
    created no player (an existing player's, a skipped row's): a word nobody has matches
    nobody."""
    cursor.execute(
        "SELECT (SELECT count(*) FROM players_player), (SELECT count(*) FROM ratings_playerrating),"
        " (SELECT count(*) FROM players_nameword)"
    )
    players_before, ratings_before, words_before = cursor.fetchone()
    written = 0
    deferred_tables = [
        table
        for table, worth in (
            ("players_player", worth_deferring(new_rows=new, existing_rows=players_before)),
            # About one new word per new player (a surname, a given name: most are new to a
            # registry this import at least doubles).
            ("players_nameword", worth_deferring(new_rows=new, existing_rows=words_before)),
            (
                "ratings_playerrating",
                bool(missing) and worth_deferring(new_rows=missing, existing_rows=ratings_before),
            ),
        )
        if worth
    ]
    with secondary_indexes_deferred(cursor, *deferred_tables, after_commit=True) as deferred:
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
            # existing players (completions, FIDE ratings) are recorded as usual.
            with pgtrigger.ignore(PLAYER_INSERT_EVENT, PLAYER_NAME_WORDS_INSERT):
                cursor.execute(
                    sql.insert_players_sql(ratings, target),
                    [params["first"], params["first_row"], params["prefix"]],
                )
            timer.step("players inserted")
            if "players_nameword" in deferred_tables and _empty(cursor, "players_nameword"):
                # An empty vocabulary this import holds locked (its indexes are dropped): every
                # word is new, copied in straight (sorted, as its b-tree wants them).
                copy_from_text(
                    "COPY players_nameword (word) FROM STDIN", [key_lines_words(sorted(words))]
                )
            else:
                cursor.execute("CREATE TEMP TABLE list_words (word text) ON COMMIT DROP")
                copy_from_text(
                    "COPY list_words (word) FROM STDIN", [key_lines_words(sorted(words))]
                )
                cursor.execute(sql.insert_words_sql(locked="players_nameword" in deferred_tables))
            timer.step("name words")
        if missing:
            _ratings_refs_check(cursor, int(params["system"]))
            # The trigger's own check (ratings migration 0005) would anti-join every new row
            # to the whole registry again: told these rows are checked, for this statement.
            cursor.execute("SET LOCAL ratings.refs_checked = 'ratings_playerrating'")
            cursor.execute(sql.INSERT_RATINGS_SQL, params)
            written = cursor.rowcount
            cursor.execute("SET LOCAL ratings.refs_checked = ''")
            timer.step("ratings inserted")
    if deferred:
        timer.step("unique indexes rebuilt")
        after_commit.extend(deferred_tables)
    return written


def _ratings_refs_check(cursor: Any, system: int) -> None:
    """What the ratings' reference trigger checks (ratings migration 0005), for the missing
    ratings the import inserts: their rating system, locked against deletion until the
    commit (the trigger only saw it exist), and their players that are not new ones. Raises
    IntegrityError (foreign_key_violation, as the trigger would)."""
    cursor.execute("SELECT id FROM ratings_ratingsystem WHERE id = %s FOR KEY SHARE", [system])
    if cursor.fetchone() is None:
        raise IntegrityError(
            f"insert on ratings_playerrating refused: rating system {system} does not exist"
        )
    cursor.execute(sql.RATINGS_PLAYERS_MISSING_SQL)
    player = cursor.fetchone()[0]
    if player is not None:
        raise IntegrityError(
            f"insert on ratings_playerrating refused: player {player} does not exist"
        )


def _empty(cursor: Any, table: str) -> bool:
    cursor.execute(f'SELECT NOT EXISTS (SELECT 1 FROM "{table}")')
    return bool(cursor.fetchone()[0])


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


def _likely_new(cursor: Any, ids: list[int]) -> bool:
    """Will many rows create a player? A sample of FIDE IDs from the first rows, looked up by
    index."""
    if not ids:
        return False
    cursor.execute("SELECT count(*) FROM players_player WHERE fide_id = ANY(%s)", [ids])
    return bool(cursor.fetchone()[0] < 0.9 * len(ids))


def _stage_missing_keys(words: set[str]) -> None:
    """name_key (players.names.fold) of the new players whose key was not computed while
    reading, into list_keys: their names read back from the stage a batch at a time (a
    server-side cursor of psycopg's own, on the import's connection and transaction), folded,
    and copied in; their words added to `words`."""
    with connection.connection.cursor(name="list_new_names") as names:
        names.execute(sql.NAMES_WITHOUT_KEY_SQL)
        while batch := names.fetchmany(BATCH_ROWS):
            rows = [r for r, _n in batch]
            keys = fold_all([n for _r, n in batch])
            add_words(words, keys)
            copy_from_text("COPY list_keys (row_no, name_key) FROM STDIN", [key_lines(rows, keys)])
