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


def list_import(*, system: RatingSystem, data: bytes, format: str) -> ListImportResult:  # noqa: A002
    fmt = format.lower()
    text = decode_list(data)
    header_problems, raw_rows = _read(text, fmt, _rate(system))
    if header_problems:
        raise _fail(header_problems)
    if connection.vendor == "postgresql":
        return _import_postgresql(system=system, raw_rows=raw_rows)
    return _import_python(system=system, raw_rows=raw_rows)


# ---------------------------------------------------------------------------------------------
# SQLite (and any other database): Python checks and the ORM.


def _new_fed_id(fide_id: int) -> str:
    return f"{FED_ID_PREFIX}{fide_id}"


def _import_python(*, system: RatingSystem, raw_rows: Iterable[lf.RawRow]) -> ListImportResult:
    raw = list(raw_rows)
    rows, problems = lf.validate_rows(raw)
    labels = raw[0].labels if raw else {}
    if problems:
        raise _fail(problems)
    existing = dict(Player.objects.filter(fide_id__isnull=False).values_list("fide_id", "id"))
    new_rows = [(raw_row.row, row) for raw_row, row in zip(raw, rows)
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
                name_key=fold(f"{surname} {given}"), created_at=now, updated_at=now,
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
            ratings.append(PlayerRating(
                player_id=pid, system=system, rating=r.rating, games=r.games,
                kind="effective" if rated else "unrated",
                activity="inactive" if "i" in r.flag else "active",
                reached_2400=(old is not None and old.reached_2400) or (rated and r.rating >= 2400),
                reached_2200=(old is not None and old.reached_2200) or (rated and r.rating >= 2200),
                ruleset=system.ruleset, engine_version=ENGINE_VERSION,
            ))
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
_ESCAPE = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_NUM = r"'^[0-9]{1,9}$'"
_ID = r"'^[0-9]{1,18}$'"


def _stage_lines(raw_rows: Iterable[lf.RawRow], labels_out: dict[str, str]) -> Iterator[str]:
    """COPY text-format lines; names split and folded here (name_key = players.names.fold)."""
    split, title_of, sex_of = lf.split_name, lf.normal_title, lf.normal_sex
    first = True
    for raw in raw_rows:
        if first:
            labels_out.update(raw.labels)
            first = False
        v = raw.values
        surname, given = split(v.get("name", ""))
        flag = v.get("flag", "")
        values = (str(raw.row), v.get("fide_id", ""), surname, given, v.get("fed", "").upper(),
                  sex_of(v.get("sex", ""), flag), title_of(v.get("title", "")),
                  v.get("rating", ""), v.get("games", ""), v.get("k", ""),
                  v.get("birth_year", ""), flag, fold(f"{surname} {given}"))
        line = "\t".join(values)
        if "\\" in line or line.count("\t") != 12:
            line = "\t".join(x.translate(_ESCAPE) for x in values)
        yield line + "\n"


def _validation_sql() -> str:
    checks = []
    for col, fld in (("fide_id", "fide_id"), ("rating", "rating"), ("games", "games"),
                     ("k", "k"), ("birth", "birth_year")):
        pattern = _ID if col == "fide_id" else _NUM
        checks.append(f"SELECT row_no, 'bad_number', '{fld}', {col}, NULL::int FROM list_stage "
                      f"WHERE {col} <> '' AND {col} !~ {pattern}")
    checks += [
        "SELECT row_no, 'missing_id', 'fide_id', '', NULL FROM list_stage WHERE fide_id = ''",
        f"SELECT row_no, 'rating_out_of_range', 'rating', rating, NULL FROM list_stage "
        f"WHERE CASE WHEN rating ~ {_NUM} THEN rating::int NOT IN (0) AND rating::int NOT "
        f"BETWEEN {lf.RATING_MIN} AND {lf.RATING_MAX} ELSE false END",
        f"SELECT row_no, 'birth_out_of_range', 'birth_year', birth, NULL FROM list_stage "
        f"WHERE CASE WHEN birth ~ {_NUM} THEN birth::int NOT IN (0) AND birth::int NOT "
        f"BETWEEN {lf.BIRTH_MIN} AND {lf.BIRTH_MAX} ELSE false END",
        "SELECT row_no, 'bad_flag', 'flag', flag, NULL FROM list_stage "
        "WHERE lower(flag) NOT IN ('', 'i', 'w', 'wi')",
        "SELECT row_no, 'bad_federation', 'fed', fed, NULL FROM list_stage WHERE length(fed) > 3",
        "SELECT row_no, 'duplicate_id', 'fide_id', id::text, first FROM ("
        f" SELECT row_no, fide_id::bigint AS id, min(row_no) OVER (PARTITION BY fide_id::bigint)"
        f" AS first FROM list_stage WHERE fide_id ~ {_ID}) d WHERE row_no > first",
    ]
    return " UNION ALL ".join(checks)


_DEFAULT_LABELS = {"fide_id": "ID", "rating": "Rating", "games": "Games", "k": "K",
                   "birth_year": "B-day", "flag": "Flag", "fed": "Fed"}


def _problems_from(rows: list[tuple], labels: dict[str, str]) -> list[Problem]:
    out = []
    for row_no, code, fld, value, first in rows:
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


def _copy_in(cursor, sql: str, lines: Iterable[str], block: int = 1 << 20) -> None:  # noqa: ANN001
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


def _import_postgresql(*, system: RatingSystem, raw_rows: Iterable[lf.RawRow]) -> ListImportResult:
    labels: dict[str, str] = {}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS list_stage; DROP TABLE IF EXISTS list_typed")
        cursor.execute(
            "CREATE TEMP TABLE list_stage (row_no integer, fide_id text, surname text, "
            "given_name text, fed text, sex text, title text, rating text, games text, k text, "
            "birth text, flag text, name_key text) ON COMMIT DROP"
        )
        _copy_in(cursor.cursor, f"COPY list_stage ({', '.join(_STAGE_COLUMNS)}) FROM STDIN",
                 _stage_lines(raw_rows, labels))
        cursor.execute(f"SELECT count(*) FROM ({_validation_sql()}) e")
        total = cursor.fetchone()[0]
        if total:
            cursor.execute(f"SELECT * FROM ({_validation_sql()}) e ORDER BY 1, 2 LIMIT %s",
                           [lf.MAX_PROBLEMS])
            raise ListImportError(_problems_from(cursor.fetchall(), labels), total=total)
        cursor.execute(
            "CREATE TEMP TABLE list_typed ON COMMIT DROP AS SELECT row_no, fide_id::bigint AS"
            " fide_id, surname, given_name, fed, sex, title,"
            " NULLIF(NULLIF(rating, '')::int, 0) AS rating, COALESCE(NULLIF(games, '')::int, 0)"
            " AS games, NULLIF(NULLIF(birth, '')::int, 0) AS birth_year, lower(flag) AS flag,"
            " name_key FROM list_stage"
        )
        cursor.execute("SELECT count(*) FROM list_typed")
        rows = cursor.fetchone()[0]
        cursor.execute("ANALYZE list_typed")
        # A new player's derived fed_id must be free.
        cursor.execute(
            "SELECT t.row_no, 'fed_id_taken', 'fide_id', %s || t.fide_id, NULL FROM list_typed t"
            " JOIN players_player q ON q.fed_id = %s || t.fide_id"
            " WHERE NOT EXISTS (SELECT 1 FROM players_player p WHERE p.fide_id = t.fide_id)"
            " ORDER BY 1 LIMIT %s",
            [FED_ID_PREFIX, FED_ID_PREFIX, lf.MAX_PROBLEMS],
        )
        clashes = cursor.fetchall()
        if clashes:
            raise ListImportError(_problems_from(clashes, labels))
        cursor.execute(
            "UPDATE players_player p SET birth_year = COALESCE(p.birth_year, t.birth_year),"
            " title = CASE WHEN p.title = '' THEN t.title ELSE p.title END, updated_at = now()"
            " FROM list_typed t WHERE p.fide_id = t.fide_id AND ("
            " (p.birth_year IS NULL AND t.birth_year IS NOT NULL) OR (p.title = '' AND t.title <> ''))"
        )
        updated = cursor.rowcount
        cursor.execute(
            "INSERT INTO players_player (fed_id, surname, given_name, sex, birth_year, club,"
            " region, federation, title, fide_id, affiliated, name_key, created_at, updated_at)"
            " SELECT %s || t.fide_id, t.surname, t.given_name, t.sex, t.birth_year, '', '', t.fed,"
            " t.title, t.fide_id, true, t.name_key, now(), now() FROM list_typed t"
            " WHERE NOT EXISTS (SELECT 1 FROM players_player p WHERE p.fide_id = t.fide_id)"
            " ORDER BY t.row_no",
            [FED_ID_PREFIX],
        )
        created = cursor.rowcount
        cursor.execute(
            "INSERT INTO ratings_playerrating (player_id, system_id, rating, games, kind, activity,"
            " out_of_list, reached_2400, reached_2200, flagged_lists, prior_results, ruleset,"
            " engine_version, updated_at)"
            " SELECT p.id, %s, t.rating, t.games,"
            " CASE WHEN t.rating IS NULL THEN 'unrated' ELSE 'effective' END,"
            " CASE WHEN position('i' in t.flag) > 0 THEN 'inactive' ELSE 'active' END,"
            " false, COALESCE(t.rating >= 2400, false), COALESCE(t.rating >= 2200, false), 0,"
            " '[]'::jsonb, %s, %s, now()"
            " FROM list_typed t JOIN players_player p ON p.fide_id = t.fide_id"
            " ON CONFLICT (player_id, system_id) DO UPDATE SET rating = EXCLUDED.rating,"
            " games = EXCLUDED.games, kind = EXCLUDED.kind, activity = EXCLUDED.activity,"
            " reached_2400 = ratings_playerrating.reached_2400 OR EXCLUDED.reached_2400,"
            " reached_2200 = ratings_playerrating.reached_2200 OR EXCLUDED.reached_2200,"
            " ruleset = EXCLUDED.ruleset, engine_version = EXCLUDED.engine_version,"
            " updated_at = now()",
            [system.pk, system.ruleset, ENGINE_VERSION],
        )
        written = cursor.rowcount
        cursor.execute("DROP TABLE list_stage; DROP TABLE list_typed")
    return ListImportResult(rows=rows, players_created=created, players_updated=updated,
                            ratings_written=written, method="copy")
