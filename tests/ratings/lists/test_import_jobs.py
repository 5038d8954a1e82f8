"""List import jobs (ratings/import_jobs.py): the file stored in pieces, the task run eagerly
(the embedded default; tests/ratings/lists/test_import_worker.py has a real worker), the outcome on
the job row, the file dropped at the end, and the pages (form → job page → progress JSON).

Runs on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from core import roles
from players.models import Player
from ratings.lists import import_jobs, imports
from ratings.lists.import_jobs import (
    CHUNK_BYTES,
    ListImportRefused,
    list_import_request,
    list_import_run,
)
from ratings.models import ListImportChunk, ListImportJob, PlayerRating
from tests.factories import make_player, make_system, make_user
from tests.ratings.lists.test_import import BAD_TXT


def _stored(job: ListImportJob) -> bytes:
    return b"".join(
        bytes(d)
        for d in ListImportChunk.objects.filter(job=job)
        .order_by("seq")
        .values_list("data", flat=True)
    )


# ---------------------------------------------------------------------------------- services


@pytest.mark.django_db
def test_request_stores_the_file_in_pieces_and_enqueues_after_commit(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system()
    officer = make_user(role=roles.RATING_OFFICER)
    data = bytes(range(256)) * (CHUNK_BYTES * 5 // 2 // 256)  # 2.5 pieces
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = list_import_request(
            system=system, data=data, format="TXT", filename="list.txt", user=officer
        )
    assert len(callbacks) == 1  # the task, sent once the request's transaction commits
    job.refresh_from_db()
    assert (job.status, job.progress, job.format, job.filename, job.size, job.requested_by) == (
        "queued",
        0,
        "txt",
        "list.txt",
        len(data),
        officer,
    )
    assert ListImportChunk.objects.filter(job=job).count() == 3
    assert _stored(job) == data
    # An upload's chunks() (an iterable of pieces of any size) is stored the same way.
    with django_capture_on_commit_callbacks(execute=False):
        again = list_import_request(
            system=system,
            data=iter([data[:1000], data[1000:]]),
            format="txt",
            filename="list.txt",
            user=officer,
        )
    assert _stored(again) == data and ListImportChunk.objects.filter(job=again).count() == 3


@pytest.mark.django_db
def test_a_job_imports_the_list_and_drops_the_file(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=system, data=excerpt, format="txt", filename="mar11.txt")
    job.refresh_from_db()
    assert (job.status, job.progress, job.phase) == ("succeeded", 100, "Done")
    # The excerpt has 500 players, none of them in the registry (SOURCES.md), 163 of them
    # rated. A FIDE TXT list writes the players' FIDE rating by default, not the system's.
    assert (job.rows, job.players_created, job.players_updated, job.ratings_written) == (
        500,
        500,
        0,
        163,
    )
    assert (job.method, job.target) == ("copy", "fide")
    assert job.attempts == 1 and job.started_at is not None and job.finished_at is not None
    assert job.problems == [] and job.problem_total == 0 and job.error == ""
    assert not ListImportChunk.objects.filter(job=job).exists()
    assert Player.objects.count() == 500 and not PlayerRating.objects.exists()
    assert Player.objects.get(fide_id=4158814).fide_standard == 2686


@pytest.mark.django_db
def test_a_failed_job_keeps_the_row_numbered_problems_writes_nothing_and_drops_the_file(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(
            system=system, data=BAD_TXT.encode(), format="txt", filename="bad.txt"
        )
    job.refresh_from_db()
    assert job.status == "failed" and job.phase == "Failed" and job.finished_at is not None
    assert [(p["line"], p["code"], p["field"]) for p in job.problems] == [
        (3, "bad_number", "Mar11"),
        (4, "duplicate_id", "ID number"),
        (5, "rating_out_of_range", "Mar11"),
        (6, "bad_flag", "Flag"),
        (7, "missing_id", "ID number"),
    ]
    assert job.problem_total == 5 and job.rows is None
    assert import_jobs.problem_message(job.problems[1]) == (
        "Row 4, column ID number: FIDE ID 4158814 already appears in row 2."
    )
    assert Player.objects.count() == 0 and PlayerRating.objects.count() == 0
    assert not ListImportChunk.objects.filter(job=job).exists()


@pytest.mark.django_db
def test_a_problem_found_after_the_checks_still_writes_nothing(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    """fed_id_taken is found once the rows are staged."""
    make_player(fed_id="FIDE-4158814", fide_id=None)
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=system, data=excerpt, format="txt")
    job.refresh_from_db()
    assert job.status == "failed"
    assert [(p["line"], p["code"]) for p in job.problems] == [(2, "fed_id_taken")]
    assert Player.objects.count() == 1 and PlayerRating.objects.count() == 0


@pytest.mark.django_db
def test_a_finished_job_is_not_run_again(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    """A redelivered message after success leaves the job (and the registry) alone."""
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=system, data=excerpt, format="txt")
    list_import_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.attempts, job.players_created) == ("succeeded", 1, 500)


@pytest.mark.django_db
def test_a_job_whose_worker_died_runs_again_but_not_forever(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=False):
        job = list_import_request(system=system, data=excerpt, format="txt")
    # A worker took it and died (the import's transaction was rolled back): run again.
    ListImportJob.objects.filter(pk=job.pk).update(status="running", attempts=1)
    assert list_import_run(job_id=job.pk).status == "succeeded"
    assert ListImportJob.objects.get(pk=job.pk).attempts == 2
    # Killed three times: the file probably does not fit; the job fails and the file goes.
    with django_capture_on_commit_callbacks(execute=False):
        other = list_import_request(system=make_system(), data=excerpt, format="txt")
    ListImportJob.objects.filter(pk=other.pk).update(status="running", attempts=3)
    done = list_import_run(job_id=other.pk)
    assert done.status == "failed" and "worker stopped" in done.error
    assert not ListImportChunk.objects.filter(job=other).exists()


@pytest.mark.django_db
def test_an_unexpected_error_is_recorded_not_raised(
    monkeypatch, excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    def broken(**kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(imports, "list_import", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=make_system(), data=excerpt, format="txt")
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "RuntimeError: disk on fire")
    assert not ListImportChunk.objects.filter(job=job).exists()


@pytest.mark.django_db
def test_missing_pieces_fail_the_job(excerpt: bytes, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        job = list_import_request(system=make_system(), data=excerpt, format="txt")
    ListImportChunk.objects.filter(job=job).delete()
    done = list_import_run(job_id=job.pk)
    assert done.status == "failed" and "incomplete" in done.error
    assert Player.objects.count() == 0


@pytest.mark.django_db
@override_settings(LIST_IMPORT_MAX_BYTES=1000)
def test_a_file_over_the_limit_is_refused_without_a_job() -> None:
    with pytest.raises(ListImportRefused):
        list_import_request(system=make_system(), data=b"x" * 1001, format="txt")
    assert not ListImportJob.objects.exists() and not ListImportChunk.objects.exists()


@pytest.mark.django_db
def test_list_import_reports_progress(excerpt: bytes) -> None:
    calls: list[tuple[int, str]] = []
    imports.list_import(
        system=make_system(),
        data=excerpt,
        format="txt",
        progress=lambda percent, message: calls.append((percent, message)),
    )
    assert calls[0] == (5, "Reading the file")
    percents = [p for p, _m in calls]
    assert len(calls) >= 3 and percents == sorted(percents) and percents[-1] < 100
    assert {m for _p, m in calls} <= {
        "Reading the file",
        "Checking the rows",
        "Writing players and ratings",
        "Saving",
    }


@pytest.mark.django_db(transaction=True)
def test_progress_inside_the_import_transaction_is_visible_to_other_connections(
    monkeypatch, excerpt: bytes
) -> None:
    import psycopg

    job = list_import_request(system=make_system(), data=excerpt, format="txt", enqueue=False)
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    seen: list[tuple[int, str]] = []
    report = import_jobs._Progress.__call__

    def observed(self, percent: int, message: str) -> None:
        report(self, percent, message)
        with psycopg.connect(**params, autocommit=True) as other:
            row = other.execute(
                "SELECT progress, phase FROM ratings_listimportjob WHERE id = %s", [job.pk]
            ).fetchone()
            assert row is not None
            seen.append(row)

    monkeypatch.setattr(import_jobs._Progress, "__call__", observed)
    assert list_import_run(job_id=job.pk).status == "succeeded"
    assert seen[0] == (5, "Reading the file")
    assert any(p > 5 for p, _m in seen) and all(p < 100 for p, _m in seen)


# ------------------------------------------------------------------------------------- pages


@pytest.mark.django_db
def test_post_redirects_to_the_job_page_which_shows_the_counts(
    client, excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    system = make_system(name="Standard")
    officer = make_user(role=roles.RATING_OFFICER)
    client.force_login(officer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("ratings:list_import"),
            {
                "system": system.pk,
                "format": "txt",
                "file": SimpleUploadedFile("mar11.txt", excerpt),
            },
        )
    job = ListImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("ratings:list_import_job", args=[job.pk])
    assert (job.filename, job.requested_by, job.system) == ("mar11.txt", officer, system)
    progress = client.get(reverse("ratings:list_import_job_progress", args=[job.pk])).json()
    assert progress == {
        "job": job.pk,
        "status": "succeeded",
        "status_label": "Succeeded",
        "progress": 100,
        "message": "Done",
        "done": True,
        "stalled": False,
    }
    html = client.get(response["Location"]).content.decode()
    for text in (
        "Import of mar11.txt into Standard",
        "Rows read: 500",
        "Players created: 500",
        "Players whose FIDE ratings were written: 163",
        "The ratings of Standard were not changed.",
    ):
        assert text in html
    assert (
        "list_import_job_progress" not in html and "/progress/" not in html
    )  # no polling when done
    listing = client.get(reverse("ratings:list_import")).content.decode()
    assert reverse("ratings:list_import_job", args=[job.pk]) in listing and "mar11.txt" in listing


@pytest.mark.django_db
def test_job_page_of_a_failed_import_has_the_table_of_problems(
    client, django_capture_on_commit_callbacks
) -> None:
    system = make_system()
    client.force_login(make_user(role=roles.RATING_OFFICER))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("ratings:list_import"),
            {
                "system": system.pk,
                "format": "txt",
                "file": SimpleUploadedFile("bad.txt", BAD_TXT.encode()),
            },
        )
    html = client.get(response["Location"]).content.decode()
    assert "The list was not imported" in html
    # The failed state: no progress bar left where the import stopped, and what it means.
    assert 'id="progress"' not in html and 'id="job-percent"' not in html
    assert (
        '<span id="job-status" class="status status-failed" data-status="failed">Failed</span> · '
        '<span id="job-phase">Nothing was written: the players and ratings are as they were before '
        "this "
        "import.</span>"
    ) in html
    assert "Correct the file and import it again." in html
    assert (
        '<tr><td class="num">3</td><td>Mar11</td>'
        "<td>Row 3, column Mar11: “2x00” is not a whole number.</td></tr>"
    ) in html
    assert (
        '<tr><td class="num">7</td><td>ID number</td>'
        "<td>Row 7, column ID number: the FIDE ID is missing.</td></tr>"
    ) in html
    # The problems are stored untranslated: each reader gets them in their language.
    spanish = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Fila 3, columna Mar11: «2x00» no es un número entero." in spanish


@pytest.mark.django_db
def test_a_queued_job_page_polls_its_progress(
    client, excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    client.force_login(make_user(role=roles.RATING_OFFICER))
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            reverse("ratings:list_import"),
            {
                "system": make_system().pk,
                "format": "txt",
                "file": SimpleUploadedFile("l.txt", excerpt),
            },
        )
    job = ListImportJob.objects.get()
    progress_url = reverse("ratings:list_import_job_progress", args=[job.pk])
    assert progress_url in client.get(response["Location"]).content.decode()
    assert client.get(progress_url).json() == {
        "job": job.pk,
        "status": "queued",
        "status_label": "Queued",
        "progress": 0,
        "message": "Queued",
        "done": False,
        "stalled": False,
    }
    assert client.get(progress_url, HTTP_ACCEPT_LANGUAGE="es").json()["message"] == "En cola"


@pytest.mark.django_db
def test_job_pages_are_for_officers_only(client, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        job = list_import_request(system=make_system(), data=b"x", format="txt")
    for url in (
        reverse("ratings:list_import_job", args=[job.pk]),
        reverse("ratings:list_import_job_progress", args=[job.pk]),
    ):
        client.logout()
        assert client.get(url).status_code == 302
        client.force_login(make_user(role=roles.ARBITER))
        assert client.get(url).status_code == 403
        client.force_login(make_user(role=roles.RATING_OFFICER))
        assert client.get(url).status_code == 200
    assert client.get(reverse("ratings:list_import_job", args=[job.pk + 1])).status_code == 404


@pytest.mark.django_db
@override_settings(LIST_IMPORT_MAX_BYTES=1000)
def test_the_form_refuses_a_file_over_the_limit(client) -> None:
    client.force_login(make_user(role=roles.RATING_OFFICER))
    response = client.post(
        reverse("ratings:list_import"),
        {
            "system": make_system().pk,
            "format": "txt",
            "file": SimpleUploadedFile("big.txt", b"x" * 1001),
        },
    )
    assert response.status_code == 400
    assert "The file is larger than 1000\xa0bytes." in response.content.decode()
    assert not ListImportJob.objects.exists()


@pytest.mark.parametrize("lang", ["es", "ca", "pt"])
def test_the_import_messages_are_translated(lang: str) -> None:
    from django.utils import translation
    from django.utils.translation import gettext

    from formats import lists as lf

    texts = [
        *lf.TEMPLATES.values(),
        imports.READING,
        imports.CHECKING,
        imports.WRITING,
        imports.SAVING,
        import_jobs.WORKER_LOST,
        import_jobs.INCOMPLETE,
    ]
    with translation.override(lang):
        assert [t for t in texts if gettext(t) == t] == []


# ------------------------------------------------------------------------- a job stuck queued

GOOD_TXT = "".join(BAD_TXT.splitlines(keepends=True)[:2]).encode()  # the header and one good row


def _lost(system=None, **fields) -> ListImportJob:
    """A queued job whose message never reached a worker."""
    job = list_import_request(
        system=system or make_system(),
        data=GOOD_TXT,
        format="txt",
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
