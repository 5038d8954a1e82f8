"""Issue 29: the publication counts what the list page's common filters keep (each sex, title,
region, club and age group, each with its active entries: the top lists), in its own
transaction (ratings.publication.counts), and the page reads those counts instead of counting the
list on its first request. Each count is checked against the entries the filters keep, counted
here through the filters on the entries joined to their players."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from demo.synthetic import federation_generate
from periods import services as period_services
from periods.models import PeriodStatus, RatingSystem
from ratings.calculation import runs
from ratings.lists import selectors as list_selectors
from ratings.lists.filters import AGE_GROUPS, ListEntryFilter
from ratings.models import ListEntry, ListFilterCount, PublishedList
from ratings.publication import services as publication

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the synthetic federation needs PostgreSQL (COPY)"
)


def _published() -> PublishedList:
    federation_generate(
        players=200, games=900, seed=29, periods=1, system_code="counts", today=dt.date(2026, 3, 10)
    )
    period = RatingSystem.objects.get(code="counts").periods.order_by("start").first()
    assert period is not None
    if period.status == PeriodStatus.OPEN:
        period_services.period_close(period=period)
    run = runs.calculation_request(period=period, enqueue=False)
    runs.calculation_run(run_id=run.pk)
    return publication.list_publish(period=period)


def _expected(published: PublishedList, params: dict[str, str]) -> int:
    """The entries the filters keep, through the filters on the entries joined to their
    players (ratings.lists.filters.ListEntryFilter), counted here."""
    filterset = list_selectors.list_entry_filter(published=published, params=params)
    assert filterset.is_valid(), filterset.errors
    return int(filterset.qs.order_by().count())


def _entry_counts(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries if "COUNT(" in q["sql"].upper() and "listentry" in q["sql"]]


@pytest.mark.django_db(transaction=True)
def test_the_page_reads_the_counts_the_publication_wrote() -> None:
    published = _published()
    entries = ListEntry.objects.filter(published_list=published)
    regions = sorted(set(entries.exclude(region="").values_list("region", flat=True)))
    clubs = sorted(set(entries.exclude(club="").values_list("club", flat=True)))[:5]
    titles = sorted(set(entries.exclude(title="").values_list("title", flat=True)))
    assert len(regions) > 2 and titles and clubs
    asked: list[dict[str, str]] = [
        {"sex": "F"},
        {"sex": "M"},
        {"active": "on"},
        {"active": "on", "sex": "F"},
        *({"age": code} for code, _label, _age in AGE_GROUPS),
        *({"age": code, "active": "true"} for code, _label, _age in AGE_GROUPS),
        *({"region": region} for region in regions),
        *({"region": region, "active": "on"} for region in regions),
        {"region": regions[0].lower()[1:5]},  # any case, a part (issue 24 item 7)
        *({"club": club} for club in clubs),
        *({"title": title} for title in titles),
        *({"title": title, "active": "on", "sort": "name"} for title in titles),
        {"region": "no such region"},
    ]
    counted = ListFilterCount.objects.filter(published_list=published)
    assert counted.filter(dimension="", section="active").get().entries == published.entry_count
    for params in asked:
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            page = list_selectors.list_entries_page(published=published, params=params)
        assert page.total == _expected(published, params), params
        assert not _entry_counts(captured.captured_queries), params
    # The page's boxes offer the regions the publication counted.
    cache.clear()
    assert list_selectors.list_filter_values(published=published)["region"] == regions
    # Two filters at once (besides "active only") and the name are counted by the page.
    for params in ({"sex": "F", "age": "u20"}, {"name": "a"}):
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            page = list_selectors.list_entries_page(published=published, params=params)
        assert page.total == _expected(published, params), params
        assert _entry_counts(captured.captured_queries), params
    # Immutable like the list.
    row = counted.first()
    assert row is not None
    with pytest.raises(IntegrityError, match="immutable"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ratings_listfiltercount SET entries = 0 WHERE id = %s", [row.pk])


@pytest.mark.django_db(transaction=True)
def test_top_lists_say_how_many_entries_they_are_the_first_of(client) -> None:
    published = _published()
    active_women = _expected(published, {"active": "true", "sex": "F"})
    cache.clear()
    response = client.get(f"/ratings/lists/{published.pk}/?top=women")
    assert response.status_code == 200
    text = response.content.decode()
    if active_women > 100:
        assert f"The first 100 of {active_women} entries." in text
    else:
        assert f"{active_women} entries." in text


@pytest.mark.django_db(transaction=True)
def test_the_page_builds_its_filters_once(client, monkeypatch) -> None:
    """The list page's form and its entries use the same filters, built at most once a request
    (issue 29: a list page's first render); a top list's entries use the top list's own
    filters."""
    published = _published()
    built: list[Any] = []
    original = ListEntryFilter.__init__

    def counted(self: ListEntryFilter, *args: Any, **kwargs: Any) -> None:
        built.append(args[0] if args else kwargs.get("data"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(ListEntryFilter, "__init__", counted)
    women = _expected(published, {"sex": "F"})
    built.clear()
    cache.clear()
    response = client.get(f"/ratings/lists/{published.pk}/?sex=F&page=1")
    assert response.status_code == 200
    assert f"{women} entries." in response.content.decode()
    assert len(built) == 1
    built.clear()
    cache.clear()
    response = client.get(f"/ratings/lists/{published.pk}/?top=women")
    assert response.status_code == 200
    # The top list's own: a top list shows no form, whose filters are built only when shown.
    assert built == [{"active": "true", "sex": "F"}]
    built.clear()
    response = client.get(f"/ratings/lists/{published.pk}/?sex=F&page=2")
    assert response.status_code == 200
    # Another page of the same filters: the form is the one kept (ratings/list.html), the
    # filters built once for the entries.
    assert len(built) == 1
