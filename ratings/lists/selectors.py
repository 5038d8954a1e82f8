"""Reads of published lists: a player's history, the latest version, the differences
between two versions."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import QuerySet

from periods.models import RatingPeriod
from players.models import Player
from ratings.models import ListEntry, PublishedList


def player_list_history(*, player_id: int, limit: int = 200) -> QuerySet[ListEntry]:
    """The player's entry in every published list version, by system, newest first.

    The entries have no index on the player alone (it would slow every publication); the
    unique (list, player) index answers this with one probe per published list."""
    list_ids = list(PublishedList.objects.values_list("id", flat=True))
    return (
        ListEntry.objects.filter(published_list_id__in=list_ids, player_id=player_id)
        .select_related("published_list", "published_list__system")
        .order_by(
            "published_list__system__name", "-published_list__list_date", "-published_list__version"
        )[:limit]
    )


def list_latest_version(*, period: RatingPeriod) -> PublishedList | None:
    return period.lists.order_by("-version").first()


def list_diff(
    *, published: PublishedList, limit: int = 2000
) -> tuple[PublishedList | None, list[dict[str, Any]]]:
    """Version n against version n-1 of the same period: every player whose entry differs."""
    previous = PublishedList.objects.filter(
        period=published.period, version=published.version - 1
    ).first()
    if previous is None:
        return None, []
    sql = """
        SELECT COALESCE(n.player_id, o.player_id) AS player_id, o.rating, n.rating,
               o.status, n.status, o.change, n.change
        FROM (SELECT * FROM ratings_listentry WHERE published_list_id = %s) n
        FULL OUTER JOIN (SELECT * FROM ratings_listentry WHERE published_list_id = %s) o
          ON o.player_id = n.player_id
        WHERE n.player_id IS NULL OR o.player_id IS NULL
           OR n.rating IS DISTINCT FROM o.rating OR n.status <> o.status OR n.change <> o.change
        ORDER BY 1 LIMIT %s
    """
    params = [published.pk, previous.pk, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    players = Player.objects.in_bulk([r[0] for r in rows])
    out = [
        {
            "player": players.get(r[0]),
            "old_rating": r[1],
            "new_rating": r[2],
            "old_status": r[3],
            "new_status": r[4],
            "old_change": r[5],
            "new_change": r[6],
        }
        for r in rows
    ]
    return previous, out
