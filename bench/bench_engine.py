"""Benchmark of the fide-2024 bulk path: 500,000 players, 300,000 games, one core.

    .venv/bin/python bench/bench_engine.py [--players N] [--games N] [--repeat N] [--seed S]

Prints the time of the bulk calculation (array generation excluded; best of --repeat runs)
and the peak memory the calculation allocates (tracemalloc, NumPy buffers included).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from rating_engine.bulk import BulkInput, rate_rated_fide_2024


def synthetic(players: int, games: int, seed: int) -> BulkInput:
    rng = np.random.default_rng(seed)
    rating = rng.normal(1800, 300, players).clip(1000, 2850).astype(np.int64)
    rated = rng.random(players) < 0.97
    white = rng.integers(0, players, games, dtype=np.int64)
    black = rng.integers(0, players - 1, games, dtype=np.int64)
    black = np.where(black >= white, black + 1, black)  # nobody plays himself
    last = date(2026, 10, 31).toordinal() - rng.integers(0, 900, players)
    return BulkInput(
        rating=rating,
        rated=rated,
        games_before=rng.integers(0, 400, players, dtype=np.int64),
        youth=rng.random(players) < 0.15,
        reached_2400=rating >= 2400,
        inactive_before=rng.random(players) < 0.1,
        last_game_ordinal=last.astype(np.int64),
        white=white,
        black=black,
        white_score2=rng.integers(0, 3, games, dtype=np.int64),
        white_counts=rated[black],
        black_counts=rated[white],
        inactive_cutoff_ordinal=date(2025, 10, 31).toordinal(),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261031)
    args = parser.parse_args()
    data = synthetic(args.players, args.games, args.seed)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        out = rate_rated_fide_2024(data)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    rate_rated_fide_2024(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"fide-2024 bulk: {args.players:,} players, {args.games:,} games, numpy {np.__version__}")
    print(f"time: best {min(times):.3f} s, median {sorted(times)[len(times) // 2]:.3f} s "
          f"over {args.repeat} runs (generation excluded)")  # fmt: skip
    print(f"peak memory of the calculation: {peak / 2**20:.1f} MiB")
    print(
        f"check: rated games counted {int(out.games.sum()):,}, sum of changes "
        f"{int(out.change.sum()):+,}"
    )


if __name__ == "__main__":
    main()
