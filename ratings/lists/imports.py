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
SQLite: the same checks in Python
(ratings.lists.formats.validate_rows) and the ORM. docs/lists.md has the details.
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


def _digits(col: str, most: int) -> str:
    """SQL: col is 1..most digits. ltrim(x, digits) = '' is cheaper than a regular expression;
    octet_length() does not count characters (a text with a multibyte one fails ltrim)."""
    return f"(octet_length({col}) BETWEEN 1 AND {most} AND ltrim({col}, '0123456789') = '')"


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


_OLD_TITLES_SQL = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in lf._OLD_TITLES.items())
_VALID_TITLES_SQL = ", ".join(f"'{t}'" for t in sorted(lf.VALID_TITLES))

# Raw text -> typed values (NULL where the text is not a number), the normalised fields
# (lf.normal_sex, lf.normal_title, upper-case federation) and the row's problem flag.
_TYPED = """SELECT row_no, fide_raw, rating_raw, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  fide_id, rating_n, games_n, k_n, birth_n, flag, surname, given_name, fed,
  CASE WHEN upper(left(sex_raw, 1)) IN ('M', 'F') THEN upper(left(sex_raw, 1))
       WHEN position('w' in flag) > 0 THEN 'F' ELSE 'M' END AS sex,
  CASE title_raw {old_titles} ELSE CASE WHEN upper(title_raw) IN ({valid_titles})
       THEN upper(title_raw) ELSE '' END END AS title,
  NULLIF(rating_n, 0) AS rating, COALESCE(games_n, 0) AS games,
  NULLIF(birth_n, 0) AS birth_year,
  CASE WHEN NULLIF(rating_n, 0) IS NULL THEN 'unrated' ELSE 'effective' END AS kind,
  CASE WHEN position('i' in flag) > 0 THEN 'inactive' ELSE 'active' END AS activity,
  COALESCE(rating_n >= 2400, false) AS r2400, COALESCE(rating_n >= 2200, false) AS r2200,
  (fide_id IS NULL
   OR (rating_n IS NULL AND rating_raw <> '')
   OR (rating_n <> 0 AND rating_n NOT BETWEEN %(rmin)s AND %(rmax)s)
   OR (games_n IS NULL AND games_raw <> '') OR (k_n IS NULL AND k_raw <> '')
   OR (birth_n IS NULL AND birth_raw <> '')
   OR (birth_n <> 0 AND birth_n NOT BETWEEN %(bmin)s AND %(bmax)s)
   OR flag NOT IN ('', 'i', 'w', 'wi') OR length(fed) > 3) AS bad
FROM (SELECT row_no, fide_raw, rating_raw, games_raw, k_raw, birth_raw, flag_raw, fed_raw,
  surname, given_name, sex_raw, title_raw, upper(fed_raw) AS fed, lower(flag_raw) AS flag,
  CASE WHEN {fide_ok} THEN fide_raw::bigint END AS fide_id,
  CASE WHEN {rating_ok} THEN rating_raw::int END AS rating_n,
  CASE WHEN {games_ok} THEN games_raw::int END AS games_n,
  CASE WHEN {k_ok} THEN k_raw::int END AS k_n,
  CASE WHEN {birth_ok} THEN birth_raw::int END AS birth_n
  FROM list_fields s OFFSET 0) t""".format(
    old_titles=_OLD_TITLES_SQL,
    valid_titles=_VALID_TITLES_SQL,
    fide_ok=_digits("fide_raw", 18),
    rating_ok=_digits("rating_raw", 9),
    games_ok=_digits("games_raw", 9),
    k_ok=_digits("k_raw", 9),
    birth_ok=_digits("birth_raw", 9),
)

# The typed rows with their player and current rating in the system, and what has to change.
_STAGE_SQL = (
    """CREATE TEMP TABLE list_stage ON COMMIT DROP AS
SELECT t.row_no, t.fide_id, t.surname, t.given_name, t.fed, t.sex, t.title, t.rating, t.games,
  t.birth_year, t.kind, t.activity, t.r2400, t.r2200, t.bad, p.id AS player_id, r.id AS rating_id,
  (p.id IS NOT NULL AND ((p.birth_year IS NULL AND t.birth_year IS NOT NULL)
                         OR (p.title = '' AND t.title <> ''))) AS complete,
  (r.id IS NOT NULL AND ((r.rating, r.games, r.kind, r.activity)
                           IS DISTINCT FROM (t.rating, t.games, t.kind, t.activity)
                         OR (t.r2400 AND NOT r.reached_2400)
                         OR (t.r2200 AND NOT r.reached_2200))) AS changed
FROM ("""
    + _TYPED
    + """) t
LEFT JOIN players_player p ON p.fide_id = t.fide_id
LEFT JOIN ratings_playerrating r ON r.player_id = p.id AND r.system_id = %(system)s"""
)

