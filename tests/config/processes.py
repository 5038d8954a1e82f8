"""Django in a new process (settings read the environment once): manage.py commands and
expressions over the settings, for the configuration tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`manage.py *args` with the deployment variables of this environment replaced by `env`."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "CACHE_URL",
            "SECURE_SSL_REDIRECT",
            "SECURE_COOKIES",
            "TIME_ZONE",
            "DJANGO_SETTINGS_MODULE",
        }
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def without(*names: str) -> dict[str, str]:
    """This environment without `names` (nor DJANGO_SETTINGS_MODULE)."""
    return {k: v for k, v in os.environ.items() if k not in {*names, "DJANGO_SETTINGS_MODULE"}}


def run_settings(printed: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A Python process in ``env`` (DEBUG on) printing ``printed``, an expression over the
    settings."""
    code = f"import django; django.setup(); from django.conf import settings; print({printed})"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"},
    )
