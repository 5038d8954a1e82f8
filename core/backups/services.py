"""Backups written atomically, checked and rotated; restores into an empty database.

A backup is one `pg_dump --format=custom` of the site's database: consistent by itself (pg_dump
reads every table in one repeatable-read snapshot while the site keeps working), compressed,
and restorable table by table. It is written to a hidden partial file, read back with
`pg_restore --list`, and only then renamed to its final name, so a file named `*.dump` is
always a whole, readable backup; then the oldest beyond BACKUP_KEEP are removed.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from django.apps import apps
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg import sql

from core.backups.tools import (
    BackupError,
    ClientTools,
    Conninfo,
    Version,
    client_run,
    client_tools_find,
    conninfo_display,
    conninfo_of_database,
    database_connect,
    server_version,
)

#: A backup's name: the database's, then the UTC instant it was taken.
_STAMP = "%Y%m%dT%H%M%SZ"
_STAMP_PATTERN = r"\d{8}T\d{6}Z"
#: How long pg_dump waits for a table that a migration holds locked before giving up.
LOCK_WAIT_TIMEOUT = "300s"
_HEADER = {
    "created": re.compile(r"^;\s+Archive created at (.+)$", re.M),
    "database": re.compile(r"^;\s+dbname: (.+)$", re.M),
    "server": re.compile(r"^;\s+Dumped from database version: (.+)$", re.M),
    "pg_dump": re.compile(r"^;\s+Dumped by pg_dump version: (.+)$", re.M),
}


@dataclass(frozen=True)
class Archive:
    """What `pg_restore --list` tells of a backup."""

    created: str
    database: str
    server: str
    pg_dump: str
    tables: int  # tables whose rows it holds (TABLE DATA entries)


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    seconds: float
    archive: Archive
    tools: ClientTools
    server: Version
    removed: tuple[Path, ...]


@dataclass(frozen=True)
class Restore:
    target: str
    created: bool
    cleaned: bool
    seconds: float
    archive: Archive
    counts: tuple[tuple[str, int | None], ...]  # (what, rows; None: no such table)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def backup_name(*, database: str, at: dt.datetime) -> str:
    return f"{_safe(database)}-{at.astimezone(dt.UTC).strftime(_STAMP)}.dump"


def backups_list(*, directory: Path, database: str) -> list[Path]:
    """This database's backups in `directory`, oldest first (other files are not ours)."""
    pattern = re.compile(rf"{re.escape(_safe(database))}-{_STAMP_PATTERN}\.dump")
    if not directory.is_dir():
        return []
    return sorted(path for path in directory.iterdir() if pattern.fullmatch(path.name))


def backup_taken_at(path: Path) -> dt.datetime:
    """When a backup was taken, from its name (a copy keeps it; its mtime may not)."""
    stamp = path.name.removesuffix(".dump").rsplit("-", 1)[-1]
    return dt.datetime.strptime(stamp, _STAMP).replace(tzinfo=dt.UTC)


def backups_rotate(*, directory: Path, database: str, keep: int) -> tuple[Path, ...]:
    """Remove all but the newest `keep` backups of `database`; the ones removed."""
    found = backups_list(directory=directory, database=database)
    removed = tuple(found[: max(len(found) - keep, 0)])
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def archive_read(*, tools: ClientTools, path: Path) -> Archive:
    """Read a backup's table of contents; refuse a file pg_restore cannot read."""
    result = client_run([tools.pg_restore, "--list", path], conninfo={}, timeout=600)
    tables = sum(1 for line in result.stdout.splitlines() if " TABLE DATA " in line)
    if result.returncode != 0 or tables == 0:
        raise BackupError(
            _("pg_restore %(version)s cannot read %(path)s as a backup: %(error)s")
            % {
                "version": tools.version.text,
                "path": path,
                "error": result.stderr.strip() or _("it holds no table"),
            }
        )
    found = {key: rx.search(result.stdout) for key, rx in _HEADER.items()}
    values = {key: match.group(1).strip() if match else "?" for key, match in found.items()}
    return Archive(tables=tables, **values)


@contextlib.contextmanager
def _folder_locked(directory: Path) -> Iterator[None]:
    """One backup at a time per folder (a slow one still running when the next is due)."""
    with open(directory / ".lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                _("Another backup into %(folder)s is running.") % {"folder": directory}
            ) from None
        yield


def _fsync(path: Path, *, folder: bool = False) -> None:
    descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if folder else 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _dump(*, tools: ClientTools, conninfo: Conninfo, path: Path) -> None:
    result = client_run(
        [
            tools.pg_dump,
            "--format=custom",
            "--no-password",  # fail rather than wait for a prompt nobody answers
            f"--lock-wait-timeout={LOCK_WAIT_TIMEOUT}",
            f"--file={path}",
        ],
        conninfo=conninfo,
    )
    if result.returncode != 0:
        raise BackupError(
            _("pg_dump %(version)s failed on %(database)s: %(error)s")
            % {
                "version": tools.version.text,
                "database": conninfo_display(conninfo),
                "error": result.stderr.strip(),
            }
        )


