"""The public pages of issue 13: current and superseded list versions, a list's entries
filtered, sorted and paged, ranks, the player card with its chart, a player's calculation in
one list (game by game), the tournament page, and names rendered as text."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from types import SimpleNamespace

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from periods import services as period_services
from ratings.calculation import runs
from ratings.cards import selectors as card_selectors
from ratings.lists import ranks
from ratings.lists import selectors as list_selectors
from ratings.models import ListEntry, ListRank, PublishedList
from ratings.publication import services as publication
from ratings.templatetags.rating_chart import chart_svg
from tests.factories import (
    build,
    make_period,
    make_player,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tournaments import selectors as tournament_selectors
from tournaments.models import Report

pytestmark = pytest.mark.django_db


def _publish(period, django_capture_on_commit_callbacks) -> PublishedList:
    with django_capture_on_commit_callbacks(execute=True):
        if period.status == "open":
            period_services.period_close(period=period)
        runs.calculation_request(period=period)
    with django_capture_on_commit_callbacks(execute=True):
        return publication.list_publish(period=period)


# ------------------------------------------------------------------ current and superseded


def test_newest_version_is_current_and_older_ones_superseded() -> None:
    system = make_system()
    october = make_period(system, start=dt.date(2026, 10, 1), status="published")
    november = make_period(system, start=dt.date(2026, 11, 1), status="published")
    players = [make_player() for _ in range(3)]
    v1 = make_published_list(october, players)
    v2 = make_published_list(october, players, version=2)
    nov = make_published_list(november, players)

    assert list_selectors.list_current_ids(system_id=system.pk) == [nov.pk, v2.pk]
    assert list_selectors.list_current_version(published=v1) == v2
    assert list_selectors.list_current_version(published=v2) == v2
    # The newest list published (the page's state) is current: known with no statement.
    with CaptureQueriesContext(connection) as captured:
        assert list_selectors.list_current_version(published=nov, newest_id=nov.pk) == nov
    assert not captured.captured_queries
    assert list_selectors.list_current_version(published=v1, newest_id=nov.pk) == v2
    versions = dict(
        (lst.pk, current)
        for lst, current in list_selectors.list_system_versions(system_id=system.pk)
    )
    assert versions == {nov.pk: True, v2.pk: True, v1.pk: False}
    # The player's history holds the current versions only.
    history = list_selectors.player_list_history(player_id=players[0].pk)
    assert {e.published_list_id for e in history} == {nov.pk, v2.pk}

    client = Client()
    page = client.get(reverse("ratings:list", args=[v1.pk])).content.decode()
    assert 'id="list-superseded"' in page
    assert f'href="{reverse("ratings:list", args=[v2.pk])}"' in page
    page = client.get(reverse("ratings:list", args=[v2.pk])).content.decode()
    assert 'id="list-current"' in page and "list-superseded" not in page
    home = client.get("/").content.decode()
    assert reverse("ratings:list", args=[v2.pk]) in home
    assert f'href="{reverse("ratings:list", args=[v1.pk])}"' not in home


# ------------------------------------------------------------------ filters, sort, pages


@pytest.fixture
def crowd():
    system = make_system()
    period = make_period(system)
    people = []
    for i in range(30):
        people.append(
            make_player(
                surname=f"Zed{i:02d}" if i % 2 else f"Abe{i:02d}",
                sex="F" if i % 3 == 0 else "M",
                region="Catalunya" if i < 10 else "Galicia",
                club="CE Lleida" if i < 4 else "",
                birth_year=2010 if i % 5 == 0 else 1960 if i % 5 == 1 else 1990,
                title="GM" if i == 7 else "",
            )
        )
    published = make_published_list(period, people)  # rating 2000 + i
    return published, people


def test_filters_keep_the_right_entries(crowd) -> None:
    published, people = crowd

    def pids(**params):
        page = list_selectors.list_entries_page(published=published, params=params, per_page=100)
        assert page.total == len(page.entries)
        return [e["player_id"] for e in page.entries]

    by_rating = [p.pk for p in reversed(people)]
    assert pids() == by_rating
    assert pids(region="Catalunya") == [p.pk for p in reversed(people[:10])]
    assert pids(club="CE Lleida") == [p.pk for p in reversed(people[:4])]
    assert pids(sex="F") == [p.pk for p in reversed(people) if people.index(p) % 3 == 0]
    # List of 2026-12-01: born 2010 is under 20 (and under 16), born 1960 is 50 and over.
    assert set(pids(age="u20")) == {p.pk for i, p in enumerate(people) if i % 5 == 0}
    assert set(pids(age="u16")) == {p.pk for i, p in enumerate(people) if i % 5 == 0}
    assert set(pids(age="s50")) == {p.pk for i, p in enumerate(people) if i % 5 == 1}
    assert pids(title="GM") == [people[7].pk]
    assert pids(sort="-rating")[0] == people[0].pk
    names = pids(sort="name")
    assert names[0] == people[0].pk and names[-1] == people[29].pk  # Abe00 … Zed29
    # An invalid value is ignored: the whole list.
    assert pids(sex="X") == by_rating


def test_active_only_and_pages(crowd) -> None:
    published, people = crowd
    inactive = ListEntry.objects.filter(published_list=published, player=people[29]).first()
    assert inactive is not None
    # Entries are immutable: a second list with one inactive entry instead.
    period = make_period(published.system, start=dt.date(2026, 12, 1))
    other = make_published_list(period, people[:2])
    ListEntry.objects.create(
        published_list=other,
        player=people[2],
        rating=2500,
        status="rated",
        inactive=True,
        ruleset="fide-2024",
        engine_version="test",
    )
    active = list_selectors.list_entries_page(published=other, params={"active": "true"})
    assert [e["player_id"] for e in active.entries] == [people[1].pk, people[0].pk]
    assert active.total == 2

    page2 = list_selectors.list_entries_page(published=published, params={}, page=2, per_page=7)
    assert page2.start == 8 and page2.num_pages == 5
    assert [e["player_id"] for e in page2.entries] == [p.pk for p in reversed(people)][7:14]
    last = list_selectors.list_entries_page(published=published, params={}, page=99, per_page=7)
    assert last.page == 5 and len(last.entries) == 2 and last.next_page is None

    html = Client().get(f"/ratings/lists/{published.pk}/?page=2&region=Catalunya").content.decode()
    # 10 Catalans, 100 a page: the page number is clamped and the entries are the Catalans'.
    assert html.count("Zed0") + html.count("Abe0") == 10
    html = Client().get(f"/ratings/lists/{published.pk}/?top=women").content.decode()
    assert "Abe00" in html and "Zed01" not in html


def test_ranks_stored_and_counted_agree(crowd) -> None:
    published, people = crowd
    me = people[2]  # Catalunya, club CE Lleida, rating 2002
    entry = ListEntry.objects.get(published_list=published, player=me)
    counted = card_selectors.entry_ranks(entry=entry, player=me)
    # 27 players above him, 7 Catalans above (3..9), 1 in his club (3); all active.
    assert counted == card_selectors.Ranks(national=28, region=8, club=2, active=28)
    assert ranks.list_ranks_fill(list_id=published.pk) == 30
    assert ranks.list_ranks_fill(list_id=published.pk) == 0  # once
    assert ListRank.objects.filter(published_list=published).count() == 30
    assert card_selectors.entry_ranks(entry=entry, player=me) == counted
    # A player without a club has no club rank.
    loner = ListEntry.objects.get(published_list=published, player=people[20])
    assert card_selectors.entry_ranks(entry=loner, player=people[20]).club is None


# ------------------------------------------------------------------ card, calculation, chart


def test_card_chart_and_calculation_game_by_game(django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament = build()
    players[0].surname = "<script>alert(1)</script>"
    players[0].save()
    published = _publish(period, django_capture_on_commit_callbacks)
    client = Client()

    card = client.get(reverse("players:detail", args=[players[1].fed_id])).content.decode()
    calc_url = reverse("players:calculation", args=[players[1].fed_id, published.pk])
    assert "<svg" in card and card.count('class="chart-point"') == 1
    assert f'href="{calc_url}"' in card
    assert "National rank" in card

    calc = card_selectors.player_list_calculation(published=published, player_id=players[1].pk)
    # players[1] (2100) lost to players[0] (2000) in round 1; the forfeit is left out.
    assert len(calc.lines) == 1
    line = calc.lines[0]
    assert line.opponent == players[0] and line.opponent_rating == 2000 and line.score == 0
    expected = 1 / (1 + 10 ** ((2000 - 2100) / 400))
    assert line.expected == pytest.approx(expected, abs=0.01)
    assert line.change == pytest.approx(line.k * (0 - line.expected), abs=0.01)

    page = client.get(calc_url).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert tournament.name in page
    assert f"{line.expected:.2f}" in page
    # The card of the player called <script> shows it as text.
    card0 = client.get(reverse("players:detail", args=[players[0].fed_id])).content.decode()
    assert "<script>alert" not in card0

    # The tournament page: standings, crosstable, rating changes linking to the calculation.
    tpage = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="standings"' in tpage and 'id="crosstable"' in tpage
    assert f'href="{calc_url}"' in tpage
    assert "<script>alert" not in tpage
    # The list page links ratings and changes to the calculation.
    lpage = client.get(reverse("ratings:list", args=[published.pk])).content.decode()
    assert f'href="{calc_url}"' in lpage


def test_chart_svg_points_bars_and_escaping() -> None:
    from ratings.cards.selectors import HistoryPoint

    points = [
        HistoryPoint(i, dt.date(2026, m, 1), 1, r, c, g, 20, "rated", True)
        for i, (m, r, c, g) in enumerate(
            [(1, 1500, 0, 0), (2, 1520, 20, 5), (3, None, 0, 0), (4, 1490, -30, 9)], start=1
        )
    ]
    svg = str(chart_svg(points, "/players/X/lists/0/", "<script>x</script>", "t"))
    assert svg.count('class="chart-point"') == 3  # the unrated list has no point
    assert svg.count('class="chart-games"') == 2  # two periods with games
    assert "/players/X/lists/4/" in svg and "/players/X/lists/3/" not in svg
    assert "&lt;script&gt;" in svg and "<script>" not in svg
    # Higher rating, smaller y: the point of 1520 is above the point of 1490.
    ys = [float(y) for y in re.findall(r'cy="([\d.]+)"', svg)]
    assert ys[1] < ys[0] < ys[2]
    assert str(chart_svg([], "", "")) == ""


# ------------------------------------------------------------------ tournaments


def test_crosstable_standings_and_report_download(django_capture_on_commit_callbacks) -> None:
    system, period, players, tournament = build()
    table = tournament_selectors.tournament_crosstable(tournament=tournament)
    points = {row.line.player_id: row.points for row in table.rows}
    # Round 1: 0 beat 1, 2 drew 3; round 2: 1 won by forfeit against 2.
    assert [points[p.pk] for p in players] == [1, 1, 0.5, 0.5]
    assert [row.place for row in table.standings] == [1, 1, 3, 3]
    first = table.rows[0]
    assert first.cells[0].opponent == 2 and first.cells[0].colour == "w"
    assert first.cells[0].result == "1"
    forfeit = table.rows[2].cells[1]
    assert forfeit.result == "-" and forfeit.colour == "b"

    data = "012 Open\r\nbytes as sent: ñ".encode("latin-1")
    Report.objects.create(
        tournament=tournament,
        submission=1,
        filename="open.trf",
        format="trf16",
        data=data,
        sha256="0" * 64,
        size=len(data),
        status="accepted",
        uploaded_by=tournament.arbiter,
    )
    url = reverse("tournaments:report_download", args=[tournament.pk])
    assert Client().get(url).status_code == 404  # validated, not rated: not public yet
    _publish(period, django_capture_on_commit_callbacks)  # the tournament is published
    response = Client().get(url)
    assert response.status_code == 200 and response.content == data
    assert 'filename="open.trf"' in response["Content-Disposition"]


def test_tournament_list_filters() -> None:
    arbiter = make_user()
    system, other = make_system(), make_system()
    a = make_tournament(system, arbiter, name="Alpha", status="published")
    b = make_tournament(
        other, arbiter, name="Beta", start_date=dt.date(2025, 1, 1), end_date=dt.date(2025, 1, 5)
    )
    catalan = make_player(region="Catalunya")
    a.players.create(player=catalan, start_rank=1, name="X")

    def names(**params):
        _f, qs = tournament_selectors.tournament_list_filtered(params=params)
        return sorted(t.name for t in qs)

    assert names() == ["Alpha", "Beta"]
    assert names(rating_system=other.code) == ["Beta"]
    assert names(status="published") == ["Alpha"]
    assert names(region="Catalunya") == ["Alpha"]
    assert names(ended_before="2025-12-31") == ["Beta"]
    assert names(q="alp") == ["Alpha"]
    html = Client().get("/tournaments/?status=registered").content.decode()
    assert "Beta" in html and "Alpha" not in html
    assert b.pk


def test_the_card_names_each_list_by_its_month_in_the_readers_words(
    django_capture_on_commit_callbacks,
) -> None:
    """Issue 14 item 14: Portuguese months are written in lower case ("novembro de 2026"),
    where the card's history showed Django's capitalised abbreviation ("Nov 2026")."""
    system, period, players, tournament = build()
    published = _publish(period, django_capture_on_commit_callbacks)
    months_pt = [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ]
    month = months_pt[published.list_date.month - 1]
    url = reverse("players:detail", args=[players[1].fed_id])
    card = Client().get(url, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert f"{month} de {published.list_date.year}" in card
    assert f"{month[:3].title()} {published.list_date.year}" not in card


def test_a_top_list_says_how_many_of_how_many_it_shows(crowd) -> None:
    """A top list shows its first page only: "106 entries" above 100 rows would be wrong."""
    published, _people = crowd
    page = list_selectors.EntryPage([], total=106, page=1, per_page=100, start=1)
    context = {"list": published, "page": page, "query": ""}
    with translation.override("en"):
        top = render_to_string("ratings/_list_entries.html", {**context, "top": "open"})
        whole = render_to_string("ratings/_list_entries.html", {**context, "top": ""})
    assert "The first 100 of 106 entries." in top and "106 entries." not in top.replace(
        "of 106 entries.", ""
    )
    assert "106 entries." in whole and "The first" not in whole


def test_a_list_is_named_as_its_page_titles_it(crowd) -> None:
    """Protests and the admin name a list by its month, as the site does, not "2026-12-01 v2"."""
    published, _people = crowd
    month = f"{calendar.month_name[published.list_date.month]} {published.list_date.year}"
    with translation.override("en"):
        assert str(published) == f"{published.system.name} — {month}"
        published.version = 2
        assert str(published) == f"{published.system.name} — {month} (version 2)"


def test_a_lists_count_reads_with_the_languages_thousands_separator() -> None:
    # "417445 jugadores" read as one number only by accident: counts of a thousand and more
    # are grouped as the reader's language writes them.
    layout = SimpleNamespace(page_columns=[], article="", badge="", fide_titles=())
    page = SimpleNamespace(total=417445, per_page=100, start=1, entries=[], layout=layout)
    context = {"page": page, "list": SimpleNamespace(pk=1)}
    for lang, top, shown in (
        ("en", False, "417,445 entries."),
        ("es", False, "417\xa0445 jugadores."),  # the RAE: a space, not a point
        ("en", True, "The first 100 of 417,445 entries."),
    ):
        with translation.override(lang):
            html = render_to_string("ratings/_list_entries.html", {**context, "top": top})
        assert shown in html, (lang, html[:300])
