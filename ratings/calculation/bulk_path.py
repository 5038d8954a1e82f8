"""fide-2024 at federation scale: the rated players on whole arrays (rating_engine.bulk), the
players without a rating through the engine's first-ratings pass on the few games they
played (ratings.calculation.bulk_first_ratings); reads and writes are COPY.

`calculate_bulk` reads as its steps: read the players and the games on arrays, match the games
to the players, set aside the games that do not count, start the first ratings in a thread,
rate the rated players, pack their game lines and write the draft."""

from __future__ import annotations

import datetime as dt
import itertools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
from django.db import connection
from django.utils.translation import gettext_noop

from core.pg.copy import copy_out_ints, copy_text
from core.timing import StepTimer
from periods.models import RatingPeriod
from rating_engine import ENGINE_VERSION
from rating_engine.bulk import BulkInput, BulkOutput
from rating_engine.regulations.base import BulkRater, CalendarChanges
from rating_engine.regulations.fide_2024 import REGULATION as FIDE_2024
from rating_engine.regulations.fide_2024.parameters import Fide2024Parameters
from ratings.calculation.bulk_arrays import GameArrays, PlayerArrays
from ratings.calculation.bulk_first_ratings import FirstRatings, first_ratings_start
from ratings.calculation.bulk_rows import bulk_result_lines, bulk_tournament_rows
from ratings.calculation.draft import draft_write
from ratings.calculation.period_games import period_games_sql
from ratings.calculation.progress import run_progress_set
from ratings.calculation.rulesets import period_ruleset_in_force
from ratings.calculation.states import (
    PERIOD_PLAYERS_JOIN,
    STATE_FROM,
    calendar_only_sql,
    games_left_out_rows,
    published_run,
    state_query,
    state_source,
)
from ratings.models import CalculationRun, DraftResult

log = logging.getLogger(__name__)


def read_in_thread(*, read: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any]:
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


def _bulk() -> BulkRater:
    """The regulation's bulk rater (its arrays path and the articles of the exclusions it makes)."""
    bulk = FIDE_2024.bulk
    assert bulk is not None  # the regulation declares its bulk rater
    return bulk


#: A player's year of birth in SQL (0 when unknown: never a youth); {p} is the table's prefix.
BIRTH_YEAR_SQL = "COALESCE(EXTRACT(YEAR FROM {p}birth_date)::int, {p}birth_year, 0)"


def youth_age() -> int:
    """The age whose year ends the youth's K (the regulation's fact, fide-2024 8.3.3); the
    state query's youth column is `birth year + this >= the period's year`."""
    rule = _bulk().youth_age
    assert rule is not None  # fide-2024 declares it; its bulk path reads it
    return rule.value


def calculate_bulk(
    *, run: CalculationRun, players_source: Callable[[RatingPeriod], PlayerArrays] | None = None
) -> None:
    """fide-2024 on whole arrays (rating_engine.bulk) for the rated players; players without a
    rating (first ratings, pooled results) and players outside the registry go through
    the engine's first-ratings pass (`rate_unrated`) on the small sub-period of their games.
    Reads and writes are COPY. `players_source`: the players' state at the start of the period
    from elsewhere than the database (a re-rating chain's memory, ratings.rerating.chain_states)."""
    period = run.period
    # The parameters of the regulation its tournaments fall under (effective dates).
    in_force = period_ruleset_in_force(period=period)
    params = FIDE_2024.parameters_from(in_force.parameters)
    # Only the players the period can change: its players and those its calendar changes.
    changes = FIDE_2024.calendar_changes(period.end, in_force.parameters)
    players_sql = players_sql_build(period=period, changes=changes)
    games_sql = games_sql_build(period=period)
    timer = StepTimer(f"run {run.pk} (bulk)", log)
    games_future = games_read_start(games_sql=games_sql)
    players = (
        players_read(players_sql=players_sql) if players_source is None else players_source(period)
    )
    timer.step("read players")
    run_progress_set(
        run_id=run.pk,
        progress=20,
        phase=gettext_noop("Reading games"),
        player_count=len(players.pid),
    )
    game_columns = games_read(games_future=games_future, games_sql=games_sql)
    timer.step("read games")
    games = games_match(game_columns=game_columns, players=players)
    last = last_game_days(players=players, games=games)
    excluded_rows = excluded_rows_build(games=games) + games_left_out_rows(period=period)
    hidden_in = hidden_tournaments(games=games)
    unrated_ids = unrated_players_playing(players=players, games=games)
    first_ratings = first_ratings_start(
        run=run, players=players, games=games, unrated_ids=unrated_ids, last=last
    )
    timer.step("first ratings (prepared)")
    run_progress_set(run_id=run.pk, progress=35, phase=gettext_noop("Calculating"))
    out = rated_players_rate(period=period, params=params, players=players, games=games)
    timer.step(f"bulk {FIDE_2024.id}")
    run_progress_set(run_id=run.pk, progress=55, phase=gettext_noop("Writing the draft"))
    tournament_rows = game_lines_pack(players=players, games=games, out=out)
    timer.step("pack game lines")
    touched = players_touched(period=period, players=players, out=out)
    draft_rows_write(
        run=run,
        players=players,
        games=games,
        out=out,
        last=last,
        touched=touched,
        hidden_in=hidden_in,
        tournament_rows=tournament_rows,
        excluded_rows=excluded_rows,
        first_ratings=first_ratings,
        floor=params.floor,
    )


