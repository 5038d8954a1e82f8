"""`make run` (config/localrun.py): the port it serves on, its worker's quiet start, and the
database roles its steps connect as."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from config import localrun
from tests.config.processes import ROOT, without


def test_the_port_comes_from_the_environment() -> None:
    assert localrun.port({}) == 8000
    assert localrun.port({"PORT": ""}) == 8000
    assert localrun.port({"PORT": "8080"}) == 8080


@pytest.mark.parametrize("value", ["http", "0", "65536", "-1", "80 80", "٨٠٨٠"])
def test_a_bad_port_is_named(value: str) -> None:
    with pytest.raises(ValueError, match="PORT"):
        localrun.port({"PORT": value})


def test_the_workers_warning_filter_silences_only_the_root_warning() -> None:
    """The local worker's -W option matches the warning the installed Celery gives as root (its
    own text, so a reworded warning fails here), and Python accepts the option (a bad -W is
    ignored with a warning of its own, a line back in `make run`'s output)."""
    options = localrun.WORKER[: localrun.WORKER.index("-m")]
    code = (
        "import warnings\n"
        "from celery.exceptions import SecurityWarning\n"
        "from celery.platforms import ROOT_DISCOURAGED\n"
        "warnings.warn(SecurityWarning(ROOT_DISCOURAGED.format(uid=0, euid=0, gid=0, egid=0)))\n"
        "warnings.warn(SecurityWarning('another security warning'))\n"
    )
    result = subprocess.run(
        [sys.executable, *options, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "superuser" not in result.stderr
    assert "Invalid -W option" not in result.stderr
    assert "another security warning" in result.stderr


def test_the_workers_banner_lists_every_task() -> None:
    """The worker's `[tasks]` banner lists what `app.autodiscover_tasks()` (config/celery.py)
    found when the worker started (`loader.init_worker()`, before the banner): every
    `@shared_task(name=...)` of every app's tasks.py, with nothing else imported first."""
    declared = {
        name
        for tasks in ROOT.glob("*/tasks.py")
        for name in re.findall(r'@shared_task\(\s*name="([^"]+)"', tasks.read_text())
    }
    assert "ratings.calculate_period" in declared
    code = (
        "from config import celery_app as app\n"
        "app.loader.init_worker()\n"
        "print(' '.join(sorted(n for n in app.tasks if not n.startswith('celery.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            **without("CELERY_BROKER_URL"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
        },
    )
    assert result.returncode == 0, result.stderr
    assert set(result.stdout.split()) == declared, result.stderr


def test_on_the_private_server_migrate_runs_as_the_owner_and_the_site_as_its_role() -> None:
    owner = "postgres://postgres@%2Fhome%2Fx%2F.pgdata:5432/rating_office"
    migrate, site = localrun.role_envs({"DATABASE_URL": owner, "PATH": "/bin"}, embedded=True)
    app = "postgres://ratings_app@%2Fhome%2Fx%2F.pgdata:5432/rating_office"
    assert migrate == {"DATABASE_URL": app, "DATABASE_OWNER_URL": owner, "PATH": "/bin"}
    assert site == {"DATABASE_URL": app, "PATH": "/bin"}


def test_with_its_own_database_the_environment_decides_and_the_site_never_gets_the_owner() -> None:
    env = {"DATABASE_URL": "postgres://app:pw@db/x", "DATABASE_OWNER_URL": "postgres://own:pw@db/x"}
    migrate, site = localrun.role_envs(env, embedded=False)
    assert migrate == env
    assert site == {"DATABASE_URL": "postgres://app:pw@db/x"}
