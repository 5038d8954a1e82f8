"""The NumPy bulk path: the rated-player part of ``fide-2024`` on whole arrays.

The Django side feeds it straight from COPY: one row per player, one row per game, integer
indices into the player arrays. Nothing here loops over players or games in Python.

It covers expected scores (table B with the 400 cap, 8.1/8.3.1), K with the youth and the
700 rules (8.3.3), the period change rounded .5 upwards (8.3.4, exact integer thousandths,
see ``rounding``), the 1400 floor (7.2.1) and the inactivity flags (7.2.2). First ratings of
unrated players (8.2) are ``bulk_initial``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .rounding import round_half_up_milli_array
from .tables import expected_milli_array

__all__ = [
    "K_RULE_REACHED_2400",
    "K_RULE_UNDER_30_GAMES",
    "K_RULE_UNDER_2400",
    "K_RULE_YOUTH",
    "BulkInput",
    "BulkOutput",
    "rate_rated_fide_2024",
]

I64 = NDArray[np.int64]
B = NDArray[np.bool_]

# Which sentence of fide-2024 8.3.3 chose K (0: not rated).
K_RULE_REACHED_2400 = 1  # K = 10 once the published rating has reached 2400, for ever
K_RULE_UNDER_30_GAMES = 2  # K = 40 until 30 games completed
K_RULE_YOUTH = 3  # K = 40 until the end of the year of the 18th birthday, under 2300
K_RULE_UNDER_2400 = 4  # K = 20 while under 2400


@dataclass(frozen=True, slots=True, eq=False)
class BulkInput:
    """Per player (length P) and per game (length G) arrays.

    ``white_counts[g]``: game g is rated for white (white rated, black a rated opponent as
    white sees him; 8.2.4 can make a rated player count as unrated for his opponents).
    """

    rating: I64  # list in force; any value where not rated
    rated: B
    games_before: I64  # rated games completed before the period
    youth: B  # the period starts no later than the end of the year of the 18th birthday
    reached_2400: B
    inactive_before: B  # previous status "inactive"
    last_game_ordinal: I64  # date.toordinal() of the last rated game before the period; 0 unknown
    white: I64
    black: I64
    white_score2: I64  # twice white's score: 0, 1 or 2
    white_counts: B
    black_counts: B
    inactive_cutoff_ordinal: int  # no game after this day (and none in the period) -> inactive
    floor: int = 1400
    difference_cap: int = 400


@dataclass(frozen=True, slots=True, eq=False)
class BulkOutput:
    k: I64  # K used (0 where not rated)
    k_rule: I64  # K_RULE_* (0 where not rated)
    k_reduced: B  # the 700 rule lowered K
    games: I64  # rated games counted in the period
    score2: I64  # twice the score over those games
    expected_milli: I64  # sum of expected scores, thousandths
    delta_milli: I64  # sum of (score - expected), thousandths
    change: I64  # rounded period change (8.3.4)
    rating_after: I64
    out_of_list: B  # rating_after below the floor (7.2.1)
    inactive: B  # 7.2.2 a
    reactivated: B  # 7.2.2 b
    white_expected_milli: I64  # per game, white's expected score (black's is 1000 minus it)


def _sum_by_player(index: I64, weights: I64, size: int) -> I64:
    # Integer sums through float64 bincount: exact while |sum| < 2**53.
    total = np.bincount(index, weights=weights.astype(np.float64), minlength=size)
    out: I64 = np.rint(total).astype(np.int64)
    return out


def rate_rated_fide_2024(data: BulkInput) -> BulkOutput:
    size = data.rating.shape[0]
    rating = data.rating.astype(np.int64, copy=False)
    white = data.white
    black = data.black

    # 8.3.1: D per game, a difference over 400 counts as 400; 8.3.2 a: table B.
    diff = np.clip(rating[white] - rating[black], -data.difference_cap, data.difference_cap)
    white_exp = expected_milli_array(diff, "fide-2024")
    black_exp = 1000 - white_exp
    white_score_milli = data.white_score2 * 500
    black_score_milli = 1000 - white_score_milli

    wc = data.white_counts
    bc = data.black_counts
    w_idx = white[wc]
    b_idx = black[bc]
    games = np.bincount(w_idx, minlength=size).astype(np.int64) + np.bincount(
        b_idx, minlength=size
    ).astype(np.int64)
    score2 = _sum_by_player(w_idx, data.white_score2[wc], size) + _sum_by_player(
        b_idx, 2 - data.white_score2[bc], size
    )
    expected = _sum_by_player(w_idx, white_exp[wc], size) + _sum_by_player(
        b_idx, black_exp[bc], size
    )
    delta = _sum_by_player(w_idx, white_score_milli[wc] - white_exp[wc], size) + _sum_by_player(
        b_idx, black_score_milli[bc] - black_exp[bc], size
    )

    # 8.3.3: K from the state at the start of the period (the list in force).
    rated = data.rated
    reached = data.reached_2400 | (rating >= 2400)
    under_30 = data.games_before < 30
    youth = data.youth & (rating < 2300)
    k_rule = np.select(
        [~rated, reached, under_30, youth],
        [0, K_RULE_REACHED_2400, K_RULE_UNDER_30_GAMES, K_RULE_YOUTH],
        default=K_RULE_UNDER_2400,
    ).astype(np.int64)
    k_base = np.select(
        [k_rule == K_RULE_REACHED_2400, k_rule == K_RULE_UNDER_2400, k_rule > 0],
        [10, 20, 40],
        default=0,
    ).astype(np.int64)
    # 8.3.3 last paragraph: n x K over 700 -> K = largest integer with K x n <= 700.
    k_reduced = rated & (games * k_base > 700)
    k = np.where(k_reduced, 700 // np.maximum(games, 1), k_base)

    # 8.3.2 d and 8.3.4: change = K x sum(delta R), rounded .5 upwards whatever the sign.
    change = np.where(rated, round_half_up_milli_array(k * delta), 0)
    rating_after = np.where(rated, rating + change, 0)
    out_of_list = rated & (rating_after < data.floor)  # 7.2.1

    played = games > 0
    stale = (data.last_game_ordinal > 0) & (data.last_game_ordinal <= data.inactive_cutoff_ordinal)
    inactive = rated & ~played & ~out_of_list & (data.inactive_before | stale)  # 7.2.2 a
    reactivated = rated & played & data.inactive_before  # 7.2.2 b

    return BulkOutput(
        k=k,
        k_rule=k_rule,
        k_reduced=k_reduced,
        games=games,
        score2=score2,
        expected_milli=expected,
        delta_milli=delta,
        change=change,
        rating_after=rating_after,
        out_of_list=out_of_list,
        inactive=inactive,
        reactivated=reactivated,
        white_expected_milli=white_exp,
    )
