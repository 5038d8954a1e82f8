"""A player's tournament entries and games in the download of his own data
(docs/privacy.md), registered with players.personal_data in TournamentsConfig.ready()."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from players.models import Player
from tournaments.models import Game


def games_rows(player: Player) -> list[dict[str, Any]]:
    """Every game of his reported in a tournament, with the tournament and his opponent as
    reported."""
    games = (
        Game.objects.filter(Q(white__player=player) | Q(black__player=player))
        .select_related("tournament", "white", "black")
        .order_by("tournament__end_date", "tournament_id", "round", "id")
    )
    rows = []
    for g in games:
        white = g.white is not None and g.white.player_id == player.pk
        me, opponent = (g.white, g.black) if white else (g.black, g.white)
        rows.append(
            {
                "tournament": g.tournament.name,
                "end_date": g.tournament.end_date,
                "round": g.round,
                "colour": "white" if white else "black",
                "opponent": opponent.name if opponent else "",
                "result": g.result,
                "kind": g.kind,
                "points": g.white_score if white else g.black_score,
                "rating_at_start": me.rating_at_start if me else None,
            }
        )
    return rows
