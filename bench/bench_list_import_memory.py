"""Peak memory of a list import run the way the worker runs it (issue 17 item 7).

    .venv/bin/python bench/bench_list_import_memory.py [--size-mb 256] [--admin-url URL]
        [--scratch NAME] [--tree PATH] [--target fide|system] [--format txt|xml] [--keep]

Creates a scratch database (``rating_office_bench_list_memory`` by default, on the server of
--admin-url, default postgres://postgres@127.0.0.1:5432/postgres), applies the migrations,
writes a synthetic FIDE combined TXT list of --size-mb MB on disk (FIDE's current layout,
shared/data/fide-list/SOURCES.md: one header line, 162 characters a line, CRLF; unique FIDE
IDs, names with accents; ``--format xml``: FIDE's combined XML list), stores it as an
import job the way the import page does (``list_import_request`` fed the file in 1 MiB
pieces) and runs that job in a **child process** with ``list_import_run`` — the Celery
task's body: pieces copied to a temporary file, the file read, decoded and cut as a stream,
COPY into the staging table, SQL checks and writes in one transaction. It prints:

- the child's peak resident memory (``ru_maxrss`` of the child's rusage from os.wait4, as
  resource.getrusage gives it, and the child's own VmHWM),
  and its resident memory right after ``django.setup()`` (Django's own share);
- the child's wall time and rows per second;
- the bare-I/O floor: the seconds to read the file once in 1 MiB pieces (just written, so
  from the page cache), and to read, decode and split it into lines keeping nothing.

``--tree PATH`` runs the child with another checkout's code (e.g. an export of an older
commit) to measure it the same way. Target: peak RSS under 500 MB for a 256 MB file.
The scratch database is dropped at the end unless --keep is given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import ROOT, scratch_create, scratch_drop

# FIDE's combined list header (players_list_foa.txt) and its columns' start positions.
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
SURNAMES = ["García", "Martínez", "López", "Núñez", "Smith", "Ivanov", "Müller", "Çağlar", "Silva"]
GIVEN = ["José", "María", "Ana", "Jordi", "Núria", "Dmitry", "Søren", "Zoë", "Li", "Magnus"]
FEDS = ["ESP", "POR", "RUS", "IND", "GER", "FRA", "ITA", "USA", "BRA", "CHN", "AND"]
TITLES = ["", "", "", "", "", "", "", "GM", "IM", "FM", "CM", "WGM", "WIM"]


def _rating(rng: random.Random) -> str:
    return str(rng.randint(1000, 2850)) if rng.random() < 0.7 else "0"


def write_list(path: Path, size_mb: float, seed: int) -> int:
    """A combined TXT list of about size_mb MB; returns its number of players."""
    rng = random.Random(seed)
    target = int(size_mb * 1_000_000)
    rows = 0
    written = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(HEADER + "\r\n")
        block: list[str] = []
        while written < target:
            woman = rng.random() < 0.15
            flag = ("w" if woman else "") + ("i" if rng.random() < 0.3 else "")
            name = f"{rng.choice(SURNAMES)}{rows}, {rng.choice(GIVEN)}"
            line = (
                f"{1_000_000 + rows * 7:<15}{name:<61}{rng.choice(FEDS):<4}"
                f"{'F' if woman else 'M':<4}{rng.choice(TITLES):<5}{'':<5}{'':<15}{'':<4}"
                f"{_rating(rng):<6}{rng.randint(0, 40):<4}{rng.choice((10, 20, 40)):<3}"
                f"{_rating(rng):<6}{rng.randint(0, 40):<4}{20:<3}"
                f"{_rating(rng):<6}{rng.randint(0, 40):<4}{20:<3}"
                f"{rng.randint(1930, 2020):<6}{flag:<4}\r\n"
            )
            block.append(line)
            written += len(line.encode())
            rows += 1
            if len(block) == 10_000:
                out.write("".join(block))
                block.clear()
        out.write("".join(block))
    return rows


def write_xml(path: Path, size_mb: float, seed: int) -> int:
    """FIDE's combined XML list (players_list_xml_foa.xml) of about size_mb MB."""
    rng = random.Random(seed)
    target = int(size_mb * 1_000_000)
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
        written = 0
        block: list[str] = []
        while written < target:
            woman = rng.random() < 0.15
            flag = ("w" if woman else "") + ("i" if rng.random() < 0.3 else "")
            values = [
                ("fideid", str(1_000_000 + rows * 7)),
                ("name", f"{rng.choice(SURNAMES)}{rows}, {rng.choice(GIVEN)}"),
                ("country", rng.choice(FEDS)),
                ("sex", "F" if woman else "M"),
                ("title", rng.choice(TITLES)),
                ("w_title", ""),
                ("o_title", ""),
                ("foa_title", ""),
            ]
            for prefix in ("", "rapid_", "blitz_"):
                values += [
                    (f"{prefix}rating", _rating(rng)),
                    (f"{prefix}games", str(rng.randint(0, 40))),
                    (f"{prefix}k", "20"),
                ]
            values += [("birthday", str(rng.randint(1930, 2020))), ("flag", flag)]
            player = (
                "<player>"
                + "".join(f"<{t}>{v}</{t}>" if v else f"<{t}></{t}>" for t, v in values)
                + "</player>\n"
            )
            block.append(player)
            written += len(player.encode())
            rows += 1
            if len(block) == 10_000:
                out.write("".join(block))
                block.clear()
        out.write("".join(block) + "</playerslist>\n")
    return rows