def backup_create(
    *,
    alias: str = "default",
    directory: Path | None = None,
    keep: int | None = None,
    now: dt.datetime | None = None,
) -> Backup:
    """Back up the database of settings.DATABASES[alias] into `directory` (BACKUP_DIR), then
    keep the newest `keep` (BACKUP_KEEP) backups of that database there."""
    began = time.monotonic()
    conninfo = conninfo_of_database(alias=alias)
    directory = Path(directory or settings.BACKUP_DIR).resolve()
    keep = settings.BACKUP_KEEP if keep is None else keep
    if keep < 1:
        raise BackupError(_("At least one backup must be kept (BACKUP_KEEP)."))
    server = server_version(conninfo)
    tools = client_tools_find(server=server)
    # Owner-only: a backup holds every account's password hash and every upload.
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    with _folder_locked(directory):
        # Left by a run that was killed (the lock says none is running now).
        for stale in directory.glob(".*.dump.partial"):
            stale.unlink(missing_ok=True)
        final = directory / backup_name(database=conninfo["dbname"], at=now or timezone.now())
        if final.exists():
            raise BackupError(
                _("%(path)s already exists; wait a second and try again.") % {"path": final}
            )
        partial = directory / f".{final.name}.partial"
        try:
            # Owner-only before the first byte is written; pg_dump writes into it.
            os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            _dump(tools=tools, conninfo=conninfo, path=partial)
            archive = archive_read(tools=tools, path=partial)
            _fsync(partial)
            os.replace(partial, final)
            _fsync(directory, folder=True)
        finally:
            partial.unlink(missing_ok=True)
        removed = backups_rotate(directory=directory, database=conninfo["dbname"], keep=keep)
    return Backup(
        path=final,
        size=final.stat().st_size,
        seconds=time.monotonic() - began,
        archive=archive,
        tools=tools,
        server=server,
        removed=removed,
    )


# --------------------------------------------------------------------------- restore


def _relations(conninfo: Conninfo) -> int:
    """Tables, views and sequences outside PostgreSQL's own schemas: 0 in a new database."""
    with database_connect(conninfo) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') "
            "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
            "AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'"
        ).fetchone()
    return int(row[0]) if row else 0


def _maintenance(conninfo: Conninfo) -> Conninfo:
    """The same server's `postgres` database, from which a database is created or dropped."""
    return {**conninfo, "dbname": "postgres"}


def _database_prepare(*, conninfo: Conninfo, force_clean: bool) -> tuple[bool, bool]:
    """Make `conninfo`'s database exist and be empty: (created, cleaned)."""
    name = conninfo["dbname"]
    with database_connect(_maintenance(conninfo)) as admin:
        exists = (
            admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            is not None
        )
        created = cleaned = False
        if exists:
            relations = _relations(conninfo)
            if relations and not force_clean:
                raise BackupError(
                    _(
                        "The database %(database)s is not empty (%(count)s tables, views and "
                        "sequences). A restore goes into an empty database: restoring over "
                        "existing tables would fail on the first one or mix two sites' data. "
                        "Name a new database (it is created), or pass --force-clean to drop "
                        "%(database)s and everything in it and create it again."
                    )
                    % {"database": conninfo_display(conninfo), "count": relations}
                )
            if relations:
                # WITH (FORCE): the site's own connections to it are closed (PostgreSQL 13+).
                admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
                cleaned = True
        if not exists or cleaned:
            # template0: nothing a site added to template1 gets in the restore's way.
            admin.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8'").format(
                    sql.Identifier(name)
                )
            )
            created = not cleaned
        return created, cleaned


def _counts(conninfo: Conninfo) -> tuple[tuple[str, int | None], ...]:
    """Rows of each model of BACKUP_SUMMARY_MODELS in the restored database."""
    counts: list[tuple[str, int | None]] = []
    with database_connect(conninfo) as connection:
        for label in settings.BACKUP_SUMMARY_MODELS:
            meta: Any = apps.get_model(label)._meta
            try:
                row = connection.execute(
                    sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(meta.db_table))
                ).fetchone()
                count: int | None = int(row[0]) if row else 0
            except psycopg.errors.UndefinedTable:
                count = None
            counts.append((str(meta.verbose_name_plural), count))
    return tuple(counts)


def backup_restore(
    *, path: Path, conninfo: Conninfo, force_clean: bool = False, privileges: bool = True
) -> Restore:
    """Restore a backup into `conninfo`'s database, which must be new or empty (created when
    missing; dropped and created again first with `force_clean`). One transaction: if any
    statement fails, nothing of the backup is left in it."""
    began = time.monotonic()
    if not path.is_file():
        raise BackupError(_("There is no backup file %(path)s.") % {"path": path})
    tools = client_tools_find(server=server_version(_maintenance(conninfo)))
    archive = archive_read(tools=tools, path=path)
    created, cleaned = _database_prepare(conninfo=conninfo, force_clean=force_clean)
    command: list[str | Path] = [
        tools.pg_restore,
        "--no-owner",  # the objects belong to the role restoring them
        "--exit-on-error",
        "--single-transaction",
        "--no-password",
        f"--dbname={conninfo['dbname']}",
    ]
    if not privileges:
        command.append("--no-privileges")
    result = client_run([*command, path], conninfo=conninfo)
    if result.returncode != 0:
        raise BackupError(
            _(
                "pg_restore %(version)s failed; nothing of the backup was kept in "
                "%(database)s: %(error)s"
            )
            % {
                "version": tools.version.text,
                "database": conninfo_display(conninfo),
                "error": result.stderr.strip(),
            }
        )
    # A restore brings rows but no planner statistics: without them the first pages would be
    # planned blind until autovacuum's first pass.
    with database_connect(conninfo) as connection:
        connection.execute("ANALYZE")
    return Restore(
        target=conninfo_display(conninfo),
        created=created,
        cleaned=cleaned,
        seconds=time.monotonic() - began,
        archive=archive,
        counts=_counts(conninfo),
    )
