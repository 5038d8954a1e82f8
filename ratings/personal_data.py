"""A player's ratings and list entries in the download of his own data (docs/privacy.md),
registered with players.personal_data in RatingsConfig.ready()."""

from __future__ import annotations

from typing import Any

from players.models import Player
from ratings.models import ListEntry, PlayerRating


def ratings_rows(player: Player) -> list[dict[str, Any]]:
    """His state in each rating system."""
    return [
        {
            "system": r.system.code,
            "rating": r.rating,
            "games": r.games,
            "kind": r.kind,
            "activity": r.activity,
            "out_of_list": r.out_of_list,
            "last_game_date": r.last_game_date,
            "rated_since": r.rated_since,
        }
        for r in PlayerRating.objects.filter(player=player).select_related("system")
    ]


def list_entries_rows(player: Player) -> list[dict[str, Any]]:
    """His entry in every published list (every version), oldest first."""
    entries = (
        ListEntry.objects.filter(player=player)
        .select_related("published_list__system")
        .order_by("published_list__list_date", "published_list__version")
    )
    return [
        {
            "system": e.published_list.system.code,
            "list_date": e.published_list.list_date,
            "version": e.published_list.version,
            "rating": e.rating,
            "change": e.change,
            "k": e.k,
            "games": e.games,
            "total_games": e.total_games,
            "status": e.status,
        }
        for e in entries
    ]
