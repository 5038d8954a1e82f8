"""fide-2024 at federation scale: the rated players on whole arrays (rating_engine.bulk), the
players without a rating through the engine's first-ratings pass on the few games they
played; reads and writes are COPY."""

from __future__ import annotations

import datetime as dt
import itertools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import numpy as np
from django.db import connection
from django.utils.translation import gettext_noop

from core.pg.copy import copy_out_ints, copy_text
from core.timing import StepTimer
from rating_engine import ENGINE_VERSION
from rating_engine import types as et
from rating_engine.bulk import BulkInput, rate_rated_fide_2024
from rating_engine.registry import get_regulation
from rating_engine.regulations.fide_2024 import REGULATION as FIDE_2024
from ratings.calculation.bulk_rows import STATUS_CODES, bulk_result_lines, bulk_tournament_rows
from ratings.calculation.draft import draft_write, result_row
from ratings.calculation.progress import run_progress_set
from ratings.calculation.states import (
    STATE_FROM,
    period_tournaments,
    player_input,
    published_run,
    read_states_for,
    state_query,
    state_source,
)
from ratings.models import CalculationRun, DraftResult

log = logging.getLogger(__name__)


def read_in_thread(read: Callable[..., Any], *args: Any) -> Any:
    """Start `read(*args)` in a thread with its own database connection; returns a future."""

    def target() -> Any:
        try:
            return read(*args)
        finally:
            connection.close()  # this thread's connection

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="read")
    future = executor.submit(target)
    executor.shutdown(wait=False)
    return future


