"""Issue 24 items 1-2: each regulation's list layout (its columns, from the article that lists
them) and its sections, in the downloads. Expected values written by hand from the texts:
feda-1996 8.12a and 8.22b, fide-2000 9.12, 9.22 and 9.23b, fce 9.4, cnxc-2000 4.2 and 5.2,
fide-2024 7.1.2."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.urls import reverse

from rating_engine.list_layout import entry_section, list_layout_of
from ratings.publication.sections import section_sql
from tests.factories import make_period, make_player, make_published_list, make_system

# The article's data, in its order, as column keys (rating_engine/list_layout.py).
ARTICLE_COLUMNS = {
    # 8.12a: FEDA ID, name, FIDE or FEDA title, territorial federation, rating, birth date,
    # active/inactive, games in the period.
    "feda-1996": (
        "fed_id",
        "name",
        "title",
        "region",
        "rating",
        "birth_date",
        "activity",
        "games",
    ),
    # 9.12: name; FIDE title, federation, rating, ID, games in the period, birth date; K and
    # the games accumulated if K = 25.
    "fide-2000": (
        "name",
        "fide_title",
        "federation",
        "rating",
        "fide_id",
        "games",
        "birth_date",
        "k",
        "games_k25",
    ),
    # 9.4: name, ID, title (national ones too), club, rating, K, games in the period.
    "fce": ("name", "fed_id", "title", "club", "rating", "k", "games"),
    # 4.2: name, CNXC number, total games, games in the period, rating with a provisional
    # mark, change.
    "cnxc-2000": ("name", "fed_id", "total_games", "games", "rating", "provisional", "change"),
    # 7.1.2: FIDE title, federation, rating, FIDE ID, games, birth year, sex, K (and the name).
    "fide-2024": (
        "name",
        "fide_title",
        "federation",
        "rating",
        "fide_id",
        "games",
        "birth_year",
        "sex",
        "k",
    ),
}
ARTICLES = {
    "feda-1996": "feda-1996 8.12a",
    "fide-2000": "fide-2000 9.12",
    "fce": "fce 9.4",
    "cnxc-2000": "cnxc-2000 4.2",
    "fide-2024": "fide-2024 7.1.2",
}
SECTIONS = {
    "feda-1996": ("active", "inactive"),  # 8.22b: apart after 3 lists
    "fide-2000": ("active", "titled_unrated"),  # 9.22 (9.23b leaves them out after 7)
    "fce": ("active",),
    "cnxc-2000": ("active",),  # 5.2: passive players left out
    "fide-2024": ("active",),
}


@pytest.mark.parametrize("ruleset", sorted(ARTICLE_COLUMNS))
def test_each_regulation_declares_its_articles_columns_and_sections(ruleset: str) -> None:
    layout = list_layout_of(ruleset)
    assert layout.columns.value == ARTICLE_COLUMNS[ruleset]
    assert layout.columns.article == ARTICLES[ruleset]
    assert layout.sections() == SECTIONS[ruleset]


# (rating, title, inactive, passive, lists inactive) -> section, per regulation, by hand.
CASES = [
    ("feda-1996", (1900, "", True, False, 3), "active"),  # 8.22b: the next 3 lists, flagged
    ("feda-1996", (1900, "", True, False, 4), "inactive"),  # then apart
    ("fide-2000", (1900, "", True, False, 7), "active"),  # 9.23b: the next 7 lists, flagged
    ("fide-2000", (1900, "", True, False, 8), "left_out"),  # then out of the list
    ("fide-2000", (None, "GM", False, False, 0), "titled_unrated"),  # 9.22
    ("fide-2000", (None, "MF", False, False, 0), "active"),  # a national title is not FIDE's
    ("cnxc-2000", (2100, "", False, True, 0), "left_out"),  # 5.2
    ("cnxc-2000", (2100, "", False, False, 0), "active"),
    ("fce", (None, "GM", True, False, 20), "active"),  # fce has no section rule
]


@pytest.mark.parametrize(("ruleset", "entry", "expected"), CASES)
@pytest.mark.django_db
def test_sections_by_the_regulations_articles_in_python_and_in_sql(ruleset, entry, expected):
    rating, title, inactive, passive, lists = entry
    layout = list_layout_of(ruleset)
    found = entry_section(
        layout=layout,
        rating=rating,
        title=title,
        inactive=inactive,
        passive=passive,
        inactive_lists=lists,
    )
    assert found == expected
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {section_sql(layout=layout)} FROM (SELECT %s::int AS rating, %s AS status, "
            "%s AS inactive, %s::int AS inactive_lists) e, (SELECT %s AS title) p",
            [rating, "passive" if passive else "rated", inactive, lists, title],
        )
        assert cursor.fetchone()[0] == expected


def _list(ruleset: str, players_entries):
    system = make_system(ruleset=ruleset)
    players = [p for p, _e in players_entries]
    entries = [e for _p, e in players_entries]
    return make_published_list(make_period(system), players, entries=entries)


def _get(client, published, fmt):
    response = client.get(reverse("ratings:list_download", args=[published.pk, fmt]))
    assert response.status_code == 200
    return response.content.decode("utf-8")


@pytest.mark.django_db
def test_feda_list_columns_and_inactive_section(client) -> None:
    """8.12a columns; 8.22b: the inactive player past 3 lists is published apart, after the
    active ones; the federation ID next to the FIDE ID (TXT header "Fed ID")."""
    ana = make_player(surname="Ana", given_name="Ruiz", fed_id="E1", fide_id=None, title="MF")
    bea = make_player(surname="Bea", given_name="Sol", fed_id="E2", fide_id=2202, title="IM")
    published = _list(
        "feda-1996",
        [
            (
                ana,
                {
                    "rating": 2105,
                    "games": 9,
                    "region": "Catalunya",
                    "birth_date": dt.date(1990, 5, 17),
                    "title": "MF",
                    "section": "active",
                },
            ),
            (
                bea,
                {
                    "rating": 2300,
                    "games": 0,
                    "inactive": True,
                    "inactive_lists": 4,
                    "region": "Madrid",
                    "section": "inactive",
                },
            ),
        ],
    )
    text = _get(client, published, "txt")
    header, first, second = text.split("\r\n")[:3]
    assert header.startswith("ID Number      Fed ID       Name")
    assert header.split()[-1] == "Section"
    # Ana first (the list), Bea after (published apart although rated higher).
    assert first[15:17] == "E1" and "Ruiz" in first and "Catalunya" in first
    assert "1990-05-17" in first and "MF" in first and first.rstrip().endswith("active")
    assert (
        second.startswith("2202") and "inactive" in second and second.rstrip().endswith("inactive")
    )
    root = ET.fromstring(_get(client, published, "xml").encode())
    assert [child.tag for child in root[0]] == [
        "fide_id",
        "fed_id",
        "name",
        "title",
        "region",
        "rating",
        "birth_date",
        "activity",
        "games",
        "section",
    ]
    assert root[0].findtext("fed_id") == "E1" and root[0].findtext("region") == "Catalunya"
    data = json.loads(_get(client, published, "json"))
    assert data["list"]["layout"]["article"] == "feda-1996 8.12a"
    assert data["list"]["layout"]["sections"][1] == {
        "key": "inactive",
        "article": "feda-1996 8.22b",
    }
    assert [p["section"] for p in data["players"]] == ["active", "inactive"]


@pytest.mark.django_db
def test_cnxc_list_total_games_provisional_mark_and_passive_left_out(client) -> None:
    """4.2: total games, games in the period, a mark on a provisional rating, change; 5.2: the
    passive player is not published (his entry kept)."""
    rui = make_player(surname="Rui", given_name="Sá", fed_id="C7")
    ze = make_player(surname="Zé", given_name="Lima", fed_id="C8")
    published = _list(
        "cnxc-2000",
        [
            (
                rui,
                {
                    "rating": 2150,
                    "games": 4,
                    "total_games": 10,
                    "provisional": True,
                    "change": 12,
                    "section": "active",
                },
            ),
            (ze, {"rating": 2200, "status": "passive", "section": "left_out"}),
        ],
    )
    root = ET.fromstring(_get(client, published, "xml").encode())
    assert len(root) == 1
    rui_row = root[0]
    assert [c.tag for c in rui_row] == [
        "fide_id",
        "fed_id",
        "name",
        "total_games",
        "games",
        "rating",
        "provisional",
        "change",
        "section",
    ]
    assert rui_row.findtext("total_games") == "10" and rui_row.findtext("games") == "4"
    assert rui_row.findtext("provisional") == "*" and rui_row.findtext("change") == "12"
    text = _get(client, published, "csv")
    assert "C8" not in text and "C7" in text
    assert text.splitlines()[0].endswith("games_k25,section")


@pytest.mark.django_db
def test_fide_2000_games_at_k25_and_titled_unrated_section(client) -> None:
    """9.12c: the games accumulated only when K is 25; 9.22: a titled unrated player in a
    separate section, after the rated ones."""
    new = make_player(surname="New", given_name="One", fide_id=1001)
    old = make_player(surname="Old", given_name="Two", fide_id=1002)
    gm = make_player(surname="Gm", given_name="Three", fide_id=1003, title="GM")
    published = _list(
        "fide-2000",
        [
            (new, {"rating": 1900, "k": 25, "total_games": 18, "games": 9, "section": "active"}),
            (old, {"rating": 2450, "k": 10, "total_games": 300, "games": 5, "section": "active"}),
            (gm, {"rating": None, "title": "GM", "section": "titled_unrated"}),
        ],
    )
    root = ET.fromstring(_get(client, published, "xml").encode())
    assert [p.findtext("fide_id") for p in root] == ["1002", "1001", "1003"]
    assert root[0].findtext("games_k25") == "" and root[1].findtext("games_k25") == "18"
    assert root[2].findtext("section") == "titled_unrated" and root[2].findtext("fide_title") == (
        "GM"
    )


@pytest.mark.django_db
def test_fce_list_national_title_and_club_and_fide_txt_kept(client) -> None:
    """9.4: title (national ones too) and club; the FIDE-exact TXT keeps FIDE's columns."""
    joan = make_player(surname="Joan", given_name="Pi", fed_id="F1", fide_id=3001)
    published = _list(
        "fce",
        [(joan, {"rating": 2000, "k": 20, "games": 3, "title": "MC", "club": "CE Terrassa"})],
    )
    root = ET.fromstring(_get(client, published, "xml").encode())
    assert root[0].findtext("title") == "MC" and root[0].findtext("club") == "CE Terrassa"
    fide = _get(client, published, "fide.txt")
    assert "Fed ID" not in fide and "CE Terrassa" not in fide
    assert fide.split("\r\n")[1][94:96] == "MC"  # OTit


