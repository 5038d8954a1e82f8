"""The bulk path's first ratings on arrays (issue 27 item 3): the unrated players' pass
(pooled earlier results, 8.2.1, first-performance rules, the cap and the floor) through the
regulation's array rater (`BulkRater.first_ratings`, rating_engine.bulk_initial) on the games
already matched to the players' rows, instead of the engine's per-player pass on a sub-period
of engine objects (ratings.calculation.bulk_first_ratings, still the path of a regulation
without one). The draft rows are the same: the same results, notes, pooled results and games
left out (tests/rating_engine/test_first_ratings_arrays.py compares the two in the engine,
tests/ratings the two database paths)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

import numpy as np

from periods.models import RatingPeriod
from rating_engine import types as et
from rating_engine.bulk_initial import InitialInput
from rating_engine.regulations.fide_2024 import REGULATION as FIDE_2024
from ratings.calculation.bulk_arrays import GameArrays, PlayerArrays
from ratings.calculation.states import PlayerState, as_date

#: Twice white's score (the games query's column) as each side's points.
POINTS = {2: (1.0, 0.0), 1: (0.5, 0.5), 0: (0.0, 1.0)}


def first_ratings_on_arrays(
    *,
    period: RatingPeriod,
    players: PlayerArrays,
    games: GameArrays,
    unrated_ids: set[int],
    sub_idx: Any,
    states: dict[int, PlayerState],
    tournaments: dict[int, Any],
) -> tuple[et.PeriodResult, dict[int, list[dict[str, Any]]], list[tuple[Any, ...]]]:
    """The unrated players' results (as `rate_unrated` gives them), the results each pools
    towards his first rating, and the games with an unrated player left out (6.1, 8.3.1) as
    draft exclusion rows."""
    bulk = FIDE_2024.bulk
    assert bulk is not None and bulk.first_ratings is not None
    # The same parameters as the per-player pass's sub-period (bulk_first_ratings).
    params = FIDE_2024.parameters_from(dict(period.system.parameters or {}))
    uids = np.array(sorted(unrated_ids), dtype=np.int64)

    # The games in the sub-period's order: by tournament as first met, then as read.
    idx = np.asarray(sub_idx, dtype=np.int64)
    idx = idx[np.isin(games.gt[idx], np.array(list(tournaments), dtype=np.int64))]
    gt = games.gt[idx]
    _u, first_at, t_of = np.unique(gt, return_index=True, return_inverse=True)
    idx = idx[np.lexsort((np.arange(len(idx)), first_at[t_of]))]
    gt, gw, gb = games.gt[idx], games.gw[idx], games.gb[idx]
    wi, bi, ws2, gend = games.wi[idx], games.bi[idx], games.ws2[idx], games.gend[idx]
    rated, rating, since = players.rated, players.rating, players.P[:, 9]
    w_rated = games.w_linked[idx] & rated[wi]
    b_rated = games.b_linked[idx] & rated[bi]
    # 8.2.4: a rated player whose first list came after the tournament ended is unrated for
    # his opponents there.
    w_visible = w_rated & ~((since[wi] > 0) & (gend < since[wi]))
    b_visible = b_rated & ~((since[bi] > 0) & (gend < since[bi]))
    tids = sorted(set(gt.tolist()))
    is_match = np.isin(gt, [t for t in tids if tournaments[t].system == "match"])
    match_6_1 = is_match  # 6.1 comes before 6.2: a match with an unrated player
    none_8_3_1 = ~is_match & ~(w_visible | b_visible)
    counted = ~(match_6_1 | none_8_3_1)

    # 8.2.1's "first tournament": by end date (undated last), then id, as the engine's key.
    ranked = sorted(
        tids,
        key=lambda t: (
            tournaments[t].end_date is None,
            tournaments[t].end_date or dt.date.max,
            str(t),
        ),
    )
    rank_of = np.zeros(len(tids), dtype=np.int64)
    rank_of[np.searchsorted(tids, ranked)] = np.arange(len(ranked))
    t_rank = rank_of[np.searchsorted(tids, gt)] if len(tids) else gt

    w_unrated = games.w_linked[idx] & ~rated[wi] & np.isin(gw, uids)
    b_unrated = games.b_linked[idx] & ~rated[bi] & np.isin(gb, uids)
    sw, sb = counted & w_unrated, counted & b_unrated
    side_player = np.concatenate([np.searchsorted(uids, gw[sw]), np.searchsorted(uids, gb[sb])])
    prior = [
        (u, int(r["opponent_rating"]), round(float(r["score"]) * 2), _ordinal(r), _forfeit(r))
        for u, pid in enumerate(uids.tolist())
        for r in states[pid].prior_results
    ]
    pr = np.array(prior, dtype=np.int64).reshape(-1, 5)
    out = bulk.first_ratings(
        InitialInput(
            games_before=np.array([states[p].games for p in uids.tolist()], dtype=np.int64),
            has_prior=np.array(
                [bool(states[p].prior_results) for p in uids.tolist()], dtype=np.bool_
            ),
            prior_player=pr[:, 0],
            prior_rating=pr[:, 1],
            prior_score2=pr[:, 2],
            prior_end_ordinal=pr[:, 3],
            prior_forfeit=pr[:, 4] == 1,
            side_player=side_player,
            side_tournament=np.concatenate([t_rank[sw], t_rank[sb]]),
            side_counts=np.concatenate([b_visible[sw], w_visible[sb]]),
            side_opponent_rating=np.concatenate([rating[bi][sw], rating[wi][sb]]),
            side_score2=np.concatenate([ws2[sw], 2 - ws2[sb]]),
            since_ordinal=FIDE_2024.initial_window_start(period.end, params).toordinal(),
            min_games=params.initial_min_games,
            initial_max=params.initial_max,
            floor=params.floor,
            dp_by_hundredths=FIDE_2024.initial_dp_table(),
        )
    )
    results = FIDE_2024.initial_results(
        out,
        ids=[str(p) for p in uids.tolist()],
        tournaments=[str(t) for t in ranked],
        period_end=period.end,
        params=params,
    )
    result = FIDE_2024.period_result(results, (), ())

    # Pooled towards a first rating: every game of the sub-period against a rated opponent
    # (as the per-player pass's pooled_results), kept only for a player still unrated.
    still = np.array(sorted(int(r.id) for r in results if r.status == "unrated"), dtype=np.int64)
    pooled: dict[int, list[dict[str, Any]]] = defaultdict(list)
    pw = w_unrated & b_rated & np.isin(gw, still)
    pb = b_unrated & w_rated & np.isin(gb, still)
    ends = {t: tournaments[t].end_date.isoformat() for t in tids}
    for g in np.nonzero(pw | pb)[0].tolist():
        white_points, black_points = POINTS[int(ws2[g])]
        t = int(gt[g])
        for on, me, opp_row, points in (
            (pw[g], gw[g], bi[g], white_points),
            (pb[g], gb[g], wi[g], black_points),
        ):
            if on:
                pooled[int(me)].append(
                    {
                        "opponent_rating": int(rating[opp_row]),
                        "score": points,
                        "tournament": str(t),
                        "end_date": ends[t],
                    }
                )

    excluded_rows = []
    match_decision, none_decision = FIDE_2024.unrated_exclusions()
    rnd = games.rnd[idx]
    for g in np.nonzero(~counted)[0].tolist():
        decision = match_decision if match_6_1[g] else none_decision
        excluded_rows.append(
            (
                int(gt[g]),
                _key(int(gw[g])),
                _key(int(gb[g])),
                int(rnd[g]),
                decision.code,
                decision.message[:200],
                decision.article,
            )
        )
    return result, pooled, excluded_rows


def _key(x: int) -> str:
    """A game side's key: the registry player's id, or `tp<id>` for one outside it."""
    return str(x) if x > 0 else f"tp{-x}"


def _ordinal(result: dict[str, Any]) -> int:
    end = as_date(value=result.get("end_date"))
    return end.toordinal() if end is not None else 0


def _forfeit(result: dict[str, Any]) -> int:
    return 1 if result.get("forfeit", False) else 0
