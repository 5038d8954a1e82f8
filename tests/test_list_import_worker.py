"""A list import job through a real Celery worker (Redis broker, PostgreSQL): the web side
only stores the file and the job; the worker imports it and records the outcome.

Same set-up as tests/test_periods_worker.py (its fixture and helpers are reused).
"""
from __future__ import annotations

import pytest
from django.db import connection  # noqa: F401 (the skip condition of postgres_only reads it)

from players.models import Player
from ratings.import_jobs import list_import_request
from ratings.models import ListImportChunk, ListImportJob, PlayerRating
from tests.factories import make_system
from tests.test_list_import_jobs import EXCERPT
from tests.test_periods_worker import celery_broker, postgres_only, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), postgres_only]
__all__ = ["celery_broker"]  # the fixture, imported for the tests below


def test_an_import_job_runs_on_the_worker(celery_broker) -> None:
    if not EXCERPT.is_file():
        pytest.skip("shared FIDE list excerpt not available")
    celery_broker()
    system = make_system()
    job = list_import_request(system=system, data=EXCERPT.read_bytes(), format="txt",
                              filename="mar11.txt")
    wait_for(lambda: ListImportJob.objects.get(pk=job.pk).done, what="the worker to import the list")
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts) == ("succeeded", 100, 1)
    assert (job.rows, job.players_created, job.ratings_written, job.method) == (500, 500, 500, "copy")
    assert not ListImportChunk.objects.filter(job=job).exists()
    assert Player.objects.count() == 500 and PlayerRating.objects.filter(system=system).count() == 500
