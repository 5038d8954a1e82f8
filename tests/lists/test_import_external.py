"""The ICCF and FPX list imports (lists/imports/external.py): kept and dated, players matched
(by ICCF ID, an earlier list's match, FIDE ID, a unique name), never created; the preview's
counts are what the import writes; the players' iccf_rating / fpx_rating follow the latest
list; the job runs them as it runs the FIDE import."""

from __future__ import annotations

import datetime as dt

import pytest

from core.jobs import JobStatus
from lists.imports.external import external_list_import
from lists.imports.importer import ListImportError
from lists.imports.jobs import list_import_request, list_import_run
from players.external import external_rating_in_force, external_ratings_in_force
from players.models import ExternalList, ExternalListEntry, Player
from tests.factories import make_player, make_user

pytestmark = pytest.mark.django_db

JULY, APRIL, OCTOBER = dt.date(2026, 7, 1), dt.date(2026, 4, 1), dt.date(2026, 10, 1)


def iccf_file(*rows: tuple[int, str, int]) -> bytes:
    lines = ["ICCF-id\tCountry\tTitle\tName\tGames\tRating"]
    lines += [f"{i}\tPOR\t\t{name}\t40\t{rating}" for i, name, rating in rows]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def registry() -> dict[str, Player]:
    return {
        "by_id": make_player(surname="Silva", given_name="João", iccf_id=910001),
        "by_name": make_player(surname="Costa", given_name="Ana"),
        "twin1": make_player(surname="Lopes", given_name="Rui"),
        "twin2": make_player(surname="Lopes", given_name="Rui"),  # same name: never guessed
        "by_fide": make_player(surname="Moura", given_name="Eva", fide_id=1901234),
    }


FILE = iccf_file(
    (910001, "Silva Santos, João", 2450),  # the ICCF ID matches, not the name
    (910002, "Costa, Ana", 2190),  # the one player named so
    (910003, "Lopes, Rui", 2050),  # two players named so: unmatched
    (910004, "Nobody, Nemo", 2000),  # nobody
)


def test_preview_counts_are_what_is_written(registry: dict[str, Player]) -> None:
    preview = external_list_import(source="iccf", list_date=JULY, data=FILE, dry_run=True)
    assert not ExternalList.objects.exists()  # the preview wrote nothing
    assert Player.objects.filter(iccf_rating__isnull=False).count() == 0
    done = external_list_import(source="iccf", list_date=JULY, data=FILE, filename="q3.txt")
    assert (preview.rows, preview.matched, preview.unmatched, preview.created) == (4, 2, 2, 0)
    assert (done.rows, done.matched, done.unmatched, done.created) == (4, 2, 2, 0)
    assert preview.ratings_written == done.ratings_written == 2
    kept = ExternalList.objects.get()
    assert (kept.source, kept.list_date, kept.rows, kept.matched, kept.unmatched) == (
        "iccf",
        JULY,
        4,
        2,
        2,
    )
    matched = dict(
        ExternalListEntry.objects.filter(external_list=kept).values_list("ext_id", "player_id")
    )
    assert matched == {
        910001: registry["by_id"].pk,
        910002: registry["by_name"].pk,
        910003: None,
        910004: None,
    }
    for key in registry:
        registry[key].refresh_from_db()
    assert registry["by_id"].iccf_rating == 2450 and registry["by_name"].iccf_rating == 2190
    # Matched by name, she gets the list's ICCF ID; nobody is created.
    assert registry["by_name"].iccf_id == 910002
    assert Player.objects.count() == 5


def test_the_list_in_force_on_a_day(registry: dict[str, Player]) -> None:
    external_list_import(source="iccf", list_date=JULY, data=iccf_file((910001, "S", 2450)))
    # An older list imported afterwards is kept, but the players' field follows the latest.
    older = external_list_import(
        source="iccf", list_date=APRIL, data=iccf_file((910001, "S", 2400))
    )
    assert not older.latest and older.ratings_written == 0
    pid = registry["by_id"].pk
    assert Player.objects.get(pk=pid).iccf_rating == 2450
    assert external_rating_in_force(source="iccf", on=dt.date(2026, 3, 31), player_id=pid) is None
    assert external_rating_in_force(source="iccf", on=APRIL, player_id=pid) == 2400
    assert external_rating_in_force(source="iccf", on=dt.date(2026, 6, 30), player_id=pid) == 2400
    assert external_ratings_in_force(source="iccf", on=OCTOBER) == {pid: 2450}
    # A second import of the same day replaces that day's list.
    external_list_import(source="iccf", list_date=JULY, data=iccf_file((910001, "S", 2460)))
    assert ExternalList.objects.filter(source="iccf").count() == 2
    assert external_rating_in_force(source="iccf", on=JULY, player_id=pid) == 2460


def test_an_earlier_lists_match_is_kept(registry: dict[str, Player]) -> None:
    fpx = 'fpx_id,name,rating,fide_id\n77,"Moura, Eva",2010,1901234\n'
    external_list_import(source="fpx", list_date=APRIL, data=fpx.encode())
    # The next list has her under another spelling and no FIDE ID: the licence number of the
    # earlier list's match finds her.
    later = 'fpx_id,name,rating\n77,"Moura, Eva M.",2025\n'
    done = external_list_import(source="fpx", list_date=JULY, data=later.encode())
    assert done.matched == 1
    assert Player.objects.get(pk=registry["by_fide"].pk).fpx_rating == 2025


def test_a_bad_row_writes_nothing(registry: dict[str, Player]) -> None:
    bad = b"ICCF-id\tName\tRating\n910001\tSilva\t2450\nx\tCosta\t99\n"
    with pytest.raises(ListImportError) as err:
        external_list_import(source="iccf", list_date=JULY, data=bad)
    assert [(p.code, p.line) for p in err.value.problems] == [
        ("external_bad_id", 3),
        ("external_rating_out_of_range", 3),
    ]
    assert not ExternalList.objects.exists()
    assert Player.objects.get(pk=registry["by_id"].pk).iccf_rating is None


def test_the_job_runs_an_external_import(registry: dict[str, Player]) -> None:
    job = list_import_request(
        system=None,
        data=FILE,
        format="txt",
        filename="iccf.txt",
        user=make_user(),
        source="iccf",
        list_date=JULY,
        enqueue=False,
    )
    job = list_import_run(job_id=job.pk)
    assert job.status == JobStatus.SUCCEEDED, (job.error, job.problems)
    assert (job.rows, job.players_updated, job.players_created) == (4, 2, 0)
    assert job.external_list is not None and job.external_list.list_date == JULY
