"""Worst parse time per report parser on 5 MiB inputs, next to the bare read of the bytes.

Run: .venv/bin/python bench/bench_parse_worst.py  (target: every parser within 1 s)

Inputs, generated in memory (seed 1), each at most 5 MiB (the upload limit):
- TRF: 9,999 players (the most four columns hold) × as many rounds as fit, every game
  played, with header and round dates; and adversarial shapes: one 5 MiB `001` line,
  a file of rulers and unknown lines, a file of junk round cells (every cell a problem);
- CSV crosstable: 1,500 × 1,500 (a 4.5 MB file, 1,124,250 games); one 5 MiB header of
  result columns; a file of quoted cells; a crosstable of junk cells;
- FEDA ASCII: as many player lines as fit; a file of lines with too few fields;
- the regression corpus (tests/formats/reports/corpus/) through every entry point.
"sniff+decode" is `decode_report` + `parse_report` (format sniffed) on every input's bytes.
Each time is the best of ``RUNS`` in one process (the machine is shared), wall clock and the
CPU time of that run, including the collection the parsers' paused garbage collector
defers; the I/O floor is reading the same bytes back from a temporary file.
Last, the TRF and the crosstable at a quarter, a half and all of the size: linear cost
means about x4 the time for x4 the bytes.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import swiss_rounds
from formats.reports import ReportDecodeError, decode_report, parse_report
from formats.reports.crosstable_csv import parse_crosstable_csv
from formats.reports.feda import parse_feda
from formats.reports.trf import parse_trf

LIMIT = 5 * 1024 * 1024
CORPUS = Path(__file__).resolve().parents[1] / "tests" / "reports" / "corpus"
RESULTS = [("1", "0", 1.0), ("0", "1", 0.0), ("=", "=", 0.5)]


def make_trf(
    players: int = 9999, seed: int = 1, limit: int = LIMIT, rounds: int | None = None
) -> str:
    """A Swiss-like TRF16 with ``players`` players and ``rounds`` rounds (by default as many
    as fit in ``limit``)."""
    header = [
        "012 Worst case open",
        "022 Nowhere",
        "032 ESP",
        "042 2025/01/01",
        "052 2025/12/31",
        "XXR {rounds}",
    ]
    fixed = 89 + 1 + sum(len(h) + 1 for h in header) // players + 1
    if rounds is None:
        rounds = (limit // players - fixed) // 10
    rng = random.Random(seed)
    cells, points = swiss_rounds(rng, players, rounds, RESULTS)
    lines = [h.format(rounds=rounds) for h in header]
    lines.append(
        "132"
        + " " * 88
        + "".join(
            f"25/{1 + r // 28:02d}/{1 + r % 28:02d}  " for r in range(min(rounds, 300))
        ).rstrip()
    )
    for r in range(1, players + 1):
        pts = f"{points[r]:4.1f}" if points[r] < 100 else f"{points[r]:4.0f}"
        lines.append(
            f"001 {r:4d} m    {'Player' + str(r) + ', Test':<33} {1000 + r % 2000:4d} "
            f"ESP {2200000 + r:11d} 1990/01/01 {pts} {r:4d}" + "".join("  " + c for c in cells[r])
        )
    text = "\n".join(lines) + "\n"
    assert len(text.encode()) <= limit, len(text.encode())
    return text


def make_csv(players: int = 1500, seed: int = 1) -> str:
    """A full crosstable: every pair played once, with a Pts column."""
    rng = random.Random(seed)
    rows = [[""] * players for _ in range(players)]
    points = [0.0] * players
    for i in range(players):
        rows[i][i] = "x"
        for j in range(i + 1, players):
            a, b, pa = rng.choice(RESULTS)
            rows[i][j], rows[j][i] = a, b
            points[i] += pa
            points[j] += 1.0 - pa
    head = ["No", "Name", "FIDE ID", "Fed ID", "Rating", *map(str, range(1, players + 1)), "Pts"]
    lines = [",".join(head)]
    for i in range(players):
        lines.append(
            ",".join(
                [
                    str(i + 1),
                    f"Player {i + 1}",
                    str(2200000 + i),
                    "",
                    str(1000 + i % 2000),
                    *rows[i],
                    f"{points[i]:g}",
                ]
            )
        )
    return "\n".join(lines) + "\n"


def make_feda(limit: int = LIMIT) -> str:
    """Distinct players until ``limit``: more than the 32,767 start ranks a file may hold,
    so the parser stops at the limit (as it does for any file that long)."""
    lines = []
    size = 0
    for i in range(limit):
        line = f"{10000000 + i},Surname{i} Name,M,ESP,01-02-85,4.5,9,1850\n"
        size += len(line)
        if size > limit:
            break
        lines.append(line)
    return "".join(lines)


def fill(unit: str, limit: int = LIMIT, prefix: str = "") -> str:
    return prefix + unit * ((limit - len(prefix.encode())) // len(unit.encode()))


def adversarial() -> dict[str, list[tuple[str, str]]]:
    player = f"001    1 m    {'A':<33} 2000 ESP {1:11d} 1990/01/01  0.0    1"
    return {
        "trf": [
            ("one 5 MiB 001 line", player + fill("  16 by0", LIMIT - len(player))),
            (
                "rulers and unknown lines",
                fill("0123456789012345678901234567890\n?? junk\n         1         2\n"),
            ),
            ("junk round cells", fill(player + "  2x w ?  99 q 1\n")),
        ],
        "csv": [
            (
                "one 5 MiB header",
                "No,Name," + ",".join(map(str, range(1, 700_000)))[: LIMIT - 9] + "\n",
            ),
            ("quoted cells", fill('1,"A ""q""",x,"""' + '"' * 40 + '"\n', prefix="No,Name,1,2\n")),
            ("junk cells", fill("1,A,inf,²,1e308\n2,B,-99999,nan,x\n", prefix="No,Name,Pts,1,2\n")),
        ],
        "feda": [("short lines", fill("1,A,M,ESP,01-02-85,1,2,3,4,5,6,7,8,9\n0,,,,,,\n"))],
    }


def corpus() -> list[tuple[str, str]]:
    if not CORPUS.is_dir():
        return []
    out = []
    for path in sorted(CORPUS.iterdir()):
        if path.is_file():
            out.append((path.name, path.read_bytes().decode("latin-1")))
    return out


def best(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Best wall time and the CPU time of that run (seconds), each including the one
    young-generation collection that the parsers' paused collector leaves for later
    (formats/reports/collector.py): the records built are examined once, then."""
    timings = []
    for _ in range(runs):
        gc.collect()
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        gc.collect(0)
        timings.append((time.perf_counter() - w0, time.process_time() - c0))
        del result
    return min(timings)


