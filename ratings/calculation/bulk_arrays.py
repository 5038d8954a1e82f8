"""The bulk path's period on arrays: the players' states and the games, as `calculate_bulk`
reads and matches them (ratings.calculation.bulk_path)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerArrays:
    """The state at the start of the period, one row per player, in player id order.

    `P` has the columns of the bulk state query (bulk_path.players_sql_build): id, rating (-1
    for none), games, youth (0/1), reached 2400, reached 2200, last game (ordinal, 0 for none),
    lists flagged inactive, status code (bulk_rows.STATUS_CODES), rated since (ordinal, 0)."""

    P: Any
    pid: Any  # P[:, 0]
    rating: Any  # P[:, 1]
    rated: Any  # rating >= 0


@dataclass(frozen=True)
class GameArrays:
    """The period's games, one entry per game, and each side matched to its player's row.

    Columns of the games query (bulk_path.games_sql_build): white and black (player id, or
    minus the tournament player's id outside the registry), white's score times two, kind (0
    played, 1 forfeit, 2 not played), tournament, round, end of the tournament (ordinal)."""

    gw: Any
    gb: Any
    ws2: Any
    kind: Any
    gt: Any
    rnd: Any
    gend: Any
    wi: Any  # white's row in PlayerArrays (valid where w_linked)
    bi: Any  # black's row in PlayerArrays (valid where b_linked)
    w_linked: Any
    b_linked: Any
    played: Any
    w_hidden: Any  # white counts as unrated for black there (8.2.4)
    b_hidden: Any  # black counts as unrated for white there (8.2.4)
    neither: Any  # both hidden: the game counts for neither (8.3.1)
    in_bulk: Any  # rated on the arrays
    small: Any  # played with an unrated side: the first-ratings pass
