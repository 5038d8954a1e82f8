"""PostgreSQL session advisory locks: "one worker at a time on this period / this system".

A session lock is released by the server when the holder's connection ends, so a worker
killed mid-run never leaves a lock behind; whoever asks next gets it. Each caller has its own
namespace (the first key), so ids of different tables never collide.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

#: Namespaces (first key of the two-key lock): one per kind of job.
CALCULATION = 7301  # a run of a rating period (key: period id)
LIST_IMPORT = 7302  # an import into a rating system (key: system id)
LIVE_RATINGS = 7303  # the live ratings of a rating period (key: period id)
RERATING = 7304  # a re-rating chain of a rating system (key: system id)


def advisory_try_lock(namespace: int, key: int) -> bool:
    """Take the lock if nobody holds it; never waits."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [namespace, int(key)])
        return bool(cursor.fetchone()[0])


def advisory_unlock(namespace: int, key: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [namespace, int(key)])


def advisory_is_free(namespace: int, key: int) -> bool:
    """Whether nobody holds the lock now (taken and released at once): a job whose worker
    died has released it."""
    if advisory_try_lock(namespace, key):
        advisory_unlock(namespace, key)
        return True
    return False


@contextmanager
def advisory_lock(namespace: int, key: int) -> Iterator[None]:
    """Hold the lock for the block, waiting for it if another session has it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [namespace, int(key)])
    try:
        yield
    finally:
        advisory_unlock(namespace, key)
