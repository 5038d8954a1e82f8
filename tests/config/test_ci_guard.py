"""In CI the suite must run on the real services, never quietly on a private PostgreSQL or on
eager tasks (config/embedded_db.py refuses to start one when CI=true; this checks it did not)."""

import os

import pytest
from django.db import connection

import config.settings as configured
from config import embedded_db


@pytest.mark.skipif(
    os.environ.get("CI") != "true", reason="only CI insists on PostgreSQL and Redis"
)
def test_ci_runs_on_postgresql_and_redis() -> None:
    assert connection.vendor == "postgresql"
    assert not embedded_db.started_here()
    assert str(embedded_db.PGDATA) not in str(connection.settings_dict["HOST"])
    # The settings module as configured from the environment, not as a test fixture overrides
    # it (tests/conftest.py makes tasks eager unless a test starts a real worker).
    assert configured.CELERY_BROKER_URL.startswith("redis://")
    assert configured.CELERY_TASK_ALWAYS_EAGER is False
