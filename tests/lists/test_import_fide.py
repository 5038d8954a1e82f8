"""A FIDE list (TXT or XML) writes the players' FIDE ratings (issue 14 item 13): the field of
the list's rate of play (a combined list: all three), never the national system's ratings;
the preview and the job page say which ratings are written."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from core.roles import RATING_OFFICER
from lists.imports.importer import list_import
from lists.models import ListImportJob
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_player, make_system, make_user
from tests.lists.test_import_xml import CARLSEN, HEAD, MUZYCHUK, ONEILL, TAIL

pytestmark = pytest.mark.django_db

# FIDE's combined list header (shared/data/fide-list/SOURCES.md, players_list_foa.txt).
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def combined_line(**values: str) -> str:
    """A line of the combined list: each value from its label's start column (``ID`` stands
    for "ID Number"), as FIDE writes it."""
    line = ""
    for label, value in values.items():
        start = COMBINED_HEADER.index("ID Number" if label == "ID" else label)
        line = line.ljust(start) + value
    return line


def combined(*lines: str) -> bytes:
    return ("\r\n".join([COMBINED_HEADER, *lines]) + "\r\n").encode()


ROW_CARLSEN = combined_line(
    ID="1503014",
    Name="Carlsen, Magnus",
    Fed="NOR",
    Sex="M",
    Tit="GM",
    SRtng="2839",
    SGm="5",
    SK="10",
    RRtng="2825",
    RGm="12",
    Rk="20",
    BRtng="2886",
    BGm="0",
    BK="20",
    **{"B-day": "1990"},
)
ROW_NEW = combined_line(
    ID="99000001", Name="Nueva, Ana", Fed="ESP", Sex="F", SRtng="1850", RRtng="0", BRtng="1700"
)


def _national(player: Player, system, rating: int) -> PlayerRating:
    return PlayerRating.objects.create(
        player=player, system=system, rating=rating, games=40, kind="effective"
    )


def test_a_combined_txt_list_sets_the_three_fide_fields_and_not_the_national_rating() -> None:
    system = make_system(rate_of_play="standard")
    carlsen = make_player(fide_id=1503014, fide_standard=2800, fide_rapid=None, fide_blitz=2900)
    national = _national(carlsen, system, 2500)
    result = list_import(
        system=system, data=combined(ROW_CARLSEN, ROW_NEW), format="txt", players="all"
    )
    assert (result.rows, result.players_created, result.target) == (2, 1, "fide")
    assert result.ratings_written == 2  # Carlsen changed, Ana new with ratings
    carlsen.refresh_from_db()
    assert (carlsen.fide_standard, carlsen.fide_rapid, carlsen.fide_blitz) == (2839, 2825, 2886)
    ana = Player.objects.get(fide_id=99000001)
    # 0 is FIDE's "no rating": the field stays empty.
    assert (ana.fide_standard, ana.fide_rapid, ana.fide_blitz) == (1850, None, 1700)
    national.refresh_from_db()
    assert (national.rating, national.games) == (2500, 40)
    assert PlayerRating.objects.count() == 1  # nobody got a national rating
    # Again: nothing changes, nothing is written.
    again = list_import(
        system=system, data=combined(ROW_CARLSEN, ROW_NEW), format="txt", players="all"
    )
    assert (again.players_created, again.ratings_written) == (0, 0)
    # A later list: a rating gone (0) clears the field; one changed player, one event.
    events = Player.pgh_event_model.objects  # type: ignore[attr-defined]  # set by @pghistory.track
    before = events.filter(pgh_label="update").count()
    later = ROW_CARLSEN.replace("2886", "   0")
    third = list_import(system=system, data=combined(later, ROW_NEW), format="txt", players="all")
    assert third.ratings_written == 1
    carlsen.refresh_from_db()
    assert carlsen.fide_blitz is None and carlsen.fide_standard == 2839
    assert events.filter(pgh_label="update").count() == before + 1


def test_a_single_type_txt_list_sets_the_field_of_the_systems_rate(excerpt: bytes) -> None:
    standard = make_system(rate_of_play="standard")
    andreikin = make_player(fide_id=4158814, fide_rapid=2700)
    national = _national(andreikin, standard, 2100)
    result = list_import(system=standard, data=excerpt, format="txt", players="all")
    assert (result.rows, result.players_created, result.target) == (500, 499, "fide")
    andreikin.refresh_from_db()
    assert (andreikin.fide_standard, andreikin.fide_rapid) == (2686, 2700)
    national.refresh_from_db()
    assert national.rating == 2100 and PlayerRating.objects.count() == 1
    # The same file taken for a rapid list (a rapid system) writes the rapid field only.
    rapid = make_system(rate_of_play="rapid")
    list_import(system=rapid, data=excerpt, format="txt", players="all")
    andreikin.refresh_from_db()
    assert (andreikin.fide_standard, andreikin.fide_rapid) == (2686, 2686)
    assert PlayerRating.objects.count() == 1


def test_xml_lists_set_the_fide_fields() -> None:
    system = make_system(rate_of_play="blitz")
    carlsen = make_player(fide_id=1503014)
    national = _national(carlsen, system, 2400)
    data = (HEAD + CARLSEN + MUZYCHUK + ONEILL + TAIL).encode("latin-1")
    result = list_import(system=system, data=data, format="xml", players="all")
    assert (result.rows, result.players_created) == (3, 2)
    carlsen.refresh_from_db()
    assert (carlsen.fide_standard, carlsen.fide_rapid, carlsen.fide_blitz) == (2839, 2825, 2886)
    muzychuk = Player.objects.get(fide_id=14111330)
    assert (muzychuk.fide_standard, muzychuk.fide_rapid, muzychuk.fide_blitz) == (2520, None, 2500)
    national.refresh_from_db()
    assert national.rating == 2400 and PlayerRating.objects.count() == 1
    # A single-type XML list (our own download's layout): the system's rate (blitz).
    single = (
        HEAD
        + CARLSEN.replace("<rapid_rating>2825</rapid_rating>\n", "")
        .replace("<blitz_rating>2886</blitz_rating>\n", "")
        .replace("<rating>2839</rating>", "<rating>2870</rating>")
        + TAIL
    )
    assert "rapid_rating>2" not in single
    list_import(system=system, data=single.encode(), format="xml", players="all")
    carlsen.refresh_from_db()
    assert (carlsen.fide_standard, carlsen.fide_blitz) == (2839, 2870)


def test_a_bad_fide_rating_is_reported_in_its_column_and_nothing_is_written() -> None:
    from lists.imports.importer import ListImportError

    bad = ROW_CARLSEN.replace("2825", "28x5")
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=combined(bad, ROW_NEW), format="txt")
    assert [(p.line, p.code, p.field) for p in caught.value.problems] == [
        (2, "bad_number", "RRtng")
    ]
    assert not Player.objects.exists()


def test_csv_still_seeds_the_system_and_the_target_can_be_chosen(excerpt: bytes) -> None:
    system = make_system()
    data = b'fide_id,name,rating\n900001,"Lopez, Eve",2301\n'
    result = list_import(system=system, data=data, format="csv")
    assert result.target == "system"
    assert PlayerRating.objects.get(player__fide_id=900001, system=system).rating == 2301
    assert Player.objects.get(fide_id=900001).fide_standard is None
    # A CSV file read into the FIDE fields, and a FIDE list into the system's ratings.
    list_import(system=system, data=data.replace(b"2301", b"2305"), format="csv", target="fide")
    assert Player.objects.get(fide_id=900001).fide_standard == 2305
    assert PlayerRating.objects.get(player__fide_id=900001, system=system).rating == 2301
    list_import(system=system, data=excerpt, format="txt", target="system")
    assert PlayerRating.objects.get(player__fide_id=4158814, system=system).rating == 2686
    assert Player.objects.get(fide_id=4158814).fide_standard is None


# ------------------------------------------------------------------------------------ pages


def _post(client, system, data: bytes, name: str, **extra: str):
    return client.post(
        reverse("ratings:list_import"),
        {"system": system.pk, "file": SimpleUploadedFile(name, data), **extra},
    )


def test_the_preview_says_which_ratings_are_written(client, excerpt: bytes) -> None:
    system = make_system(name="FEDA Standard", rate_of_play="standard")
    client.force_login(make_user("officer-fide", role=RATING_OFFICER))
    html = _post(client, system, excerpt, "l.txt", format="txt", preview="1").content.decode()
    assert "Written: the players' FIDE ratings. The ratings of FEDA Standard are not" in html
    assert '<li data-field="fide_standard">FIDE standard: read from the column “Mar11”</li>' in html
    html = _post(
        client, system, combined(ROW_CARLSEN), "c.txt", format="txt", preview="1"
    ).content.decode()
    for field, name, label in (
        ("fide_standard", "FIDE standard", "SRtng"),
        ("fide_rapid", "FIDE rapid", "RRtng"),
        ("fide_blitz", "FIDE blitz", "BRtng"),
    ):
        assert f'<li data-field="{field}">{name}: read from the column “{label}”</li>' in html
    assert '<td class="num">2839 / 2825 / 2886</td>' in html
    html = _post(
        client, system, excerpt, "l.txt", format="txt", target="system", preview="1"
    ).content.decode()
    assert "Written: the ratings of FEDA Standard; the players' FIDE ratings are not" in html
    assert "The rating is read from the column “Mar11”." in html
    assert not Player.objects.exists() and not ListImportJob.objects.exists()


def test_the_job_page_says_the_fide_ratings_were_written(
    client, django_capture_on_commit_callbacks
) -> None:
    system = make_system(name="FEDA Rapid", rate_of_play="rapid")
    client.force_login(make_user("officer-fide-job", role=RATING_OFFICER))
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(
            client, system, combined(ROW_CARLSEN, ROW_NEW), "c.txt", format="txt", players="all"
        )
    job = ListImportJob.objects.get()
    assert job.target == "fide" and job.status == "succeeded"
    html = client.get(response["Location"]).content.decode()
    assert "Players whose FIDE ratings were written: 2" in html
    assert "The ratings of FEDA Rapid were not changed." in html
    assert "FIDE ratings of the players" in html
    assert Player.objects.get(fide_id=1503014).fide_rapid == 2825


@pytest.mark.parametrize("lang", ["es", "ca", "pt"])
def test_the_new_wording_is_translated(lang: str) -> None:
    texts = [
        "FIDE ratings of the players",
        "This rating system's ratings",
        "Ratings written",
        "Written: the players' FIDE ratings. The ratings of %(system)s are not changed.",
        "%(name)s: read from the column “%(label)s”",
        "Written: the ratings of %(system)s; the players' FIDE ratings are not changed.",
        "Players whose FIDE ratings were written: %(n)s",
        "The ratings of %(system)s were not changed.",
    ]
    with translation.override(lang):
        assert [t for t in texts if gettext(t) == t] == []
