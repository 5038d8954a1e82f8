"""`make bench`: the figures of issue 27's "Done when", each beside its I/O floor measured in the
same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth .venv/bin/python bench/bench_all.py \\
        [--players 500000] [--steps month,semester,rerate,import]

On the database of DATABASE_URL (a PostgreSQL one; its server also holds the import's scratch
database) it builds once, or reuses, three synthetic federations of --players players each
(`manage.py generate_federation`), games scaled with the players (500,000 players: a month of
300,000 games, a semester of 2,000,000, a chain of 120 monthly periods of 25,000), and
measures, each step in its own process (bench_period.py, bench_rerate.py, bench_import.py):

- month: calculate + publish of the month, floor: bare COPY out of its games + COPY in of its
  list rows;
- semester: the same for the semester's period;
- rerate: a correction in the first of 120 periods, then the chain re-rating all of them
  (floor: COPY out of their games + 120 x COPY in of one list version's rows);
- import: the list import of --players rows into an empty registry, floor: bare COPY of the
  same file into a one-column table.

Prints one line per step, `<name>: <seconds> s, floor <seconds> s, ratio <x>`, with the load
average beside it, then the peak memory of each step's process.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: At 500,000 players (issue 27); scaled with --players.
FULL = 500_000
MONTH_GAMES = 300_000
SEMESTER_GAMES = 2_000_000
CHAIN_GAMES = 25_000
CHAIN_PERIODS = 120
STEPS = ("month", "semester", "rerate", "import")
RESULT = "RESULT "


def scaled(games: int, players: int) -> int:
    return max(1, round(games * players / FULL))


def step_run(step: str, players: int) -> dict[str, Any]:
    """One step in this process (the child): its figures as a dict."""
    if step in ("month", "semester"):
        from bench import bench_period

        games = scaled(MONTH_GAMES if step == "month" else SEMESTER_GAMES, players)
        pending = bench_period.periods_pending(
            players=players, games=games, system_code=f"bench-{step}-{players}"
        )
        m = bench_period.measure(pending[-1])
        return {
            "seconds": m["calculate"] + m["publish"],
            "floor": m["floor_calculate"] + m["floor_publish"],
            "detail": f"calculate {m['calculate']:.1f} s + publish {m['publish']:.1f} s",
            "rss": max(m["rss_calculate"], m["rss_publish"]),
        }
    if step == "rerate":
        from bench import bench_rerate

        periods = bench_rerate.chain_periods(
            players=players,
            games=scaled(CHAIN_GAMES, players),
            periods=CHAIN_PERIODS,
            system_code=f"bench-chain-{players}",
        )
        r: dict[str, Any] = bench_rerate.rerate_measure(periods=periods)
        bench_rerate.rerate_report(r)
        steps = r["steps"]
        return {
            "seconds": r["chain"],
            "floor": r["floor"],
            "detail": (
                f"calculate {steps.get('chain_period_calculate', 0):.1f} s + publish "
                f"{steps.get('chain_period_publish', 0):.1f} s + states "
                f"{steps.get('chain_states_advance', 0):.1f} s; ranks tasks after: "
                f"{r['ranks_one']:.1f} s each"
            ),
            "rss": r["rss"],
        }
    if step == "import":
        import resource

        from bench import bench_import

        url = os.environ["DATABASE_URL"]
        i: dict[str, Any] = bench_import.import_measure(
            rows=players,
            admin_url=url.rsplit("/", 1)[0] + "/postgres",
            scratch=f"{url.rsplit('/', 1)[1]}_import",
            first_only=True,
        )
        return {
            "seconds": i["committed"],
            "floor": i["floor"],
            "detail": (
                f"{i['result'].rows:,} rows; bare writes of the same rows "
                f"{sum(i['write_floor'].values()):.1f} s = "
                f"{sum(i['write_floor'].values()) / i['floor']:.1f}x the floor; "
                f"{i['result'].indexes_after_commit_seconds:.1f} s of indexes after the commit"
            ),
            "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    raise SystemExit(f"unknown step {step!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=FULL)
    parser.add_argument("--steps", default=",".join(STEPS))
    parser.add_argument("--step", help=argparse.SUPPRESS)  # a child's one step
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the benchmark measures COPY)")
    # The tasks a publication queues (the list's ranks) go to an in-process memory broker: they
    # run on other workers after the commit, not inside the figures.
    os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")
    if args.step:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ.setdefault("DEBUG", "1")
        result = step_run(args.step, args.players)
        print(RESULT + json.dumps(result), flush=True)
        return
    lines: list[str] = []
    memory: list[str] = []
    for step in args.steps.split(","):
        print(f"--- {step} ({args.players:,} players)", flush=True)
        child = subprocess.run(
            [sys.executable, __file__, "--step", step, "--players", str(args.players)],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        found = [line for line in child.stdout.splitlines() if line.startswith(RESULT)]
        print("\n".join(line for line in child.stdout.splitlines() if line not in found))
        if child.returncode or not found:
            lines.append(f"{step}: failed (exit {child.returncode})")
            continue
        r = json.loads(found[-1][len(RESULT) :])
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        lines.append(
            f"{step}: {r['seconds']:.1f} s, floor {r['floor']:.1f} s, ratio "
            f"{r['seconds'] / r['floor']:.1f}   (load average {load}; {r['detail']})"
        )
        memory.append(f"{step} {r['rss']:.0f} MiB")
    print(f"=== {args.players:,} players")
    print("\n".join(lines))
    print("peak memory: " + ", ".join(memory))


if __name__ == "__main__":
    main()
