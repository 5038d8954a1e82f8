"""Importing an existing list from the officer's page (errors by row, then the import) and
with the management command `import_list`.

Runs on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from core import roles
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_system, make_user
from tests.lists.test_import import BAD_TXT


@pytest.mark.django_db
def test_import_page_is_for_officers_only(client) -> None:
    url = reverse("ratings:list_import")
    assert client.get(url).status_code == 302
    client.force_login(make_user(role=roles.ARBITER))
    assert client.get(url).status_code == 403
    client.force_login(make_user(role=roles.RATING_OFFICER))
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_import_page_shows_errors_with_rows_then_imports(
    client, excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    """The page queues a job (run eagerly here) and redirects to it
    (tests/lists/test_import_jobs.py has the job flow itself)."""
    system = make_system(name="Standard")
    client.force_login(make_user(role=roles.RATING_OFFICER))
    url = reverse("ratings:list_import")
    with django_capture_on_commit_callbacks(execute=True):
        bad = client.post(
            url,
            {
                "system": system.pk,
                "format": "txt",
                "file": SimpleUploadedFile("bad.txt", BAD_TXT.encode()),
            },
        )
    assert bad.status_code == 302
    html = client.get(bad["Location"]).content.decode()
    assert "Row 3, column Mar11: “2x00” is not a whole number." in html
    assert "Row 7, column ID number: the FIDE ID is missing." in html
    assert Player.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        good = client.post(
            url,
            {
                "system": system.pk,
                "format": "txt",
                "players": "all",
                "file": SimpleUploadedFile("list.txt", excerpt),
            },
        )
    assert good.status_code == 302
    assert "Players created: 500" in client.get(good["Location"]).content.decode()


@pytest.mark.django_db
def test_management_command(tmp_path, excerpt: bytes, capsys) -> None:
    system = make_system(code="std")
    path = tmp_path / "list.txt"
    path.write_bytes(excerpt)
    call_command("import_list", "--system", "std", "--players", "all", str(path))
    assert "500 rows: 500 players created" in capsys.readouterr().out
    # A FIDE list: the players' FIDE ratings by default; --target system for the system's.
    assert Player.objects.get(fide_id=4158814).fide_standard == 2686
    assert not PlayerRating.objects.exists()
    call_command("import_list", "--system", "std", "--target", "system", str(path))
    assert PlayerRating.objects.get(player__fide_id=4158814, system=system).rating == 2686
    bad = tmp_path / "bad.txt"
    bad.write_bytes(BAD_TXT.encode())
    with pytest.raises(CommandError):
        call_command("import_list", "--system", "std", str(bad))
    assert "Row 5, column Mar11: rating 4000 is outside 100–3500." in capsys.readouterr().err
    with pytest.raises(CommandError):
        call_command("import_list", "--system", "nope", str(path))
