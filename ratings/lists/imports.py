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

import itertools
import logging
import operator
import re
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pgtrigger
from django.db import DatabaseError, connection, transaction
from django.utils.translation import gettext_noop

from core.pg.copy import copy_from_text, copy_text
from core.pg.ids import reserve_ids
from core.pg.indexes import secondary_indexes_deferred, worth_deferring
from core.timing import StepTimer
from periods.models import RatingSystem
from players.names import fold, fold_all
from ratings.lists import formats as lf
from ratings.lists import import_sql as sql
from tournaments.reports.problems import Problem

FORMATS = ("txt", "csv", "xml")
FED_ID_PREFIX = "FIDE-"
#: pghistory's insert tracker on Player (players/models.py).
PLAYER_INSERT_EVENT = "players.Player:insert_insert"
ENGINE_VERSION = "import"

log = logging.getLogger(__name__)

# progress(percent, message): called as the import goes on; the message is an untranslated
# msgid (the page translates it). ratings/import_jobs.py stores them on the job row.
Progress = Callable[[int, str], None]
READING = gettext_noop("Reading the file")
CHECKING = gettext_noop("Checking the rows")
WRITING = gettext_noop("Writing players and ratings")
SAVING = gettext_noop("Saving")
# After each step of the PostgreSQL path (its StepTimer names): percent done, what comes next.
_PG_STEPS = {
    "read + COPY": (35, CHECKING),
    "staged": (50, CHECKING),
    "checks": (58, WRITING),
    "name keys": (62, WRITING),
    "players completed": (66, WRITING),
    "players inserted": (78, WRITING),
    "ratings inserted": (88, SAVING),
    "indexes rebuilt": (94, SAVING),
    "ratings updated": (96, SAVING),
    "commit": (98, SAVING),
}


def _step_progress(progress: Progress | None) -> Callable[[str], None] | None:
    if progress is None:
        return None

    def on_step(name: str) -> None:
        if name in _PG_STEPS:
            progress(*_PG_STEPS[name])

    return on_step


@dataclass(frozen=True)
class ListImportResult:
    rows: int
    players_created: int
    players_updated: int
    ratings_written: int
    method: str  # "copy" (PostgreSQL) or "python"


class ListImportError(Exception):
    """Nothing was written. ``problems`` holds the first MAX_PROBLEMS, ``total`` the count."""

    def __init__(self, problems: list[Problem], total: int | None = None) -> None:
        self.problems = problems
        self.total = len(problems) if total is None else total
        super().__init__("; ".join(p.message for p in problems[:5]))


