"""The list import job page in a real browser: a job stuck in the queue gets its re-queue button
while the page is open (the poll sees it stalled), the button runs it; a failed job shows no bar.

Tasks run eagerly in the live server (tests/conftest.py), so the re-queued job is imported
during the POST.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from core.roles import RATING_OFFICER
from lists.imports.jobs import list_import_request
from lists.models import ListImportJob
from tests.factories import make_system, make_user
from tests.lists.test_import import BAD_TXT
from tests.lists.test_import_job_requeue import GOOD_TXT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_stuck_job_is_requeued_from_its_page(browser_page, live_server, login) -> None:
    make_user("officer", role=RATING_OFFICER)
    job = list_import_request(
        system=make_system(), data=GOOD_TXT, format="txt", filename="one.txt", enqueue=False
    )  # its message lost
    page = browser_page
    login(page, "officer")
    page.goto(live_server.url + reverse("ratings:list_import_job", args=[job.pk]))
    assert page.locator("#job-status").get_attribute("data-status") == "queued"
    assert "Waiting for a worker for 0" in page.locator("#job-waiting").inner_text()
    assert page.locator("#requeue").count() == 0
    # It has waited long enough: the page, still open, reloads with the button.
    ListImportJob.objects.filter(pk=job.pk).update(
        requested_at=timezone.now() - dt.timedelta(minutes=16)
    )
    page.locator("#requeue").wait_for()
    assert "16" in page.locator("#job-waiting").inner_text()
    page.click("#requeue")
    page.locator("#job-result").wait_for()
    assert "The import was sent to the workers again." in page.locator(".messages").inner_text()
    assert page.locator("#job-status").get_attribute("data-status") == "succeeded"
    assert "Rows read: 1" in page.locator("#job-result").inner_text()
    assert page.locator("#requeue").count() == 0


def test_a_failed_job_shows_no_progress_bar(browser_page, live_server, login) -> None:
    make_user("officer", role=RATING_OFFICER)
    job = list_import_request(
        system=make_system(), data=BAD_TXT.encode(), format="txt", filename="bad.txt"
    )
    assert ListImportJob.objects.get(pk=job.pk).status == "failed"
    page = browser_page
    login(page, "officer")
    page.goto(live_server.url + reverse("ratings:list_import_job", args=[job.pk]))
    assert page.locator("#progress").count() == 0
    assert page.locator("#job").inner_text().startswith("Failed · Nothing was written")
    assert page.locator("#problems tbody tr").count() == 5
