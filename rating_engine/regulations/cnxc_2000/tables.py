"""cnxc-2000 tables and deadlines: virtual ratings (5.3), protests and appeals (4.3), K (6.4)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

_TABLE = "cnxc-2000"

#: 5.3: the virtual rating of a player with no ICCF, FPX or FIDE rating, by competition kind.
VIRTUAL_BY_KIND: Mapping[str, int] = {
    "championship_final": 2200,
    "team_championship_final_board_1": 2000,
    "permanent_honour": 2000,
}
_VIRTUAL_OTHER = 1750
PROTEST_DAYS = 30  # 4.3: protest to the rating commissioner after the list is published
APPEAL_DAYS = 7  # 4.3: appeal to the board after the commissioner's decision


def protest_deadline(published: date) -> date:
    """4.3: last day to protest a list published on ``published`` (30 days after it)."""
    return date.fromordinal(published.toordinal() + PROTEST_DAYS)


def appeal_deadline(decided: date) -> date:
    """4.3: last day to appeal the commissioner's decision of ``decided`` (7 days after)."""
    return date.fromordinal(decided.toordinal() + APPEAL_DAYS)


# 6.4: K by effective rating (rows) and games counted (columns 13-24, 25-50, 51-100, >100).
_K_MATRIX: tuple[tuple[int, int, int, int], ...] = (
    (40, 30, 25, 20),  # < 2000
    (30, 25, 20, 15),  # 2000-2200
    (25, 20, 20, 15),  # 2201-2400
    (20, 20, 15, 15),  # > 2400
)


def k_factor(rating: int, games: int) -> int:
    """6.4: K for an effective rating and the games counted in the list in force."""
    row = 0 if rating < 2000 else 1 if rating <= 2200 else 2 if rating <= 2400 else 3
    col = 0 if games <= 24 else 1 if games <= 50 else 2 if games <= 100 else 3
    return _K_MATRIX[row][col]
