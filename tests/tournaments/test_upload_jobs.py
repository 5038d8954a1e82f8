"""An upload over REPORT_INLINE_BYTES is handed to a worker: the request answers at once with
a redirect to the job's page, the worker stores the report exactly as an inline upload would,
and the page shows the outcome (accepted, or rejected with its problems)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.jobs import JobStatus
from tests.factories import make_user
from tests.tournaments.test_flow import sample_trf, setup  # noqa: F401 (fixture)
from tournaments import services, tasks
from tournaments.models import Report, ReportStatus, ReportUploadJob

pytestmark = pytest.mark.django_db


def post(client, tournament, data: bytes, name: str = "big.trf"):
    return client.post(
        reverse("tournaments:upload", args=[tournament.pk]),
        {"file": SimpleUploadedFile(name, data), "format": "auto"},
    )


def test_a_large_upload_goes_to_a_worker_and_its_page_shows_the_outcome(
    client,
    setup,  # noqa: F811
    settings,
    django_capture_on_commit_callbacks,
) -> None:
    settings.REPORT_INLINE_BYTES = 100
    tournament = setup["tournament"]
    client.force_login(setup["arbiter"])
    data = sample_trf()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post(client, tournament, data)
    job = ReportUploadJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:upload_job", args=[tournament.pk, job.pk])
    assert not Report.objects.exists()  # the request did not parse: the worker will
    assert job.status == JobStatus.QUEUED and bytes(job.data) == data
    page = client.get(response["Location"]).content.decode()
    assert "data-poll-job" in page
    assert len(callbacks) == 1
    callbacks[0]()  # the task, sent on commit, runs (eagerly) as the worker would
    job.refresh_from_db()
    report = Report.objects.get()
    assert job.status == JobStatus.SUCCEEDED and job.report == report
    assert bytes(job.data) == b""  # the report keeps the bytes; the job drops its copy
    assert bytes(report.data) == data and report.status == ReportStatus.ACCEPTED
    page = client.get(response["Location"]).content.decode()
    assert 'id="to-manage"' in page and "data-poll-job" not in page
    progress = client.get(
        reverse("tournaments:upload_job_progress", args=[tournament.pk, job.pk])
    ).json()
    assert progress["done"] is True and progress["progress"] == 100


def test_a_rejected_large_upload_lists_its_problems(
    client,
    setup,  # noqa: F811
    settings,
    django_capture_on_commit_callbacks,
) -> None:
    settings.REPORT_INLINE_BYTES = 10
    tournament = setup["tournament"]
    client.force_login(setup["arbiter"])
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, tournament, b"012 Open\n001 junk junk junk\n")
    page = client.get(response["Location"]).content.decode()
    assert Report.objects.get().status == ReportStatus.REJECTED
    assert 'id="problems"' in page


def test_a_job_runs_once(setup, settings, django_capture_on_commit_callbacks) -> None:  # noqa: F811
    tournament, arbiter = setup["tournament"], setup["arbiter"]
    with django_capture_on_commit_callbacks(execute=False):
        job = services.report_upload_enqueue(
            tournament=tournament,
            user=arbiter,
            data=sample_trf(),
            filename="a.trf",
            declared_format="auto",
        )
    services.report_upload_job_run(job_id=job.pk)
    services.report_upload_job_run(job_id=job.pk)  # the message delivered twice
    assert Report.objects.count() == 1


def test_another_arbiter_cannot_follow_the_job(client, setup) -> None:  # noqa: F811
    job = ReportUploadJob.objects.create(tournament=setup["tournament"], requested_by=None)
    client.force_login(make_user("someone-else", role=roles.ARBITER))
    url = reverse("tournaments:upload_job", args=[setup["tournament"].pk, job.pk])
    assert client.get(url).status_code == 403


def test_the_watchdog_marks_a_job_whose_worker_is_gone(setup, settings) -> None:  # noqa: F811
    settings.JOBS_HEARTBEAT_STALE_MINUTES = 5
    now = timezone.now()
    tournament = setup["tournament"]
    old = ReportUploadJob.objects.create(
        tournament=tournament, status=JobStatus.RUNNING, started_at=now - dt.timedelta(minutes=6)
    )
    young = ReportUploadJob.objects.create(
        tournament=tournament, status=JobStatus.RUNNING, started_at=now - dt.timedelta(minutes=1)
    )
    queued = ReportUploadJob.objects.create(tournament=tournament)
    assert tasks.watch_uploads.apply().get() == [old.pk]
    old.refresh_from_db()
    young.refresh_from_db()
    queued.refresh_from_db()
    assert old.status == JobStatus.LOST and old.done and "stopped" in old.phase
    assert young.status == JobStatus.RUNNING and queued.status == JobStatus.QUEUED