def calculate_bulk(run: CalculationRun) -> None:
    """fide-2024 on whole arrays (rating_engine.bulk) for the rated players; players without a
    rating (first ratings, pooled results) and players outside the registry go through
    the engine's first-ratings pass (`rate_unrated`) on the small sub-period of their games.
    Reads and writes are COPY."""
    period = run.period
    system = period.system
    params = get_regulation("fide-2024").validate_parameters(system.parameters or {})
    _sql, sparams = state_query(period)
    # The state query with integer columns only (ordinals for dates, codes for statuses).
    src = state_source(period)
    year = period.start.year
    int_sql = (
        f"SELECT p.id, COALESCE({src.rating}, -1), {src.games}, "
        f"CASE WHEN COALESCE(EXTRACT(YEAR FROM p.birth_date)::int, p.birth_year, 0) + 18 >= {year} "
        "THEN 1 ELSE 0 END, "
        f"CASE WHEN {src.reached_2400} THEN 1 ELSE 0 END, "
        f"CASE WHEN {src.reached_2200} THEN 1 ELSE 0 END, "
        f"COALESCE({src.last_game_date} - DATE '0001-01-01' + 1, 0), {src.flagged_lists}, "
        f"CASE ({src.status}) WHEN 'inactive' THEN 1 WHEN 'out_of_list' THEN 2 WHEN 'provisional' "
        "THEN 3 "
        "WHEN 'passive' THEN 4 ELSE 0 END, "
        "COALESCE("
        + src.rated_since_sql()
        + " - DATE '0001-01-01' + 1, 0)"
        + STATE_FROM.format(prev_join=src.join, only="")
    )
    int_sql = int_sql % {
        k: f"DATE '{v.isoformat()}'" if isinstance(v, dt.date) else int(v)
        for k, v in sparams.items()
    }
    games_sql = (
        "SELECT COALESCE(w.player_id, -w.id), COALESCE(b.player_id, -b.id), "
        "CASE g.result WHEN '1-0' THEN 2 WHEN '+-' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END, "
        "CASE g.kind WHEN 'played' THEN 0 WHEN 'forfeit' THEN 1 ELSE 2 END, g.tournament_id, "
        "g.round, "
        "t.end_date - DATE '0001-01-01' + 1 "
        "FROM tournaments_game g JOIN tournaments_tournament t ON t.id = g.tournament_id "
        "JOIN tournaments_tournamentplayer w ON w.id = g.white_id "
        "JOIN tournaments_tournamentplayer b ON b.id = g.black_id "
        f"WHERE t.period_id = {int(period.pk)} AND t.status IN ('validated', 'rated', 'published') "
        "AND g.black_id IS NOT NULL AND g.result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+')"
    )
    timer = StepTimer(f"run {run.pk} (bulk)", log)
    # The games are read on a second connection while this one reads the players: the two
    # queries then run on two server processes at once. Only outside a transaction (the Celery
    # task, the benchmark): a second connection would not see an open transaction's rows.
    games = None if connection.in_atomic_block else read_in_thread(copy_out_ints, games_sql, 7)
    P = copy_out_ints(int_sql, 10)
    P = P[
        np.argsort(P[:, 0], kind="stable")
    ]  # by player id (searchsorted below); sorted here, not in SQL
    timer.step("read players")
    pid = P[:, 0]
    rating = P[:, 1]
    rated = rating >= 0
    run_progress_set(run.pk, 20, gettext_noop("Reading games"), player_count=len(pid))
    G = games.result() if games is not None else copy_out_ints(games_sql, 7)
    timer.step("read games")
    gw, gb, ws2, kind, gt, rnd, gend = (G[:, i] for i in range(7))
    wi = np.searchsorted(pid, gw).clip(0, max(len(pid) - 1, 0))
    bi = np.searchsorted(pid, gb).clip(0, max(len(pid) - 1, 0))
    w_linked = (gw > 0) & (pid[wi] == gw) if len(pid) else gw < -1
    b_linked = (gb > 0) & (pid[bi] == gb) if len(pid) else gb < -1
    both_rated = w_linked & b_linked & rated[wi] & rated[bi]
    played = kind == 0
    # 8.2.4: a player whose first list came after the tournament ended counts as unrated for
    # his opponents there (the game still counts for him). Both so: neither counts (8.3.1).
    since = P[:, 9]
    w_hidden = both_rated & (since[wi] > gend)
    b_hidden = both_rated & (since[bi] > gend)
    neither = played & w_hidden & b_hidden
    in_bulk = played & both_rated & ~neither
    small = played & ~both_rated
    # Last game day per player (any played game in the period).
    last = P[:, 6].copy()
    for idx, linked in ((wi, w_linked), (bi, b_linked)):
        m = linked & played
        np.maximum.at(last, idx[m], gend[m])

    # ---- players without a rating: the first-ratings pass on their games only
    engine_future: Any = None
    excluded_rows: list[tuple[Any, ...]] = []
    for g in np.nonzero(~played)[0].tolist():
        wk = str(gw[g]) if gw[g] > 0 else f"tp{-gw[g]}"
        bk = str(gb[g]) if gb[g] > 0 else f"tp{-gb[g]}"
        code = "forfeit" if kind[g] == 1 else "not_played"
        excluded_rows.append(
            (
                int(gt[g]),
                wk,
                bk,
                int(rnd[g]),
                code,
                "not played (forfeit)" if code == "forfeit" else "not played",
                "fide-2024 5.1",
            )
        )
    for g in np.nonzero(neither)[0].tolist():
        excluded_rows.append(
            (
                int(gt[g]),
                str(gw[g]),
                str(gb[g]),
                int(rnd[g]),
                "no_rated_player",
                "neither player is rated (for the other)",
                "fide-2024 8.3.1",
            )
        )
    # The tournaments in which each such player counted as unrated for his opponents (few).
    hidden_in: dict[int, set[int]] = defaultdict(set)
    for side_hidden, idx in ((w_hidden & in_bulk, wi), (b_hidden & in_bulk, bi)):
        for i, t in zip(idx[side_hidden].tolist(), gt[side_hidden].tolist(), strict=True):
            hidden_in[i].add(t)
    # Unrated players with no game this period keep their state (prior results unchanged:
    # NULL, kept by the publication).
    playing = np.zeros(len(pid), dtype=bool)
    playing[wi[played & w_linked]] = True
    playing[bi[played & b_linked]] = True
    unrated_ids = set(pid[~rated & playing].tolist())
    if unrated_ids or small.any():
        sub_idx = np.nonzero(small)[0]
        # Inside a transaction (tests) the thread could not see its rows: read them here.
        early = (
            (read_states_for(period, unrated_ids), period_tournaments(period))
            if connection.in_atomic_block
            else None
        )

        def engine_part() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
            """Runs in a thread while the rated rows are packed and written: reads the unrated
            players' states (on the thread's own connection), builds their sub-period, rates it."""
            try:
                states, tournaments = (
                    early
                    if early is not None
                    else (read_states_for(period, unrated_ids), period_tournaments(period))
                )
            finally:
                if early is None:
                    connection.close()  # this thread's connection
            # Full state for the unrated players; their rated opponents only need what the
            # engine reads of an opponent (rating, games), already in the arrays.
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
            sub = et.PeriodInput(
                ruleset="fide-2024",
                start=period.start,
                end=period.end,
                parameters=dict(system.parameters or {}),
                players=tuple(player_input(s) for s in states.values())
                + tuple(opponents.values())
                + tuple(extra.values()),
                tournaments=tuple(
                    et.TournamentInput(
                        id=str(t),
                        system=tournaments[t].system,
                        end_date=tournaments[t].end_date,
                        start_date=tournaments[t].start_date,
                        rate_of_play=system.rate_of_play,
                        national_championship=tournaments[t].national_championship,
                        match_length=tournaments[t].rounds
                        if tournaments[t].system == "match"
                        else None,
                        games=tuple(gs),
                    )
                    for t, gs in games_by_t.items()
                    if t in tournaments
                ),
            )
            # Rated players are only opponents in this sub-period (their games against unrated
            # players do not count for them, 8.3.1): no results are built for them.
            result = FIDE_2024.rate_unrated(sub)
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
                        if (
                            me.isdigit()
                            and int(me) in unrated_ids
                            and ratings_of.get(opp) is not None
                        ):
                            pooled[int(me)].append(
                                {
                                    "opponent_rating": ratings_of[opp],
                                    "score": score,
                                    "tournament": str(t),
                                    "end_date": end,
                                }
                            )
            rows, excl = [], []
            for r in result.players:
                if r.id.isdigit() and int(r.id) in unrated_ids:
                    i = int(np.searchsorted(pid, int(r.id)))  # pid is sorted
                    day = dt.date.fromordinal(int(last[i])) if last[i] > P[i, 6] else None
                    rows.append(
                        result_row(run, states[int(r.id)], r, day, pooled.get(int(r.id), []))
                    )
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
            return rows, excl

        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="first-ratings")
        engine_future = executor.submit(engine_part)
        executor.shutdown(wait=False)

    timer.step("first ratings (prepared)")
    # The rated players on arrays, while the thread rates the first ratings.
    run_progress_set(run.pk, 35, gettext_noop("Calculating"))
    out = rate_rated_fide_2024(
        BulkInput(
            rating=np.where(rated, rating, 0),
            rated=rated,
            games_before=P[:, 2],
            youth=P[:, 3] == 1,
            reached_2400=P[:, 4] == 1,
            inactive_before=P[:, 8] == 1,
            last_game_ordinal=P[:, 6],
            white=wi[in_bulk],
            black=bi[in_bulk],
            white_score2=ws2[in_bulk],
            white_counts=~b_hidden[in_bulk],
            black_counts=~w_hidden[in_bulk],
            inactive_cutoff_ordinal=FIDE_2024.inactivity_cutoff(period.end, params).toordinal(),
            floor=cast(int, params["floor"]),
        )
    )
    timer.step("bulk fide-2024")
    run_progress_set(run.pk, 55, gettext_noop("Writing the draft"))
    tail = f"\t{run.pk}\tfide-2024\t{ENGINE_VERSION}\t{FIDE_2024.version}\n"
    engine_count = [0]

    def engine_text() -> Iterable[str]:
        # Streamed after the rated rows: by then the thread has usually finished. Its games left
        # out join the list written after the player rows.
        if engine_future is None:
            return
        rows, excl = engine_future.result()
        excluded_rows.extend(excl)
        engine_count[0] = len(rows)
        for row in rows:
            yield "\t".join(map(copy_text, row)) + tail

    tournament_rows = bulk_tournament_rows(
        wi[in_bulk],
        bi[in_bulk],
        ws2[in_bulk],
        gt[in_bulk],
        pid,
        rating,
        out,
        white_counts=~b_hidden[in_bulk],
        black_counts=~w_hidden[in_bulk],
    )
    timer.step("pack game lines")
    # Only players the period touched get a draft row: a game, a change, a new status; and
    # everyone the published run of this period touched (a correction may undo it). The others
    # are carried over unchanged by the publication (docs/periods.md).
    new_code = np.where(out.out_of_list, 2, np.where(out.inactive, 1, 0))
    touched = rated & (
        (out.games > 0)
        | (out.change != 0)
        | (new_code != np.where(P[:, 8] == 1, 1, 0))
        | (P[:, 8] > 1)
    )
    previous_run = published_run(period)
    if previous_run is not None:
        before = np.array(
            sorted(
                DraftResult.objects.filter(run=previous_run).values_list("player_id", flat=True)
            ),
            dtype=np.int64,
        )
        touched |= rated & np.isin(pid, before)
    n_rated = int(touched.sum())
    result_text = bulk_result_lines(
        run, P, out, last, touched, hidden_in, floor=cast(int, params["floor"])
    )
    draft_write(
        run,
        None,
        tournament_rows,
        excluded_rows,
        ruleset="fide-2024",
        regulation_version=FIDE_2024.version,
        tournaments=sorted(set(gt.tolist())),
        result_text=itertools.chain(result_text, engine_text()),
        line_count=int((~b_hidden[in_bulk]).sum() + (~w_hidden[in_bulk]).sum()),
        player_count=lambda: n_rated + engine_count[0],
    )
