"""Importing FIDE's XML list: the streaming reader, problems at the line of their <player>,
malformed XML and DOCTYPEs refused with their position, and a round trip of our own XML
download into a fresh rating system.

Runs on PostgreSQL (COPY + SQL path); the
expected values are the same on both.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from formats import lists as lf
from lists.imports.importer import ListImportError, list_import
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_period, make_player, make_published_list, make_system
from tests.lists.fide_xml import COMBINED_CHILDREN

HEAD = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<playerslist>\n'  # lines 1-2
TAIL = "</playerslist>\n"
CHILDREN = COMBINED_CHILDREN


def player(**values: str) -> str:
    """One player as FIDE's combined XML list writes it: 21 lines (<player>, 19 children,
    </player>). An empty value is written as a self-closing element."""
    lines = ["<player>"]
    for tag in CHILDREN:
        value = values.get(tag, "")
        lines.append(f"<{tag}>{value}</{tag}>" if value else f"<{tag}/>")
    lines.append("</player>")
    return "\n".join(lines) + "\n"


def first_line(k: int) -> int:
    """Line of the k-th <player> (1-based) in HEAD + players + TAIL."""
    return 3 + 21 * (k - 1)


CARLSEN = player(
    fideid="1503014",
    name="Carlsen, Magnus",
    country="NOR",
    sex="M",
    title="GM",
    rating="2839",
    games="5",
    k="10",
    rapid_rating="2825",
    rapid_games="12",
    rapid_k="20",
    blitz_rating="2886",
    blitz_games="0",
    blitz_k="20",
    birthday="1990",
)
MUZYCHUK = player(
    fideid="14111330",
    name="Muzychuk, Anna",
    country="UKR",
    sex="F",
    title="GM",
    w_title="WGM",
    rating="2520",
    games="0",
    k="10",
    rapid_rating="0",
    blitz_rating="2500",
    blitz_games="9",
    birthday="1990",
    flag="wi",
)
ONEILL = player(
    fideid="2500035", name="O'Neill &amp; Sons, Pát", country="IRL", rating="0", flag="i"
)
GOOD = HEAD + CARLSEN + MUZYCHUK + ONEILL + TAIL


def good_bytes() -> bytes:
    return GOOD.encode("latin-1")  # as declared: "Pát" is one byte, not UTF-8


# ------------------------------------------------------------------------------- pure reader


def test_reader_gives_the_raw_fields_of_each_player() -> None:
    problems, found = lf.read_xml(GOOD)
    rows = list(found)
    assert problems == []
    assert [r.row for r in rows] == [1, 2, 3]  # the players' ordinals
    carlsen, muzychuk, oneill = (r.values for r in rows)
    assert (
        carlsen["fide_id"],
        carlsen["name"],
        carlsen["fed"],
        carlsen["sex"],
        carlsen["title"],
        carlsen["rating"],
        carlsen["games"],
        carlsen["k"],
        carlsen["birth_year"],
        carlsen["flag"],
    ) == ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", "2839", "5", "10", "1990", "")
    assert (muzychuk["w_title"], muzychuk["flag"]) == ("WGM", "wi")
    assert (oneill["name"], oneill["sex"], oneill["birth_year"]) == ("O'Neill & Sons, Pát", "", "")
    assert rows[0].labels["fide_id"] == "fideid" and rows[0].labels["birth_year"] == "birthday"


def test_reader_takes_the_rapid_or_blitz_columns_for_such_a_system() -> None:
    for rate, expected in (
        ("standard", ("2839", "5", "10")),
        ("rapid", ("2825", "12", "20")),
        ("blitz", ("2886", "0", "20")),
    ):
        _problems, rows = lf.read_xml(GOOD, rate=rate)
        first = next(iter(rows))
        assert (first.values["rating"], first.values["games"], first.values["k"]) == expected
        assert first.labels["rating"] == ("rating" if rate == "standard" else f"{rate}_rating")
    # A single-type list (our download, FIDE's rapid list) has only rating/games/k.
    single = "<playerslist><player><fideid>7</fideid><rating>1999</rating></player></playerslist>"
    (row,) = list(lf.read_xml(single, rate="rapid")[1])
    assert row.values["rating"] == "1999"


def test_empty_file() -> None:
    problems, _rows = lf.read_xml("  \n")
    assert [p.code for p in problems] == ["empty_file"]


# ---------------------------------------------------------------------------------- database


@pytest.mark.django_db
def test_import_of_a_fide_xml_list() -> None:
    system = make_system()
    result = list_import(system=system, data=good_bytes(), format="xml", target="system")
    assert (result.rows, result.players_created, result.ratings_written) == (3, 3, 3)
    carlsen = Player.objects.get(fide_id=1503014)
    assert (
        carlsen.fed_id,
        carlsen.surname,
        carlsen.given_name,
        carlsen.federation,
        carlsen.sex,
        carlsen.title,
        carlsen.birth_year,
    ) == ("FIDE-1503014", "Carlsen", "Magnus", "NOR", "M", "GM", 1990)
    rating = PlayerRating.objects.get(player=carlsen, system=system)
    assert (rating.rating, rating.games, rating.kind, rating.activity, rating.reached_2400) == (
        2839,
        5,
        "effective",
        "active",
        True,
    )
    anna = PlayerRating.objects.get(player__fide_id=14111330, system=system)
    assert (anna.rating, anna.activity, anna.player.sex) == (2520, "inactive", "F")
    oneill = PlayerRating.objects.get(player__fide_id=2500035, system=system)
    assert (oneill.rating, oneill.kind, oneill.activity) == (None, "unrated", "inactive")
    assert (
        oneill.player.surname,
        oneill.player.given_name,
        oneill.player.birth_year,
        oneill.player.sex,
    ) == ("O'Neill & Sons", "Pát", None, "M")


@pytest.mark.django_db
def test_a_rapid_system_imports_the_rapid_columns() -> None:
    system = make_system(rate_of_play="rapid")
    list_import(system=system, data=good_bytes(), format="xml", target="system")
    got = dict(PlayerRating.objects.filter(system=system).values_list("player__fide_id", "rating"))
    assert got == {1503014: 2825, 14111330: None, 2500035: None}


@pytest.mark.django_db
def test_problems_name_the_line_of_the_players_element() -> None:
    bad = (
        HEAD
        + CARLSEN
        + MUZYCHUK.replace("<rating>2520<", "<rating>2x00<")
        + ONEILL.replace("<fideid>2500035<", "<fideid>1503014<")
        + TAIL
    )
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=bad.encode("latin-1"), format="xml")
    assert [(p.line, p.code, p.field) for p in caught.value.problems] == [
        (24, "bad_number", "rating"),
        (45, "duplicate_id", "fideid"),
    ]
    assert [p.message for p in caught.value.problems] == [
        "Row 24, column rating: “2x00” is not a whole number.",
        "Row 45, column fideid: FIDE ID 1503014 already appears in row 3.",
    ]
    assert (first_line(2), first_line(3)) == (24, 45)
    assert Player.objects.count() == 0 and PlayerRating.objects.count() == 0


@pytest.mark.django_db
def test_malformed_xml_deep_in_the_file_is_reported_at_its_position_and_nothing_is_written() -> (
    None
):
    """400 players (about 150,000 characters): the first ones have been read, and on
    PostgreSQL copied, before the reader meets the broken element."""
    players = [
        player(fideid=str(100000 + k), name=f"Player{k}, Test", rating="2000")
        for k in range(1, 401)
    ]
    players[389] = players[389].replace("</name>", "</nam>")  # player 390
    text = HEAD + "".join(players) + TAIL
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=text.encode(), format="xml")
    (problem,) = caught.value.problems
    line = first_line(390) + 2  # <player>, <fideid>, then <name>
    assert (problem.code, problem.line) == ("xml_malformed", line)
    # expat points at the wrong end tag's name: "<name>Player390, Test</" is 23 characters.
    assert problem.message == (
        f"Line {line}, position 24: the XML is not well-formed (mismatched tag)."
    )
    assert Player.objects.count() == 0 and PlayerRating.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "doctype, line",
    [
        # A "billion laughs" would expand here; nothing of it is ever read.
        ('<!DOCTYPE playerslist [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;&lol;">\n]>\n', 2),
        ('\n\n<!DOCTYPE playerslist SYSTEM "file:///etc/passwd">\n', 4),
    ],
)
def test_a_doctype_is_refused(doctype: str, line: int) -> None:
    text = (
        '<?xml version="1.0"?>\n'
        + doctype
        + "<playerslist><player><fideid>1</fideid><name>X, Y</name><rating>2000</rating>"
        "</player></playerslist>\n"
    )
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=text.encode(), format="xml")
    assert [(p.code, p.line) for p in caught.value.problems] == [("xml_doctype", line)]
    assert caught.value.problems[0].message == (
        f"Line {line}: the file has a DOCTYPE declaration; DTDs and entities are refused."
    )
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_an_undeclared_entity_and_a_wrong_root_are_refused() -> None:
    entity = (
        "<playerslist>\n<player><fideid>1</fideid><name>&xxe;</name></player>\n</playerslist>\n"
    )
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=entity.encode(), format="xml")
    assert [(p.code, p.line, p.params["reason"]) for p in caught.value.problems] == [
        ("xml_malformed", 2, "undefined entity")
    ]
    wrong_root = '<?xml version="1.0"?>\n<players><player><fideid>1</fideid></player></players>'
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=wrong_root.encode(), format="xml")
    assert [p.message for p in caught.value.problems] == [
        "Line 2: the root element is <players>, not <playerslist>."
    ]
    # A TXT list sent as XML.
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=b"ID Number Name\n1 A, B\n", format="xml")
    assert [(p.code, p.line) for p in caught.value.problems] == [("xml_malformed", 1)]
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_management_command_reads_xml_by_extension(tmp_path, capsys) -> None:
    make_system(code="std")
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_bytes(good_bytes())
    call_command("import_list", "--system", "std", "--players", "all", str(path))
    assert "3 rows: 3 players created" in capsys.readouterr().out


# --------------------------------------------------------------------------------- round trip


@pytest.mark.django_db
def test_round_trip_of_a_published_list_through_our_xml_download(client) -> None:
    source = make_system()
    people: list[tuple[dict[str, Any], dict[str, Any]]] = [
        # (player fields, entry fields)
        (
            {
                "surname": "Núñez-García",
                "given_name": "José Mª",
                "fide_id": 2201000,
                "sex": "M",
                "federation": "ESP",
                "title": "GM",
                "birth_year": 1975,
            },
            {"rating": 2601, "games": 9, "k": 10},
        ),
        (
            {
                "surname": "O'Brien <&> Co",
                "given_name": "Áine",
                "fide_id": 2201001,
                "sex": "F",
                "federation": "IRL",
                "title": "WIM",
                "birth_year": 2001,
            },
            {"rating": 2150, "games": 0, "k": 20, "inactive": True},
        ),
        (
            {
                "surname": "Pérez",
                "given_name": "",
                "fide_id": 2201002,
                "sex": "M",
                "federation": "ESP",
                "title": "MF",
                "birth_year": None,
            },
            {"rating": None, "games": 3, "k": 40},
        ),
        (
            {
                "surname": "Vidal",
                "given_name": "Marta",
                "fide_id": 2201003,
                "sex": "F",
                "federation": "ESP",
                "title": "",
                "birth_year": 2012,
            },
            {"rating": 1450, "games": 11, "k": 40},
        ),
    ]
    players = [make_player(**fields) for fields, _entry in people]
    period = make_period(source)
    published = make_published_list(
        period,
        players,
        entries=[entry for _fields, entry in people],
        published_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
    )

    response = client.get(reverse("ratings:list_download", args=[published.pk, "fide.xml"]))
    body = b"".join(response.streaming_content) if response.streaming else response.content

    # What the file says, read back: every field of each entry.
    _problems, raw = lf.read_xml(body.decode("utf-8"))
    rows, problems = lf.validate_rows(raw)
    assert problems == []
    got = {
        (r.fide_id, r.name, r.fed, r.sex, r.title, r.rating, r.games, r.k, r.birth_year, r.flag)
        for r in rows
    }
    assert got == {
        (2201000, "Núñez-García, José Mª", "ESP", "M", "GM", 2601, 9, 10, 1975, ""),
        (2201001, "O'Brien <&> Co, Áine", "IRL", "F", "WIM", 2150, 0, 20, 2001, "wi"),
        (2201002, "Pérez", "ESP", "M", "", None, 3, 40, None, ""),  # MF is a national title (OTit)
        (2201003, "Vidal, Marta", "ESP", "F", "", 1450, 11, 40, 2012, "w"),
    }

    # Imported into a fresh system: the same players (by FIDE ID) get the list's ratings.
    target = make_system()
    result = list_import(system=target, data=body, format="xml", target="system")
    assert (
        result.rows,
        result.players_created,
        result.players_updated,
        result.ratings_written,
    ) == (4, 0, 0, 4)
    imported = {
        r.player.fide_id: (r.rating, r.games, r.kind, r.activity)
        for r in PlayerRating.objects.filter(system=target).select_related("player")
    }
    assert imported == {
        2201000: (2601, 9, "effective", "active"),
        2201001: (2150, 0, "effective", "inactive"),
        2201002: (None, 3, "unrated", "active"),
        2201003: (1450, 11, "effective", "active"),
    }
    assert Player.objects.count() == 4