def players_sql_build(*, period: RatingPeriod, changes: CalendarChanges | None = None) -> str:
    """The state query with integer columns only (ordinals for dates, codes for statuses):
    the columns of `PlayerArrays.P`. With the regulation's `changes`, only the players the
    period can change (states.calendar_only_sql): those of its games, those the calendar
    changes, those the period's published run touched; the others keep their state and the
    publication carries their entries over."""
    _sql, sparams = state_query(period=period)
    src = state_source(period=period)
    only, only_params = calendar_only_sql(
        src=src, changes=changes, rerun=published_run(period=period) is not None
    )
    sparams = {**sparams, **only_params}
    year = period.start.year
    int_sql = (
        f"SELECT p.id, COALESCE({src.rating}, -1), {src.games}, "
        f"CASE WHEN {BIRTH_YEAR_SQL.format(p='p.')} + {youth_age()} >= {year} "
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
        + (f", {only}" if only else "")
        + STATE_FROM.format(prev_join=src.join + (PERIOD_PLAYERS_JOIN if only else ""), only="")
    )
    if only:
        # Filtered outside the joins (OFFSET 0 keeps the condition out of them): inside, the
        # planner took its selectivity for a few rows and nested the joins of a re-run
        # (minutes for a semester); this way the joins are planned as for the whole registry
        # and only the kept rows are sent.
        names = ", ".join(f"c{i}" for i in range(10))
        int_sql = f"SELECT {names} FROM ({int_sql} OFFSET 0) AS s ({names}, keep) WHERE keep"
    int_sql = int_sql % {
        k: f"DATE '{v.isoformat()}'" if isinstance(v, dt.date) else int(v)
        for k, v in sparams.items()
    }
    return int_sql


def games_sql_build(*, period: RatingPeriod) -> str:
    """The period's games with integer columns only: the columns of `GameArrays`."""
    games_sql = (
        "SELECT COALESCE(w.player_id, -w.id), COALESCE(b.player_id, -b.id), "
        "CASE g.result WHEN '1-0' THEN 2 WHEN '+-' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END, "
        "CASE g.kind WHEN 'played' THEN 0 WHEN 'forfeit' THEN 1 ELSE 2 END, g.tournament_id, "
        "COALESCE(g.round, 0), "
        "t.end_date - DATE '0001-01-01' + 1 "
        "FROM tournaments_game g JOIN tournaments_tournament t ON t.id = g.tournament_id "
        "JOIN tournaments_tournamentplayer w ON w.id = g.white_id "
        "JOIN tournaments_tournamentplayer b ON b.id = g.black_id "
        f"WHERE {period_games_sql(period=str(int(period.pk)))} "
        "AND t.status IN ('validated', 'rated', 'published') "
        "AND g.black_id IS NOT NULL AND g.result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+') "
        "AND g.left_out_code = ''"
    )
    return games_sql


