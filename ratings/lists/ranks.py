"""Ranks of a published list and what its page filters by.

Since issue 27 item 1 the publication writes them with the entries, in the same statement
(ratings.publication.ranks.ranked_sql: ranks from histograms of the list being written; the
filter columns from the player), so a list is never shown without them: ``ListEntry.rank_*``,
``name_key``, ``sex``, ``active``. Entries without a rating get no rank; region and club ranks
only for players who have one; the active rank only for active entries
(ratings.lists.filters.ACTIVE_STATUSES).

Lists published before (and imported lists) keep the older layout: their ranks
(ratings.models.ListRank) and filter rows (ratings.models.ListFilterRow), written once by the
Celery task ``ratings.fill_list_ranks`` (one INSERT … SELECT each) and its watchdog."""

from __future__ import annotations

import datetime as dt

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from core.pg.planner import planner_refresh
from core.tasks import task_enqueue_on_commit
from ratings.lists.filters import ACTIVE_STATUSES
from ratings.models import ListEntry, ListFilterRow, ListRank, PublishedList

#: Advisory lock namespace (core/pg/locks.py keeps 7301 and 7302).
LIST_RANKS_LOCK = 7303
LIST_ROWS_LOCK = 7304


def list_entries_carry_rows(*, list_id: int) -> bool:
    """Whether the list's entries carry their ranks and filter columns (published since issue
    27 item 1: every entry has them, so the first one says). One probe of the (list, player)
    index."""
    first = (
        ListEntry.objects.filter(published_list_id=list_id)
        .order_by("player_id")
        .values_list("name_key", flat=True)
        .first()
    )
    return first is not None


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
        if list_entries_carry_rows(list_id=list_id):
            return 0  # the entries carry them (published since issue 27)
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
        if list_entries_carry_rows(list_id=list_id):
            return 0  # the entries carry them (published since issue 27)
        cursor.execute(ROWS_SQL, [[str(s) for s in ACTIVE_STATUSES], list_id])
        return cursor.rowcount


#: The tables a publication and its task add a list's rows to.
LIST_TABLES = ("ratings_listentry", "ratings_listrank", "ratings_listfilterrow")


def list_tables_analyze() -> None:
    """The planner learns the rows a publication and this task added (core.pg.planner): the
    task runs outside a transaction, so the new pages are also marked all-visible."""
    planner_refresh(tables=LIST_TABLES)


def list_rows_filled(*, list_id: int) -> bool:
    """Whether the list's filter rows are written (the task runs after the publication of a
    list published before issue 27, or an imported one)."""
    return ListFilterRow.objects.filter(published_list_id=list_id).exists()


def list_rows_model(*, list_id: int) -> type[ListEntry] | type[ListFilterRow] | None:
    """Where a list page filters and sorts the list: its entries (published since issue 27),
    its filter rows (written by the task for the lists before), or None (not written yet: the
    entries joined to their players)."""
    if list_entries_carry_rows(list_id=list_id):
        return ListEntry
    return ListFilterRow if list_rows_filled(list_id=list_id) else None


#: A list published longer ago than this without its filter rows lost its task (the broker was
#: away when it was published, or the message was lost): ratings.watch_list_ranks sends it again.
#: Longer than the task takes on a large list (about 40 s for 450,000 entries, docs/benchmarks.md).
RANKS_OVERDUE = dt.timedelta(minutes=10)


def list_ranks_overdue_ids(*, now: dt.datetime | None = None) -> list[int]:
    """Published lists with entries but no filter rows, published over RANKS_OVERDUE ago;
    not those whose entries carry them (list_entries_carry_rows: the first entry says)."""
    before = (now or timezone.now()) - RANKS_OVERDUE
    first_key = (
        ListEntry.objects.filter(published_list=OuterRef("pk"))
        .order_by("player_id")
        .values("name_key")[:1]
    )
    return list(
        PublishedList.objects.filter(published_at__lt=before)
        .filter(Exists(ListEntry.objects.filter(published_list=OuterRef("pk"))))
        .annotate(first_key=Subquery(first_key))
        .filter(first_key__isnull=True)
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
