"""Parse + validate a generated 500-player, 9-round TRF; prints the median time.

Run: .venv/bin/python bench/bench_parse.py  (target: under 25 ms)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import swiss_rounds
from formats.reports import parse_trf

PLAYERS = 500
ROUNDS = 9
RUNS = 15


def make_trf(players: int = PLAYERS, rounds: int = ROUNDS, seed: int = 1) -> str:
    rng = random.Random(seed)
    results = [("1", "0", 1.0), ("0", "1", 0.0), ("=", "=", 0.5), ("+", "-", 1.0)]
    cells, points = swiss_rounds(rng, players, rounds, results)
    lines = [
        "012 Benchmark Open",
        "022 Nowhere",
        "032 ESP",
        "042 2025/01/01",
        "052 2025/01/09",
        f"XXR {rounds}",
    ]
    for r in range(1, players + 1):
        line = (
            f"001 {r:4d} m    {'Player' + str(r) + ', Test':<33} {2600 - r:4d} ESP "
            f"{2200000 + r:11d} 1990/01/01 {points[r]:4.1f} {r:4d}"
        )
        lines.append(line + "".join("  " + c for c in cells[r]))
    return "\n".join(lines) + "\n"


def main() -> None:
    text = make_trf()
    times = []
    report = None
    for _ in range(RUNS):
        t0 = time.perf_counter()
        report = parse_trf(text)
        times.append((time.perf_counter() - t0) * 1000)
    assert report is not None and report.ok, report.problems[:3] if report else None
    print(
        f"parse+validate {PLAYERS} players x {ROUNDS} rounds "
        f"({len(report.games)} games): median {statistics.median(times):.1f} ms, "
        f"min {min(times):.1f} ms over {RUNS} runs"
    )


if __name__ == "__main__":
    main()
