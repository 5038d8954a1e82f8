"""First ratings on arrays: the unrated-player part of ``fide-2024`` (8.2, 7.1.4) for whole
arrays of players, as ``bulk`` does the rated players.

One entry per unrated player (length U); his pooled earlier results (length R) and his counted
games of the period from his side (length S) point at him by index. Nothing here loops over
players or games in Python. The per-player path (``Fide2024._initial``) is the reference; a
property test checks that both give the same results. Rounding is ``rounding``'s, on exact
integers: p and Ru are halves-up of fractions with the same denominator n + 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "INITIAL_BELOW_FLOOR",
    "INITIAL_NEW",
    "INITIAL_TOO_FEW",
    "InitialInput",
    "InitialOutput",
    "rate_initial_fide_2024",
]

I64 = NDArray[np.int64]
B = NDArray[np.bool_]

# The outcome of a first-rating attempt.
INITIAL_TOO_FEW = 0  # 7.1.4: fewer games against rated opponents than needed so far
INITIAL_BELOW_FLOOR = 1  # 7.1.4: a first rating under the floor is not published
INITIAL_NEW = 2  # 8.2.3: published


@dataclass(frozen=True, slots=True, eq=False)
class InitialInput:
    """The unrated players of a period, their pooled results and their counted games."""

    games_before: I64  # U: rated games completed before the period
    has_prior: B  # U: any pooled result at all, counted or not (8.2.1 applies without)
    prior_player: I64  # R: the player (index into U)
    prior_rating: I64  # R: the opponent's rating
    prior_score2: I64  # R: twice the score
    prior_end_ordinal: I64  # R: date.toordinal() of the tournament's end; 0 undated
    prior_forfeit: B  # R: never counts
    side_player: I64  # S: the player (index into U)
    side_tournament: I64  # S: the tournament's rank by (undated, end date, id): 8.2.1 "first"
    side_counts: B  # S: against a rated opponent (counts towards his rating)
    side_opponent_rating: I64  # S: any value where it does not count
    side_score2: I64  # S: twice his score
    since_ordinal: int  # 7.1.4: pooled results of tournaments ending before this day drop
    min_games: int  # 7.1.4: games against rated opponents needed
    initial_max: int  # 8.2.3: the cap
    floor: int  # 7.1.4: the lowest first rating published
    dp_by_hundredths: I64  # 8.1 table A: dp for p = 0.00 .. 1.00 (101 values)


@dataclass(frozen=True, slots=True, eq=False)
class InitialOutput:
    too_old: I64  # U: pooled results dropped as too old (7.1.4)
    first_tournament: I64  # U: rank of the scoreless first tournament (8.2.1), -1 none
    first_dropped: I64  # U: its counted games discarded
    games: I64  # U: counted games of this period (after 8.2.1)
    score2: I64  # U: twice his score over them
    n: I64  # U: games against rated opponents, pooled and of this period
    opponents_sum: I64  # U: the sum of their ratings
    w2: I64  # U: twice W, his score plus the two fictitious draws (8.2.2)
    p_hundredths: I64  # U: p = W / (n + 2), hundredths rounded half up (where n >= min_games)
    dp: I64  # U: table A's dp for p
    performance_rounded: I64  # U: Ru = Ra + dp rounded (8.2.3), before the cap
    rating: I64  # U: Ru capped (8.2.3)
    outcome: I64  # U: INITIAL_*


def _sum_by(index: I64, weights: I64, size: int) -> I64:
    # Integer sums through float64 bincount: exact while |sum| < 2**53.
    total = np.bincount(index, weights=weights.astype(np.float64), minlength=size)
    out: I64 = np.rint(total).astype(np.int64)
    return out


def rate_initial_fide_2024(data: InitialInput) -> InitialOutput:
    size = data.games_before.shape[0]

    # 7.1.4: pooled results (forfeits never count; undated ones are kept).
    prior_player = data.prior_player
    kept = ~data.prior_forfeit & (
        (data.prior_end_ordinal == 0) | (data.prior_end_ordinal >= data.since_ordinal)
    )
    old = ~data.prior_forfeit & ~kept
    too_old = np.bincount(prior_player[old], minlength=size).astype(np.int64)
    pooled_n = np.bincount(prior_player[kept], minlength=size).astype(np.int64)
    pooled_sum = _sum_by(prior_player[kept], data.prior_rating[kept], size)
    pooled_score2 = _sum_by(prior_player[kept], data.prior_score2[kept], size)

    # 8.2.1: a player with no earlier games nor pooled results who scores zero in the first
    # tournament of the period (all his games in it) has its results discarded.
    sp, st, counts = data.side_player, data.side_tournament, data.side_counts
    big = np.int64(np.iinfo(np.int64).max)
    first = np.full(size, big, dtype=np.int64)
    np.minimum.at(first, sp, st)
    in_first = st == first[sp]
    first_score2 = _sum_by(sp[in_first], data.side_score2[in_first], size)
    has_sides = first != big
    applies = ~data.has_prior & (data.games_before == 0) & has_sides & (first_score2 == 0)
    dropped = applies[sp] & in_first & counts
    first_tournament = np.where(applies, first, -1)
    first_dropped = np.bincount(sp[dropped], minlength=size).astype(np.int64)

    current = counts & ~dropped
    games = np.bincount(sp[current], minlength=size).astype(np.int64)
    score2 = _sum_by(sp[current], data.side_score2[current], size)
    n = pooled_n + games
    opponents_sum = pooled_sum + _sum_by(sp[current], data.side_opponent_rating[current], size)
    w2 = pooled_score2 + score2 + 2

    # 8.2.2: Ra = (sum + 2 x 1800) / (n + 2); W counts the two fictitious draws. 8.2.3:
    # Ru = Ra + dp(p), p = W / (n + 2) rounded to hundredths, Ru rounded; halves up, exact.
    d = n + 2
    ph = (w2 * 100 + d) // (2 * d)
    enough = n >= data.min_games
    dp = np.where(enough, data.dp_by_hundredths[np.clip(ph, 0, 100)], 0)
    ra2 = 2 * (opponents_sum + 2 * 1800)
    ru = (ra2 + 2 * dp * d + d) // (2 * d)
    rating = np.minimum(ru, data.initial_max)
    outcome = np.select(
        [~enough, rating < data.floor], [INITIAL_TOO_FEW, INITIAL_BELOW_FLOOR], default=INITIAL_NEW
    ).astype(np.int64)
    return InitialOutput(
        too_old=too_old,
        first_tournament=first_tournament,
        first_dropped=first_dropped,
        games=games,
        score2=score2,
        n=n,
        opponents_sum=opponents_sum,
        w2=w2,
        p_hundredths=ph,
        dp=dp,
        performance_rounded=ru,
        rating=rating,
        outcome=outcome,
    )
