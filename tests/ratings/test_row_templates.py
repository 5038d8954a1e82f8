"""The rows of a list page and of the player search, written by their templates
(ratings/_list_entries.html with its rows in jinja2/ratings/_list_rows.html,
players/_results.html): each row's cells, links and marks, every text escaped, in the reader's
language."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from players.selectors import player_search
from players.templatetags.player_links import for_player
from rating_engine.regulations.base import COLUMN_KEYS
from ratings.lists import selectors as list_selectors
from ratings.lists.layouts import _NUMERIC, COLUMN_LABELS
from tests.factories import make_period, make_player, make_published_list, make_system

pytestmark = pytest.mark.django_db


class _Rows(HTMLParser):
    """The body rows of a table: each a list of cells, each cell (text, [links], [titles])."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, list[str], list[str]]]] = []
        self._body = False
        self._cell: tuple[list[str], list[str], list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tbody":
            self._body = True
        elif self._body and tag == "tr":
            self.rows.append([])
        elif self._body and tag == "td":
            self._cell = ([], [], [])
        elif self._cell is not None and tag == "a":
            self._cell[1].append(found.get("href") or "")
        elif self._cell is not None and found.get("title"):
            self._cell[2].append(found["title"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._body = False
        elif tag == "td" and self._cell is not None:
            text, links, titles = self._cell
            self.rows[-1].append((re.sub(r"\s+", " ", "".join(text)).strip(), links, titles))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[0].append(data)


def _rows(html: str) -> list[list[tuple[str, list[str], list[str]]]]:
    parser = _Rows()
    parser.feed(html)
    return parser.rows


def test_list_rows_show_each_entry_with_its_links_and_marks() -> None:
    period = make_period(make_system())
    people: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"title": "GM", "club": "CA <Oviedo> & 93"}, {"rating": 2620, "change": 0, "k": 10}),
        ({"surname": "<script>alert(1)</script>"}, {"rating": None, "change": 0, "k": 0}),
        ({"fed_id": "AB-12"}, {"rating": 1500, "change": -17, "k": 40, "inactive": True}),
        ({"fed_id": "X 1&2"}, {"rating": 1400, "change": 23, "provisional": True}),
    ]
    players = [make_player(**fields) for fields, _entry in people]
    published = make_published_list(period, players, entries=[e for _f, e in people])
    page = list_selectors.list_entries_page(published=published, params={}, page=1)
    by_id = {e["fed_id"]: number for number, e in enumerate(page.entries, start=page.start)}
    with translation.override("es"):
        html = render_to_string(
            "ratings/_list_entries.html", {"list": published, "page": page, "top": "", "query": ""}
        )
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    rows = {row[2][0]: row for row in _rows(html)}  # by federation ID (the third cell)
    assert len(rows) == 4
    # fide-2024 7.1.2's columns (issue 24): name (FIDE title as a badge), federation ID, then
    # federation, rating, FIDE ID, games, birth year, sex, K; the status last.
    for player in players:
        number, name, fed_id, fed, rating, fide_id, games, born, sex, k, status = rows[
            player.fed_id
        ]
        calculation = reverse("players:calculation", args=[player.fed_id, published.pk])
        assert number[0] == str(by_id[player.fed_id])
        assert name[0].startswith(f"{player.surname}, {player.given_name}")
        assert name[1] == [reverse("players:detail", args=[player.fed_id])]
        assert fed[0] == player.federation and sex[0] == player.sex
        assert rating[1] == [calculation]
    gm = rows[players[0].fed_id]
    assert gm[1][0].endswith(" GM") and gm[4][0] == "2620"
    assert gm[9][0] == "10" and gm[10] == ("Con Elo", [], [])
    unrated = rows[players[1].fed_id]
    assert unrated[4][0] == "—" and unrated[9][0] == ""
    inactive = rows["AB-12"]
    assert inactive[10][2] == ["Inactivo"]
    odd = rows["X 1&2"]
    assert odd[1][1] == ["/players/X%201&2/"] and odd[10][2] == ["Provisional"]


