"""In CI the suite must run on the real services, never quietly on SQLite or eager tasks."""
import os

import pytest
from django.db import connection

import config.settings as configured


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only CI insists on PostgreSQL and Redis")
def test_ci_runs_on_postgresql_and_redis() -> None:
    assert connection.vendor == "postgresql"
    # The settings module as configured from the environment, not as a test fixture overrides
    # it (tests/conftest.py makes tasks eager unless a test starts a real worker).
    assert configured.CELERY_BROKER_URL.startswith("redis://")
    assert configured.CELERY_TASK_ALWAYS_EAGER is False
