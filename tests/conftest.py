"""Suite-wide fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from tests.shared_data import SHARED_DATA
from tests.workers import celery_broker, stalled_writes  # noqa: F401 (fixtures for the suite)


@pytest.fixture(autouse=True)
def celery_eager_by_default() -> Iterator[None]:
    """Run Celery tasks in-process unless a test asks for a real worker.

    CI sets CELERY_BROKER_URL (Redis) for the whole run; tests that exercise the service flow
    expect the task to have run when the request returns. The tests that start a real worker
    use the `celery_broker` fixture (tests/workers.py), whose own override_settings
    is entered later and so wins. Celery reads the CELERY_* settings lazily, so overriding the
    Django setting switches the app.
    """
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        yield


#: The real FIDE list excerpt of ../shared/data/ (read there, never copied into the project).
FIDE_LIST_EXCERPT = SHARED_DATA / "fide-list" / "legacy-2011-03-standard-list-excerpt-500.txt"


@pytest.fixture
def excerpt() -> bytes:
    """The FIDE list excerpt's bytes; the test is skipped when the shared data is absent."""
    if not FIDE_LIST_EXCERPT.is_file():
        pytest.skip("shared FIDE list excerpt not available")
    return FIDE_LIST_EXCERPT.read_bytes()
