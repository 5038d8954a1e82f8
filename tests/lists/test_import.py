"""Importing an existing list (FIDE TXT, CSV): the real 2011 excerpt, errors by row and column,
nothing written on failure, only changed ratings written, our own downloads read back (the
officer page and the command: test_import_page_and_command.py; names: test_import_names.py).

Runs on PostgreSQL (COPY + SQL path); the
expected values are the same on both.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from formats import lists as lf
from lists.imports.importer import ListImportError, list_import
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_player, make_system


def _expected_method() -> str:
    return "copy"


# ------------------------------------------------------------------------ pure: the real file


def test_real_2011_excerpt_is_read_by_its_header(excerpt: bytes) -> None:
    problems, raw = lf.read_txt(excerpt.decode("ascii"))
    raw_rows = list(raw)
    assert problems == []
    assert len(raw_rows) == 500  # 501 lines minus the header
    assert raw_rows[0].labels["rating"] == "Mar11" and raw_rows[0].labels["title"] == "Titl"
    rows, problems = lf.validate_rows(raw_rows)
    assert problems == []
    by_id = {r.fide_id: r for r in rows}
    andreikin = by_id[4158814]
    assert (
        andreikin.name,
        andreikin.fed,
        andreikin.rating,
        andreikin.games,
        andreikin.birth_year,
        andreikin.title,
        andreikin.sex,
        andreikin.flag,
    ) == ("Andreikin, Dmitry", "RUS", 2686, 9, 1990, "GM", "M", "")
    # Line 3: no rating, no games, no birth year.
    unrated = by_id[25087835]
    assert (unrated.name, unrated.fed, unrated.rating, unrated.games, unrated.birth_year) == (
        ", Vardharajan",
        "IND",
        None,
        0,
        None,
    )
    # Line 10: flag "wi" (woman, inactive).
    ateng = by_id[8605360]
    assert (ateng.name, ateng.fed, ateng.rating, ateng.birth_year, ateng.flag, ateng.sex) == (
        "A La, Teng Hua",
        "CHN",
        1915,
        1993,
        "wi",
        "F",
    )
    # Line 11: flag "w", 32 games.
    assert (by_id[5031605].flag, by_id[5031605].games, by_id[5031605].sex) == ("w", 32, "F")
    # Line 18: federation "*" and flag "i".
    assert (by_id[6304966].fed, by_id[6304966].flag, by_id[6304966].rating) == ("*", "i", None)


def test_header_of_the_current_combined_list_picks_the_rating_of_the_system() -> None:
    header = (
        "ID Number      Name                                                         Fed Sex "
        "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
    )
    line = (
        f"{'1503014':<15}{'Carlsen, Magnus':<61}{'NOR':<4}{'M':<4}{'GM':<5}{'':<5}{'':<15}"
        f"{'':<4}{'2839':<6}{'5':<4}{'10':<3}{'2825':<6}{'12':<4}{'20':<3}{'2886':<6}"
        f"{'0':<4}{'20':<3}{'1990':<6}{'':<4}"
    )
    text = header + "\n" + line + "\n"
    for rate, rating, games in (
        ("standard", "2839", "5"),
        ("rapid", "2825", "12"),
        ("blitz", "2886", "0"),
    ):
        problems, raw = lf.read_txt(text, rate=rate)
        (row,) = list(raw)
        assert problems == []
        assert (
            row.values["fide_id"],
            row.values["name"],
            row.values["rating"],
            row.values["games"],
            row.values["birth_year"],
        ) == ("1503014", "Carlsen, Magnus", rating, games, "1990")


def test_a_header_without_a_rating_column_is_refused() -> None:
    problems, _rows = lf.read_txt("ID Number Name  Fed\n1  A, B  ESP\n")
    assert [(p.code, p.line, p.field) for p in problems] == [("missing_column", 1, "Rating")]


# ---------------------------------------------------------------------------------- database


@pytest.mark.django_db
def test_import_of_the_real_excerpt(excerpt: bytes) -> None:
    system = make_system(code="fide-std")
    result = list_import(system=system, data=excerpt, format="txt", target="system")
    assert (result.rows, result.players_created, result.ratings_written) == (500, 500, 500)
    assert result.method == _expected_method()
    andreikin = Player.objects.get(fide_id=4158814)
    assert (
        andreikin.fed_id,
        andreikin.surname,
        andreikin.given_name,
        andreikin.federation,
        andreikin.title,
        andreikin.birth_year,
        andreikin.sex,
        andreikin.name_key,
    ) == ("FIDE-4158814", "Andreikin", "Dmitry", "RUS", "GM", 1990, "M", "andreikin dmitry")
    rating = PlayerRating.objects.get(player=andreikin, system=system)
    assert (rating.rating, rating.games, rating.kind, rating.activity, rating.reached_2400) == (
        2686,
        9,
        "effective",
        "active",
        True,
    )
    unrated = PlayerRating.objects.get(player__fide_id=25087835, system=system)
    assert (unrated.rating, unrated.kind, unrated.player.surname, unrated.player.given_name) == (
        None,
        "unrated",
        "Vardharajan",  # ", Vardharajan": a one-word name is the surname (issue 14 item 13)
        "-",
    )
    wi = PlayerRating.objects.get(player__fide_id=8605360, system=system)
    assert (wi.rating, wi.activity, wi.reached_2400, wi.player.sex) == (
        1915,
        "inactive",
        False,
        "F",
    )
    assert PlayerRating.objects.filter(system=system, activity="inactive").count() == 56 + 7


@pytest.mark.django_db
def test_reimport_matches_by_fide_id_and_keeps_the_registry(excerpt: bytes) -> None:
    system = make_system()
    mine = make_player(fed_id="ESP0042", surname="Andreikin", given_name="Dima", fide_id=4158814)
    first = list_import(system=system, data=excerpt, format="txt", target="system")
    assert (first.players_created, first.players_updated) == (499, 1)
    mine.refresh_from_db()
    assert (mine.fed_id, mine.given_name, mine.birth_year, mine.title) == (
        "ESP0042",
        "Dima",
        1990,
        "GM",
    )
    second = list_import(system=system, data=excerpt, format="txt", target="system")
    assert (second.players_created, second.players_updated, second.ratings_written) == (0, 0, 0)
    assert (
        Player.objects.count() == 500 and PlayerRating.objects.filter(system=system).count() == 500
    )
    # History (docs/audit.md): the completed player's change is recorded; the 499 players the
    # list created are not (the import job is their record).
    events = Player.pgh_event_model.objects  # type: ignore[attr-defined]  # set by @pghistory.track
    assert not events.filter(
        pgh_label="insert", pgh_obj_id__in=Player.objects.exclude(pk=mine.pk)
    ).exists()
    assert events.filter(pgh_label="update", pgh_obj_id=mine.pk).exists()


BAD_TXT = (
    "ID number Name                              TitlFed  Mar11 GamesBorn  Flag\r\n"
    " 4158814  Andreikin, Dmitry                 g   RUS  2686    9  1990  \r\n"  # 2 ok
    " 5700230  A B, Muhammad Yusop                   MAS  2x00    0        \r\n"  # 3
    " 4158814  Andreikin, Again                      RUS  2600    1        \r\n"  # 4
    "10207538  A E M, Doshtagir                      BAN  4000    0        \r\n"  # 5
    "10207546  A K M Aminul, Islam                   BAN  1800    0  1964  x \r\n"  # 6
    "          Nobody, Here                          BAN  1800    0        \r\n"  # 7
)


@pytest.mark.django_db
def test_errors_name_row_and_column_and_nothing_is_written() -> None:
    system = make_system()
    with pytest.raises(ListImportError) as caught:
        list_import(system=system, data=BAD_TXT.encode(), format="txt")
    got = [(p.line, p.code, p.field) for p in caught.value.problems]
    assert got == [
        (3, "bad_number", "Mar11"),
        (4, "duplicate_id", "ID number"),
        (5, "rating_out_of_range", "Mar11"),
        (6, "bad_flag", "Flag"),
        (7, "missing_id", "ID number"),
    ]
    messages = [p.message for p in caught.value.problems]
    assert messages[0] == "Row 3, column Mar11: “2x00” is not a whole number."
    assert messages[1] == "Row 4, column ID number: FIDE ID 4158814 already appears in row 2."
    assert messages[2] == "Row 5, column Mar11: rating 4000 is outside 100–3500."
    assert caught.value.total == 5
    assert Player.objects.count() == 0 and PlayerRating.objects.count() == 0


@pytest.mark.django_db
def test_a_taken_federation_id_is_an_error() -> None:
    make_player(fed_id="FIDE-4158814", fide_id=None)
    with pytest.raises(ListImportError) as caught:
        list_import(
            system=make_system(),
            data=BAD_TXT.encode().split(b"\r\n 5700230")[0] + b"\r\n",
            format="txt",
            players="all",
        )
    assert [(p.line, p.code) for p in caught.value.problems] == [(2, "fed_id_taken")]
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_csv_import_reads_its_header_and_undoes_formula_neutralising() -> None:
    system = make_system()
    data = (
        "fide_id;name;fed;sex;title;rating;games;birth_year;flag\n"
        '900001;\'=HYPERLINK("x"), Eve;ESP;F;WGM;2301;12;1999;w\n'
        "900002;Núñez-García, José Mª;ESP;M;;;0;;i\n"
    ).encode()
    result = list_import(system=system, data=data, format="csv")
    assert (result.rows, result.players_created) == (2, 2)
    eve = Player.objects.get(fide_id=900001)
    assert (eve.surname, eve.sex, eve.title, eve.birth_year) == (
        '=HYPERLINK("x")',
        "F",
        "WGM",
        1999,
    )
    jose = Player.objects.get(fide_id=900002)
    assert jose.name_key == "nunez garcia jose ma"
    assert PlayerRating.objects.get(player=eve).rating == 2301
    assert PlayerRating.objects.get(player=jose).activity == "inactive"


@pytest.mark.django_db
def test_csv_errors_use_the_csv_column_names() -> None:
    data = b"fide_id,name,rating\n1,A B,abc\n1,C D,1500\n"
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=data, format="csv")
    assert [(p.line, p.code, p.field) for p in caught.value.problems] == [
        (2, "bad_number", "rating"),
        (3, "duplicate_id", "fide_id"),
    ]


@pytest.mark.django_db
def test_only_changed_ratings_are_written_and_2400_is_kept(excerpt: bytes) -> None:
    system = make_system()
    list_import(system=system, data=excerpt, format="txt", target="system")
    # Next list: Andreikin drops to 2390 (reached_2400 stays), A La Teng Hua becomes active.
    changed = excerpt.replace(b"RUS  2686    9  1990  ", b"RUS  2390   11  1990  ").replace(
        b"CHN  1915    0  1993  wi", b"CHN  1915    4  1993  w "
    )
    result = list_import(system=system, data=changed, format="txt", target="system")
    assert (result.players_created, result.ratings_written) == (0, 2)
    andreikin = PlayerRating.objects.get(player__fide_id=4158814, system=system)
    assert (andreikin.rating, andreikin.games, andreikin.reached_2400) == (2390, 11, True)
    assert PlayerRating.objects.get(player__fide_id=8605360, system=system).activity == "active"


@pytest.mark.django_db
def test_our_own_txt_and_csv_downloads_import_back(client) -> None:
    from tests.factories import make_period, make_published_list

    players = [
        make_player(
            surname=f"Player{i}", given_name="Test", fide_id=700000 + i, birth_year=1980 + i
        )
        for i in range(5)
    ]
    published = make_published_list(make_period(make_system()), players)
    # The FIDE-exact TXT (the federation's own TXT follows its regulation's layout: docs/lists.md)
    # and the CSV, which keeps every column.
    for download, fmt in (("fide.txt", "txt"), ("csv", "csv")):
        target = make_system()
        response = client.get(reverse("ratings:list_download", args=[published.pk, download]))
        body = b"".join(response.streaming_content) if response.streaming else response.content
        result = list_import(system=target, data=body, format=fmt, target="system")
        assert (result.rows, result.players_created) == (5, 0)
        got = dict(
            PlayerRating.objects.filter(system=target).values_list("player__fide_id", "rating")
        )
        assert got == {700000 + i: 2000 + i for i in range(5)}


@pytest.mark.django_db
def test_a_few_new_players_in_a_known_list_get_their_name_keys(excerpt: bytes) -> None:
    system = make_system()
    list_import(system=system, data=excerpt, format="txt", target="system")
    header = excerpt.split(b"\r\n", 1)[0].decode("ascii")
    line = "99999999".ljust(header.index("Name")) + "Çağlar, Zoë"
    line = line.ljust(header.index("Mar11")) + "1500"
    data = excerpt.rstrip(b"\r\n") + b"\r\n" + line.encode("utf-8") + b"\r\n"
    result = list_import(system=system, data=data, format="txt", target="system")
    assert (result.rows, result.players_created) == (501, 1)
    new = Player.objects.get(fide_id=99999999)
    assert (new.surname, new.given_name, new.name_key) == ("Çağlar", "Zoë", "caglar zoe")
    assert PlayerRating.objects.get(player=new, system=system).rating == 1500


@pytest.mark.django_db
def test_tabs_and_unusual_spaces_are_read_as_python_strips_them() -> None:
    system = make_system()
    header = lf.txt_header("NOV26")
    body = "".join(
        list(
            lf.render_txt(
                [
                    lf.ListRow(
                        fide_id=900001,
                        name="Pérez, Ana",
                        fed="ESP",
                        sex="F",
                        rating=2100,
                        birth_year=1999,
                    ),
                    lf.ListRow(fide_id=900002, name="Vidal, Pau", fed="AND", sex="M", rating=1900),
                ],
                rating_label="NOV26",
            )
        )[1:]
    )
    # A no-break space after the comma and around a number: Python's strip() removes them.
    nbsp = body.replace("Pérez, Ana", "Pérez,\u00a0Ana").replace("2100 ", "2100\u00a0")
    for data in (nbsp, nbsp.replace("Vidal, Pau", "Vidal,\tPau")):  # the tab: the slow way
        result = list_import(
            system=system,
            data=(header + "\r\n" + data).encode(),
            format="txt",
            target="system",
        )
        assert result.rows == 2
        ana = Player.objects.get(fide_id=900001)
        assert (ana.surname, ana.given_name, ana.name_key) == ("Pérez", "Ana", "perez ana")
        assert PlayerRating.objects.get(player=ana, system=system).rating == 2100
        assert Player.objects.get(fide_id=900002).given_name == "Pau"


@pytest.mark.django_db
def test_the_new_players_words_reach_the_search_vocabulary() -> None:
    """The import writes its new players' name words into the search's vocabulary itself
    (players.models.NameWord; the vocabulary's trigger is left out of its insert), both when
    the keys are folded while reading (most rows new) and after the stage (most rows known):
    the search finds every new player by a part of a word of his name."""
    from players.models import NameWord
    from players.selectors import player_search

    system = make_system()
    header = "fide_id;name;fed;sex;title;rating;games;birth_year;flag"
    rows = [f"{700000 + i};Núñez{i}, Iñés;ESP;F;;1500;5;1990;" for i in range(300)]
    list_import(system=system, data="\n".join([header, *rows, ""]).encode(), format="csv")
    rows.append("799999;Łukasiewicz-Ñandú, Żaneta;POL;F;;1600;5;1991;")
    result = list_import(system=system, data="\n".join([header, *rows, ""]).encode(), format="csv")
    assert result.players_created == 1
    words = set(NameWord.objects.values_list("word", flat=True))
    assert {"nunez0", "nunez299", "ines", "łukasiewicz", "nandu", "zaneta"} <= words
    assert [p.fide_id for p in player_search(query="kasiew").players] == [799999]
    assert player_search(query="unez29 INES").total == 11  # nunez29, nunez290 … nunez299
