"""Settings come from the environment; bad values stop start-up with one line naming them."""

from __future__ import annotations

import os

import pytest

from tests.config.processes import ROOT, run_manage, run_settings, without

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k7#Qe!vR2m@9Lz$pX4wT8nY1cB6hJ0sD3fG5aU&iO-oP+lK=jM*uE%rW^tZ",
    "ALLOWED_HOSTS": "ratings.example.org",
    "DATABASE_URL": "postgres://ratings:secret@db.example.org:5432/ratings",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
    "CACHE_URL": "redis://redis.example.org:6379/1",
}


def test_production_settings_pass_the_deploy_check() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "not-a-url"),
        ("DATABASE_URL", "mongodb://localhost/ratings"),
        ("DATABASE_URL", "sqlite:///db.sqlite3"),
        ("DEBUG", "perhaps"),
        ("TIME_ZONE", "Mars/Olympus_Mons"),
        ("CELERY_BROKER_URL", "http://localhost:6379"),
        ("CONN_MAX_AGE", "forever"),
    ],
)
def test_a_bad_value_stops_start_up_with_one_line_naming_it(variable: str, value: str) -> None:
    result = run_manage("check", env={**PRODUCTION_ENV, variable: value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert variable in lines[0]
    assert "Traceback" not in result.stderr


def test_a_missing_secret_key_in_production_is_named() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode == 2
    assert "SECRET_KEY" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_without_database_url_only_the_database_is_refused_in_one_line() -> None:
    """PostgreSQL is the only database and has no default: using it without DATABASE_URL stops
    with one line naming it, while commands that need no database (the Docker build's
    collectstatic) still run."""
    checked = run_manage("check", env={"DEBUG": "1"})
    assert checked.returncode == 0, checked.stdout + checked.stderr
    migrated = run_manage("migrate", env={"DEBUG": "1"})
    assert migrated.returncode == 2, migrated.stdout + migrated.stderr
    lines = migrated.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL is not set" in lines[0], migrated.stderr
    assert "make run" in lines[0]


def test_a_socket_folder_in_the_url_is_decoded() -> None:
    """The private server of `make run`/`make test` listens on a Unix socket in .pgdata/."""
    url = "postgres://postgres@%2Fsrv%2Fro%2F.pgdata:5432/rating_office"
    result = run_settings(
        "*(settings.DATABASES['default'][key] for key in ('ENGINE', 'HOST', 'PORT', 'NAME'))",
        env={**without("DATABASE_URL"), "DATABASE_URL": url},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "/srv/ro/.pgdata",
        "5432",
        "rating_office",
    ]


def test_no_broker_is_eager_and_filesystem_is_the_local_queue() -> None:
    """Tests and manage.py run tasks in-process; `make run` sets filesystem:// for its worker."""
    printed = (
        "settings.CELERY_TASK_ALWAYS_EAGER, settings.CELERY_BROKER_URL, "
        "settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('data_folder_in', '-'), settings.TIME_ZONE"
    )

    def settings_with(**env: str) -> list[str]:
        result = run_settings(printed, env={**without("CELERY_BROKER_URL", "TIME_ZONE"), **env})
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert settings_with() == ["True", "memory://localhost/", "-", "Europe/Madrid"]
    assert settings_with(CELERY_BROKER_URL="filesystem://") == [
        "False",
        "filesystem://",
        str(ROOT / ".celery" / "queue"),
        "Europe/Madrid",
    ]


def test_a_broker_url_turns_eager_mode_off() -> None:
    result = run_settings(
        "settings.CELERY_TASK_ALWAYS_EAGER",
        env={**os.environ, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/9"},
    )
    assert result.stdout.strip() == "False", result.stderr


def test_a_line_of_djangos_loggers_is_printed_once() -> None:
    """Django's own console handler on "django" printed each line again through the root's
    (`make run` showed "Watching for file changes with StatReloader" twice)."""
    result = run_settings(
        "__import__('logging').getLogger('django.request').warning('Not Found: /nowhere')",
        env=without("LOG_LEVEL"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("Not Found: /nowhere") == 1, result.stderr
