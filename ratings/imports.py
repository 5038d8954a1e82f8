"""Import an existing rating list (FIDE TXT or CSV) so a federation starts from its ratings.

``list_import(*, system, data, format)`` reads the file, checks every row and, only when no
row has a problem, writes in one transaction:

- players_player, matched by FIDE ID. A new player gets ``fed_id = "FIDE-<FIDE ID>"`` and
  its ``name_key`` from players.names.fold (computed in Python while staging). An existing
  player keeps its registry data; only a missing birth year or title is filled in.
- ratings_playerrating for ``system``: rating (0 or blank = none), games, kind
  (effective / unrated), activity (flag ``i`` = inactive), reached_2400 / reached_2200.

PostgreSQL: COPY into a TEMP staging table, validation in SQL, then UPDATE … FROM and
INSERT … SELECT (… ON CONFLICT for the ratings). SQLite: the same checks in Python
(ratings.list_formats.validate_rows) and the ORM. docs/lists.md has the details.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from players.models import Player
from players.names import fold
from ratings import list_formats as lf
from ratings.models import PlayerRating, RatingSystem
from tournaments.reports.problems import Problem

FORMATS = ("txt", "csv")
FED_ID_PREFIX = "FIDE-"
ENGINE_VERSION = "import"


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
    raise ValueError(f"unknown list format {fmt!r}")


def _fail(problems: list[Problem]) -> ListImportError:
    ordered = lf.sort_problems(problems)
    shown = ordered[: lf.MAX_PROBLEMS]
    return ListImportError(shown, total=len(ordered))


def list_import(*, system: RatingSystem, data: bytes, format: str) -> ListImportResult:
    fmt = format.lower()
    text = decode_list(data)
    if fmt not in FORMATS:
        raise ValueError(f"unknown list format {fmt!r}")
    if connection.vendor == "postgresql":
        return _import_postgresql(system=system, text=text, fmt=fmt)
    header_problems, raw_rows = _read(text, fmt, _rate(system))
    if header_problems:
        raise _fail(header_problems)
    return _import_python(system=system, raw_rows=raw_rows)


# ---------------------------------------------------------------------------------------------
# SQLite (and any other database): Python checks and the ORM.


def _new_fed_id(fide_id: int) -> str:
    return f"{FED_ID_PREFIX}{fide_id}"


_COMPARED = ("rating", "games", "kind", "activity", "reached_2400", "reached_2200")


def _import_python(*, system: RatingSystem, raw_rows: Iterable[lf.RawRow]) -> ListImportResult:
    raw = list(raw_rows)
    rows, problems = lf.validate_rows(raw)
    labels = raw[0].labels if raw else {}
    if problems:
        raise _fail(problems)
    existing = dict(Player.objects.filter(fide_id__isnull=False).values_list("fide_id", "id"))
    new_rows = [(raw_row.row, row) for raw_row, row in zip(raw, rows, strict=True)
                if row.fide_id not in existing]
    taken = set(Player.objects.filter(
        fed_id__in=[_new_fed_id(r.fide_id) for _n, r in new_rows if r.fide_id is not None]
    ).values_list("fed_id", flat=True))
    clashes = [lf.problem("fed_id_taken", row=n, column=labels.get("fide_id", "ID"),
                          value=_new_fed_id(r.fide_id))
               for n, r in new_rows if r.fide_id is not None and _new_fed_id(r.fide_id) in taken]
    if clashes:
        raise _fail(clashes)
    now = timezone.now()
    with transaction.atomic():
        created = []
        for _n, r in new_rows:
            surname, given = lf.split_name(r.name)
            created.append(Player(
                fed_id=_new_fed_id(r.fide_id or 0), surname=surname, given_name=given, sex=r.sex,
                birth_year=r.birth_year, federation=r.fed, title=r.title, fide_id=r.fide_id,
                name_key=name_key(surname, given), created_at=now, updated_at=now,
            ))
        Player.objects.bulk_create(created, batch_size=500)
        by_fide = {r.fide_id: r for r in rows}
        changed = []
        for p in Player.objects.filter(fide_id__in=list(existing)).only("id", "fide_id",
                                                                          "birth_year", "title"):
            r = by_fide.get(p.fide_id)
            if r is None:
                continue
            dirty = False
            if p.birth_year is None and r.birth_year is not None:
                p.birth_year, dirty = r.birth_year, True
            if not p.title and r.title:
                p.title, dirty = r.title, True
            if dirty:
                p.updated_at = now
                changed.append(p)
        if changed:
            Player.objects.bulk_update(changed, ["birth_year", "title", "updated_at"], batch_size=500)
        ids = dict(Player.objects.filter(fide_id__in=list(by_fide)).values_list("fide_id", "id"))
        current = {pr.player_id: pr for pr in PlayerRating.objects.filter(system=system,
                                                                           player_id__in=ids.values())}
        ratings = []
        for r in rows:
            pid = ids[r.fide_id]
            old = current.get(pid)
            rated = r.rating is not None
            new = PlayerRating(
                player_id=pid, system=system, rating=r.rating, games=r.games,
                kind="effective" if rated else "unrated",
                activity="inactive" if "i" in r.flag else "active",
                reached_2400=(old is not None and old.reached_2400) or (rated and r.rating >= 2400),
                reached_2200=(old is not None and old.reached_2200) or (rated and r.rating >= 2200),
                ruleset=system.ruleset, engine_version=ENGINE_VERSION,
            )
            if old is not None and all(getattr(old, f) == getattr(new, f) for f in _COMPARED):
                continue
            ratings.append(new)
        PlayerRating.objects.bulk_create(
            ratings, batch_size=500, update_conflicts=True, unique_fields=["player", "system"],
            update_fields=["rating", "games", "kind", "activity", "reached_2400", "reached_2200",
                           "ruleset", "engine_version", "updated_at"],
        )
    return ListImportResult(rows=len(rows), players_created=len(created),
                            players_updated=len(changed), ratings_written=len(ratings),
                            method="python")


# ---------------------------------------------------------------------------------------------
# PostgreSQL: COPY into a staging table, validate in SQL, write set-based.

_STAGE_COLUMNS = ("row_no", "fide_id", "surname", "given_name", "fed", "sex", "title", "rating",
                  "games", "k", "birth", "flag", "name_key")
_READ_FIELDS = ("fide_id", "name", "fed", "sex", "title", "rating", "games", "k", "birth_year",
                "flag")
_ESCAPE = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_ASCII_SEPARATORS = re.compile(r"[\s,.;'`\-]+")


def name_key(surname: str, given_name: str) -> str:
    """players.names.full_name_key, with a shortcut for ASCII names (same result: NFKD and
    the accent/ß/ª/º rules change nothing in ASCII, and casefold() is lower() there)."""
    text = f"{surname} {given_name}"
    if text.isascii():
        return _ASCII_SEPARATORS.sub(" ", text.lower()).strip()
    return fold(text)


def _tuples(text: str, fmt: str, rate: str):
    """(problems, labels, iterator of (row, [values in _READ_FIELDS order]))."""
    if fmt == "txt":
        return lf.read_txt_tuples(text, fields=_READ_FIELDS, rate=rate)
    problems, raw_rows = _read(text, fmt, rate)
    raw_rows = iter(raw_rows)
    first = next(raw_rows, None)
    labels = dict(first.labels) if first else {}

    def rows():
        if first is None:
            return
        for raw in itertools.chain([first], raw_rows):
            yield raw.row, [raw.values.get(f, "") for f in _READ_FIELDS]

    return problems, labels, rows()


def _stage_lines(rows: Iterable[tuple[int, list[str]]]) -> Iterator[str]:
    """COPY text-format lines; names split and keyed here (name_key, see name_key())."""
    split, title_of, sex_of, key = lf.split_name, lf.normal_title, lf.normal_sex, name_key
    for row, (fide_id, name, fed, sex, title, rating, games, k, birth, flag) in rows:
        surname, given = split(name)
        values = (str(row), fide_id, surname, given, fed.upper(), sex_of(sex, flag),
                  title_of(title), rating, games, k, birth, flag, key(surname, given))
        line = "\t".join(values)
        if "\\" in line or line.count("\t") != 12:
            line = "\t".join(x.translate(_ESCAPE) for x in values)
        yield line + "\n"


# Raw text -> typed values, with a NULL where the text is not a number (the checks below).
# "Digits only" is ltrim(x, digits) = '' (cheaper than a regular expression); OFFSET 0 keeps
# PostgreSQL from inlining the subquery, so each value is checked once.
def _digits(col: str, most: int) -> str:
    return f"(length({col}) BETWEEN 1 AND {most} AND ltrim({col}, '0123456789') = '')"


_CHECKED = f"""(SELECT row_no, fide_id AS fide_raw,
  CASE WHEN {_digits("fide_id", 18)} THEN fide_id::bigint END AS fide_id,
  rating AS rating_raw, CASE WHEN {_digits("rating", 9)} THEN rating::int END AS rating,
  games AS games_raw, CASE WHEN {_digits("games", 9)} THEN games::int END AS games,
  k AS k_raw, CASE WHEN {_digits("k", 9)} THEN k::int END AS k,
  birth AS birth_raw, CASE WHEN {_digits("birth", 9)} THEN birth::int END AS birth_year,
  flag AS flag_raw, lower(flag) AS flag, fed FROM list_stage OFFSET 0)"""

_BAD_ROW = """(fide_id IS NULL
  OR (rating IS NULL AND rating_raw <> '') OR (rating <> 0 AND rating NOT BETWEEN %(rmin)s AND %(rmax)s)
  OR (games IS NULL AND games_raw <> '') OR (k IS NULL AND k_raw <> '')
  OR (birth_year IS NULL AND birth_raw <> '')
  OR (birth_year <> 0 AND birth_year NOT BETWEEN %(bmin)s AND %(bmax)s)
  OR flag NOT IN ('', 'i', 'w', 'wi') OR length(fed) > 3)"""

_VALIDATION_SQL = f"""
SELECT row_no, code, fld, value, first, count(*) OVER () FROM (
  SELECT b.row_no, v.code, v.fld, v.value, NULL::int AS first
  FROM (SELECT * FROM {_CHECKED} c WHERE {_BAD_ROW}) b, LATERAL (VALUES
    (CASE WHEN fide_raw = '' THEN 'missing_id' WHEN fide_id IS NULL THEN 'bad_number' END,
     'fide_id', fide_raw),
    (CASE WHEN rating IS NULL AND rating_raw <> '' THEN 'bad_number'
          WHEN rating <> 0 AND rating NOT BETWEEN %(rmin)s AND %(rmax)s
          THEN 'rating_out_of_range' END, 'rating', rating_raw),
    (CASE WHEN games IS NULL AND games_raw <> '' THEN 'bad_number' END, 'games', games_raw),
    (CASE WHEN k IS NULL AND k_raw <> '' THEN 'bad_number' END, 'k', k_raw),
    (CASE WHEN birth_year IS NULL AND birth_raw <> '' THEN 'bad_number'
          WHEN birth_year <> 0 AND birth_year NOT BETWEEN %(bmin)s AND %(bmax)s
          THEN 'birth_out_of_range' END, 'birth_year', birth_raw),
    (CASE WHEN flag NOT IN ('', 'i', 'w', 'wi') THEN 'bad_flag' END, 'flag', flag_raw),
    (CASE WHEN length(fed) > 3 THEN 'bad_federation' END, 'fed', fed)
  ) v(code, fld, value) WHERE v.code IS NOT NULL
  UNION ALL
  SELECT row_no, 'duplicate_id', 'fide_id', id::text, first FROM (
    SELECT row_no, id, min(row_no) OVER (PARTITION BY id) AS first FROM (
      SELECT row_no, CASE WHEN {_digits("fide_id", 18)} THEN fide_id::bigint END AS id
      FROM list_stage) i WHERE id IS NOT NULL) d
  WHERE row_no > first
) e ORDER BY row_no, code COLLATE "C" LIMIT %(limit)s
"""

# Once every row passed the checks, the casts are safe.
_TYPED = """(SELECT row_no, fide_id::bigint AS fide_id, surname, given_name, fed, sex, title,
  NULLIF(NULLIF(rating, '')::int, 0) AS rating, COALESCE(NULLIF(games, '')::int, 0) AS games,
  NULLIF(NULLIF(birth, '')::int, 0) AS birth_year, lower(flag) AS flag, name_key
  FROM list_stage)"""

# The new state of each row, joined to its player (after the players are written).
_NEW_RATINGS = """(SELECT p.id AS player_id, NULLIF(t.rating, 0) AS rating,
  COALESCE(t.games, 0) AS games,
  CASE WHEN NULLIF(t.rating, 0) IS NULL THEN 'unrated' ELSE 'effective' END AS kind,
  CASE WHEN position('i' in t.flag) > 0 THEN 'inactive' ELSE 'active' END AS activity,
  COALESCE(t.rating >= 2400, false) AS r2400, COALESCE(t.rating >= 2200, false) AS r2200
  FROM """ + _TYPED + """ t JOIN players_player p ON p.fide_id = t.fide_id)"""


_DEFAULT_LABELS = {"fide_id": "ID", "rating": "Rating", "games": "Games", "k": "K",
                   "birth_year": "B-day", "flag": "Flag", "fed": "Fed"}


def _problems_from(rows: list[tuple], labels: dict[str, str]) -> list[Problem]:  # type: ignore[type-arg]
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


def _copy_in(cursor, sql: str, lines: Iterable[str], block: int = 1 << 20) -> None:
    with cursor.copy(sql) as copy:
        buf: list[str] = []
        size = 0
        for line in lines:
            buf.append(line)
            size += len(line)
            if size >= block:
                copy.write("".join(buf))
                buf.clear()
                size = 0
        if buf:
            copy.write("".join(buf))


def _import_postgresql(*, system: RatingSystem, text: str, fmt: str) -> ListImportResult:
    header_problems, labels, rows = _tuples(text, fmt, _rate(system))
    if header_problems:
        raise _fail(header_problems)
    limits = {"rmin": lf.RATING_MIN, "rmax": lf.RATING_MAX, "bmin": lf.BIRTH_MIN,
              "bmax": lf.BIRTH_MAX, "limit": lf.MAX_PROBLEMS}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS list_stage")
        # Bulk work in one transaction: room to hash/sort 500,000 rows in memory, and no JIT
        # compilation (it costs more than it saves on these one-pass queries).
        cursor.execute("SET LOCAL work_mem = '256MB'; SET LOCAL jit = off")
        cursor.execute(
            "CREATE TEMP TABLE list_stage (row_no integer, fide_id text, surname text, "
            "given_name text, fed text, sex text, title text, rating text, games text, k text, "
            "birth text, flag text, name_key text) ON COMMIT DROP"
        )
        _copy_in(cursor.cursor, f"COPY list_stage ({', '.join(_STAGE_COLUMNS)}) FROM STDIN",
                 _stage_lines(rows))
        cursor.execute("ANALYZE list_stage")
        cursor.execute("SELECT count(*) FROM list_stage")
        rows_count = cursor.fetchone()[0]
        cursor.execute(_VALIDATION_SQL, limits)
        found = cursor.fetchall()
        if found:
            raise ListImportError(_problems_from(found, labels), total=found[0][5])
        # A new player's derived fed_id must be free.
        cursor.execute(
            f"SELECT t.row_no, 'fed_id_taken', 'fide_id', %s || t.fide_id, NULL FROM {_TYPED} t"
            " JOIN players_player q ON q.fed_id = %s || t.fide_id"
            " WHERE NOT EXISTS (SELECT 1 FROM players_player p WHERE p.fide_id = t.fide_id)"
            " ORDER BY 1 LIMIT %s",
            [FED_ID_PREFIX, FED_ID_PREFIX, lf.MAX_PROBLEMS],
        )
        clashes = cursor.fetchall()
        if clashes:
            raise ListImportError(_problems_from(clashes, labels))
        cursor.execute(
            "UPDATE players_player p SET birth_year = COALESCE(p.birth_year, NULLIF(t.birth_year, 0)),"
            " title = CASE WHEN p.title = '' THEN t.title ELSE p.title END, updated_at = now()"
            f" FROM {_TYPED} t WHERE p.fide_id = t.fide_id AND ("
            " (p.birth_year IS NULL AND NULLIF(t.birth_year, 0) IS NOT NULL)"
            " OR (p.title = '' AND t.title <> ''))"
        )
        updated = cursor.rowcount
        cursor.execute(
            "INSERT INTO players_player (fed_id, surname, given_name, sex, birth_year, club,"
            " region, federation, title, fide_id, affiliated, name_key, created_at, updated_at)"
            " SELECT %s || t.fide_id, t.surname, t.given_name, t.sex, NULLIF(t.birth_year, 0),"
            f" '', '', t.fed, t.title, t.fide_id, true, t.name_key, now(), now() FROM {_TYPED} t"
            " WHERE NOT EXISTS (SELECT 1 FROM players_player p WHERE p.fide_id = t.fide_id)"
            " ORDER BY t.row_no",
            [FED_ID_PREFIX],
        )
        created = cursor.rowcount
        params = {"system": system.pk, "ruleset": system.ruleset, "engine": ENGINE_VERSION}
        cursor.execute(
            "UPDATE ratings_playerrating r SET rating = n.rating, games = n.games, kind = n.kind,"
            " activity = n.activity, reached_2400 = r.reached_2400 OR n.r2400,"
            " reached_2200 = r.reached_2200 OR n.r2200, ruleset = %(ruleset)s,"
            f" engine_version = %(engine)s, updated_at = now() FROM {_NEW_RATINGS} n"
            " WHERE r.player_id = n.player_id AND r.system_id = %(system)s"
            " AND ((r.rating, r.games, r.kind, r.activity) IS DISTINCT FROM"
            " (n.rating, n.games, n.kind, n.activity)"
            " OR (n.r2400 AND NOT r.reached_2400) OR (n.r2200 AND NOT r.reached_2200))",
            params,
        )
        written = cursor.rowcount
        cursor.execute(
            "INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind, activity,"
            " out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset,"
            " engine_version, updated_at)"
            " SELECT n.player_id, %(system)s, n.rating, n.games, n.kind, n.activity, false,"
            f" n.r2400, n.r2200, 0, '[]'::jsonb, %(ruleset)s, %(engine)s, now() FROM {_NEW_RATINGS} n"
            " WHERE NOT EXISTS (SELECT 1 FROM ratings_playerrating r"
            " WHERE r.player_id = n.player_id AND r.system_id = %(system)s)",
            params,
        )
        written += cursor.rowcount
        cursor.execute("DROP TABLE list_stage")
    return ListImportResult(rows=rows_count, players_created=created, players_updated=updated,
                            ratings_written=written, method="copy")
