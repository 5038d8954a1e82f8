"""The ICCF / FPX import page: the preview's counts, then the import as a job with the same
counts, on the FIDE import's job page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.roles import RATING_OFFICER
from lists.models import ListImportJob
from players.models import ExternalList
from tests.factories import make_player, make_user
from tests.lists.test_import_external import FILE

pytestmark = pytest.mark.django_db


def _form(preview: bool) -> dict[str, object]:
    data: dict[str, object] = {
        "source": "iccf",
        "list_date": "2026-07-01",
        "format": "txt",
        "file": SimpleUploadedFile("iccf-q3.txt", FILE),
    }
    if preview:
        data["preview"] = "1"
    return data


def test_preview_then_import(client, django_capture_on_commit_callbacks) -> None:
    make_player(surname="Silva", given_name="João", iccf_id=910001)
    make_player(surname="Costa", given_name="Ana")
    client.force_login(make_user(role=RATING_OFFICER))
    page = client.post("/ratings/lists/import/external/", _form(preview=True))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Rows matched to a player: 2" in html
    assert "Rows matching no player (kept in the list): 2" in html
    assert not ExternalList.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post("/ratings/lists/import/external/", _form(preview=False))
    job = ListImportJob.objects.get()
    assert done.status_code == 302 and done["Location"].endswith(f"/lists/import/{job.pk}/")
    job_page = client.get(done["Location"]).content.decode()
    assert "Rows matched to a player: 2" in job_page
    assert "Rows matching no player (kept in the list): 2" in job_page
    assert ExternalList.objects.get().matched == 2
