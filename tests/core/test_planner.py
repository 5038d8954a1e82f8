"""core.pg.planner: the planner learns a new list right after the writes that add it (issue 29).

Asked through the planner's own estimate (EXPLAIN) of the new list's rows: list ids are never
reused, so statistics taken before the publication cannot already know the new id."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from core.pg.planner import planner_refresh
from ratings.lists import ranks
from ratings.models import ListEntry, ListFilterRow, PublishedList
from ratings.tasks import fill_list_ranks
from tests.factories import make_published

pytestmark = pytest.mark.django_db


def estimated_rows(table: str, list_id: int) -> float:
    """The planner's estimate of `table`'s rows of the list `list_id`."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"EXPLAIN (FORMAT JSON) SELECT * FROM {table} WHERE published_list_id = %s", [list_id]
        )
        plan: Any = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return float(plan[0]["Plan"]["Plan Rows"])


def test_publication_tells_the_planner_its_entries(django_capture_on_commit_callbacks: Any) -> None:
    *_, published = make_published(django_capture_on_commit_callbacks)
    entries = ListEntry.objects.filter(published_list=published).count()
    assert entries > 1
    assert estimated_rows("ratings_listentry", published.pk) == entries


def entries_without_rows(published: PublishedList) -> PublishedList:
    """A list whose entries carry no ranks nor filter columns (an imported list, or one
    published before issue 27 item 1): the ranks task writes its ListRank and ListFilterRow."""
    legacy = PublishedList.objects.create(
        system=published.system,
        period=published.period,
        list_date=published.list_date,
        version=published.version + 1,
        published_at=published.published_at,
        ruleset=published.ruleset,
        engine_version="imported",
        entry_count=published.entry_count,
    )
    ListEntry.objects.bulk_create(
        ListEntry(
            published_list=legacy,
            player_id=e.player_id,
            rating=e.rating,
            change=e.change,
            games=e.games,
            status=e.status,
            ruleset=e.ruleset,
            engine_version="imported",
        )
        for e in ListEntry.objects.filter(published_list=published)
    )
    return legacy


def test_the_ranks_task_tells_the_planner_its_filter_rows(
    django_capture_on_commit_callbacks: Any,
) -> None:
    *_, published = make_published(django_capture_on_commit_callbacks)
    published = entries_without_rows(published)
    fill_list_ranks(published.pk)
    rows = ListFilterRow.objects.filter(published_list=published).count()
    assert rows > 1
    assert estimated_rows("ratings_listfilterrow", published.pk) == rows


def test_without_a_refresh_the_planner_does_not_know_the_rows(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """What the two tests above rely on: the rows the task writes are unknown to the planner
    until it is told (so they can fail)."""
    *_, published = make_published(django_capture_on_commit_callbacks)
    published = entries_without_rows(published)
    ranks.list_rows_fill(list_id=published.pk)
    rows = ListFilterRow.objects.filter(published_list=published).count()
    assert estimated_rows("ratings_listfilterrow", published.pk) != rows
    planner_refresh(tables=["ratings_listfilterrow"])
    assert estimated_rows("ratings_listfilterrow", published.pk) == rows