def _feda_with_inactive_apart():
    ana = make_player(surname="Ana", given_name="Ruiz", fed_id="E1", title="MF")
    bea = make_player(surname="Bea", given_name="Sol", fed_id="E2", fide_id=2202)
    return _list(
        "feda-1996",
        [
            (
                ana,
                {
                    "rating": 2105,
                    "games": 9,
                    "region": "Catalunya",
                    "birth_date": dt.date(1990, 5, 17),
                    "title": "MF",
                    "section": "active",
                },
            ),
            (bea, {"rating": 2300, "inactive": True, "inactive_lists": 4, "section": "inactive"}),
        ],
    )


@pytest.mark.django_db
def test_the_list_page_shows_the_article_columns_and_one_section_at_a_time(client) -> None:
    """feda-1996 8.12a's columns on the page; 8.22b's inactive players on their own tab."""
    published = _feda_with_inactive_apart()
    url = reverse("ratings:list", args=[published.pk])
    page = client.get(url).content.decode()
    assert 'data-article="feda-1996 8.12a"' in page
    for key in ("name", "fed_id", "region", "rating", "birth_date", "activity", "games"):
        assert f'data-column="{key}"' in page
    assert 'data-section="inactive"' in page and "feda-1996 8.22b" in page
    assert "Catalunya" in page and "Bea" not in page and "1 entry." in page
    apart = client.get(url, {"section": "inactive"}).content.decode()
    assert "Bea" in apart and "Ana" not in apart


@pytest.mark.django_db
def test_the_api_gives_the_layout_and_the_sections(client) -> None:
    published = _feda_with_inactive_apart()
    data = client.get(f"/api/v1/lists/{published.pk}/").json()
    layout = data["layout"]
    assert layout["article"] == "feda-1996 8.12a"
    assert [c["key"] for c in layout["columns"]] == [
        "fide_id",
        "fed_id",
        "name",
        "title",
        "region",
        "rating",
        "birth_date",
        "activity",
        "games",
        "section",
    ]
    assert [s["key"] for s in layout["sections"]] == ["active", "inactive"]
    assert data["downloads"]["fide_txt"].endswith(f"/lists/{published.pk}/download.fide.txt")
    entries = client.get(f"/api/v1/lists/{published.pk}/entries/").json()["results"]
    assert [(e["fed_id"], e["section"]) for e in entries] == [("E2", "inactive"), ("E1", "active")]
    ana = entries[1]
    assert (ana["region"], ana["birth_date"], ana["title"]) == ("Catalunya", "1990-05-17", "MF")
    apart = client.get(f"/api/v1/lists/{published.pk}/entries/", {"section": "active"}).json()
    assert [e["fed_id"] for e in apart["results"]] == ["E1"]
