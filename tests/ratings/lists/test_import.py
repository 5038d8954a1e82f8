"""Importing an existing list (FIDE TXT, CSV): the real 2011 excerpt, errors by row and column,
nothing written on failure, the officer page and the management command.

Runs on PostgreSQL (COPY + SQL path); the
expected values are the same on both.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from core import roles
from formats import lists as lf
from players.models import Player
from ratings.lists.imports import ListImportError, list_import
from ratings.models import PlayerRating
from tests.factories import make_player, make_system, make_user


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


# ------------------------------------------------------------------------ page and command


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
    (tests/ratings/lists/test_import_jobs.py has the job flow itself)."""
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
            {"system": system.pk, "format": "txt", "file": SimpleUploadedFile("list.txt", excerpt)},
        )
    assert good.status_code == 302
    assert "Players created: 500" in client.get(good["Location"]).content.decode()


@pytest.mark.django_db
def test_management_command(tmp_path, excerpt: bytes, capsys) -> None:
    system = make_system(code="std")
    path = tmp_path / "list.txt"
    path.write_bytes(excerpt)
    call_command("import_list", "--system", "std", str(path))
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


@pytest.mark.parametrize(
    "surname, given",
    [
        ("O'Neill-Smith", "J. R."),
        ("  Van  der Berg", "Jan;Piet"),
        ("A,B", "c`d"),
        ("Núñez-García", "José Mª"),
        ("Müller", "Zoë"),
        ("Straße", "Ǆemal"),
        ("", "Vardharajan"),
        ("Tab\tName", "x"),
        ("Ŀlull", "Ramon Llull’s"),
    ],
)
def test_name_key_shortcut_equals_players_names(surname: str, given: str) -> None:
    from players.names import full_name_key
    from ratings.lists.imports import name_key

    assert name_key(surname, given) == full_name_key(surname, given)


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
    for fmt in ("txt", "csv"):
        target = make_system()
        response = client.get(reverse("ratings:list_download", args=[published.pk, fmt]))
        body = b"".join(response.streaming_content) if response.streaming else response.content
        result = list_import(system=target, data=body, format=fmt, target="system")
        assert (result.rows, result.players_created) == (5, 0)
        got = dict(
            PlayerRating.objects.filter(system=target).values_list("player__fide_id", "rating")
        )
        assert got == {700000 + i: 2000 + i for i in range(5)}


# ------------------------------------------------------------- the bulk path's own pieces

TRICKY_NAMES = [
    "",
    " ",
    ",",
    " , ",
    "A,B",
    "Straße, ẞ",
    "Ǆemal",
    "Mª Pilar, Nº",
    "Ŀlull, Ramon Llull’s",
    "x\u00a0y",
    "\u3000lead",
    "´acute",
    "e\u0301",
    "\u0301x",
    "ﬁne",
    "İstanbul",
    "ΣΟΦΊΑ ς",
    "a\tb",
    "a\x1fb",
    "--x--",
    "O'Neill-Smith, J. R.",
    "  Van  der Berg, Jan;Piet",
    "Ω Å",
    "Núñez-García, José Mª",
    "back\\slash",
    "Çağlar, Zoë",
]


def test_fold_all_equals_fold_one_by_one() -> None:
    from players.names import fold, fold_all

    assert fold_all(TRICKY_NAMES) == [fold(t) for t in TRICKY_NAMES]
    assert fold_all(["a\nb", "c"]) == [fold("a\nb"), "c"]  # a newline inside: one by one
    assert fold_all([]) == []


def test_fold_of_the_raw_name_field_is_the_key_of_the_split_name() -> None:
    from players.names import fold, full_name_key

    for name in TRICKY_NAMES:
        surname, given = lf.split_name(name)
        assert fold(f"  {name}   ") == full_name_key(surname, given), name


