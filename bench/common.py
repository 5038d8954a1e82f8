"""What several benchmarks share: the synthetic federation generated once, a wrk run, random
Swiss rounds for generated reports. Standard library only (Django is set up by the scripts)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
from django.db import connections  # lazy: usable before django.setup(), read after

ROOT = Path(__file__).resolve().parents[1]


def generate_federation(
    *, players: int, games: int, system_code: str, periods: int | None = None
) -> None:
    """``manage.py generate_federation`` in a child process, on the database of the environment."""
    command = [
        sys.executable,
        "manage.py",
        "generate_federation",
        "--players",
        str(players),
        "--games",
        str(games),
        "--system-code",
        system_code,
    ]
    if periods is not None:
        command += ["--periods", str(periods)]
    subprocess.run(command, cwd=ROOT, check=True, env={**os.environ})


def wrk_run(script: Path, url: str, paths_file: Path, duration: int, connections: int) -> str:
    """wrk's report for ``duration`` seconds over ``connections`` connections (two threads) of
    ``script``, which reads the paths to request from the file named by $PATHS."""
    return subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "-s",
            str(script),
            url,
        ],
        env={**os.environ, "PATHS": str(paths_file)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def swiss_rounds(
    rng: random.Random, players: int, rounds: int, results: Sequence[tuple[str, str, float]]
) -> tuple[list[list[str]], list[float]]:
    """Random pairings of players 1…``players`` for ``rounds`` rounds (a bye for the odd one
    out): each player's TRF round cells and points (index 0 unused); a result is drawn from
    ``results`` (white's code, black's code, white's points)."""
    cells: list[list[str]] = [[] for _ in range(players + 1)]
    points = [0.0] * (players + 1)
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        if players % 2:
            bye = order.pop()
            cells[bye].append("0000 - U")
            points[bye] += 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            ra, rb, pa = rng.choice(results)
            cells[a].append(f"{b:4d} w {ra}")
            cells[b].append(f"{a:4d} b {rb}")
            points[a] += pa
            points[b] += 1.0 - pa
    return cells, points


def scratch_create(*, admin_url: str, name: str) -> psycopg.Connection[Any]:
    """A fresh database `name` on the server of `admin_url`, named by DATABASE_URL from now on
    (for Django set up after this). Returns the admin connection that scratch_drop uses."""
    admin = psycopg.connect(admin_url, autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = admin_url.rsplit("/", 1)[0] + "/" + name
    return admin


def scratch_drop(admin: psycopg.Connection[Any], *, name: str, keep: bool) -> None:
    """The end of a benchmark in a scratch_create database: Django's connections closed, the
    database dropped unless `keep`."""
    connections.close_all()
    if not keep:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()