def io_floor(path: Path) -> float:
    t0 = time.perf_counter()
    with path.open("rb") as f:
        while f.read(1 << 20):
            pass
    return time.perf_counter() - t0


def lines_floor(path: Path) -> float:
    """Read, decode (UTF-8) and split into lines once, keeping nothing: the least Python work
    a streaming reader does before cutting the columns."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    t0 = time.perf_counter()
    with path.open("rb") as f:
        while piece := f.read(1 << 20):
            decoder.decode(piece).splitlines()
    return time.perf_counter() - t0


def _vm(field: str) -> int:
    """kB of a /proc/self/status field (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def child(job_id: int) -> None:
    """The worker's part, in its own process: list_import_run(job_id)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    import config.testing  # noqa: F401  (throw-away SECRET_KEY etc. for a local run)

    django.setup()
    from lists.imports.jobs import list_import_run

    after_setup = _vm("VmRSS")
    t0 = time.perf_counter()
    job = list_import_run(job_id=job_id)
    seconds = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "status": job.status,
                "rows": job.rows,
                "created": job.players_created,
                "written": job.ratings_written,
                "error": job.error,
                "problems": job.problem_total,
                "seconds": seconds,
                "setup_kb": after_setup,
                "hwm_kb": _vm("VmHWM"),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=256)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--scratch", default="rating_office_bench_list_memory")
    parser.add_argument("--tree", type=Path, default=ROOT, help="code the child runs")
    parser.add_argument(
        "--target",
        choices=("fide", "system"),
        help="ratings written (default: the format's, FIDE ratings for TXT)",
    )
    parser.add_argument("--format", choices=("txt", "xml"), default="txt")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return

    admin = scratch_create(admin_url=args.admin_url, name=args.scratch)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(args.tree.resolve()))
    import django

    import config.testing  # noqa: F401

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from lists.imports.jobs import list_import_request
    from periods.models import RatingSystem

    try:
        call_command("migrate", verbosity=0)
        system = RatingSystem.objects.create(
            code="bench", name="Bench", ruleset="fide-2024", rate_of_play="standard"
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"players_list_foa.{args.format}"
            t0 = time.perf_counter()
            write = write_xml if args.format == "xml" else write_list
            rows = write(path, args.size_mb, args.seed)
            size = path.stat().st_size
            print(
                f"generated {rows:,} rows ({size / 1e6:.1f} MB, {size / 2**20:.1f} MiB) in "
                f"{time.perf_counter() - t0:.1f} s"
            )
            floor = io_floor(path)
            floor_lines = lines_floor(path)

            def pieces() -> Iterator[bytes]:
                with path.open("rb") as f:
                    while piece := f.read(1 << 20):
                        yield piece

            t0 = time.perf_counter()
            extra = {"target": args.target} if args.target else {}
            job = list_import_request(
                system=system,
                data=pieces(),
                format=args.format,
                filename=path.name,
                enqueue=False,
                **extra,
            )
            stored = time.perf_counter() - t0
            connections.close_all()
            env = {**os.environ, "PYTHONPATH": str(args.tree.resolve())}
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--child", str(job.pk)],
                cwd=args.tree,
                env=env,
                stdout=subprocess.PIPE,
            )
            assert proc.stdout is not None
            out = proc.stdout.read()
            _pid, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - t0
            proc.stdout.close()
            if status != 0:
                raise SystemExit(f"child failed ({status}): {out.decode()[-2000:]}")
            got = json.loads(out.decode().strip().splitlines()[-1])
        peak_mb = usage.ru_maxrss / 1024  # kB on Linux
        print(
            f"job {got['status']}: {got['rows']:,} rows, {got['created']:,} players created, "
            f"{got['written']:,} ratings written {got['error'] or ''}"
        )
        print(f"storing the upload     : {stored:6.2f} s  (list_import_request, 1 MiB pieces)")
        print(
            f"import in the child    : {got['seconds']:6.2f} s  "
            f"({got['rows'] / got['seconds']:,.0f} rows/s; child wall {wall:.2f} s)"
        )
        print(
            f"bare read of the file  : {floor:6.2f} s  (I/O floor, 1 MiB reads of a file in "
            "the page cache)"
        )
        print(f"read + decode + lines  : {floor_lines:6.2f} s  (the same, decoded, split)")
        print(
            f"peak RSS of the child  : {peak_mb:6.0f} MB (ru_maxrss; VmHWM "
            f"{got['hwm_kb'] / 1024:.0f} MB; {got['setup_kb'] / 1024:.0f} MB after django.setup)"
            f"  target < 500 MB for 256 MB"
        )
        print(f"peak RSS / file size   : {peak_mb * 2**20 / size:6.2f}x")
    finally:
        scratch_drop(admin, name=args.scratch, keep=args.keep)


if __name__ == "__main__":
    main()
