"""Issue 28: an upload over REPORT_INLINE_BYTES needs a worker; with the workers' broker
unreachable it is refused with 503, Retry-After and a translated sentence, and nothing is kept
(no job waiting for a message that was never sent, no report), on the page and in the API.
Once the broker answers the same upload is queued as usual."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from config.celery import app
from core.errors import RETRY_AFTER_SECONDS
from tests.tournaments.test_flow import sample_trf, setup  # noqa: F401 (fixture)
from tests.workers import _reset_pools
from tournaments.models import Report, ReportUploadJob

# The sends happen after commit, inside the request: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_away(monkeypatch) -> Iterator[None]:
    """Tasks go to a broker nobody answers (loopback's discard port: refused at once)."""
    # Celery takes task_always_eager from the settings live; its broker URL comes from the
    # environment's CELERY_BROKER_URL first (celery.app.utils.Settings.broker_url), and the
    # producers kept for the previous URL are forgotten.
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:9/0")
    _reset_pools(app)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        yield
    monkeypatch.undo()
    _reset_pools(app)


def _upload(name: str = "big.trf") -> dict:
    return {"file": SimpleUploadedFile(name, sample_trf()), "format": "auto"}


def test_the_page_refuses_a_large_upload_cleanly_when_the_broker_is_away(
    client,
    setup,  # noqa: F811
    settings,
    broker_away,
) -> None:
    settings.REPORT_INLINE_BYTES = 100
    tournament = setup["tournament"]
    client.force_login(setup["arbiter"])
    url = reverse("tournaments:upload", args=[tournament.pk])
    response = client.post(url, _upload(), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "procesos de trabajo" in response.content.decode()  # the sentence, translated
    assert not ReportUploadJob.objects.exists() and not Report.objects.exists()
    # The broker back (eager mode here): the same upload is taken.
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        again = client.post(url, _upload())
    assert again.status_code == 302
    assert ReportUploadJob.objects.count() == 1 and Report.objects.count() == 1


def test_the_api_refuses_a_large_upload_cleanly_when_the_broker_is_away(
    setup,  # noqa: F811
    settings,
    broker_away,
) -> None:
    settings.REPORT_INLINE_BYTES = 100
    tournament = setup["tournament"]
    client = APIClient()
    client.force_authenticate(setup["arbiter"])
    url = f"/api/v1/tournaments/{tournament.pk}/reports/"
    response = client.post(url, _upload(), format="multipart")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = response.json()
    assert body["status"] == 503 and body["code"] == "unavailable" and body["errors"] == []
    assert "workers" in body["message"]
    assert not ReportUploadJob.objects.exists() and not Report.objects.exists()
