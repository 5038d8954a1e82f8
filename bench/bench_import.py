"""Benchmark of the list import on PostgreSQL: a 500,000-row FIDE TXT list.

    .venv/bin/python bench/bench_import.py [--rows N] [--target system|fide] [--admin-url URL]
        [--scratch NAME] [--keep] [--first-only]

Creates a scratch database (``rating_office_bench_import`` on the server of --admin-url,
default postgres://postgres@127.0.0.1:5432/postgres), applies the migrations, writes a
synthetic list in a temp dir in FIDE's single-list TXT layout, and prints:

- the import into an empty registry (parse + COPY into staging + SQL checks + inserts) up to
  its commit, and the read-only indexes it builds after the commit (core.pg.indexes);
- a second import of the same file (every player matched, nothing to change);
- an import of "next month's" list: the same IDs with new ratings, games and flags;
- the bare COPY of the same file into a one-column plain table: the I/O floor;
- the bare writes of the rows the first import wrote (players, ratings, name words: INSERT …
  SELECT into empty copies of the tables with their primary key, fillfactor and unique
  indexes, no trigger): the floor of the import's writes (write_floor);
- a CPU reference: a fixed pure-Python loop (10,000,000 additions), to compare machines.

``--target system`` (the default) imports into the rating system's ratings (PlayerRating);
``--target fide`` into the players' FIDE standard rating, with a history event per changed
player. The file is read from disk as a stream (lists.imports.source.file_source), as the worker
reads it. The import logs the seconds of each of its steps ("list import: …").

The last line is `import: <s> s, floor <s> s, ratio <x>` (issue 27's form; the import up to
its commit). The scratch database is dropped at the end unless --keep is given.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import scratch_create, scratch_drop

SURNAMES = [
    "García",
    "Martínez",
    "López",
    "Núñez",
    "Pérez",
    "Smith",
    "Ivanov",
    "Kowalski",
    "Müller",
    "Rossi",
    "Silva",
    "Nguyen",
    "Çağlar",
    "O'Neill",
    "Andersson",
    "Ferreira",
]
GIVEN = [
    "José",
    "María",
    "Ana",
    "Jordi",
    "Núria",
    "Dmitry",
    "Anna",
    "Li",
    "João",
    "Inês",
    "Pere",
    "Magnus",
    "Olga",
    "Ali",
    "Søren",
    "Zoë",
]
FEDS = ["ESP", "POR", "RUS", "IND", "GER", "FRA", "ITA", "USA", "BRA", "CHN", "AND"]
TITLES = ["", "", "", "", "", "", "", "", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM"]


def write_list(path: Path, rows: int, seed: int) -> None:
    from formats import lists as lf

    rng = random.Random(seed)

    def gen() -> Iterator[lf.ListRow]:
        for i in range(rows):
            woman = rng.random() < 0.15
            rated = rng.random() < 0.85
            flag = ("w" if woman else "") + ("i" if rng.random() < 0.3 else "")
            yield lf.ListRow(
                fide_id=1_000_000 + i * 7,
                name=f"{rng.choice(SURNAMES)}{i}, {rng.choice(GIVEN)}",
                fed=rng.choice(FEDS),
                sex="F" if woman else "M",
                title=rng.choice(TITLES),
                rating=rng.randint(1000, 2850) if rated else None,
                games=rng.randint(0, 40),
                k=rng.choice([10, 20, 40]),
                birth_year=rng.randint(1930, 2020) if rng.random() < 0.95 else None,
                flag=flag,
            )

    with path.open("w", encoding="utf-8", newline="") as out:
        out.writelines(lf.render_txt(gen(), rating_label="NOV26"))


def cpu_reference() -> float:
    """Seconds of a fixed pure-Python loop: the same work on every machine."""
    t0 = time.perf_counter()
    s = 0
    for i in range(10_000_000):
        s += i
    return time.perf_counter() - t0


#: The tables an import into an empty registry writes, each copied bare (same columns,
#: fillfactor and unique indexes; no trigger, no foreign key, no secondary index).
WRITE_FLOOR_TABLES = (
    ("players_player", 70, ("fed_id", "fide_id")),
    ("ratings_playerrating", 50, ("player_id, system_id",)),
    ("players_nameword", 100, ()),
)


def write_floor() -> dict[str, float]:
    """Seconds to write again, bare, the rows the import wrote (run after it, on the same
    database): per table, INSERT … SELECT * of its committed rows into an empty copy with its
    primary key and fillfactor, then its unique indexes built. What the import's writes
    cannot go below, whatever its parsing, checks and triggers cost; the rows are read from
    shared buffers, not parsed."""
    from django.db import connection

    out: dict[str, float] = {}
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '512MB'")
        for table, fillfactor, uniques in WRITE_FLOOR_TABLES:
            copy = f"bench_wf_{table}"
            cursor.execute(f"DROP TABLE IF EXISTS {copy}")
            cursor.execute(
                f"CREATE TABLE {copy} (LIKE {table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) "
                f"WITH (fillfactor = {fillfactor})"
            )
            key = "word" if table == "players_nameword" else "id"
            cursor.execute(f"ALTER TABLE {copy} ADD PRIMARY KEY ({key})")
            cursor.execute("CHECKPOINT")
            t0 = time.perf_counter()
            cursor.execute(f"INSERT INTO {copy} SELECT * FROM {table}")  # in its order
            for columns in uniques:
                cursor.execute(f"CREATE UNIQUE INDEX ON {copy} ({columns})")
            out[table] = time.perf_counter() - t0
            cursor.execute(f"DROP TABLE {copy}")
    return out


def import_measure(
    *,
    rows: int,
    seed: int = 2026,
    admin_url: str = "postgres://postgres@127.0.0.1:5432/postgres",
    scratch: str = "rating_office_bench_import",
    target: str = "system",
    keep: bool = False,
    first_only: bool = False,
) -> dict[str, Any]:
    """The imports into a scratch database and the bare COPY of the same file, in seconds
    (``first``, ``second``, ``third``, ``floor``) with their counts. `first_only`: the import
    into the empty registry and the floor only (make bench)."""
    admin = scratch_create(admin_url=admin_url, name=scratch)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    import config.testing  # noqa: F401  (throw-away SECRET_KEY etc. for a local run)

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from lists.imports.importer import list_import
    from lists.imports.source import file_source
    from periods.models import RatingSystem
    from players.models import Player

    def run(path: Path) -> Any:
        return list_import(system=system, data=file_source(path), format="txt", target=target)

    events = Player.pgh_event_model.objects  # type: ignore[attr-defined]  # @pghistory.track
    out: dict[str, Any] = {"rows": rows, "target": target, "cpu_before": cpu_reference()}
    try:
        call_command("migrate", verbosity=0)
        system = RatingSystem.objects.create(
            code="bench",
            name="Bench",
            ruleset="fide-2024",
            rate_of_play="standard",
            cycle="monthly",
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "players_list.txt"
            t0 = time.perf_counter()
            write_list(path, rows, seed)
            size_mb = path.stat().st_size / 1e6
            print(
                f"generated {rows:,} rows ({size_mb:.1f} MB) in "
                f"{time.perf_counter() - t0:.1f} s: {path}"
            )

            t0 = time.perf_counter()
            out["result"] = run(path)
            out["first"] = time.perf_counter() - t0
            # The rows are committed (and searchable) before the read-only indexes are built.
            out["committed"] = out["first"] - out["result"].indexes_after_commit_seconds
            if not first_only:
                t0 = time.perf_counter()
                out["again"] = run(path)
                out["second"] = time.perf_counter() - t0
                # Next month: the same players (same IDs), new ratings, games and flags.
                month = Path(tmp) / "players_list_next.txt"
                write_list(month, rows, seed + 1)
                events_before = events.count()
                t0 = time.perf_counter()
                out["update"] = run(month)
                out["third"] = time.perf_counter() - t0
                out["update_events"] = events.count() - events_before

            out["write_floor"] = write_floor()
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE bench_floor (line text)")
                t0 = time.perf_counter()
                with (
                    path.open("rb") as f,
                    cursor.cursor.copy("COPY bench_floor (line) FROM STDIN") as copy,
                ):
                    while block := f.read(1 << 20):
                        copy.write(block)
                out["floor"] = time.perf_counter() - t0
                cursor.execute("SELECT count(*) FROM bench_floor")
                out["floor_rows"] = cursor.fetchone()[0]
    finally:
        scratch_drop(admin, name=scratch, keep=keep)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--scratch", default="rating_office_bench_import")
    parser.add_argument("--target", choices=("system", "fide"), default="system")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--first-only",
        action="store_true",
        help="only the import into an empty registry (and the floor)",
    )
    args = parser.parse_args()
    m = import_measure(
        rows=args.rows,
        seed=args.seed,
        admin_url=args.admin_url,
        scratch=args.scratch,
        target=args.target,
        keep=args.keep,
        first_only=args.first_only,
    )
    result, first, committed, floor = m["result"], m["first"], m["committed"], m["floor"]
    print(f"target                 : {args.target}")
    print(
        f"import, empty registry : {committed:6.2f} s to the commit  ({result.rows:,} rows, "
        f"{result.players_created:,} players created, {result.ratings_written:,} ratings)"
    )
    print(
        f"  then read-only indexes built after the commit: "
        f"{result.indexes_after_commit_seconds:.2f} s ({first:.2f} s in all)"
    )
    if not args.first_only:
        again, update = m["again"], m["update"]
        print(
            f"same file again        : {m['second']:6.2f} s  ({again.players_created:,} created, "
            f"{again.ratings_written:,} ratings changed)"
        )
        print(
            f"next month's list      : {m['third']:6.2f} s  ({update.players_created:,} created, "
            f"{update.players_updated:,} completed, {update.ratings_written:,} ratings changed, "
            f"{m['update_events']:,} player history events)"
        )
    print(
        f"bare COPY (I/O floor)  : {floor:6.2f} s  ({m['floor_rows']:,} lines into a plain table)"
    )
    wf = m["write_floor"]
    print(
        "bare writes (floor of the import's writes): "
        + ", ".join(f"{t} {v:.2f} s" for t, v in wf.items())
        + f"; {sum(wf.values()):.2f} s in all = {sum(wf.values()) / floor:.1f}x the bare COPY"
    )
    print(f"import / floor         : {committed / floor:6.1f}x  ({first / floor:.1f}x in all)")
    print(f"import: {committed:.2f} s, floor {floor:.2f} s, ratio {committed / floor:.1f}")
    print(
        f"CPU reference          : {cpu_reference():6.2f} s  (10,000,000-iteration Python "
        f"for-loop; {m['cpu_before']:.2f} s before the imports)"
    )


if __name__ == "__main__":
    main()