# Only when the summary counted a problem: every field of the rows with one, and the
# duplicate IDs with the row of their first appearance.
_PROBLEMS_SQL = (
    """
SELECT row_no, code, fld, value, first, count(*) OVER () FROM (
  SELECT s.row_no, v.code, v.fld, v.value, NULL::int AS first
  FROM ("""
    + _TYPED
    + """) s, LATERAL (VALUES
    (CASE WHEN fide_raw = '' THEN 'missing_id' WHEN fide_id IS NULL THEN 'bad_number' END,
     'fide_id', fide_raw),
    (CASE WHEN rating_n IS NULL AND rating_raw <> '' THEN 'bad_number'
          WHEN rating_n <> 0 AND rating_n NOT BETWEEN %(rmin)s AND %(rmax)s
          THEN 'rating_out_of_range' END, 'rating', rating_raw),
    (CASE WHEN games_n IS NULL AND games_raw <> '' THEN 'bad_number' END, 'games', games_raw),
    (CASE WHEN k_n IS NULL AND k_raw <> '' THEN 'bad_number' END, 'k', k_raw),
    (CASE WHEN birth_n IS NULL AND birth_raw <> '' THEN 'bad_number'
          WHEN birth_n <> 0 AND birth_n NOT BETWEEN %(bmin)s AND %(bmax)s
          THEN 'birth_out_of_range' END, 'birth_year', birth_raw),
    (CASE WHEN flag NOT IN ('', 'i', 'w', 'wi') THEN 'bad_flag' END, 'flag', flag_raw),
    (CASE WHEN length(fed) > 3 THEN 'bad_federation' END, 'fed', fed_raw)
  ) v(code, fld, value) WHERE s.bad AND v.code IS NOT NULL
  UNION ALL
  SELECT row_no, 'duplicate_id', 'fide_id', fide_id::text, first FROM (
    SELECT row_no, fide_id, min(row_no) OVER (PARTITION BY fide_id) AS first FROM list_stage
    WHERE fide_id IN (SELECT fide_id FROM list_stage GROUP BY fide_id HAVING count(*) > 1)) d
  WHERE row_no > first
) e ORDER BY row_no, code COLLATE "C" LIMIT %(limit)s
"""
)

_SUMMARY_SQL = """SELECT count(*), count(*) FILTER (WHERE player_id IS NULL),
  count(*) FILTER (WHERE complete), count(*) FILTER (WHERE rating_id IS NULL),
  count(*) FILTER (WHERE changed), count(*) FILTER (WHERE bad),
  (SELECT count(*) FROM (SELECT FROM list_stage WHERE fide_id IS NOT NULL
                         GROUP BY fide_id HAVING count(*) > 1) d)
FROM list_stage"""

_FED_ID_TAKEN_SQL = """SELECT s.row_no, 'fed_id_taken', 'fide_id', %(prefix)s || s.fide_id, NULL
FROM list_stage s JOIN players_player q ON q.fed_id = %(prefix)s || s.fide_id
WHERE s.player_id IS NULL ORDER BY 1 LIMIT %(limit)s"""

_COMPLETE_SQL = """UPDATE players_player p
SET birth_year = COALESCE(p.birth_year, s.birth_year),
    title = CASE WHEN p.title = '' THEN s.title ELSE p.title END, updated_at = now()
FROM list_stage s WHERE s.complete AND p.id = s.player_id
  AND ((p.birth_year IS NULL AND s.birth_year IS NOT NULL) OR (p.title = '' AND s.title <> ''))"""

# New players (in file order) and every missing rating, the new players' included.
# New players take ids from a block reserved beforehand (first + row - first new row), so the
# players and their ratings are two plain inserts from the stage: no RETURNING set joined
# back to 500,000 stage rows.
_INSERT_PLAYERS_SQL = """INSERT INTO players_player (id, fed_id, surname, given_name, sex,
    birth_year, club, region, federation, title, fide_id, affiliated, name_key, created_at,
    updated_at)
  SELECT %s + s.row_no - %s, %s || s.fide_id, s.surname, s.given_name, s.sex,
    s.birth_year, '', '', s.fed, s.title, s.fide_id, true, k.name_key, now(), now()
  FROM list_stage s JOIN list_keys k ON k.row_no = s.row_no
  WHERE s.player_id IS NULL"""
# Positional placeholders: pgtrigger.ignore prefixes the statement with its own positional one.

_INSERT_RATINGS_SQL = """INSERT INTO ratings_playerrating (player_id, system_id, rating, games,
  kind, activity, out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset,
  engine_version, updated_at)
SELECT COALESCE(s.player_id, %(first)s + s.row_no - %(first_row)s), %(system)s, s.rating, s.games,
  s.kind, s.activity, false, s.r2400, s.r2200, 0, '[]'::jsonb, %(ruleset)s, %(engine)s, now()
FROM list_stage s
WHERE s.rating_id IS NULL"""

_UPDATE_RATINGS_SQL = """UPDATE ratings_playerrating r SET rating = s.rating, games = s.games,
  kind = s.kind, activity = s.activity, reached_2400 = r.reached_2400 OR s.r2400,
  reached_2200 = r.reached_2200 OR s.r2200, ruleset = %(ruleset)s, engine_version = %(engine)s,
  updated_at = now()
FROM list_stage s WHERE s.changed AND r.id = s.rating_id
  AND ((r.rating, r.games, r.kind, r.activity) IS DISTINCT FROM (s.rating, s.games, s.kind,
  s.activity)
       OR (s.r2400 AND NOT r.reached_2400) OR (s.r2200 AND NOT r.reached_2200))"""


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
        cursor.execute(_STAGE_SQL, {**limits, "system": system.pk})
        timer.step("staged")
        cursor.execute(_SUMMARY_SQL)
        rows_count, new, complete, missing, changed, bad, duplicated = cursor.fetchone()
        if bad or duplicated:
            cursor.execute(_PROBLEMS_SQL, limits)
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
            cursor.execute(_FED_ID_TAKEN_SQL, params)
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
            cursor.execute(_COMPLETE_SQL)
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
                            _INSERT_PLAYERS_SQL,
                            [params["first"], params["first_row"], params["prefix"]],
                        )
                    timer.step("players inserted")
                cursor.execute(_INSERT_RATINGS_SQL, params)
                written += cursor.rowcount
                timer.step("ratings inserted")
            if deferred:
                timer.step("indexes rebuilt")
        if changed:
            cursor.execute(_UPDATE_RATINGS_SQL, params)
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
