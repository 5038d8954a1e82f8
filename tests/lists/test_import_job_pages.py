"""The pages of list import jobs: the form posts and redirects to the job's page, which shows
the counts or the table of problems and polls its progress; officers only; the messages in
every language.

Runs on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from core import roles
from lists.imports import importer
from lists.imports import jobs as import_jobs
from lists.imports.jobs import (
    list_import_request,
)
from lists.models import ListImportJob
from tests.factories import make_system, make_user
from tests.lists.test_import import BAD_TXT


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
                "players": "all",
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
        importer.READING,
        importer.CHECKING,
        importer.WRITING,
        importer.SAVING,
        import_jobs.WORKER_LOST,
        import_jobs.INCOMPLETE,
    ]
    with translation.override(lang):
        assert [t for t in texts if gettext(t) == t] == []
