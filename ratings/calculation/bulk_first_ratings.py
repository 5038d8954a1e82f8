"""The bulk path's first ratings: the players without a rating (first ratings, pooled results),
in a thread while the rated players are rated on arrays and written
(ratings.calculation.bulk_path): on arrays too when the regulation's bulk rater has a first-
ratings rater (bulk_first_ratings_arrays), else through the engine's first-ratings pass
(`rate_unrated`) on the small sub-period of their games."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
from django.db import connection

from periods.models import RatingPeriod
from rating_engine import types as et
from rating_engine.regulations.fide_2024 import REGULATION as FIDE_2024
from ratings.calculation.bulk_arrays import GameArrays, PlayerArrays
from ratings.calculation.bulk_first_ratings_arrays import first_ratings_on_arrays
from ratings.calculation.bulk_rows import STATUS_CODES
from ratings.calculation.draft import result_row
from ratings.calculation.states import (
    PlayerState,
    period_tournaments,
    player_input,
    read_states_for,
)
from ratings.models import CalculationRun
from tournaments.kinds import tournament_is_national_championship

#: The first ratings' draft rows and their games left out, when the thread has finished.
FirstRatings = Future[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]


def first_ratings_start(
    *,
    run: CalculationRun,
    players: PlayerArrays,
    games: GameArrays,
    unrated_ids: set[int],
    last: Any,
) -> FirstRatings | None:
    """Start the first-ratings pass in a thread (none without unrated players or games with an
    unrated side)."""
    if not (unrated_ids or games.small.any()):
        return None
    period = run.period
    sub_idx = np.nonzero(games.small)[0]
    # Inside a transaction (tests) the thread could not see its rows: read them here.
    early = (
        first_ratings_read(period=period, unrated_ids=unrated_ids)
        if connection.in_atomic_block
        else None
    )
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="first-ratings")
    engine_future = executor.submit(
        first_ratings_rate,
        run=run,
        players=players,
        games=games,
        unrated_ids=unrated_ids,
        sub_idx=sub_idx,
        last=last,
        early=early,
    )
    executor.shutdown(wait=False)
    return engine_future


def first_ratings_read(
    *, period: RatingPeriod, unrated_ids: set[int]
) -> tuple[dict[int, PlayerState], dict[int, Any]]:
    """The unrated players' states and the period's rated tournaments."""
    return read_states_for(period=period, ids=unrated_ids), period_tournaments(period=period)


def first_ratings_rate(
    *,
    run: CalculationRun,
    players: PlayerArrays,
    games: GameArrays,
    unrated_ids: set[int],
    sub_idx: Any,
    last: Any,
    early: tuple[dict[int, PlayerState], dict[int, Any]] | None,
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Runs in a thread while the rated rows are packed and written: reads the unrated
    players' states (on the thread's own connection), builds their sub-period, rates it."""
    period = run.period
    try:
        states, tournaments = (
            early
            if early is not None
            else first_ratings_read(period=period, unrated_ids=unrated_ids)
        )
    finally:
        if early is None:
            connection.close()  # this thread's connection
    bulk = FIDE_2024.bulk
    if bulk is not None and bulk.first_ratings is not None:
        # On arrays, as the rated players (bulk_first_ratings_arrays).
        result, pooled, excl = first_ratings_on_arrays(
            period=period,
            players=players,
            games=games,
            unrated_ids=unrated_ids,
            sub_idx=sub_idx,
            states=states,
            tournaments=tournaments,
        )
    else:
        result, pooled, excl = _first_ratings_per_player(
            period=period,
            players=players,
            games=games,
            sub_idx=sub_idx,
            states=states,
            tournaments=tournaments,
            unrated_ids=unrated_ids,
        )
    rows = first_ratings_rows(
        run=run,
        result=result,
        players=players,
        states=states,
        unrated_ids=unrated_ids,
        last=last,
        pooled=pooled,
    )
    return rows, excl


def _first_ratings_per_player(
    *,
    period: Any,
    players: Any,
    games: Any,
    sub_idx: Any,
    states: Any,
    tournaments: Any,
    unrated_ids: Any,
) -> tuple[Any, Any, list[tuple[Any, ...]]]:
    """The engine's per-player pass (the reference of the arrays' one) on the sub-period of
    these games: its result, the pooled earlier results, the games it left out."""
    opponents = rated_opponents(players=players, games=games, sub_idx=sub_idx, states=states)
    games_by_t, extra = sub_period_games(games=games, sub_idx=sub_idx)
    sub = sub_period_build(
        period=period,
        states=states,
        opponents=opponents,
        extra=extra,
        games_by_t=games_by_t,
        tournaments=tournaments,
    )
    # Rated players are only opponents in this sub-period (their games against unrated
    # players do not count for them, 8.3.1): no results are built for them.
    result = FIDE_2024.rate_unrated(sub)
    pooled = pooled_results(
        sub=sub, games_by_t=games_by_t, tournaments=tournaments, unrated_ids=unrated_ids
    )
    return result, pooled, first_ratings_excluded(result=result)