def io_floor(data: bytes, runs: int) -> float:
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    try:
        return best(lambda: Path(f.name).read_bytes(), runs)[0]
    finally:
        os.unlink(f.name)


def sniffed(data: bytes) -> object:
    try:
        return parse_report(decode_report(data))
    except ReportDecodeError as exc:  # a refusal is an answer too
        return exc


PARSERS: dict[str, Callable[[str], object]] = {
    "trf": parse_trf,
    "csv": parse_crosstable_csv,
    "feda": parse_feda,
}


def table(title: str, inputs: dict[str, list[tuple[str, str]]], runs: int) -> None:
    print(f"\n{title}")
    print(f"{'parser':<13} {'worst input':<36} {'MiB':>5} {'wall s':>7} {'cpu s':>6} {'I/O s':>7}")
    rows: list[tuple[str, Callable[[str], object] | None, list[tuple[str, str]]]] = [
        (family, PARSERS[family], cases) for family, cases in inputs.items()
    ]
    rows.append(("sniff+decode", None, [c for cases in inputs.values() for c in cases]))
    for family, parser, cases in rows:
        worst = (0.0, 0.0, "", b"")
        for name, text in cases:
            data = text.encode("utf-8", "surrogatepass")
            assert len(data) <= LIMIT, (name, len(data))
            if parser is None:
                wall, cpu = best(functools.partial(sniffed, data), runs)
            else:
                wall, cpu = best(functools.partial(parser, text), runs)
            if wall > worst[0]:
                worst = (wall, cpu, name, data)
        wall, cpu, name, data = worst
        print(
            f"{family:<13} {name[:36]:<36} {len(data) / 2**20:5.2f} {wall:7.3f} {cpu:6.3f} "
            f"{io_floor(data, runs):7.4f}"
        )


def scaling(runs: int) -> None:
    print(
        "\nlinear scaling (wall s at 1/4, 1/2 and all of the 5 MiB inputs: TRF 2,499, 4,999 "
        "and 9,999 players x 43 rounds; crosstables of 750, 1,061 and 1,500 players)"
    )
    for family, make in (
        ("trf", lambda k: make_trf(players=9999 * k // 4, rounds=43)),
        ("csv", lambda k: make_csv(players=round(1500 * (k / 4) ** 0.5))),
    ):
        parser = PARSERS[family]
        times = []
        for k in (1, 2, 4):
            text = make(k)
            times.append(best(functools.partial(parser, text), runs)[0])
        print(
            f"{family:<13} "
            + "  ".join(f"{t:6.3f}" for t in times)
            + f"   (x{times[-1] / times[0]:.1f} for x4 the bytes)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="best of RUNS (default 3)")
    args = ap.parse_args()
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    target: dict[str, list[tuple[str, str]]] = {
        "trf": [("9,999 players x 43 rounds", make_trf())],
        "csv": [("1,500 x 1,500 crosstable", make_csv())],
        "feda": [("FEDA lines", make_feda())],
    }
    for name, text in corpus():
        for family in PARSERS:
            target[family].append((f"corpus {name}", text))
    table("generated 5 MiB inputs and the regression corpus (target: 1 s each)", target, args.runs)
    table(
        "adversarial inputs (no target: linear, problems capped)",
        {family: cases for family, cases in adversarial().items()},
        args.runs,
    )
    scaling(args.runs)


if __name__ == "__main__":
    main()
