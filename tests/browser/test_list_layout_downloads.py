"""Issue 24 "Done when": a Playwright test downloads each format of a cnxc-2000 and a
feda-1996 list from the downloads page and reads the new columns (cnxc-2000 4.2: total games
and the provisional mark; feda-1996 8.12a: territorial federation and birth date; the
federation ID next to the FIDE ID in every download; FIDE's own TXT and XML without them)."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.factories import make_period, make_player, make_published_list, make_system

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FORMATS = ("csv", "json", "txt", "xml", "fide.txt", "fide.xml")


def _download_all(page, live_server, published) -> dict[str, str]:
    page.goto(live_server.url + reverse("ratings:list_downloads", args=[published.pk]))
    found = {}
    for fmt in FORMATS:
        href = reverse("ratings:list_download", kwargs={"pk": published.pk, "fmt": fmt})
        with page.expect_download() as info:
            page.click(f"a[href='{href}']")
        found[fmt] = open(info.value.path(), encoding="utf-8", newline="").read()
    return found


def test_cnxc_and_feda_downloads_carry_their_regulations_columns(browser_page, live_server) -> None:
    rui = make_player(surname="Rui", given_name="Sá", fed_id="CNXC-7", fide_id=None)
    cnxc = make_published_list(
        make_period(make_system(ruleset="cnxc-2000")),
        [rui],
        entries=[
            {
                "rating": 2150,
                "games": 4,
                "total_games": 10,
                "provisional": True,
                "change": 12,
                "section": "active",
            }
        ],
    )
    ana = make_player(surname="Ana", given_name="Ruiz", fed_id="FEDA-1", fide_id=2201)
    feda = make_published_list(
        make_period(make_system(ruleset="feda-1996")),
        [ana],
        entries=[
            {
                "rating": 2105,
                "games": 9,
                "region": "Catalunya",
                "birth_date": dt.date(1990, 5, 17),
                "title": "MF",
                "section": "active",
            }
        ],
    )

    files = _download_all(browser_page, live_server, cnxc)
    header, row = files["txt"].split("\r\n")[:2]
    assert header.startswith("ID Number      Fed ID") and "Total" in header and " P " in header
    assert row[15:21] == "CNXC-7" and " 10 " in row and "2150  * " in row
    player = ET.fromstring(files["xml"].encode())[0]
    assert player.findtext("total_games") == "10" and player.findtext("provisional") == "*"
    assert json.loads(files["json"])["players"][0]["total_games"] == 10
    assert files["csv"].splitlines()[1].split(",")[1] == "CNXC-7"
    assert "Fed ID" not in files["fide.txt"] and "CNXC-7" not in files["fide.txt"]
    assert ET.fromstring(files["fide.xml"].encode()).tag == "playerslist"

    files = _download_all(browser_page, live_server, feda)
    header, row = files["txt"].split("\r\n")[:2]
    assert "Region" in header and "Born" in header and "Status" in header
    assert row.startswith("2201") and "FEDA-1" in row and "Catalunya" in row
    assert "1990-05-17" in row and "MF" in row
    player = ET.fromstring(files["xml"].encode())[0]
    assert [c.tag for c in player][:3] == ["fide_id", "fed_id", "name"]
    assert player.findtext("region") == "Catalunya" and player.findtext("birth_date") == (
        "1990-05-17"
    )
    data = json.loads(files["json"])
    assert data["list"]["layout"]["article"] == "feda-1996 8.12a"
    assert data["players"][0]["region"] == "Catalunya"
    assert "Catalunya" in files["csv"] and "1990-05-17" in files["csv"]
    assert "Catalunya" not in files["fide.txt"]
