"""Suite-wide fixtures."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings


@pytest.fixture(autouse=True)
def celery_eager_by_default() -> Iterator[None]:
    """Run Celery tasks in-process unless a test asks for a real worker.

    CI sets CELERY_BROKER_URL (Redis) for the whole run; tests that exercise the service flow
    expect the task to have run when the request returns. The tests that start a real worker
    use the `celery_broker` fixture (tests/test_periods_worker.py), whose own override_settings
    is entered later and so wins. Celery reads the CELERY_* settings lazily, so overriding the
    Django setting switches the app.
    """
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        yield
