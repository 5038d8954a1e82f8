"""A list import job through a real Celery worker (Redis broker, PostgreSQL): the web side
only stores the file and the job; the worker imports it and records the outcome.

Same set-up as tests/ratings/test_worker.py (fixtures from tests/workers.py).
"""

from __future__ import annotations

import time

import pytest

from lists.imports.jobs import list_import_request
from lists.models import ListImportChunk, ListImportJob
from players.models import Player
from ratings.models import PlayerRating
from tests.conftest import FIDE_LIST_EXCERPT as EXCERPT
from tests.factories import make_system
from tests.workers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_an_import_job_runs_on_the_worker(celery_broker) -> None:
    if not EXCERPT.is_file():
        pytest.skip("shared FIDE list excerpt not available")
    celery_broker()
    system = make_system()
    job = list_import_request(
        system=system,
        data=EXCERPT.read_bytes(),
        format="txt",
        target="system",
        filename="mar11.txt",
    )
    wait_for(
        lambda: ListImportJob.objects.get(pk=job.pk).done, what="the worker to import the list"
    )
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts) == ("succeeded", 100, 1)
    assert (job.rows, job.players_created, job.ratings_written, job.method) == (
        500,
        500,
        500,
        "copy",
    )
    assert not ListImportChunk.objects.filter(job=job).exists()
    assert (
        Player.objects.count() == 500 and PlayerRating.objects.filter(system=system).count() == 500
    )


def test_a_job_whose_message_was_lost_is_requeued_and_runs_once(celery_broker) -> None:
    """The message never reached the broker (as after a wipe of Redis); the officer's re-queue
    sends it again, twice here before a worker starts: the job is imported once."""
    import datetime as dt

    from django.utils import timezone

    from lists.imports.jobs import list_import_requeue
    from tests.lists.test_import_job_requeue import GOOD_TXT

    start_worker = celery_broker
    system = make_system()
    job = list_import_request(
        system=system,
        data=GOOD_TXT,
        format="txt",
        target="system",
        filename="one.txt",
        enqueue=False,
    )
    ListImportJob.objects.filter(pk=job.pk).update(
        requested_at=timezone.now() - dt.timedelta(hours=1)
    )
    # Two clicks before any worker runs: two messages for the job wait in the queue.
    list_import_requeue(job=job)
    list_import_requeue(job=job)
    start_worker()
    wait_for(
        lambda: ListImportJob.objects.get(pk=job.pk).done,
        what="the worker to import the requeued job",
    )
    job.refresh_from_db()
    assert (job.status, job.rows, job.players_created, job.attempts) == ("succeeded", 1, 1, 1)
    assert Player.objects.count() == 1 and PlayerRating.objects.filter(system=system).count() == 1
    # The second message finds the job finished and leaves it alone.
    time.sleep(2)
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("succeeded", 1)
