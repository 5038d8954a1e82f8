"""Downloads of published list versions: CSV (formula-safe), JSON, FIDE TXT and XML; caching."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from formats import lists as lf
from lists import exports
from ratings.models import ListEntry
from tests.factories import make_period, make_player, make_published_list, make_system
from tests.lists.fide_xml import SINGLE_CHILDREN

# ------------------------------------------------------------------------------- pure rendering


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("-5", "'-5"),
        ("+34 600", "'+34 600"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("Vilaró, Núria", "Vilaró, Núria"),
        ("", ""),
    ],
)
def test_csv_safe(value: str, expected: str) -> None:
    assert lf.csv_safe(value) == expected


def test_txt_columns_follow_the_fide_single_list_layout() -> None:
    row = lf.ListRow(
        fide_id=4158814,
        name="Andreikin, Dmitry",
        fed="RUS",
        sex="M",
        title="GM",
        rating=2686,
        games=9,
        k=10,
        birth_year=1990,
        flag="i",
    )
    header, line = "".join(lf.render_txt([row], rating_label="MAR11")).split("\r\n")[:2]
    # FORMATS.md: ID 1–15, Name 16–76, Fed 77–80, Sex 81–84, Tit 85–89, … FOA 110–113,
    # then the rating, games, K, birth year and flag.
    assert header.startswith("ID Number      Name")
    assert header.index("Fed") == 76 and header.index("Sex") == 80 and header.index("FOA") == 109
    assert header.index("MAR11") == 113
    assert line[0:15] == "4158814        "
    assert line[15:32] == "Andreikin, Dmitry"
    assert line[76:79] == "RUS" and line[80] == "M" and line[84:86] == "GM"
    assert line[113:117] == "2686" and line[119:120] == "9" and line[123:125] == "10"
    assert line[126:130] == "1990" and line[132:133] == "i"


def test_xml_escapes_and_has_the_fide_children() -> None:
    row = lf.ListRow(fide_id=1, name="O'Brien & <Sons>", rating=None, flag="w", sex="F")
    root = ET.fromstring("".join(lf.render_xml([row])).encode())
    player = root.find("player")
    assert root.tag == "playerslist" and player is not None
    assert tuple(child.tag for child in player) == SINGLE_CHILDREN
    assert player.findtext("name") == "O'Brien & <Sons>"
    assert player.findtext("rating") == "" and player.findtext("flag") == "w"


# --------------------------------------------------------------------------------- downloads


@pytest.fixture
def published(db):
    system = make_system(code="cat-std", name="Llista estàndard")
    players = [
        make_player(
            surname='=HYPERLINK("http://evil.example/?x","click")',
            given_name="Eve",
            fide_id=900001,
            sex="F",
            title="WGM",
            birth_year=1999,
        ),
        make_player(surname="-5", given_name="", fide_id=900002),
        make_player(surname="Vilaró", given_name="Núria", sex="F", title="MC", birth_year=2001),
    ]
    return make_published_list(make_period(system), players)


def _get(client, published, fmt, **headers):
    return client.get(reverse("ratings:list_download", args=[published.pk, fmt]), **headers)


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.django_db
def test_csv_neutralises_formulas(client, published) -> None:
    response = _get(client, published, "csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(_body(response).decode("utf-8"))))
    names = [r["name"] for r in rows]
    assert '\'=HYPERLINK("http://evil.example/?x","click"), Eve' in names
    assert "'-5" in names
    assert "Vilaró, Núria" in names
    # Ordered by rating: the factory rates them 2000, 2001, 2002.
    assert [r["rating"] for r in rows] == ["2002", "2001", "2000"]
    assert rows[2]["fide_id"] == "900001" and rows[2]["flag"] == "w"


@pytest.mark.django_db
def test_json_download(client, published) -> None:
    data = json.loads(_body(_get(client, published, "json")))
    assert data["list"]["version"] == 1 and data["list"]["system"] == "cat-std"
    assert data["players"][0]["name"] == "Vilaró, Núria"
    assert data["players"][0]["o_title"] == "MC" and data["players"][0]["title"] == ""
    assert data["players"][2]["title"] == "WGM" and data["players"][2]["w_title"] == "WGM"


@pytest.mark.django_db
def test_txt_download_reads_back_through_the_header(client, published) -> None:
    # FIDE's own TXT (issue 24: the "txt" download has the regulation's layout).
    text = _body(_get(client, published, "fide.txt")).decode("utf-8")
    assert text.splitlines()[0].split()[9] == published.list_date.strftime("%b%y").upper()
    problems, found = lf.read_txt(text)
    rows = list(found)
    assert problems == []
    assert [r.values["rating"] for r in rows] == ["2002", "2001", "2000"]
    assert rows[2].values["fide_id"] == "900001" and rows[2].values["birth_year"] == "1999"
    assert rows[1].values["name"] == "-5"


@pytest.mark.django_db
def test_xml_download(client, published) -> None:
    response = _get(client, published, "fide.xml")
    root = ET.fromstring(_body(response))
    assert [p.findtext("rating") for p in root] == ["2002", "2001", "2000"]
    assert root[2].findtext("fideid") == "900001"


@pytest.mark.django_db
def test_strong_etag_long_public_cache_and_304(client, published) -> None:
    first = _get(client, published, "csv")
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert str(published.pk) in etag and "v1" in etag
    assert "public" in first["Cache-Control"] and "max-age=31536000" in first["Cache-Control"]
    again = _get(client, published, "csv", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert _get(client, published, "json", HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.django_db
def test_a_new_version_has_another_etag(client, published) -> None:
    players = [e.player for e in ListEntry.objects.filter(published_list=published)]
    v2 = make_published_list(published.period, players, version=2)
    assert _get(client, v2, "txt")["ETag"] != _get(client, published, "txt")["ETag"]


@pytest.mark.django_db
def test_large_lists_are_streamed_in_chunks(client, published, monkeypatch) -> None:
    monkeypatch.setattr(exports, "CACHE_MAX_ENTRIES", 0)
    monkeypatch.setattr(exports, "CHUNK_SIZE", 1)
    response = _get(client, published, "csv")
    assert response.streaming
    assert b"Vilar\xc3\xb3, N\xc3\xbaria" in _body(response)


@pytest.mark.django_db
def test_unknown_format_is_404(client, published) -> None:
    url = reverse("ratings:list_download", args=[published.pk, "csv"]).replace(".csv", ".xls")
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_download_page_links_every_format_and_the_list_links_it(client, published) -> None:
    page = client.get(reverse("ratings:list_downloads", args=[published.pk])).content.decode()
    for fmt in ("csv", "json", "txt", "xml", "fide.txt", "fide.xml"):
        assert reverse("ratings:list_download", args=[published.pk, fmt]) in page
    detail = client.get(reverse("ratings:list", args=[published.pk])).content.decode()
    assert reverse("ratings:list_downloads", args=[published.pk]) in detail