def decode_list(data: bytes) -> str:
    """UTF-8 (with or without BOM); anything else is read as Latin-1 (FIDE's old files)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _rate(system: RatingSystem) -> str:
    return system.rate_of_play if system.rate_of_play in ("rapid", "blitz") else "standard"


def _read(text: str, fmt: str, rate: str) -> tuple[list[Problem], Iterator[lf.RawRow]]:
    if fmt == "txt":
        return lf.read_txt(text, rate=rate)
    if fmt == "csv":
        return lf.read_csv(text)
    if fmt == "xml":
        return lf.read_xml(text, rate=rate)
    raise ValueError(f"unknown list format {fmt!r}")


def _fail(problems: list[Problem]) -> ListImportError:
    ordered = lf.sort_problems(problems)
    shown = ordered[: lf.MAX_PROBLEMS]
    return ListImportError(shown, total=len(ordered))


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

_FIELD_COLUMNS = (
    "row_no",
    "surname",
    "given_name",
    "fide_raw",
    "fed_raw",
    "sex_raw",
    "title_raw",
    "rating_raw",
    "games_raw",
    "k_raw",
    "birth_raw",
    "flag_raw",
)
_READ_FIELDS = (
    "fide_id",
    "name",
    "fed",
    "sex",
    "title",
    "rating",
    "games",
    "k",
    "birth_year",
    "flag",
)
_ASCII_SEPARATORS = re.compile(r"[\s,.;'`\-]+")


def name_key(surname: str, given_name: str) -> str:
    """players.names.full_name_key, with a shortcut for ASCII names (same result: NFKD and
    the accent/ß/ª/º rules change nothing in ASCII, and casefold() is lower() there)."""
    text = f"{surname} {given_name}"
    if text.isascii():
        return _ASCII_SEPARATORS.sub(" ", text.lower()).strip()
    return fold(text)


def _tuples(
    text: str, fmt: str, rate: str
) -> tuple[list[Problem], dict[str, str], Iterator[tuple[int, list[str]]]]:
    """(problems, labels, iterator of (row, [values in _READ_FIELDS order])) read in Python."""
    if fmt == "txt":
        return lf.read_txt_tuples(text, fields=_READ_FIELDS, rate=rate)
    problems, raw_rows = _read(text, fmt, rate)
    raw_rows = iter(raw_rows)
    first = next(raw_rows, None)
    labels = dict(first.labels) if first else {}

    def rows() -> Iterator[tuple[int, list[str]]]:
        if first is None:
            return
        for raw in itertools.chain([first], raw_rows):
            yield raw.row, [raw.values.get(f, "") for f in _READ_FIELDS]

    return problems, labels, rows()


def _cut_txt(block: lf.TxtBlock) -> str:
    """COPY text of list_fields for a TXT file (all of it; the import sends it in chunks)."""
    return "".join(_cut_txt_chunks(block))


def _cut_txt_chunks(block: lf.TxtBlock, size: int = 20_000) -> Iterator[str]:
    """COPY text of list_fields for a TXT file, `size` lines at a time: read_txt's values
    (each field stripped, the name split as lf.split_name does), with map()/zip() doing the
    per-row work in C. In chunks so that PostgreSQL parses one while the next is cut. The
    caller ensures there is no tab in the lines."""
    where = {f: slice(a, b) for f, a, b in block.spans}
    others = [where.get(f, slice(0, 0)) for f in _READ_FIELDS if f != "name"]
    name = where["name"]
    for start in range(0, len(block.lines), size):
        lines = block.lines[start : start + size]
        first = block.first_row + start
        numbers = list(
            itertools.compress(range(first, first + len(lines)), map(str.strip, lines))
        )  # the non-blank lines
        if len(numbers) < len(lines):
            lines = [lines[n - first] for n in numbers]
        # "Surname, Given" -> (surname, ",", given) -> surname, given, both stripped.
        parts = itertools.chain.from_iterable(
            map(str.partition, map(operator.itemgetter(name), lines), itertools.repeat(","))
        )
        names = map(str.strip, itertools.compress(parts, itertools.cycle((1, 0, 1))))
        fields = map(
            str.strip, itertools.chain.from_iterable(map(operator.itemgetter(*others), lines))
        )
        # zip() takes from the same iterator as often as it is repeated: one row per tuple.
        rows = zip(map(str, numbers), names, names, *[fields] * len(others))
        text = "\n".join(map("\t".join, rows))
        if "\\" in text:
            text = text.replace("\\", "\\\\")
        if text:
            yield text + "\n"


_DEFAULT_LABELS = {
    "fide_id": "ID",
    "rating": "Rating",
    "games": "Games",
    "k": "K",
    "birth_year": "B-day",
    "flag": "Flag",
    "fed": "Fed",
}


def _problems_from(rows: list[tuple], labels: dict[str, str]) -> list[Problem]:
    out = []
    for row_no, code, fld, value, first, *_rest in rows:
        column = labels.get(fld, _DEFAULT_LABELS.get(fld, fld))
        params: dict[str, object] = {"value": value}
        if code == "rating_out_of_range":
            params.update(value=int(value), min=lf.RATING_MIN, max=lf.RATING_MAX)
        elif code == "birth_out_of_range":
            params.update(value=int(value), min=lf.BIRTH_MIN, max=lf.BIRTH_MAX)
        elif code == "duplicate_id":
            params.update(value=int(value), first=first)
        out.append(lf.problem(code, row=row_no, column=column, **params))
    return out


def _field_lines(
    rows: Iterable[tuple[int, list[str]]], names: list[tuple[int, str]]
) -> Iterator[str]:
    """COPY lines of list_fields (names split here); (row, "surname given") go to ``names``."""
    split = lf.split_name
    for row, (fide_id, name, fed, sex, title, rating, games, k, birth, flag) in rows:
        surname, given = split(name)
        names.append((row, f"{surname} {given}"))
        values = (str(row), surname, given, fide_id, fed, sex, title, rating, games, k, birth, flag)
        line = "\t".join(values)
        if "\\" in line or line.count("\t") != 11 or "\n" in line or "\r" in line:
            line = "\t".join(map(copy_text, values))
        yield line + "\n"


def _key_lines(rows: list[int], keys: list[str]) -> str:
    text = "".join(f"{r}\t{k}\n" for r, k in zip(rows, keys, strict=True))
    return text.translate(_ESCAPE_KEY) if "\\" in text else text


_ESCAPE_KEY = str.maketrans({"\\": "\\\\"})  # keys hold no tab or newline (fold collapses them)


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


def _name_keys(block: lf.TxtBlock) -> list[str]:
    """The name_key of every line of a TXT block (blank lines included). fold() of the raw
    "Surname, Given" field equals full_name_key(surname, given): the comma and the spaces
    around it are separators that fold() collapses, and it strips the ends."""
    name = next(slice(a, b) for f, a, b in block.spans if f == "name")
    return fold_all(list(map(operator.itemgetter(name), block.lines)))


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
