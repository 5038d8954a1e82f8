"""The list import's preview (issue 14 item 13): the first rows as the import reads them, the
rating column named, one-word names as surnames, nothing written."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core.roles import RATING_OFFICER
from lists.models import ListImportJob
from players.models import Player
from tests.factories import make_system, make_user

pytestmark = pytest.mark.django_db


def test_preview_shows_the_first_rows_and_writes_nothing(client, excerpt: bytes) -> None:
    system = make_system(ruleset="fide-2024", rate_of_play="standard")
    client.force_login(make_user("officer-preview", role=RATING_OFFICER))
    response = client.post(
        reverse("ratings:list_import"),
        {
            "system": system.pk,
            "format": "txt",
            "file": SimpleUploadedFile("list.txt", excerpt),
            "preview": "1",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    # The 2011 header's rating column is "Mar11" (SOURCES.md: columns 54-57); a FIDE list
    # is written to the players' FIDE field of the system's rate (test_import_fide.py).
    assert "FIDE standard: read from the column “Mar11”" in html
    # Row 2: Andreikin, Dmitry, RUS, 2686 (the excerpt's first player); the 2011 list's
    # title code "g" is shown as the title the import writes, GM (docs/lists.md).
    assert (
        "<td>4158814</td><td>Andreikin</td><td>Dmitry</td><td>RUS</td><td>GM</td>"
        '<td class="num">2686</td>' in html
    )
    # Row 3: ", Vardharajan": the surname, not an empty one.
    assert "<td>25087835</td><td>Vardharajan</td><td>-</td>" in html
    assert not ListImportJob.objects.exists() and not Player.objects.exists()
