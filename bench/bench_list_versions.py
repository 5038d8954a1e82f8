"""Issue 27 item 1, the prototype that chose how a list version is stored: (a) as its changes over
the previous version, unchanged entries shared, or (b) full entries with their ranks and filter
columns computed in the same statement. Prints the figures; changes nothing (one transaction,
rolled back).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth_h3 \\
        .venv/bin/python bench/bench_list_versions.py

Needs two published lists of one system (``bench/bench_period.py --months 2``). The newest list
(N) is written again, from a temporary copy of its rows, into scratch tables shaped as each
option stores it; the list in force before its period (P, the newest version of the previous
list date) is the base the changes are taken against.

- today: entries (the entries' indexes), then the ranks task's two statements (ListRank, then
  ListFilterRow with its seven indexes), each reading the entries back joined to the players.
- (b): one INSERT … SELECT of the entries with four rank() windows and the filter columns, into
  one table carrying the entries' and the filter rows' indexes.
- (a): the changed entries only (INSERT), the superseded ones closed (an UPDATE of their "valid
  to" version: stored rows change), and the ranks, which cannot be shared (a changed rating
  moves the national rank of every entry below it): one ListRank row per entry again.
  Reads: the first page and page 2,000 by rating, and one player's entry, for (a) through the
  validity range, for (b) through the (list, rating) index.
Scratch tables are ordinary (logged) tables, as the real ones are, dropped by the rollback.
- floors: bare COPY of the same rows into an empty table with the same indexes.
"""

from __future__ import annotations

import functools
import io
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

LIKE = "INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING INDEXES"
ACTIVE = "ARRAY['rated','new','provisional']::varchar[]"
ENTRY_COLS = (
    "published_list_id, player_id, rating, change, k, games, total_games, status, inactive, "
    "provisional, ruleset, engine_version, regulation_version, inactive_lists, section, title, "
    "federation, region, club, birth_date, birth_year"
)
WIDE_EXTRA = (
    "rank_national integer, rank_region integer, rank_club integer, rank_active integer, "
    "name_key varchar(250), sex varchar(1), active boolean"
)
FILTER_INDEXES = [
    "(published_list_id, {f}, rating DESC NULLS LAST, player_id{rest})".format(
        f=f, rest="".join(f", {r}" for r in ("active", "birth_year") if r != f)
    )
    for f in ("region", "club", "sex", "active")
] + [
    "(published_list_id, birth_year, rating, player_id, active)",
    "(published_list_id, name_key, player_id)",
]


#: What ratings 0030 chose: the (list, rating, player) index carries the filter columns after
#: its key, and the name sort has its own index.
LEAN = [
    "(published_list_id, rating DESC NULLS LAST, player_id, active, sex, birth_year, region, club)",
    "(published_list_id, name_key, player_id)",
]


def main() -> None:
    import django

    django.setup()
    from django.db import connection, transaction

    with connection.cursor() as cur:
        cur.execute(
            "SELECT id, period_id FROM ratings_publishedlist ORDER BY list_date DESC, version DESC "
            "LIMIT 1"
        )
        newest, _period = cur.fetchone()
        # The list in force before N's period: the newest version of an earlier list date.
        cur.execute(
            "SELECT p.id FROM ratings_publishedlist p JOIN ratings_publishedlist n ON n.id = %s "
            "WHERE p.system_id = n.system_id AND p.list_date < n.list_date "
            "ORDER BY p.list_date DESC, p.version DESC LIMIT 1",
            [newest],
        )
        previous = cur.fetchone()[0]
    print(f"list N = {newest}, previous P = {previous}; load {os.getloadavg()[0]:.1f}")

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic(), connection.cursor() as cur:
            run(cur, newest, previous)
            raise Rollback
    except Rollback:
        pass


#: ratings 0030 (the option chosen) added these to the entries; the scratch tables of "today"
#: and (a) are the entries without them (their indexes go with them), as before 0030.
ISSUE_27_COLUMNS = "rank_national, rank_region, rank_club, rank_active, name_key, sex, active"


