"""Reads of the player registry."""
from __future__ import annotations

from django.db.models import Q, QuerySet

from players.models import Player
from players.names import fold


def player_search(*, query: str = "", limit: int = 50) -> QuerySet[Player]:
    """Players whose name (accent- and case-insensitive), federation ID or FIDE ID match."""
    qs = Player.objects.all()
    query = query.strip()
    if not query:
        return qs.order_by("name_key", "id")[:limit]
    condition = Q(name_key__contains=fold(query)) | Q(fed_id__iexact=query)
    if query.isdigit():
        condition |= Q(fide_id=int(query))
    return qs.filter(condition).order_by("name_key", "id")[:limit]


def player_get(*, fed_id: str) -> Player:
    return Player.objects.get(fed_id=fed_id)
