"""fide-2024 per game: the expected score and change (8.3.1-8.3.4) and the K factor (8.3.3)."""

from __future__ import annotations

from ... import types
from ...bulk import K_RULE_REACHED_2400, K_RULE_UNDER_30_GAMES, K_RULE_UNDER_2400, K_RULE_YOUTH
from ...common import until_end_of_year_of_age
from ...tables import expected_milli
from ...types import PlayerInput

TABLE = "fide-2024"


def _(s: str) -> str:
    return s


_K_ARTICLE = {
    K_RULE_REACHED_2400: "8.3.3",
    K_RULE_UNDER_30_GAMES: "8.3.3",
    K_RULE_YOUTH: "8.3.3",
    K_RULE_UNDER_2400: "8.3.3",
}
_K_WHY = {
    K_RULE_REACHED_2400: _("K = 10: the published rating has reached 2400"),
    K_RULE_UNDER_30_GAMES: _("K = 40: fewer than 30 rated games completed (%(games)s)"),
    K_RULE_YOUTH: _("K = 40: under 2300 until the end of the year of the 18th birthday"),
    K_RULE_UNDER_2400: _("K = 20: rating below 2400"),
}

# --------------------------------------------------------------------------- per-game maths


def game_delta_milli(rating: int, opponent: int, score: float, cap: int = 400) -> tuple[int, int]:
    """(expected, score - expected) in thousandths for one game (8.3.1, 8.3.2 a-b)."""
    d = max(-cap, min(cap, rating - opponent))  # 8.3.1: over 400 counts as 400
    exp = expected_milli(d, TABLE)
    return exp, round(score * 1000) - exp


def k_factor(
    *, rating: int, games_before: int, reached_2400: bool, youth: bool, n: int
) -> tuple[int, int, bool]:
    """(K, K_RULE_*, reduced by the 700 rule) for a rated player (8.3.3).

    DECISION: the order is 10 (reached 2400, "for ever") > 40 under 30 games > 40 youth
    under 2300 > 20; K is fixed by the state at the start of the period (the list in force
    publishes it), and n of the 700 rule is the number of games rated in this period.
    """
    if reached_2400 or rating >= 2400:
        rule, k = K_RULE_REACHED_2400, 10
    elif games_before < 30:
        rule, k = K_RULE_UNDER_30_GAMES, 40
    elif youth and rating < 2300:
        rule, k = K_RULE_YOUTH, 40
    else:
        rule, k = K_RULE_UNDER_2400, 20
    if n * k > 700:
        return 700 // n, rule, True
    return k, rule, False


#: 8.3.3: "until the end of the year in which they turn 18".
YOUTH_AGE = 18


def youth_on(player: PlayerInput, period: types.PeriodInput) -> bool:
    # 8.3.3; DECISION: judged on the first day of the period (the list whose K applies).
    return until_end_of_year_of_age(player.birth_date, YOUTH_AGE, period.start)