def timed(label: str, fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    took = time.perf_counter() - started
    print(f"  {label}: {took:.2f} s", flush=True)
    return took


def copy_rows(cur: Any, select_sql: str) -> str:
    buf = io.StringIO()
    with cur.cursor.copy(f"COPY ({select_sql}) TO STDOUT") as copy:
        for block in copy:
            buf.write(bytes(block).decode())
    return buf.getvalue()


def copy_in(cur: Any, table: str, columns: str, data: str) -> None:
    with cur.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        copy.write(data)


def run(cur: Any, newest: int, previous: int) -> None:
    ex = cur.execute
    ex("SET LOCAL work_mem = '64MB'")
    # The new version's rows, as the publication computes them (the source of every option).
    ex(
        f"CREATE TEMP TABLE src ON COMMIT DROP AS SELECT {ENTRY_COLS} FROM ratings_listentry "
        "WHERE published_list_id = %s",
        [newest],
    )
    ex("ANALYZE src")
    ex("SELECT count(*) FROM src")
    total = cur.fetchone()[0]
    changed_sql = f"""SELECT s.* FROM src s LEFT JOIN ratings_listentry o
        ON o.published_list_id = {previous} AND o.player_id = s.player_id
        WHERE o.player_id IS NULL OR (s.rating, s.change, s.k, s.games, s.total_games, s.status,
        s.inactive, s.provisional, s.inactive_lists, s.section, s.title, s.region, s.club)
        IS DISTINCT FROM (o.rating, o.change, o.k, o.games, o.total_games, o.status, o.inactive,
        o.provisional, o.inactive_lists, o.section, o.title, o.region, o.club)"""
    ex(f"CREATE TEMP TABLE changed ON COMMIT DROP AS {changed_sql}")
    ex("SELECT count(*) FROM changed")
    n_changed = cur.fetchone()[0]
    print(f"entries {total:,}; changed over P {n_changed:,} ({100 * n_changed / total:.0f} %)")

    def scratch(name: str, like: str, indexes: list[str] | None = None) -> None:
        ex(f"CREATE TABLE {name} (LIKE {like} {LIKE})")
        if like == "ratings_listentry":
            drop = ", ".join(f"DROP COLUMN IF EXISTS {c}" for c in ISSUE_27_COLUMNS.split(", "))
            ex(f"ALTER TABLE {name} {drop}")
            ex(
                f"CREATE INDEX IF NOT EXISTS {name}_rating ON {name} "
                "(published_list_id, rating DESC NULLS LAST, player_id)"
            )
        for i, cols in enumerate(indexes or []):
            ex(f"CREATE INDEX {name}_f{i} ON {name} {cols}")

    # ---------------------------------------------------------------- today: three writes
    print("today (publication + the ranks task):")
    scratch("t_entries", "ratings_listentry")
    scratch("t_ranks", "ratings_listrank")
    scratch("t_rows", "ratings_listfilterrow")
    t_e = timed(
        "entries",
        lambda: ex(
            f"INSERT INTO t_entries ({ENTRY_COLS}) SELECT {ENTRY_COLS} FROM src ORDER BY player_id"
        ),
    )
    t_r = timed(
        "ranks (ListRank)",
        lambda: ex(f"""INSERT INTO t_ranks (published_list_id, player_id, national, region, club,
            active) SELECT published_list_id, player_id, rank() OVER (ORDER BY rating DESC),
            CASE WHEN region <> '' THEN rank() OVER (PARTITION BY region ORDER BY rating DESC) END,
            CASE WHEN club <> '' THEN rank() OVER (PARTITION BY club ORDER BY rating DESC) END,
            CASE WHEN active THEN rank() OVER (PARTITION BY active ORDER BY rating DESC) END
            FROM (SELECT e.published_list_id, e.player_id, e.rating, p.region, p.club,
                  (NOT e.inactive AND e.status = ANY({ACTIVE})) AS active
                  FROM t_entries e JOIN players_player p ON p.id = e.player_id
                  WHERE e.rating IS NOT NULL) r"""),
    )
    t_f = timed(
        "filter rows (ListFilterRow)",
        lambda: ex(f"""INSERT INTO t_rows (published_list_id, player_id, rating, change, games,
            name_key, region, club, sex, title, birth_year, active)
            SELECT e.published_list_id, e.player_id, e.rating, e.change, e.games, p.name_key,
            p.region, p.club, p.sex, p.title, p.birth_year,
            (NOT e.inactive AND e.status = ANY({ACTIVE}))
            FROM t_entries e JOIN players_player p ON p.id = e.player_id"""),
    )
    print(f"  total {t_e + t_r + t_f:.2f} s")

    # ---------------------------------------------------------------- (b) one statement
    print("(b) full entries, ranks and filter columns in one statement:")
    wide_cols = (
        f"{ENTRY_COLS}, rank_national, rank_region, rank_club, rank_active, name_key, sex, active"
    )
    wide_select = f"""SELECT {ENTRY_COLS}, rank_national, rank_region, rank_club, rank_active,
        name_key, sex, active FROM (
        SELECT s.*, p.name_key, p.sex, (NOT s.inactive AND s.status = ANY({ACTIVE})) AS active,
            CASE WHEN s.rating IS NOT NULL THEN rank() OVER (PARTITION BY s.rating IS NULL
                ORDER BY s.rating DESC) END AS rank_national,
            CASE WHEN s.rating IS NOT NULL AND s.region <> '' THEN rank() OVER (PARTITION BY
                s.rating IS NULL, s.region ORDER BY s.rating DESC) END AS rank_region,
            CASE WHEN s.rating IS NOT NULL AND s.club <> '' THEN rank() OVER (PARTITION BY
                s.rating IS NULL, s.club ORDER BY s.rating DESC) END AS rank_club,
            CASE WHEN s.rating IS NOT NULL AND NOT s.inactive AND s.status = ANY({ACTIVE})
                THEN rank() OVER (PARTITION BY s.rating IS NULL, NOT s.inactive AND s.status =
                ANY({ACTIVE}) ORDER BY s.rating DESC) END AS rank_active
        FROM src s JOIN players_player p ON p.id = s.player_id) w ORDER BY player_id"""
    variants: list[tuple[str, str, list[str]]] = [
        ("with the six filter indexes (ListFilterRow's)", "b_6", FILTER_INDEXES),
        ("lean: filter columns after the rating index's key, and a name index", "b_lean", LEAN),
        ("with no filter index", "b_0", []),
    ]
    for label, name, indexes in variants:
        scratch(name, "ratings_listentry")
        if indexes is LEAN:
            ex(f"DROP INDEX {name}_rating")
        ex(f"ALTER TABLE {name} " + ", ".join(f"ADD COLUMN {c}" for c in WIDE_EXTRA.split(", ")))
        for i, cols in enumerate(indexes):
            ex(f"CREATE INDEX {name}_f{i} ON {name} {cols}")
        insert_sql = f"INSERT INTO {name} ({wide_cols}) {wide_select}"
        t_b = timed(f"{label}: INSERT … SELECT", functools.partial(ex, insert_sql))
        data = copy_rows(cur, f"SELECT {wide_cols} FROM {name}")
        floor = f"{name}_floor"
        ex(f"CREATE TABLE {floor} (LIKE {name} {LIKE})")
        t_fl = timed(
            f"{label}: floor, bare COPY of the same rows",
            functools.partial(copy_in, cur, floor, wide_cols, data),
        )
        print(f"  ratio {t_b / t_fl:.1f}x")
    entries_data = copy_rows(cur, f"SELECT {ENTRY_COLS} FROM t_entries")
    scratch("t_floor", "ratings_listentry")
    timed(
        "today's entries alone: floor, bare COPY",
        lambda: copy_in(cur, "t_floor", ENTRY_COLS, entries_data),
    )

    # ---------------------------------------------------------------- (a) changes only
    print("(a) changes over P, unchanged entries shared:")
    scratch("a_entries", "ratings_listentry")
    ex("ALTER TABLE a_entries ADD COLUMN valid_from bigint, ADD COLUMN valid_to bigint")
    ex("CREATE INDEX a_valid ON a_entries (player_id, valid_from, valid_to)")
    ex("CREATE INDEX a_rating ON a_entries (rating DESC NULLS LAST, player_id)")
    ex(
        f"INSERT INTO a_entries ({ENTRY_COLS}, valid_from, valid_to) SELECT {ENTRY_COLS}, "
        f"%s, 9223372036854775807 FROM ratings_listentry WHERE published_list_id = %s",
        [previous, previous],
    )
    ex("ANALYZE a_entries")
    t_close = timed(
        "superseded entries closed (UPDATE valid_to)",
        lambda: ex(
            "UPDATE a_entries a SET valid_to = %s FROM changed c WHERE a.player_id = c.player_id "
            "AND a.valid_to = 9223372036854775807",
            [newest],
        ),
    )
    t_ins = timed(
        "changed entries (INSERT)",
        lambda: ex(
            f"INSERT INTO a_entries ({ENTRY_COLS}, valid_from, valid_to) SELECT {ENTRY_COLS}, "
            "%s, 9223372036854775807 FROM changed ORDER BY player_id",
            [newest],
        ),
    )
    scratch("a_ranks", "ratings_listrank")
    t_ar = timed(
        "ranks of every entry (not shareable)",
        lambda: ex(
            f"""INSERT INTO a_ranks (published_list_id, player_id, national, region, club,
            active) SELECT %s, player_id, rank() OVER (ORDER BY rating DESC),
            CASE WHEN region <> '' THEN rank() OVER (PARTITION BY region ORDER BY rating DESC) END,
            CASE WHEN club <> '' THEN rank() OVER (PARTITION BY club ORDER BY rating DESC) END,
            CASE WHEN active THEN rank() OVER (PARTITION BY active ORDER BY rating DESC) END
            FROM (SELECT player_id, rating, region, club,
                  (NOT inactive AND status = ANY({ACTIVE})) AS active FROM a_entries
                  WHERE valid_from <= %s AND valid_to > %s AND rating IS NOT NULL) r""",
            [newest, newest, newest],
        ),
    )
    print(f"  total {t_close + t_ins + t_ar:.2f} s (entries alone {t_close + t_ins:.2f} s)")

    print("reads (median of 5):")

    def read(label: str, sql: str, params: list[Any]) -> None:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            ex(sql, params)
            cur.fetchall()
            times.append(time.perf_counter() - started)
        print(f"  {label}: {1000 * sorted(times)[2]:.1f} ms")

    ex("ANALYZE a_entries")
    ex("ANALYZE b_6")
    for offset in (0, 200_000):
        read(
            f"(b) page by rating, offset {offset:,}",
            "SELECT player_id, rating FROM b_6 WHERE published_list_id = %s ORDER BY rating DESC "
            "NULLS LAST, player_id OFFSET %s LIMIT 100",
            [newest, offset],
        )
        read(
            f"(a) page by rating, offset {offset:,}",
            "SELECT player_id, rating FROM a_entries WHERE valid_from <= %s AND valid_to > %s "
            "ORDER BY rating DESC NULLS LAST, player_id OFFSET %s LIMIT 100",
            [newest, newest, offset],
        )
    ex("ANALYZE b_lean")
    ex(
        "SELECT region FROM src WHERE region <> '' GROUP BY region ORDER BY count(*) LIMIT 1 "
        "OFFSET 3"
    )
    region = cur.fetchone()[0]
    filtered = [
        (f"region ~ {region!r}, page 1", "upper(region) LIKE upper(%s)", f"%{region[1:-1]}%", 0),
        (f"region ~ {region!r}, count", "upper(region) LIKE upper(%s)", f"%{region[1:-1]}%", -1),
        ("women, page 20", "sex = %s", "F", 1900),
        ("active juniors (born 2007+), page 5", "active AND birth_year >= %s", 2007, 400),
    ]
    for table in ("b_6", "b_lean"):
        for label, condition, value, offset in filtered:
            if offset < 0:
                sql = f"SELECT count(*) FROM {table} WHERE published_list_id = %s AND {condition}"
                params: list[Any] = [newest, value]
            else:
                sql = (
                    f"SELECT player_id FROM {table} WHERE published_list_id = %s AND {condition} "
                    "ORDER BY rating DESC NULLS LAST, player_id OFFSET %s LIMIT 100"
                )
                params = [newest, value, offset]
            read(f"({table}) {label}", sql, params)
        read(
            f"({table}) by name, page 200",
            f"SELECT player_id FROM {table} WHERE published_list_id = %s ORDER BY name_key, "
            "player_id OFFSET 19900 LIMIT 100",
            [newest],
        )
    ex("SELECT player_id FROM changed ORDER BY player_id LIMIT 1 OFFSET 1000")
    player = cur.fetchone()[0]
    read(
        "(b) one player's entry",
        "SELECT * FROM b_6 WHERE published_list_id = %s AND player_id = %s",
        [newest, player],
    )
    read(
        "(a) one player's entry",
        "SELECT * FROM a_entries WHERE player_id = %s AND valid_from <= %s AND valid_to > %s",
        [player, newest, newest],
    )


if __name__ == "__main__":
    main()
