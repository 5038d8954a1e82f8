"""Settings for mypy's Django plugin only (pyproject.toml, [tool.django-stubs]).

The plugin imports the settings module and runs django.setup() to learn the models. That must
work on a machine with no environment at all, so `mypy` in CI, pre-commit and a fresh clone
needs nothing set: give the required variables harmless values, then load the real settings.
DATABASE_URL is given too so that an unset one never means "start an embedded database" here;
nothing connects to it (django.setup() opens no connection).
"""

import os

os.environ.setdefault("SECRET_KEY", "mypy-only-insecure-secret-key-never-served")
os.environ.setdefault("DATABASE_URL", "postgres://mypy@127.0.0.1:1/mypy-never-connects")

from config.settings import *  # noqa: F403
