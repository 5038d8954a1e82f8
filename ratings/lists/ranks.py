"""Ranks of a published list (ratings.models.ListRank), written once after publication by the
Celery task ``ratings.fill_list_ranks``: one INSERT … SELECT with four window functions over
the list (about 2 s for 450,000 entries), so the card reads a player's ranks with one probe.
Entries without a rating get none; region and club ranks only for players who have one;
the active rank only for active entries (ratings.lists.filters.ACTIVE_STATUSES).

The same task writes the list's filter rows (ratings.models.ListFilterRow: what a list page
filters and sorts by, for every entry), one INSERT … SELECT as well."""

from __future__ import annotations

import datetime as dt

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from core.pg.planner import planner_refresh
from core.tasks import task_enqueue_on_commit
from ratings.lists.filters import ACTIVE_STATUSES
from ratings.models import ListEntry, ListFilterRow, ListRank, PublishedList

#: Advisory lock namespace (core/pg/locks.py keeps 7301 and 7302).
LIST_RANKS_LOCK = 7303
LIST_ROWS_LOCK = 7304

FILL_SQL = """
    INSERT INTO ratings_listrank (published_list_id, player_id, national, region, club, active)
    SELECT published_list_id, player_id,
           rank() OVER (ORDER BY rating DESC),
           CASE WHEN region <> '' THEN rank() OVER (PARTITION BY region ORDER BY rating DESC) END,
           CASE WHEN club <> '' THEN rank() OVER (PARTITION BY club ORDER BY rating DESC) END,
           CASE WHEN active THEN rank() OVER (PARTITION BY active ORDER BY rating DESC) END
    FROM (
        SELECT e.published_list_id, e.player_id, e.rating, p.region, p.club,
               (NOT e.inactive AND e.status = ANY(%s)) AS active
        FROM ratings_listentry e JOIN players_player p ON p.id = e.player_id
        WHERE e.published_list_id = %s AND e.rating IS NOT NULL
    ) ranked
    ON CONFLICT DO NOTHING
"""


def list_ranks_fill(*, list_id: int) -> int:
    """Write the ranks of one list unless they are there; the number of rows written."""
    with transaction.atomic(), connection.cursor() as cursor:
        # One filler per list at a time (a second one then finds the rows and stops).
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LIST_RANKS_LOCK, list_id])
        if not PublishedList.objects.filter(pk=list_id).exists():
            return 0
        if ListRank.objects.filter(published_list_id=list_id).exists():
            return 0
        cursor.execute(FILL_SQL, [[str(s) for s in ACTIVE_STATUSES], list_id])
        return cursor.rowcount


ROWS_SQL = """
    INSERT INTO ratings_listfilterrow (published_list_id, player_id, rating, change, games,
        name_key, region, club, sex, title, birth_year, active)
    SELECT e.published_list_id, e.player_id, e.rating, e.change, e.games,
           p.name_key, p.region, p.club, p.sex, p.title, p.birth_year,
           (NOT e.inactive AND e.status = ANY(%s))
    FROM ratings_listentry e JOIN players_player p ON p.id = e.player_id
    WHERE e.published_list_id = %s
    ON CONFLICT DO NOTHING
"""


def list_rows_fill(*, list_id: int) -> int:
    """Write the filter rows of one list unless they are there; the number of rows written."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LIST_ROWS_LOCK, list_id])
        if not PublishedList.objects.filter(pk=list_id).exists():
            return 0
        if ListFilterRow.objects.filter(published_list_id=list_id).exists():
            return 0
        cursor.execute(ROWS_SQL, [[str(s) for s in ACTIVE_STATUSES], list_id])
        return cursor.rowcount


#: The tables a publication and its task add a list's rows to.
LIST_TABLES = ("ratings_listentry", "ratings_listrank", "ratings_listfilterrow")


def list_tables_analyze() -> None:
    """The planner learns the rows a publication and this task added (core.pg.planner): the
    task runs outside a transaction, so the new pages are also marked all-visible."""
    planner_refresh(tables=LIST_TABLES)


def list_rows_filled(*, list_id: int) -> bool:
    """Whether the list's filter rows are written (the task runs after the publication)."""
    return ListFilterRow.objects.filter(published_list_id=list_id).exists()


#: A list published longer ago than this without its filter rows lost its task (the broker was
#: away when it was published, or the message was lost): ratings.watch_list_ranks sends it again.
#: Longer than the task takes on a large list (about 40 s for 450,000 entries, docs/benchmarks.md).
RANKS_OVERDUE = dt.timedelta(minutes=10)


def list_ranks_overdue_ids(*, now: dt.datetime | None = None) -> list[int]:
    """Published lists with entries but no filter rows, published over RANKS_OVERDUE ago."""
    before = (now or timezone.now()) - RANKS_OVERDUE
    return list(
        PublishedList.objects.filter(published_at__lt=before)
        .filter(Exists(ListEntry.objects.filter(published_list=OuterRef("pk"))))
        .exclude(Exists(ListFilterRow.objects.filter(published_list=OuterRef("pk"))))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def list_ranks_watch(*, now: dt.datetime | None = None) -> list[int]:
    """Send the ranks task again for every overdue list (the task skips what is written)."""
    overdue = list_ranks_overdue_ids(now=now)
    for list_id in overdue:
        task_enqueue_on_commit("ratings.fill_list_ranks", list_id)
    return overdue
