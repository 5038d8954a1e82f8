"""List import jobs stuck or lost: a queued job whose message was lost is offered again (after
a set time) and runs, or fails when its file is gone; requeue is a POST for officers; finished
jobs are pruned after some days.

Runs on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core import roles
from lists.imports import jobs as import_jobs
from lists.imports.jobs import (
    ListImportRefused,
    list_import_request,
)
from lists.models import ListImportChunk, ListImportJob
from tests.factories import make_system, make_user
from tests.lists.test_import import BAD_TXT

GOOD_TXT = "".join(BAD_TXT.splitlines(keepends=True)[:2]).encode()  # the header and one good row


def _lost(system=None, **fields) -> ListImportJob:
    """A queued job whose message never reached a worker."""
    job = list_import_request(
        system=system or make_system(),
        data=GOOD_TXT,
        format="txt",
        players="all",
        filename="one.txt",
        enqueue=False,
    )
    if fields:
        ListImportJob.objects.filter(pk=job.pk).update(**fields)
        job.refresh_from_db()
    return job


def _minutes_ago(n: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=n)


@pytest.mark.django_db
def test_a_job_stuck_in_the_queue_is_offered_again_and_runs(
    client, django_capture_on_commit_callbacks
) -> None:
    client.force_login(make_user(role=roles.RATING_OFFICER))
    job = _lost()
    page_url = reverse("ratings:list_import_job", args=[job.pk])
    requeue_url = reverse("ratings:list_import_job_requeue", args=[job.pk])
    # Just queued: how long it has waited, no button, and a re-queue is refused.
    html = client.get(page_url).content.decode()
    assert "Waiting for a worker for 0\xa0minutes." in html and requeue_url not in html
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        refused = client.post(requeue_url, follow=True)
    assert callbacks == [] and "Wait a little longer" in refused.content.decode()
    assert ListImportJob.objects.get(pk=job.pk).status == "queued"

    # Twenty minutes later (the default limit is 15): the page offers the button.
    ListImportJob.objects.filter(pk=job.pk).update(requested_at=_minutes_ago(20))
    html = client.get(page_url).content.decode()
    assert "Waiting for a worker for 20\xa0minutes." in html
    assert f'<form method="post" action="{requeue_url}" id="requeue-form">' in html
    assert (
        client.get(reverse("ratings:list_import_job_progress", args=[job.pk])).json()["stalled"]
        is True
    )
    spanish = client.get(page_url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert (
        "Esperando a un proceso desde hace 20\xa0minutos." in spanish
        and "Volver a encolar" in spanish
    )

    # The button sends the task again (run eagerly here, on commit): the job is imported.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(requeue_url)
    assert len(callbacks) == 1 and response["Location"] == page_url
    job.refresh_from_db()
    assert (job.status, job.rows, job.players_created, job.attempts) == ("succeeded", 1, 1, 1)
    html = client.get(page_url).content.decode()
    assert "The import was sent to the workers again." in html and "Rows read: 1" in html
    assert requeue_url not in html
    # A finished job is not sent again.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = client.post(requeue_url, follow=True)
    assert callbacks == [] and "This import is no longer queued." in again.content.decode()


@pytest.mark.django_db
@override_settings(LIST_IMPORT_REQUEUE_MINUTES=60)
def test_the_time_before_a_requeue_is_a_setting(django_capture_on_commit_callbacks) -> None:
    job = _lost(requested_at=_minutes_ago(59))
    assert not import_jobs.list_import_stalled(job=job)
    with (
        pytest.raises(ListImportRefused),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        import_jobs.list_import_requeue(job=job)
    assert callbacks == []
    ListImportJob.objects.filter(pk=job.pk).update(requested_at=_minutes_ago(61))
    job.refresh_from_db()
    assert import_jobs.list_import_stalled(job=job)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        requeued = import_jobs.list_import_requeue(job=job)
    assert len(callbacks) == 1 and (requeued.status, requeued.phase) == ("queued", "Queued again")
    # A running job is not "stalled", however old.
    ListImportJob.objects.filter(pk=job.pk).update(status="running")
    job.refresh_from_db()
    assert not import_jobs.list_import_stalled(job=job)


@pytest.mark.django_db
def test_a_stuck_job_whose_file_is_gone_fails_instead(
    client, django_capture_on_commit_callbacks
) -> None:
    client.force_login(make_user(role=roles.RATING_OFFICER))
    job = _lost(requested_at=_minutes_ago(30))
    ListImportChunk.objects.filter(job=job).delete()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(
            reverse("ratings:list_import_job_requeue", args=[job.pk]), follow=True
        )
    assert callbacks == []
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", import_jobs.INCOMPLETE)
    html = response.content.decode()
    assert (
        html.count("The uploaded file is incomplete; upload it again.") == 2
    )  # the message, the job's error
    assert 'data-status="failed"' in html and "Nothing was written" in html
    # A piece missing in the middle is caught too (without reading the pieces).
    other = _lost(requested_at=_minutes_ago(30))
    ListImportJob.objects.filter(pk=other.pk).update(size=import_jobs.CHUNK_BYTES + 5)
    other.refresh_from_db()
    with pytest.raises(ListImportRefused):
        import_jobs.list_import_requeue(job=other)
    assert ListImportJob.objects.get(pk=other.pk).status == "failed"


@pytest.mark.django_db
def test_requeue_is_a_post_for_officers_only(client) -> None:
    job = _lost(requested_at=_minutes_ago(30))
    url = reverse("ratings:list_import_job_requeue", args=[job.pk])
    response = client.post(url)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(make_user(role=roles.ARBITER))
    assert client.post(url).status_code == 403
    client.force_login(make_user(role=roles.RATING_OFFICER))
    assert client.get(url).status_code == 405
    assert (
        client.post(reverse("ratings:list_import_job_requeue", args=[job.pk + 1])).status_code
        == 404
    )
    assert ListImportJob.objects.get(pk=job.pk).phase == "Queued"


# ------------------------------------------------------------------------------- pruning


@pytest.mark.django_db
def test_prune_import_jobs_deletes_finished_jobs_older_than_the_days() -> None:
    system = make_system()
    now = timezone.now()
    old_ok = _lost(system, status="succeeded", finished_at=now - dt.timedelta(days=40))
    old_failed = _lost(
        system,
        status="failed",
        finished_at=now - dt.timedelta(days=31),
        problems=[{"line": 2, "code": "x", "template": "x", "params": {}}],
    )
    recent = _lost(system, status="failed", finished_at=now - dt.timedelta(days=29))
    queued = _lost(system, requested_at=now - dt.timedelta(days=100))
    running = _lost(system, status="running", requested_at=now - dt.timedelta(days=100))
    assert ListImportChunk.objects.filter(job=old_ok).exists()  # its pieces go with it
    out = StringIO()
    call_command("prune_import_jobs", "--days", "30", stdout=out)
    assert out.getvalue().startswith("Import jobs deleted: 2 (finished before ")
    assert set(ListImportJob.objects.values_list("pk", flat=True)) == {
        recent.pk,
        queued.pk,
        running.pk,
    }
    assert not ListImportChunk.objects.filter(job_id__in=[old_ok.pk, old_failed.pk]).exists()
    assert ListImportChunk.objects.filter(job=queued).exists()
    out = StringIO()
    call_command("prune_import_jobs", "--days", "0", stdout=out)
    assert out.getvalue().startswith("Import jobs deleted: 1 ")
    assert set(ListImportJob.objects.values_list("pk", flat=True)) == {queued.pk, running.pk}
    with pytest.raises(CommandError):
        call_command("prune_import_jobs", "--days", "-1")
    with pytest.raises(CommandError):
        call_command("prune_import_jobs")  # --days is required
