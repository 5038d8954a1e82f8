"""Any regulation through the engine's `rate_period`: the whole period as frozen inputs.

`calculate_engine` reads as its steps: read the states and the games, build the period's
input, rate it, and write the draft."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import replace
from decimal import Decimal
from typing import Any

import numpy as np
from django.db import connection
from django.utils.translation import gettext_noop

from periods.models import RatingPeriod
from rating_engine import rate_period
from rating_engine import types as et
from rating_engine.registry import get_regulation
from rating_engine.rounding import round_half_up
from ratings.calculation.calibration import calibration_prepare, calibration_store
from ratings.calculation.competitions import competition_inputs_add
from ratings.calculation.draft import draft_write, result_row, tournament_rows
from ratings.calculation.lists_in_force import (
    list_ratings_read,
    lists_in_force,
    lists_in_force_json,
)
from ratings.calculation.period_games import PERIOD_GAMES_PARAMS
from ratings.calculation.progress import run_progress_set
from ratings.calculation.rulesets import tournaments_ruleset_in_force
from ratings.calculation.states import (
    GAMES_OF_TOURNAMENTS_SQL,
    GAMES_SQL,
    RESULT,
    PlayerState,
    games_last_year,
    games_left_out_rows,
    period_tournaments,
    player_input,
    player_key,
    read_states,
)
from ratings.differentials.selectors import differential_parameters
from ratings.models import CalculationRun
from tournaments.kinds import tournament_is_national_championship


def calculate_engine(*, run: CalculationRun) -> None:
    """Any regulation through `rate_period`."""
    period = run.period
    states = read_states(period=period)
    run_progress_set(run_id=run.pk, progress=20, phase=gettext_noop("Reading games"))
    tournaments = period_tournaments(period=period)
    games_by_t, extra = games_read(period=period, tournaments=tournaments)
    # feda-1996 8.11: each tournament with the list in force on its start date.
    in_force = lists_in_force(period=period, tournaments=tournaments)
    list_ratings = list_ratings_read(in_force=in_force)
    players = [player_input(state=s) for s in states.values()] + list(extra.values())
    # cnxc-2000 7.3: the external list in force the day after the period, per player.
    players, calibration = calibration_prepare(period=period, players=players)
    last_day, pooled = last_days_and_pooled(
        players=players, games_by_t=games_by_t, tournaments=tournaments, list_ratings=list_ratings
    )
    period_input = period_input_build(
        period=period,
        players=players,
        games_by_t=games_by_t,
        tournaments=tournaments,
        list_ratings=list_ratings,
    )
    if get_regulation(period_input.ruleset).inputs.games_last_12_months:
        period_input = games_last_year_add(period=period, period_input=period_input)
    run_progress_set(
        run_id=run.pk, progress=40, phase=gettext_noop("Calculating"), player_count=len(states)
    )
    result = rate_period(period_input)
    pooled_round_robins_add(
        pooled=pooled,
        result=result,
        players=players,
        games_by_t=games_by_t,
        tournaments=tournaments,
    )
    run_progress_set(run_id=run.pk, progress=60, phase=gettext_noop("Writing the draft"))
    CalculationRun.objects.filter(pk=run.pk).update(
        lists_in_force=lists_in_force_json(in_force=in_force)
    )
    draft_rows_write(
        run=run,
        states=states,
        result=result,
        last_day=last_day,
        pooled=pooled,
        tournaments=tournaments,
    )
    calibration_store(run=run, plan=calibration, result=result)


def games_read(
    *, period: RatingPeriod, tournaments: dict[int, Any], only: bool = False
) -> tuple[dict[int, list[et.Game]], dict[str, et.PlayerInput]]:
    """The games of the period's rated tournaments, by tournament, and the players outside the
    registry. `only`: read the games of `tournaments` alone (a live rating reads a few
    tournaments of a period of 300,000 games: ratings.live), not the whole period's."""
    games_by_t: dict[int, list[et.Game]] = defaultdict(list)
    extra: dict[str, et.PlayerInput] = {}
    with connection.cursor() as cursor:
        if only:
            cursor.execute(
                GAMES_OF_TOURNAMENTS_SQL,
                [period.pk] * PERIOD_GAMES_PARAMS + [list(tournaments)],
            )
        else:
            cursor.execute(GAMES_SQL, [period.pk] * PERIOD_GAMES_PARAMS)
        rows = cursor.fetchall()
    for t_id, rnd, kind, result, w_tp, w_pid, _w_r, b_tp, b_pid, _b_r in rows:
        if t_id not in tournaments:
            continue
        wk, bk = player_key(tp_id=w_tp, player_id=w_pid), player_key(tp_id=b_tp, player_id=b_pid)
        for k, pid in ((wk, w_pid), (bk, b_pid)):
            if pid is None and k not in extra:
                # Not in the registry: unrated in this system, never written back.
                extra[k] = et.PlayerInput(id=k, rating=None)
        games_by_t[t_id].append(
            et.Game(
                white=wk,
                black=bk,
                result=RESULT[result],
                forfeit=kind == "forfeit",
                round=rnd,
                played=kind in ("played", "forfeit"),
            )
        )
    return games_by_t, extra


