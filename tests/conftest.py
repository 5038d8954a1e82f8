"""Suite-wide fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from django.utils import translation

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


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Each test starts with this process's caches empty.

    Counters live in the cache (accounts/limits.py: sign-ups per client address, which is
    127.0.0.1 for every test), so without this a test fails or passes depending on which tests
    ran before it on the same xdist worker. Only this process's keys are removed (its
    CACHE_KEY_PREFIX, config/testing.py): the other workers share the Redis database.
    """
    yield
    for alias in settings.CACHES:
        cache = caches[alias]
        # django-redis: this process's keys only (its prefix); with Redis stopped by a test the
        # call is ignored like any other (DJANGO_REDIS_IGNORE_EXCEPTIONS).
        delete_pattern = getattr(cache, "delete_pattern", None)
        if getattr(cache, "key_prefix", "") and delete_pattern is not None:
            delete_pattern("*")
        else:
            cache.clear()


@pytest.fixture(autouse=True)
def site_language() -> Iterator[None]:
    """Each test starts in the site's language: a view or a task that activates a visitor's
    language (a Spanish request, an e-mail in its recipient's language) leaves it active in the
    thread, and the next test on the worker would read Spanish messages."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


#: The real FIDE list excerpt of ../shared/data/ (read there, never copied into the project).
FIDE_LIST_EXCERPT = SHARED_DATA / "fide-list" / "legacy-2011-03-standard-list-excerpt-500.txt"


@pytest.fixture
def excerpt() -> bytes:
    """The FIDE list excerpt's bytes; the test is skipped when the shared data is absent."""
    if not FIDE_LIST_EXCERPT.is_file():
        pytest.skip("shared FIDE list excerpt not available")
    return FIDE_LIST_EXCERPT.read_bytes()
