"""Which players a FIDE list import creates (issue 24 item 7): by default none (only players
already in the registry, by FIDE ID, are updated); "federation" creates the federation's own
(settings.FEDERATION_CODE); "all" the foreign ones too. The preview (a dry run) counts what
will be created, updated and skipped, and the import then writes exactly that."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from core.roles import RATING_OFFICER
from lists.imports.importer import ListImportError, list_import
from lists.imports.jobs import list_import_request
from lists.models import ListImportJob
from players.models import Player
from tests.factories import make_player, make_system, make_user
from tests.lists.test_import_fide import combined, combined_line

pytestmark = pytest.mark.django_db

# Hand-made: one player already in the registry (changes his standard rating and gets his
# missing birth year), two new Spanish players, three new foreign ones.
KNOWN = combined_line(
    ID="2200001", Name="Conocido, Juan", Fed="ESP", SRtng="2100", **{"B-day": "1980"}
)
ESP_1 = combined_line(ID="2200002", Name="Nuevo, Pedro", Fed="ESP", SRtng="1900")
ESP_2 = combined_line(ID="2200003", Name="Nueva, Rosa", Fed="ESP", Sex="F", SRtng="0")
FRA = combined_line(ID="2200004", Name="Dupont, Jean", Fed="FRA", SRtng="2000")
NOR = combined_line(ID="2200005", Name="Hansen, Ola", Fed="NOR", SRtng="2050")
POR = combined_line(ID="2200006", Name="Silva, Rui", Fed="POR", SRtng="1950")
FILE = combined(KNOWN, ESP_1, FRA, ESP_2, NOR, POR)


@pytest.fixture
def known() -> Player:
    return make_player(fed_id="E100", fide_id=2200001, fide_standard=2050, birth_year=None)


def _counts(result) -> tuple[int, int, int, int, int]:
    return (
        result.rows,
        result.players_created,
        result.players_updated,
        result.ratings_written,
        result.players_skipped,
    )


@pytest.mark.parametrize(
    ("players", "expected", "created_ids"),
    [
        # rows, created, completed (birth year), FIDE ratings written, skipped
        (None, (6, 0, 1, 1, 5), set()),
        ("update", (6, 0, 1, 1, 5), set()),
        # Pedro has a rating, Rosa none (0): 1 + 1 FIDE ratings written.
        ("federation", (6, 2, 1, 2, 3), {2200002, 2200003}),
        ("all", (6, 5, 1, 5, 0), {2200002, 2200003, 2200004, 2200005, 2200006}),
    ],
)
def test_the_choice_decides_who_is_created_and_the_preview_counts_it(
    known: Player, players, expected, created_ids, settings
) -> None:
    settings.FEDERATION_CODE = "ESP"
    system = make_system()
    preview = list_import(system=system, data=FILE, format="txt", players=players, dry_run=True)
    assert _counts(preview) == expected
    assert Player.objects.count() == 1  # the preview wrote nothing
    known.refresh_from_db()
    assert (known.fide_standard, known.birth_year) == (2050, None)
    result = list_import(system=system, data=FILE, format="txt", players=players)
    assert _counts(result) == _counts(preview) == expected
    assert set(Player.objects.exclude(pk=known.pk).values_list("fide_id", flat=True)) == created_ids
    known.refresh_from_db()
    assert (known.fide_standard, known.birth_year) == (2100, 1980)


def test_the_federation_is_the_configured_one(known: Player, settings) -> None:
    settings.FEDERATION_CODE = "FRA"
    result = list_import(system=make_system(), data=FILE, format="txt", players="federation")
    assert (result.players_created, result.players_skipped) == (1, 4)
    assert Player.objects.get(fide_id=2200004).federation == "FRA"


def test_a_bad_row_is_reported_even_if_it_would_be_skipped(known: Player) -> None:
    bad = combined_line(ID="2200009", Name="Malo, X", Fed="FRA", SRtng="9999")
    with pytest.raises(ListImportError):
        list_import(system=make_system(), data=combined(KNOWN, bad), format="txt", dry_run=True)


def test_a_csv_seeding_the_system_still_creates_every_player_by_default() -> None:
    data = b'fide_id,name,fed,rating\n2200004,"Dupont, Jean",FRA,2000\n'
    result = list_import(system=make_system(), data=data, format="csv")
    assert (result.players_created, result.players_skipped, result.players) == (1, 0, "all")


def test_the_page_previews_the_counts_and_the_job_writes_them(
    client, known: Player, django_capture_on_commit_callbacks
) -> None:
    system = make_system(name="Standard")
    client.force_login(make_user(role=RATING_OFFICER))
    url = reverse("ratings:list_import")
    fields = {"system": system.pk, "format": "txt", "players": "federation"}
    html = client.post(
        url, {**fields, "preview": "1", "file": SimpleUploadedFile("l.txt", FILE)}
    ).content.decode()
    assert '<li data-count="created">Players created: 2</li>' in html
    assert (
        '<li data-count="skipped">Rows skipped (players not in the registry, not created): 3'
        in html
    )
    assert Player.objects.count() == 1 and not ListImportJob.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**fields, "file": SimpleUploadedFile("l.txt", FILE)})
    job = ListImportJob.objects.get()
    assert (job.players, job.players_created, job.players_skipped) == ("federation", 2, 3)
    page = client.get(response["Location"]).content.decode()
    assert "Rows skipped (players not in the registry, not created): 3" in page


def test_a_job_by_default_creates_nobody(known: Player, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=make_system(), data=FILE, format="txt")
    job.refresh_from_db()
    assert (job.players, job.status, job.players_created, job.players_skipped) == (
        "update",
        "succeeded",
        0,
        5,
    )


def test_the_command_takes_the_choice_and_previews(tmp_path, known: Player, capsys) -> None:
    make_system(code="std")
    path = tmp_path / "l.txt"
    path.write_bytes(FILE)
    call_command("import_list", "--system", "std", "--players", "all", "--preview", str(path))
    out = capsys.readouterr().out
    assert "Preview: nothing was written." in out and "6 rows: 5 players created" in out
    assert Player.objects.count() == 1
    call_command("import_list", "--system", "std", str(path))
    out = capsys.readouterr().out
    assert "6 rows: 0 players created" in out and "5 rows skipped" in out


def test_the_api_previews_and_queues_with_the_choice(
    client, known: Player, django_capture_on_commit_callbacks
) -> None:
    make_system(code="std")
    client.force_login(make_user(role=RATING_OFFICER))
    url = "/api/v1/list-imports/"
    fields = {"system": "std", "format": "txt", "players": "federation"}
    preview = client.post(url, {**fields, "preview": "true", "file": SimpleUploadedFile("l", FILE)})
    assert preview.status_code == 200
    body = preview.json()
    assert (body["players_created"], body["players_skipped"], body["players"]) == (
        2,
        3,
        "federation",
    )
    assert Player.objects.count() == 1 and not ListImportJob.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(url, {**fields, "file": SimpleUploadedFile("l.txt", FILE)})
    assert created.status_code == 201
    job = client.get(f"{url}{created.json()['id']}/").json()
    assert (job["status"], job["players"], job["players_created"], job["players_skipped"]) == (
        "succeeded",
        "federation",
        2,
        3,
    )


def test_the_fide_excerpt_creates_no_foreign_player(excerpt: bytes, settings) -> None:
    """Issue 24, "Tried in the browser" 1: the excerpt created 500 foreign players. By default
    now none; "federation" creates only the rows whose Fed column is the federation's (counted
    here from the file's columns, as FIDE lays them out), and the preview says so first."""
    settings.FEDERATION_CODE = "ESP"
    lines = excerpt.decode("latin-1").splitlines()
    start = lines[0].index("Fed")
    feds = [line[start : start + 3] for line in lines[1:] if line.strip()]
    spanish = feds.count("ESP")
    system = make_system()
    default = list_import(system=system, data=excerpt, format="txt")
    assert (default.players_created, default.players_skipped) == (0, len(feds))
    assert not Player.objects.exists()
    preview = list_import(
        system=system, data=excerpt, format="txt", players="federation", dry_run=True
    )
    result = list_import(system=system, data=excerpt, format="txt", players="federation")
    assert _counts(preview) == _counts(result)
    assert spanish > 0 and result.players_created == spanish == Player.objects.count()
    assert set(Player.objects.values_list("federation", flat=True)) <= {"ESP"}