def test_streamed_txt_gives_what_read_txt_gives() -> None:
    """The COPY text of a TXT file cut in batches (import_rows) holds, row by row, what
    read_txt reads: whatever the batch size and however the text is cut into pieces."""
    from players.names import fold
    from ratings.lists import import_rows

    header = lf.txt_header("NOV26")
    rows = [
        lf.ListRow(
            fide_id=1,
            name="Núñez-García, José Mª",
            fed="ESP",
            sex="M",
            title="GM",
            rating=2500,
            games=3,
            k=10,
            birth_year=1990,
            flag="i",
        ),
        lf.ListRow(fide_id=22, name="  Solo  ", fed="and", rating=None, flag="wi"),
        lf.ListRow(fide_id=333, name="Back\\slash, A\u00a0", fed="POR", rating=1500),
    ]
    body = list(lf.render_txt(rows, rating_label="NOV26"))[1:]
    text = "\n" + header + "\n" + body[0] + "   \n\n" + "".join(body[1:]) + "12"
    fields = import_rows.read_fields(("rating",))
    expected = []
    for raw in lf.read_txt(text)[1]:
        surname, given = lf.split_name(raw.values["name"])
        values = [raw.values.get(f, "") for f in fields if f != "name"]
        expected.append([str(raw.row), surname, given, *values, fold(raw.values["name"])])
    expected = [[v.replace("\\", "\\\\") for v in row] for row in expected]
    for batch in (1, 2, 3, 20_000):
        for piece in (1, 7, len(text)):
            pieces = [text[i : i + piece] for i in range(0, len(text), piece)]
            import_rows.BATCH_ROWS, saved = batch, import_rows.BATCH_ROWS
            try:
                stream = import_rows.list_stream(pieces, "txt", rate="standard", fide=False)
                chunks = list(stream.chunks(True))
                again = import_rows.list_stream(pieces, "txt", rate="standard", fide=False)
                without = "".join(again.chunks(False))
            finally:
                import_rows.BATCH_ROWS = saved
            assert all(c.endswith("\n") for c in chunks if c)
            got = [line.split("\t") for c in chunks for line in c.splitlines()]
            assert got == expected, (batch, piece)
            # Without keys: the same rows, an empty last column (NULL in the stage).
            assert [line.split("\t") for line in without.splitlines()] == [
                [*row[:-1], ""] for row in expected
            ]
    assert [row[0] for row in expected] == ["3", "6", "7", "8"]  # blank lines 4 and 5 skipped
    assert expected[2][1:4] == ["Back\\\\slash", "A", "333"] and expected[2][4] == "POR"
    assert expected[3][3] == "12" and expected[3][1:3] == ["", ""]


def test_stream_decoding_and_lines_equal_the_whole_file_read_at_once() -> None:
    """import_source: pieces of bytes decoded as decode_list decodes the whole file (UTF-8,
    else Latin-1: at once when only ASCII came before, else NotUtf8 to start again), and
    lines cut as str.splitlines() / a StringIO cuts them, wherever the pieces end."""
    import io
    import random

    from ratings.lists.import_result import decode_list
    from ratings.lists.import_source import NotUtf8, decode_pieces, newline_lines, text_lines

    rng = random.Random(14)
    alphabet = ["a", "b", "\n", "\r", "\r\n", "\x0c", "é", "\u2028", " ", "\t"]

    def cut(value, n):
        ends = sorted(rng.sample(range(len(value) + 1), min(len(value) + 1, n)))
        return [value[a:b] for a, b in zip([0, *ends], [*ends, len(value)])]

    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        pieces = cut(text, rng.randint(0, 5))
        assert list(text_lines(pieces)) == text.splitlines(), pieces
        assert list(newline_lines(pieces)) == list(io.StringIO(text)), pieces
    restarted = 0
    for _ in range(2000):
        chars = "".join(rng.choice(["a", "é", "ß", "\n", "€"]) for _ in range(rng.randint(0, 30)))
        data = rng.choice(
            [
                chars.encode(),
                b"\xef\xbb\xbf" + chars.encode(),
                chars.encode("latin-1", "replace"),
                b"ascii only \n" + chars.encode("latin-1", "replace"),
            ]
        )
        pieces = cut(data, rng.randint(0, 5))
        try:
            got = "".join(decode_pieces(pieces))
        except NotUtf8:
            restarted += 1
            got = "".join(decode_pieces(pieces, latin1=True))
        assert got == decode_list(data), data
    assert restarted  # some files needed the second reading


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


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Andreikin, Dmitry", ("Andreikin", "Dmitry")),
        (", Vardharajan", ("Vardharajan", "-")),
        ("Vardharajan", ("Vardharajan", "-")),
        ("  Solo ,  ", ("Solo", "-")),
        ("", ("", "")),
    ],
)
def test_a_one_word_name_is_the_surname_never_an_empty_one(name, expected) -> None:
    assert lf.split_name(name) == expected