def games_read_start(*, games_sql: str) -> Future[Any] | None:
    """The games are read on a second connection while this one reads the players: the two
    queries then run on two server processes at once. Only outside a transaction (the Celery
    task, the benchmark): a second connection would not see an open transaction's rows."""
    games = (
        None
        if connection.in_atomic_block
        else read_in_thread(read=copy_out_ints, args=(games_sql, 7))
    )
    return games


def players_read(*, players_sql: str) -> PlayerArrays:
    """The state at the start of the period, one row per player, by player id."""
    P = copy_out_ints(players_sql, 10)
    P = P[
        np.argsort(P[:, 0], kind="stable")
    ]  # by player id (searchsorted below); sorted here, not in SQL
    pid = P[:, 0]
    rating = P[:, 1]
    rated = rating >= 0
    return PlayerArrays(P=P, pid=pid, rating=rating, rated=rated)


def games_read(*, games_future: Future[Any] | None, games_sql: str) -> Any:
    """The games: from the thread reading them, or read here inside a transaction."""
    G = games_future.result() if games_future is not None else copy_out_ints(games_sql, 7)
    return G


def games_match(*, game_columns: Any, players: PlayerArrays) -> GameArrays:
    """Each side of each game matched to its player's row, and which games the arrays rate:
    played between two rated players (8.2.4, 8.3.1)."""
    G, P, pid, rated = game_columns, players.P, players.pid, players.rated
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
    return GameArrays(
        gw=gw,
        gb=gb,
        ws2=ws2,
        kind=kind,
        gt=gt,
        rnd=rnd,
        gend=gend,
        wi=wi,
        bi=bi,
        w_linked=w_linked,
        b_linked=b_linked,
        played=played,
        w_hidden=w_hidden,
        b_hidden=b_hidden,
        neither=neither,
        in_bulk=in_bulk,
        small=small,
    )


def last_game_days(*, players: PlayerArrays, games: GameArrays) -> Any:
    """Last game day per player (any played game in the period)."""
    last = players.P[:, 6].copy()
    for idx, linked in ((games.wi, games.w_linked), (games.bi, games.b_linked)):
        m = linked & games.played
        np.maximum.at(last, idx[m], games.gend[m])
    return last


def excluded_rows_build(*, games: GameArrays) -> list[tuple[Any, ...]]:
    """The games left out before rating: not played (5.1), and rated players who are both
    unrated for each other (8.3.1)."""
    gw, gb, kind, gt, rnd = games.gw, games.gb, games.kind, games.gt, games.rnd
    excluded_rows: list[tuple[Any, ...]] = []
    for g in np.nonzero(~games.played)[0].tolist():
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
                _bulk().unplayed_article,
            )
        )
    for g in np.nonzero(games.neither)[0].tolist():
        excluded_rows.append(
            (
                int(gt[g]),
                str(gw[g]),
                str(gb[g]),
                int(rnd[g]),
                "no_rated_player",
                "neither player is rated (for the other)",
                _bulk().no_rated_player_article,
            )
        )
    return excluded_rows


def hidden_tournaments(*, games: GameArrays) -> dict[int, set[int]]:
    """The tournaments in which each such player counted as unrated for his opponents (few)."""
    hidden_in: dict[int, set[int]] = defaultdict(set)
    for side_hidden, idx in (
        (games.w_hidden & games.in_bulk, games.wi),
        (games.b_hidden & games.in_bulk, games.bi),
    ):
        for i, t in zip(idx[side_hidden].tolist(), games.gt[side_hidden].tolist(), strict=True):
            hidden_in[i].add(t)
    return hidden_in


def unrated_players_playing(*, players: PlayerArrays, games: GameArrays) -> set[int]:
    """The players without a rating who played this period. Unrated players with no game this
    period keep their state (prior results unchanged: NULL, kept by the publication)."""
    played = games.played
    playing = np.zeros(len(players.pid), dtype=bool)
    playing[games.wi[played & games.w_linked]] = True
    playing[games.bi[played & games.b_linked]] = True
    unrated_ids = set(players.pid[~players.rated & playing].tolist())
    return unrated_ids


