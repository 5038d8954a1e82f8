"""Ranks of a published list (ratings.models.ListRank), written once after publication by the
Celery task ``ratings.fill_list_ranks``: one INSERT … SELECT with four window functions over
the list (about 2 s for 450,000 entries), so the card reads a player's ranks with one probe.
Entries without a rating get none; region and club ranks only for players who have one;
the active rank only for active entries (ratings.lists.filters.ACTIVE_STATUSES)."""

from __future__ import annotations

from django.db import connection, transaction

from ratings.lists.filters import ACTIVE_STATUSES
from ratings.models import ListRank, PublishedList

#: Advisory lock namespace (core/pg/locks.py keeps 7301 and 7302).
LIST_RANKS_LOCK = 7303

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
