"""Any regulation through the engine's `rate_period`: the whole period as frozen inputs."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import replace
from typing import Any

import numpy as np
from django.db import connection
from django.utils.translation import gettext_noop

from rating_engine import rate_period
from rating_engine import types as et
from ratings.calculation.draft import draft_write, result_row, tournament_rows
from ratings.calculation.progress import run_progress_set
from ratings.calculation.states import (
    GAMES_SQL,
    RESULT,
    games_last_year,
    period_tournaments,
    player_input,
    player_key,
    read_states,
)
from ratings.models import CalculationRun


def calculate_engine(run: CalculationRun) -> None:
    """Any regulation through `rate_period`."""
    period = run.period
    system = period.system
    states = read_states(period)
    run_progress_set(run.pk, 20, gettext_noop("Reading games"))
    tournaments = period_tournaments(period)
    games_by_t: dict[int, list[et.Game]] = defaultdict(list)
    extra: dict[str, et.PlayerInput] = {}
    pooled: dict[int, list[dict[str, Any]]] = defaultdict(list)
    last_day: dict[int, dt.date] = {}
    with connection.cursor() as cursor:
        cursor.execute(GAMES_SQL, [period.pk])
        rows = cursor.fetchall()
    for t_id, rnd, kind, result, w_tp, w_pid, _w_r, b_tp, b_pid, _b_r in rows:
        if t_id not in tournaments:
            continue
        wk, bk = player_key(w_tp, w_pid), player_key(b_tp, b_pid)
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
    players = [player_input(s) for s in states.values()] + list(extra.values())
    ratings = {p.id: p.rating for p in players}
    for t_id, games in games_by_t.items():
        end = tournaments[t_id].end_date
        for g in games:
            if g.forfeit or not g.played:
                continue
            ws, bs = et.RESULTS[g.result]
            for me, opp, score in ((g.white, g.black, ws), (g.black, g.white, bs)):
                if me.isdigit():
                    pid = int(me)
                    last_day[pid] = max(last_day.get(pid, end), end)
                    if ratings.get(me) is None and ratings.get(opp) is not None:
                        pooled[pid].append(
                            {
                                "opponent_rating": ratings[opp],
                                "score": score,
                                "tournament": str(t_id),
                                "end_date": end.isoformat(),
                            }
                        )
    period_input = et.PeriodInput(
        ruleset=system.ruleset,
        start=period.start,
        end=period.end,
        parameters=dict(system.parameters or {}),
        players=tuple(players),
        tournaments=tuple(
            et.TournamentInput(
                id=str(t.pk),
                system=t.system,
                end_date=t.end_date,
                start_date=t.start_date,
                rate_of_play=system.rate_of_play,
                national_championship=t.national_championship,
                match_length=t.rounds if t.system == "match" else None,
                kind=t.category,
                norm_event=t.norm_event,
                games=tuple(games_by_t.get(t.pk, ())),
            )
            for t in sorted(tournaments.values(), key=lambda t: (t.end_date, t.pk))
        ),
    )
    if system.ruleset in ("fide-2000", "feda-1996"):
        year = games_last_year(period)
        if year:
            period_input = replace(
                period_input,
                players=tuple(
                    replace(p, games_last_12_months=year.get(int(p.id), 0)) if p.id.isdigit() else p
                    for p in period_input.players
                ),
            )
    run_progress_set(run.pk, 40, gettext_noop("Calculating"), player_count=len(states))
    result = rate_period(period_input)
    run_progress_set(run.pk, 60, gettext_noop("Writing the draft"))
    results = [
        result_row(run, states[int(r.id)], r, last_day.get(int(r.id)), pooled.get(int(r.id), []))
        for r in result.players
        if r.id.isdigit() and int(r.id) in states
    ]
    lines = [line for line in result.games if line.player.isdigit() and int(line.player) in states]
    packed = tournament_rows(
        np.array([int(x.tournament) for x in lines], dtype=np.int64),
        np.array([int(x.player) for x in lines], dtype=np.int64),
        np.array(
            [int(x.opponent) if x.opponent.isdigit() else -int(x.opponent[2:]) for x in lines],
            dtype=np.int64,
        ),
        np.array(
            [-1 if x.opponent_rating is None else x.opponent_rating for x in lines], dtype=np.int64
        ),
        np.array([round(x.score * 2) for x in lines], dtype=np.int64),
        np.array([x.k for x in lines], dtype=np.int64),
        np.array([x.expected for x in lines], dtype=np.float64),
        np.array([x.change for x in lines], dtype=np.float64),
    )
    excluded_rows = [
        (int(e.tournament), e.white, e.black, e.round, e.code, e.reason[:200], e.article)
        for e in result.excluded
    ]
    draft_write(
        run,
        results,
        packed,
        excluded_rows,
        ruleset=result.ruleset,
        regulation_version=result.regulation_version,
        tournaments=list(tournaments),
        line_count=len(lines),
    )
