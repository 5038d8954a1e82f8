"""The list page's filter rows (ratings.models.ListFilterRow): a page read from them is the
page read from the entries joined to their players, for every filter and sort."""

from __future__ import annotations

import itertools
import random
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings.lists import ranks
from ratings.lists import selectors as list_selectors
from ratings.lists.filters import AGE_GROUPS, SORTS
from ratings.models import ListEntry, ListFilterRow, PublishedList
from tests.factories import make_period, make_player, make_system

pytestmark = pytest.mark.django_db


@pytest.fixture
def federation() -> PublishedList:
    """60 players: ties in rating, unrated entries, inactive and provisional ones, equal names,
    players without a birth year, region or club."""
    rng = random.Random(13)
    period = make_period(make_system())
    published = PublishedList.objects.create(
        system=period.system,
        period=period,
        version=1,
        list_date=period.list_date,
        published_at=timezone.now(),
        ruleset=period.system.ruleset,
        engine_version="test",
        entry_count=60,
    )
    entries = []
    for i in range(60):
        player = make_player(
            surname=rng.choice(["Abad", "Vila", "Zorrilla", "Öller"]),
            given_name=rng.choice(["Ana", "Joan", "Marta"]),
            sex=rng.choice("MF"),
            region=rng.choice(["Catalunya", "Galicia", ""]),
            club=rng.choice(["CE Lleida", "CA Vigo", ""]),
            birth_year=rng.choice([None, 1950, 1970, 1990, 2008, 2012, 2016, 2019]),
            title=rng.choice(["", "", "GM", "FM"]),
        )
        entries.append(
            ListEntry(
                published_list=published,
                player=player,
                rating=None if i % 11 == 0 else rng.choice([1500, 1800, 1800, 2100, 2400]),
                change=rng.randint(-20, 20),
                games=rng.randint(0, 9),
                status=rng.choice(["rated", "rated", "provisional", "new", "unrated"]),
                inactive=i % 7 == 0,
                ruleset=published.ruleset,
                engine_version="test",
            )
        )
    ListEntry.objects.bulk_create(entries)
    return published


def _read(published: PublishedList, params: dict[str, str], per_page: int) -> list:
    pages = []
    page = 1
    while True:
        got = list_selectors.list_entries_page(
            published=published, params=params, page=page, per_page=per_page
        )
        pages.append((got.total, got.page, got.start, [e["player_id"] for e in got.entries]))
        if got.next_page is None:
            return pages
        page += 1


def test_pages_from_filter_rows_are_the_pages_from_the_entries(federation) -> None:
    published = federation
    filters: list[dict[str, str]] = [
        {},
        {"region": "Catalunya"},
        {"club": "CA Vigo"},
        {"sex": "F"},
        {"title": "GM"},
        {"active": "true"},
        {"region": "Galicia", "sex": "M", "active": "true"},
        {"club": "CE Lleida", "age": "u20"},
        {"region": "Nowhere"},
        # Any case and a part (issue 24 item 7); the name's words in any order, no accents.
        {"region": "catalunya"},
        {"club": "vig"},
        {"name": "OLLER"},
        {"name": "marta abad"},
        {"sex": "X"},  # invalid: the whole list
    ] + [{"age": code} for code, _label, _age in AGE_GROUPS]
    cases = [
        ({**f, "sort": sort} if sort else f, per_page)
        for f, sort, per_page in itertools.product(filters, [None, *SORTS], [7, 100])
    ]
    before = {repr(case): _read(published, *case) for case in cases}
    assert not ListFilterRow.objects.exists()

    assert ranks.list_rows_fill(list_id=published.pk) == 60
    assert ranks.list_rows_fill(list_id=published.pk) == 0  # once
    cache.clear()  # the filtered counts are kept
    for case in cases:
        with CaptureQueriesContext(connection) as queries:
            after = _read(published, *case)
        assert after == before[repr(case)], case
        params = case[0]
        uses_rows = any("ratings_listfilterrow" in q["sql"] for q in queries.captured_queries)
        filtered = any(k != "sort" for k in params) or params.get("sort", "rating") != "rating"
        assert uses_rows == (filtered and params.get("sex") != "X"), case


def test_filter_rows_copy_the_entry_and_the_player(federation) -> None:
    published = federation
    ranks.list_rows_fill(list_id=published.pk)
    entry = ListEntry.objects.select_related("player").filter(published_list=published)[0]
    row = ListFilterRow.objects.get(published_list=published, player_id=entry.player_id)
    player = entry.player
    assert (row.rating, row.change, row.games) == (entry.rating, entry.change, entry.games)
    assert (row.name_key, row.region, row.club, row.sex, row.title, row.birth_year) == (
        player.name_key,
        player.region,
        player.club,
        player.sex,
        player.title,
        player.birth_year,
    )
    assert row.active == (not entry.inactive and entry.status in ("rated", "new", "provisional"))


def test_fill_list_rows_command_writes_lists_without_rows(federation) -> None:
    out = StringIO()
    call_command("fill_list_rows", stdout=out)
    assert ListFilterRow.objects.filter(published_list=federation).count() == 60
    assert f"list {federation.pk}: 60 filter rows" in out.getvalue()
    out = StringIO()
    call_command("fill_list_rows", stdout=out)
    assert out.getvalue() == ""  # once
