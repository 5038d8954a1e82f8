"""In CI the suite must run on the real services, never quietly on SQLite or eager tasks."""
import os

import pytest
from django.conf import settings
from django.db import connection


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only CI insists on PostgreSQL and Redis")
def test_ci_runs_on_postgresql_and_redis() -> None:
    assert connection.vendor == "postgresql"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