def last_days_and_pooled(
    *,
    players: list[et.PlayerInput],
    games_by_t: dict[int, list[et.Game]],
    tournaments: dict[int, Any],
    list_ratings: dict[int, tuple[et.ListRating, ...]] | None = None,
) -> tuple[dict[int, dt.date], dict[int, list[dict[str, Any]]]]:
    """Each registry player's last game day in the period, and each unrated player's results
    against rated opponents (pooled towards a first rating); an opponent's rating from the
    list the tournament is rated with (`list_ratings`, feda-1996 8.11) when it has one."""
    pooled: dict[int, list[dict[str, Any]]] = defaultdict(list)
    last_day: dict[int, dt.date] = {}
    start_ratings = {p.id: p.rating for p in players}
    for t_id, games in games_by_t.items():
        end = tournaments[t_id].end_date
        listed = (list_ratings or {}).get(t_id)
        ratings = start_ratings if listed is None else {r.id: r.rating for r in listed}
        for g in games:
            if g.forfeit or not g.played:
                continue
            ws, bs = et.RESULTS[g.result]
            for me, opp, score in ((g.white, g.black, ws), (g.black, g.white, bs)):
                if me.isdigit():
                    pid = int(me)
                    last_day[pid] = max(last_day.get(pid, end), end)
                    if start_ratings.get(me) is None and ratings.get(opp) is not None:
                        pooled[pid].append(
                            {
                                "opponent_rating": ratings[opp],
                                "score": score,
                                "tournament": str(t_id),
                                "end_date": end.isoformat(),
                            }
                        )
    return last_day, pooled


#: The engine's note of a round robin's tournament average Ra when the field has unrated
#: players (fide-2000 / feda-1996 10.21b / 9.21b), with its ``tournament`` and ``ra``.
ROUND_ROBIN_AVERAGE_NOTE = "tournament_average"


def pooled_round_robins_add(
    *,
    pooled: dict[int, list[dict[str, Any]]],
    result: et.PeriodResult,
    players: list[et.PlayerInput],
    games_by_t: dict[int, list[et.Game]],
    tournaments: dict[int, Any],
) -> None:
    """Add to each unrated player's pooled results his games against unrated opponents in a
    round robin whose average Ra rated the whole field, at that Ra (rounded half up).

    fide-2000 10.1 / feda-1996 9.1 as amended (RULESETS.md, "Decided readings"): in such a
    round robin his performance is computed from all his games there (Ru = Ra + dp(p) x
    n/(n+1), 10.21b / 10.25), so his 0 % / 100 % test reads them all. When a later period
    recomputes that tournament's Ru from the pooled results (as in a Swiss, from the recorded
    ratings: the engine's docstring), the unrated opponents count at the Ra he faced; without
    them a player with 0 of 4 against the rated players and 1 1/2 of 5 against the unrated ones
    would lose the performance this period gave him. Ra is read from the engine's note (two
    decimals) and rounded half up (rating_engine.rounding): the ratings are whole numbers."""
    ratings = {p.id: p.rating for p in players}
    for r in result.players:
        if not r.id.isdigit():
            continue
        for note in r.notes:
            if note.code != ROUND_ROBIN_AVERAGE_NOTE:
                continue
            t_id = int(str(note.params["tournament"]))
            ra = round_half_up(Decimal(str(note.params["ra"])))
            end = tournaments[t_id].end_date
            for g in games_by_t.get(t_id, ()):
                if g.forfeit or not g.played or r.id not in (g.white, g.black):
                    continue
                opp = g.black if g.white == r.id else g.white
                if ratings.get(opp) is not None:
                    continue  # already pooled at his rating (last_days_and_pooled)
                ws, bs = et.RESULTS[g.result]
                pooled[int(r.id)].append(
                    {
                        "opponent_rating": ra,
                        "score": ws if g.white == r.id else bs,
                        "tournament": str(t_id),
                        "end_date": end.isoformat(),
                    }
                )