def rated_players_rate(
    *, period: RatingPeriod, params: Fide2024Parameters, players: PlayerArrays, games: GameArrays
) -> BulkOutput:
    """The rated players on arrays, while the thread rates the first ratings."""
    P, rating, rated = players.P, players.rating, players.rated
    in_bulk = games.in_bulk
    out = _bulk().rate(
        BulkInput(
            rating=np.where(rated, rating, 0),
            rated=rated,
            games_before=P[:, 2],
            youth=P[:, 3] == 1,
            reached_2400=P[:, 4] == 1,
            inactive_before=P[:, 8] == 1,
            last_game_ordinal=P[:, 6],
            white=games.wi[in_bulk],
            black=games.bi[in_bulk],
            white_score2=games.ws2[in_bulk],
            white_counts=~games.b_hidden[in_bulk],
            black_counts=~games.w_hidden[in_bulk],
            inactive_cutoff_ordinal=FIDE_2024.inactivity_cutoff(period.end, params).toordinal(),
            floor=params.floor,
        )
    )
    return out


def game_lines_pack(
    *, players: PlayerArrays, games: GameArrays, out: BulkOutput
) -> list[tuple[Any, ...]]:
    """The rated players' counted game lines, packed per tournament."""
    in_bulk = games.in_bulk
    tournament_rows = bulk_tournament_rows(
        w=games.wi[in_bulk],
        b=games.bi[in_bulk],
        ws2=games.ws2[in_bulk],
        t=games.gt[in_bulk],
        pid=players.pid,
        rating=players.rating,
        out=out,
        white_counts=~games.b_hidden[in_bulk],
        black_counts=~games.w_hidden[in_bulk],
    )
    return tournament_rows


def players_touched(*, period: RatingPeriod, players: PlayerArrays, out: BulkOutput) -> Any:
    """Only players the period touched get a draft row: a game, a change, a new status; and
    everyone the published run of this period touched (a correction may undo it). The others
    are carried over unchanged by the publication (docs/periods.md)."""
    P, pid, rated = players.P, players.pid, players.rated
    new_code = np.where(out.out_of_list, 2, np.where(out.inactive, 1, 0))
    touched = rated & (
        (out.games > 0)
        | (out.change != 0)
        | (new_code != np.where(P[:, 8] == 1, 1, 0))
        | (P[:, 8] > 1)
    )
    previous_run = published_run(period=period)
    if previous_run is not None:
        before = np.array(
            sorted(
                DraftResult.objects.filter(run=previous_run).values_list("player_id", flat=True)
            ),
            dtype=np.int64,
        )
        touched |= rated & np.isin(pid, before)
    return touched


def draft_rows_write(
    *,
    run: CalculationRun,
    players: PlayerArrays,
    games: GameArrays,
    out: BulkOutput,
    last: Any,
    touched: Any,
    hidden_in: dict[int, set[int]],
    tournament_rows: list[tuple[Any, ...]],
    excluded_rows: list[tuple[Any, ...]],
    first_ratings: FirstRatings | None,
    floor: int,
) -> None:
    """The draft: the rated players' rows, then the first ratings' rows streamed after them
    (by then the thread has usually finished), the game lines and the games left out."""
    tail = f"\t{run.pk}\t{FIDE_2024.id}\t{ENGINE_VERSION}\t{FIDE_2024.version}\n"
    engine_count = [0]

    def engine_text() -> Iterable[str]:
        # Streamed after the rated rows: by then the thread has usually finished. Its games left
        # out join the list written after the player rows.
        if first_ratings is None:
            return
        rows, excl = first_ratings.result()
        excluded_rows.extend(excl)
        engine_count[0] = len(rows)
        for row in rows:
            yield "\t".join(map(copy_text, row)) + tail

    n_rated = int(touched.sum())
    result_text = bulk_result_lines(
        run=run,
        P=players.P,
        out=out,
        last=last,
        mask=touched,
        hidden_in=hidden_in,
        floor=floor,
    )
    in_bulk = games.in_bulk
    draft_write(
        run=run,
        results=None,
        tournament_rows=tournament_rows,
        excluded_rows=excluded_rows,
        ruleset=FIDE_2024.id,
        regulation_version=FIDE_2024.version,
        tournaments=sorted(set(games.gt.tolist())),
        result_text=itertools.chain(result_text, engine_text()),
        line_count=int((~games.b_hidden[in_bulk]).sum() + (~games.w_hidden[in_bulk]).sum()),
        player_count=lambda: n_rated + engine_count[0],
    )