def test_an_empty_page_of_a_list_says_so() -> None:
    period = make_period(make_system())
    published = make_published_list(period, [])
    page = list_selectors.list_entries_page(published=published, params={}, page=1)
    html = render_to_string(
        "ratings/_list_entries.html", {"list": published, "page": page, "top": "", "query": ""}
    )
    ((cell,),) = _rows(html)
    assert cell[0] == "No entry matches."


def test_search_rows_show_each_player_found() -> None:
    gm = make_player(
        surname="Rowtest",
        given_name="Ana",
        title="GM",
        club="CA <Oviedo>",
        region="Asturias",
        fide_standard=2620,
    )
    plain = make_player(surname="Rowtest", given_name="Bea", fed_id="X 1&2", region="")
    result = player_search(query="rowtest")
    html = render_to_string("players/_results.html", {"result": result, "q": "rowtest"})
    assert "CA &lt;Oviedo&gt;" in html
    rows = _rows(html)
    assert [row[0][0] for row in rows] == [gm.fed_id, plain.fed_id]
    fed_id, name, title, club, region, fide = rows[0]
    assert name == ("Rowtest, Ana", [reverse("players:detail", args=[gm.fed_id])], [])
    assert (title[0], club[0], region[0], fide[0]) == ("GM", "CA <Oviedo>", "Asturias", "2620")
    assert rows[1][1][1] == ["/players/X%201&2/"]
    assert rows[1][2][0] == rows[1][4][0] == rows[1][5][0] == ""
    html = render_to_string(
        "players/_results.html", {"result": player_search(query="zzzqqq"), "q": "zzzqqq"}
    )
    ((cell,),) = _rows(html)
    assert cell[0].startswith("No player matches.")


def test_every_column_a_regulation_may_publish_has_its_cell() -> None:
    """The list's rows (jinja2/ratings/_list_rows.html) have a cell for every column a list may show
    (rating_engine's ListColumn but the title badges), each a <td>, numeric ones right-aligned
    as their header, in the layout's order."""
    keys = [key for key in COLUMN_KEYS if key not in ("title", "fide_title")]
    keys.reverse()  # not the template's order: the layout's
    period = make_period(make_system())
    player = make_player(fide_id=1234567, birth_year=1990)
    published = make_published_list(period, [player], entries=[{"rating": 1800, "k": 20}])
    page = list_selectors.list_entries_page(published=published, params={}, page=1)
    columns = [{"key": k, "label": COLUMN_LABELS[k], "numeric": k in _NUMERIC} for k in keys]
    layout = {**page.layout, "page_columns": columns}
    page = list_selectors.EntryPage(page.entries, page.total, 1, 100, 1, layout)
    html = render_to_string(
        "ratings/_list_entries.html", {"list": published, "page": page, "top": "", "query": ""}
    )
    (row,) = _rows(html)
    assert len(row) == len(keys) + 2  # the number and the status around them
    cells = re.findall(r"<td( class=\"num\")?>", html.split("<tbody>")[1])
    assert [bool(c) for c in cells[1:-1]] == [k in _NUMERIC for k in keys]
    by_key = dict(zip(keys, [text for text, _links, _titles in row[1:-1]], strict=True))
    assert by_key["fed_id"] == player.fed_id and by_key["fide_id"] == "1234567"
    assert by_key["rating"] == "1800" and by_key["k"] == "20" and by_key["birth_year"] == "1990"
    assert by_key["name"].startswith(player.surname)


@pytest.mark.parametrize("fed_id", ["X 1&2", "Ñoño-7", "a?b#c", "50%", "~player~"])
def test_a_player_link_reversed_once_is_the_link_reversed_for_him(fed_id: str) -> None:
    link = reverse("players:detail", args=["~player~"])
    assert for_player(link, fed_id) == reverse("players:detail", args=[fed_id])
    link = reverse("players:calculation", args=["~player~", 12])
    assert for_player(link, fed_id) == reverse("players:calculation", args=[fed_id, 12])