def period_input_build(
    *,
    period: RatingPeriod,
    players: list[et.PlayerInput],
    games_by_t: dict[int, list[et.Game]],
    tournaments: dict[int, Any],
    list_ratings: dict[int, tuple[et.ListRating, ...]] | None = None,
) -> et.PeriodInput:
    """The whole period as the engine's input, its tournaments in the order they ended, with
    what the regulation reads from each beyond its games (ratings.calculation.competitions).
    The regulation set is the one the tournaments' start days fall under (fide-2024 0.1,
    fide-2000 0.1.1, cnxc-2000 8.1; ratings.calculation.rulesets: refused when two)."""
    system = period.system
    in_force = tournaments_ruleset_in_force(
        system=system, tournaments=tournaments.values(), fallback_day=period.start
    )
    period_input = et.PeriodInput(
        ruleset=in_force.ruleset,
        start=period.start,
        end=period.end,
        # fce 9.5: the published differential in force, else the system's typed one.
        parameters=differential_parameters(system=system, end=period.end, in_force=in_force),
        players=tuple(players),
        tournaments=tuple(
            et.TournamentInput(
                id=str(t.pk),
                system=t.system,
                end_date=t.end_date,
                start_date=t.start_date,
                rate_of_play=system.rate_of_play,
                national_championship=tournament_is_national_championship(
                    tournament=t, ruleset=in_force.ruleset
                ),
                match_length=t.rounds if t.system == "match" else None,
                kind=t.kind,  # the regulation's kind (tournaments/kinds.py), not free text
                norm_event=t.norm_event,
                games=tuple(games_by_t.get(t.pk, ())),
                # feda-1996 8.11: the list in force on its start date, if not the period's.
                list_ratings=(list_ratings or {}).get(t.pk),
            )
            for t in sorted(tournaments.values(), key=lambda t: (t.end_date, t.pk))
        ),
    )
    competitions, all_players = competition_inputs_add(
        ruleset=in_force.ruleset,
        tournaments=tournaments,
        period_tournaments=period_input.tournaments,
        players=players,
    )
    return replace(period_input, tournaments=competitions, players=tuple(all_players))


def games_last_year_add(
    *, period: RatingPeriod, period_input: et.PeriodInput, ids: list[int] | None = None
) -> et.PeriodInput:
    """The registry players' rated games of the 12 months before the period, for regulations
    that count games per year (`ids`: only these players are in the input)."""
    year = games_last_year(period=period, ids=ids)
    if year:
        period_input = replace(
            period_input,
            players=tuple(
                replace(p, games_last_12_months=year.get(int(p.id), 0)) if p.id.isdigit() else p
                for p in period_input.players
            ),
        )
    return period_input


def draft_rows_write(
    *,
    run: CalculationRun,
    states: dict[int, PlayerState],
    result: et.PeriodResult,
    last_day: dict[int, dt.date],
    pooled: dict[int, list[dict[str, Any]]],
    tournaments: dict[int, Any],
) -> None:
    """The draft: a row per registry player, the game lines packed per tournament, the games
    left out."""
    results = [
        result_row(
            run=run,
            state=states[int(r.id)],
            result=r,
            last_day=last_day.get(int(r.id)),
            pooled=pooled.get(int(r.id), []),
        )
        for r in result.players
        if r.id.isdigit() and int(r.id) in states
    ]
    lines = [line for line in result.games if line.player.isdigit() and int(line.player) in states]
    packed = game_lines_pack(lines=lines)
    excluded_rows = [
        (int(e.tournament), e.white, e.black, e.round, e.code, e.reason[:200], e.article)
        for e in result.excluded
    ] + games_left_out_rows(period=run.period)
    draft_write(
        run=run,
        results=results,
        tournament_rows=packed,
        excluded_rows=excluded_rows,
        ruleset=result.ruleset,
        regulation_version=result.regulation_version,
        tournaments=list(tournaments),
        line_count=len(lines),
    )


def game_lines_pack(*, lines: list[et.GameLine]) -> list[tuple[Any, ...]]:
    """The registry players' game lines, packed per tournament."""
    packed = tournament_rows(
        t=np.array([int(x.tournament) for x in lines], dtype=np.int64),
        player=np.array([int(x.player) for x in lines], dtype=np.int64),
        opponent=np.array(
            [int(x.opponent) if x.opponent.isdigit() else -int(x.opponent[2:]) for x in lines],
            dtype=np.int64,
        ),
        opponent_rating=np.array(
            [-1 if x.opponent_rating is None else x.opponent_rating for x in lines], dtype=np.int64
        ),
        score2=np.array([round(x.score * 2) for x in lines], dtype=np.int64),
        k=np.array([x.k for x in lines], dtype=np.int64),
        expected=np.array([x.expected for x in lines], dtype=np.float64),
        change=np.array([x.change for x in lines], dtype=np.float64),
    )
    return packed