def rated_opponents(
    *,
    players: PlayerArrays,
    games: GameArrays,
    sub_idx: Any,
    states: dict[int, PlayerState],
) -> dict[str, et.PlayerInput]:
    """Full state for the unrated players; their rated opponents only need what the engine
    reads of an opponent (rating, games), already in the arrays."""
    P, rating, rated = players.P, players.rating, players.rated
    since = P[:, 9]
    gw, gb, wi, bi = games.gw, games.gb, games.wi, games.bi
    w_linked, b_linked = games.w_linked, games.b_linked
    opponents: dict[str, et.PlayerInput] = {}
    for g in sub_idx.tolist():
        for x, i, linked in ((gw[g], wi[g], w_linked[g]), (gb[g], bi[g], b_linked[g])):
            if linked and int(x) not in states and str(x) not in opponents:
                opponents[str(x)] = et.PlayerInput(
                    id=str(x),
                    rating=int(rating[i]) if rated[i] else None,
                    games=int(P[i, 2]),
                    status=STATUS_CODES[int(P[i, 8])],
                    rated_since=dt.date.fromordinal(int(since[i]))
                    if rated[i] and since[i]
                    else None,
                )
    return opponents


def sub_period_games(
    *, games: GameArrays, sub_idx: Any
) -> tuple[dict[int, list[et.Game]], dict[str, et.PlayerInput]]:
    """The games of the sub-period by tournament, and the players outside the registry."""
    gw, gb, ws2, gt, rnd = games.gw, games.gb, games.ws2, games.gt, games.rnd
    games_by_t: dict[int, list[et.Game]] = defaultdict(list)
    extra: dict[str, et.PlayerInput] = {}
    for g in sub_idx.tolist():
        keys = []
        for x in (gw[g], gb[g]):
            k = str(x) if x > 0 else f"tp{-x}"
            if x <= 0 and k not in extra:
                extra[k] = et.PlayerInput(id=k, rating=None)
            keys.append(k)
        games_by_t[int(gt[g])].append(
            et.Game(
                white=keys[0],
                black=keys[1],
                result={2: "1-0", 1: "1/2-1/2", 0: "0-1"}[int(ws2[g])],
                round=int(rnd[g]),
            )
        )
    return games_by_t, extra


def sub_period_build(
    *,
    period: RatingPeriod,
    states: dict[int, PlayerState],
    opponents: dict[str, et.PlayerInput],
    extra: dict[str, et.PlayerInput],
    games_by_t: dict[int, list[et.Game]],
    tournaments: dict[int, Any],
) -> et.PeriodInput:
    """The sub-period of the unrated players' games as the engine's input."""
    system = period.system
    sub = et.PeriodInput(
        ruleset=FIDE_2024.id,
        start=period.start,
        end=period.end,
        parameters=dict(system.parameters or {}),
        players=tuple(player_input(state=s) for s in states.values())
        + tuple(opponents.values())
        + tuple(extra.values()),
        tournaments=tuple(
            et.TournamentInput(
                id=str(t),
                system=tournaments[t].system,
                end_date=tournaments[t].end_date,
                start_date=tournaments[t].start_date,
                rate_of_play=system.rate_of_play,
                national_championship=tournament_is_national_championship(
                    tournament=tournaments[t], ruleset=FIDE_2024.id
                ),
                match_length=tournaments[t].rounds if tournaments[t].system == "match" else None,
                kind=tournaments[t].kind,
                games=tuple(gs),
            )
            for t, gs in games_by_t.items()
            if t in tournaments
        ),
    )
    return sub


def pooled_results(
    *,
    sub: et.PeriodInput,
    games_by_t: dict[int, list[et.Game]],
    tournaments: dict[int, Any],
    unrated_ids: set[int],
) -> dict[int, list[dict[str, Any]]]:
    """The results of each unrated player against rated opponents, pooled towards his first
    rating."""
    pooled: dict[int, list[dict[str, Any]]] = defaultdict(list)
    ratings_of = {p.id: p.rating for p in sub.players}
    for t, gs in games_by_t.items():
        end = tournaments[t].end_date.isoformat()
        for game in gs:
            ws, bs = et.RESULTS[game.result]
            for me, opp, score in (
                (game.white, game.black, ws),
                (game.black, game.white, bs),
            ):
                if me.isdigit() and int(me) in unrated_ids and ratings_of.get(opp) is not None:
                    pooled[int(me)].append(
                        {
                            "opponent_rating": ratings_of[opp],
                            "score": score,
                            "tournament": str(t),
                            "end_date": end,
                        }
                    )
    return pooled


def first_ratings_rows(
    *,
    run: CalculationRun,
    result: et.PeriodResult,
    players: PlayerArrays,
    states: dict[int, PlayerState],
    unrated_ids: set[int],
    last: Any,
    pooled: dict[int, list[dict[str, Any]]],
) -> list[tuple[Any, ...]]:
    """The draft rows of the unrated players."""
    P, pid = players.P, players.pid
    rows = []
    for r in result.players:
        if r.id.isdigit() and int(r.id) in unrated_ids:
            i = int(np.searchsorted(pid, int(r.id)))  # pid is sorted
            day = dt.date.fromordinal(int(last[i])) if last[i] > P[i, 6] else None
            rows.append(
                result_row(
                    run=run,
                    state=states[int(r.id)],
                    result=r,
                    last_day=day,
                    pooled=pooled.get(int(r.id), []),
                )
            )
    return rows


def first_ratings_excluded(*, result: et.PeriodResult) -> list[tuple[Any, ...]]:
    """The games the first-ratings pass left out."""
    excl = []
    for e in result.excluded:
        excl.append(
            (
                int(e.tournament),
                e.white,
                e.black,
                e.round,
                e.code,
                e.reason[:200],
                e.article,
            )
        )
    return excl
