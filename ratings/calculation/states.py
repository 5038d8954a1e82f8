"""The input of a calculation: each player's state at the start of the period and the games of
the period's rated tournaments, read set-based (one query per table) and turned into engine
inputs. See docs/periods.md for where the state comes from on a re-run."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from periods.models import RatingPeriod
from periods.rulesets import system_ruleset_on
from players.external import external_list_in_force
from rating_engine import types as et
from rating_engine.registry import get_regulation
from rating_engine.regulations.base import CalendarChanges
from ratings.calculation.period_games import (
    PERIOD_GAMES_PARAMS,
    period_games_sql,
    period_tournaments_q,
    period_tournaments_sql,
)
from ratings.models import CalculationRun, PublishedList
from tournaments.models import LEFT_OUT_REASONS, Tournament

RATED_TOURNAMENT_STATUSES = ("validated", "rated", "published")


@dataclass
class PlayerState:
    """A player's state at the start of the period (the list in force)."""

    player_id: int
    rating: int | None
    games: int
    status: str
    reached_2400: bool
    reached_2200: bool
    last_game_date: dt.date | None
    flagged_lists: int
    prior_results: list[dict[str, Any]]
    birth_date: dt.date | None
    birth_year: int | None
    sex: str
    federation: str
    affiliated: bool
    fide: tuple[int | None, int | None, int | None, int | None, int | None]
    registered: bool = True  # has a PlayerRating row
    rated_since: dt.date | None = None  # first list of his rating (fide-2024 8.2.4)


# Every player with a state in the system, and every registry player of the period's
# tournaments. One pass over the registry: the OR's subquery is hashed once and only asked
# about players without a state (a UNION of the two sets, then a join, cost twice as much).
PERIOD_PLAYERS = """
          SELECT tp.player_id FROM tournaments_tournamentplayer tp
          JOIN tournaments_tournament t ON t.id = tp.tournament_id
          WHERE PERIOD_TOURNAMENTS AND t.status IN ('validated', 'rated', 'published')
            AND tp.player_id IS NOT NULL""".replace(
    "PERIOD_TOURNAMENTS", period_tournaments_sql(period="%(period)s")
)
STATE_FROM = (
    """
    FROM players_player p
    LEFT JOIN ratings_playerrating pr ON pr.player_id = p.id AND pr.system_id = %(system)s
    {prev_join}
    WHERE (pr.id IS NOT NULL OR p.id IN ("""
    + PERIOD_PLAYERS
    + """))
      {only}
"""
)
STATE_SQL = (
    """
    SELECT p.id, {src.rating}, {src.games}, {src.status}, {src.reached_2400}, {src.reached_2200},
           {src.last_game_date}, {src.flagged_lists}, {src.prior_results}, p.birth_date,
           p.birth_year,
           p.sex, p.federation, p.affiliated, p.fide_standard, p.fide_rapid, p.fide_blitz,
           {iccf},
           {fpx}, pr.id IS NOT NULL, {rated_since}
"""
    + STATE_FROM
)
# cnxc-2000 5.3: a player's rating in an external list in force on the period's list date
# (players.models.ExternalList, kept per import): its first row matched to him with a rating.
EXTERNAL_JOIN = """
    LEFT JOIN (SELECT DISTINCT ON (x.player_id) x.player_id, x.rating
               FROM players_externallistentry x
               WHERE x.external_list_id = %({param})s AND x.player_id IS NOT NULL
                 AND x.rating IS NOT NULL
               ORDER BY x.player_id, x.row) {alias} ON {alias}.player_id = p.id
"""
#: PlayerInput's external ratings (cnxc-2000 5.3) by source: the column of the registry's
#: mirror of the latest list, and the alias of the dated list's join.
EXTERNAL_COLUMNS = {"iccf": ("p.iccf_rating", "xi"), "fpx": ("p.fpx_rating", "xf")}
# fide-2024 8.2.4: the first list of his rating, when it is one before this period's list. A
# later date belongs to a later spell of the rating (he fell out of the list and came back):
# for a re-rating of this period he was rated before it, so it does not apply.
RATED_SINCE = "CASE WHEN ({since}) < {list_date} THEN ({since}) END"
PR_STATUS = (
    "CASE WHEN pr.out_of_list THEN 'out_of_list' WHEN pr.activity = 'inactive' THEN 'inactive' "
    "WHEN pr.activity = 'passive' THEN 'passive' WHEN pr.kind = 'provisional' THEN 'provisional' "
    "ELSE '' END"
)


@dataclass(frozen=True)
class StateSource:
    """SQL expressions of each field of the state at the start of the period (over `p`, `pr`
    and the joins of `join`), and the parameters of the joins."""

    rating: str
    games: str
    status: str
    join: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    reached_2400: str = "COALESCE(pr.reached_2400, FALSE)"
    reached_2200: str = "COALESCE(pr.reached_2200, FALSE)"
    last_game_date: str = "pr.last_game_date"
    flagged_lists: str = "COALESCE(pr.flagged_lists, 0)"
    prior_results: str = "pr.prior_results"
    rated_since: str = "pr.rated_since"  # before the 8.2.4 filter (RATED_SINCE)

    def rated_since_sql(self, *, list_date: str = "%(list_date)s") -> str:
        return RATED_SINCE.format(since=self.rated_since, list_date=list_date)


def calendar_only_sql(
    *, src: StateSource, changes: CalendarChanges | None, rerun: bool
) -> tuple[str, dict[str, Any]]:
    """The condition (on the state query's columns) keeping only the players a period can
    change, and its parameters: those of its tournaments, those the regulation's calendar
    changes without a game (``Regulation.calendar_changes``: inactivity, the floor, a status
    it does not keep),
    and on a re-run (``rerun``: the period's published run is joined as ``d``) those that run
    touched, which a correction may undo. No condition when the regulation cannot say."""
    if changes is None:
        return "", {}
    params: dict[str, Any] = {}
    rated: list[str] = []
    if changes.kept_statuses:
        kept = ", ".join("'" + x.replace("'", "''") + "'" for x in changes.kept_statuses)
        rated.append(f"({src.status}) NOT IN ({kept})")
    else:
        rated.append("TRUE")
    if changes.below_floor is not None:
        rated.append(f"{src.rating} < %(calendar_floor)s")
        params["calendar_floor"] = changes.below_floor.value
    if changes.inactive_on_or_before is not None:
        rated.append(
            f"(({src.status}) <> 'inactive' AND {src.last_game_date} <= %(calendar_cutoff)s)"
        )
        params["calendar_cutoff"] = changes.inactive_on_or_before.value
    # A join, not `p.id IN (…)`: asked of every row, the subquery is hashed only while it
    # fits in work_mem, else run once per player (minutes at the registry's size).
    ors = ["pp.player_id IS NOT NULL"]
    if rerun:
        ors.append("d.id IS NOT NULL")
    ors.append(f"({src.rating} IS NOT NULL AND ({' OR '.join(rated)}))")
    return "(" + "\n        OR ".join(ors) + ")", params


#: The join `calendar_only_sql`'s condition needs: the period's players as `pp`.
PERIOD_PLAYERS_JOIN = (
    " LEFT JOIN (SELECT DISTINCT x.player_id FROM ("
    + PERIOD_PLAYERS
    + ") x) pp ON pp.player_id = p.id"
)


def previous_list(*, period: RatingPeriod) -> PublishedList | None:
    """The list in force at the start of the period: the latest version of the latest list
    published for an earlier period of the system."""
    return (
        PublishedList.objects.filter(system=period.system, period__start__lt=period.start)
        .order_by("-period__start", "-version")
        .first()
    )


def published_run(*, period: RatingPeriod) -> CalculationRun | None:
    return (
        period.runs.filter(published_list__isnull=False).order_by("published_list__version").first()
    )


def previous_run(*, previous: PublishedList | None) -> CalculationRun | None:
    """The run a list was published from (none for an imported list)."""
    return (
        None if previous is None else CalculationRun.objects.filter(published_list=previous).first()
    )


def state_source(*, period: RatingPeriod) -> StateSource:
    """Where the state at the start of the period comes from.

    Rating, games and status: the list in force (the latest version of the latest earlier
    list); with no earlier list, a period already published restarts from the state its first
    published run started from (its draft rows' before-values); otherwise the players' current
    state (PlayerRating).

    The fields a list does not carry (K history, last game, lists shown while inactive, pooled
    results, rated since): the current PlayerRating on a first calculation, which the
    publication of the list in force advanced. A re-run of a published period must not read
    them there (PlayerRating has moved on since its start): each comes, in this order, from
    the after-state of the run the list in force was published from (it is the state at the
    start of this period; after a correction of the earlier period, the corrected one), from
    the before-state stored on this period's first published run's draft rows (columns
    `*_before`, from migration 0012), and only for a player in neither (untouched by both
    periods, or rows written before 0012) from PlayerRating."""
    previous = previous_list(period=period)
    run = published_run(period=period)
    if previous is not None:
        src = StateSource(
            "le.rating",
            "COALESCE(le.total_games, 0)",
            "CASE WHEN le.status IN ('rated', 'new', 'unrated') OR le.status IS NULL THEN '' ELSE "
            "le.status END",
            "LEFT JOIN ratings_listentry le ON le.player_id = p.id AND le.published_list_id = "
            "%(prev)s",
            {"prev": previous.pk},
        )
    elif run is not None:
        # Players without a row in that run were untouched by it: their state is unchanged.
        src = StateSource(
            "CASE WHEN d.id IS NULL THEN pr.rating ELSE d.rating_before END",
            "CASE WHEN d.id IS NULL THEN COALESCE(pr.games, 0) ELSE d.games_before END",
            f"CASE WHEN d.id IS NULL THEN {PR_STATUS} ELSE COALESCE(d.previous_status, '') END",
        )
    else:
        return StateSource("pr.rating", "COALESCE(pr.games, 0)", PR_STATUS)
    if run is None:
        return src
    join = (
        src.join + " LEFT JOIN ratings_draftresult d ON d.player_id = p.id AND d.run_id = %(run)s"
    )
    params = {**src.params, "run": run.pk}
    prev_run = previous_run(previous=previous)
    if prev_run is not None:
        join += (
            " LEFT JOIN ratings_draftresult pd ON pd.player_id = p.id AND pd.run_id = %(prev_run)s"
        )
        params.update(prev_run=prev_run.pk, prev_list_date=prev_run.period.list_date)

    def chain(*, column: str, current: str, after: str = "", before: str = "") -> str:
        stored = f"WHEN d.reached_2400_before IS NOT NULL THEN {before or f'd.{column}_before'}"
        first = (
            f"WHEN pd.id IS NOT NULL THEN {after or f'pd.{column}'} "
            if prev_run is not None
            else ""
        )
        return f"CASE {first}{stored} ELSE {current} END"

    # As the publication of that run set it (publication/services.py, _RATED_SINCE_SQL).
    since_before = (
        "CASE WHEN d.reached_2400_before IS NOT NULL THEN d.rated_since_before ELSE pr.rated_since "
        "END"
    )
    return StateSource(
        src.rating,
        src.games,
        src.status,
        join,
        params,
        reached_2400=chain(column="reached_2400", current="COALESCE(pr.reached_2400, FALSE)"),
        reached_2200=chain(column="reached_2200", current="COALESCE(pr.reached_2200, FALSE)"),
        last_game_date=chain(column="last_game_date", current="pr.last_game_date"),
        flagged_lists=chain(column="flagged_lists", current="COALESCE(pr.flagged_lists, 0)"),
        # A path that does not read pooled results (the rated players of the bulk path) stores
        # none: the current ones then, as a first calculation reads them.
        prior_results=chain(
            column="prior_results",
            current="pr.prior_results",
            after="COALESCE(pd.prior_results, pr.prior_results)",
            before="COALESCE(d.prior_results_before, pr.prior_results)",
        ),
        rated_since=chain(
            column="rated_since",
            current="pr.rated_since",
            after="CASE WHEN pd.rating_after IS NULL THEN NULL WHEN pd.rating_before IS NULL "
            f"THEN %(prev_list_date)s::date ELSE {since_before} END",
        ),
    )


def state_query(
    *, period: RatingPeriod, ids: Sequence[int] | None = None
) -> tuple[str, dict[str, Any]]:
    """The state of every player of the system and every registry player of the period's
    tournaments (or only of `ids`)."""
    src = state_source(period=period)
    params: dict[str, Any] = {
        "system": period.system_id,
        "period": period.pk,
        "list_date": period.list_date,
        **src.params,
    }
    only = ""
    if ids is not None:
        params["ids"] = list(ids)
        only = "AND p.id = ANY(%(ids)s)"
    columns, join = external_ratings_sql(period=period, params=params)
    sql = STATE_SQL.format(
        src=src,
        prev_join=src.join + join,
        only=only,
        rated_since=src.rated_since_sql(),
        iccf=columns["iccf"],
        fpx=columns["fpx"],
    )
    return sql, params


def external_ratings_sql(
    *, period: RatingPeriod, params: dict[str, Any]
) -> tuple[dict[str, str], str]:
    """The SQL of each player's ICCF and FPX ratings, and the joins they need (parameters
    added to ``params``).

    A regulation whose ``inputs.virtual_ratings`` names these lists (cnxc-2000 5.3: "a lista
    Elo da ICCF em vigor (na altura de efetuar os cálculos)", else the FPX one) reads each from
    the imported list in force on the period's list date (players.external), not from the
    players' ``iccf_rating`` / ``fpx_rating``, which mirror the newest import: a period
    calculated or re-run after a later list was imported reads the one of its own date. None
    when no list of that source was in force then. Other regulations read no external list:
    the mirror columns are passed as they are."""
    columns = {source: column for source, (column, _alias) in EXTERNAL_COLUMNS.items()}
    # The regulation in force at the period's start on the system's timeline (periods.rulesets);
    # ratings.calculation.rulesets, which reads the tournaments' own, builds on this module.
    ruleset = system_ruleset_on(system=period.system, day=period.start).ruleset
    rule = get_regulation(ruleset).inputs.virtual_ratings
    if rule is None:
        return columns, ""
    joins = []
    for source in rule.value:
        _column, alias = EXTERNAL_COLUMNS[source]
        found = external_list_in_force(source=source, on=period.list_date)
        if found is None:
            columns[source] = "NULL::integer"
            continue
        param = f"external_{source}"
        params[param] = found.pk
        columns[source] = f"{alias}.rating"
        joins.append(EXTERNAL_JOIN.format(param=param, alias=alias))
    return columns, "".join(joins)


def read_states(
    *, period: RatingPeriod, ids: Sequence[int] | None = None
) -> dict[int, PlayerState]:
    """Every player's state at the start of the period, or only those of `ids`."""
    sql, params = state_query(period=period, ids=ids)
    out: dict[int, PlayerState] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for r in cursor.fetchall():
            prior = r[8]
            if isinstance(prior, str):
                prior = json.loads(prior)
            out[r[0]] = PlayerState(
                player_id=r[0],
                rating=r[1],
                games=r[2] or 0,
                status=r[3] or "",
                reached_2400=bool(r[4]),
                reached_2200=bool(r[5]),
                last_game_date=as_date(value=r[6]),
                flagged_lists=r[7] or 0,
                prior_results=list(prior or []),
                birth_date=as_date(value=r[9]),
                birth_year=r[10],
                sex=r[11] or "",
                federation=r[12] or "",
                affiliated=bool(r[13]),
                fide=(r[14], r[15], r[16], r[17], r[18]),
                registered=bool(r[19]),
                rated_since=as_date(value=r[20]),
            )
    return out


def as_date(*, value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


GAMES_SQL = """
    SELECT g.tournament_id, COALESCE(g.round, 0), g.kind, g.result, w.id, w.player_id,
           w.rating_at_start, b.id, b.player_id, b.rating_at_start
    FROM tournaments_game g
    JOIN tournaments_tournament t ON t.id = g.tournament_id
    JOIN tournaments_tournamentplayer w ON w.id = g.white_id
    JOIN tournaments_tournamentplayer b ON b.id = g.black_id
    WHERE PERIOD_GAMES AND t.status IN ('validated', 'rated', 'published')
      AND g.black_id IS NOT NULL AND g.result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+')
      AND g.left_out_code = ''
    ORDER BY g.tournament_id, g.round, g.id
""".replace("PERIOD_GAMES", period_games_sql(period="%s"))
#: The same games, of some tournaments of the period only (ratings.live).
GAMES_OF_TOURNAMENTS_SQL = GAMES_SQL.replace(
    "\n    ORDER BY", " AND g.tournament_id = ANY(%s)\n    ORDER BY"
)
#: The games the report's checks left out (Game.left_out_code: fide-2024 1.1), written to the
#: draft as exclusions so that the player's calculation page says why.
LEFT_OUT_SQL = """
    SELECT g.tournament_id, g.round, g.left_out_code, g.left_out_article, w.id, w.player_id,
           b.id, b.player_id
    FROM tournaments_game g
    JOIN tournaments_tournament t ON t.id = g.tournament_id
    JOIN tournaments_tournamentplayer w ON w.id = g.white_id
    JOIN tournaments_tournamentplayer b ON b.id = g.black_id
    WHERE PERIOD_GAMES AND t.status IN ('validated', 'rated', 'published')
      AND g.left_out_code <> ''
    ORDER BY g.tournament_id, g.round, g.id
""".replace("PERIOD_GAMES", period_games_sql(period="%s"))
RESULT = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "+-": "1-0", "-+": "0-1"}


def player_key(*, tp_id: int, player_id: int | None) -> str:
    return str(player_id) if player_id is not None else f"tp{tp_id}"


def games_left_out_rows(*, period: RatingPeriod) -> list[tuple[Any, ...]]:
    """The period's games the checks left out, as the draft's exclusion rows (tournament,
    white, black, round, code, reason, article)."""
    with connection.cursor() as cursor:
        cursor.execute(LEFT_OUT_SQL, [period.pk] * PERIOD_GAMES_PARAMS)
        rows = cursor.fetchall()
    return [
        (
            t_id,
            player_key(tp_id=w_tp, player_id=w_pid),
            player_key(tp_id=b_tp, player_id=b_pid),
            rnd,
            code,
            LEFT_OUT_REASONS.get(code, code),
            article,
        )
        for t_id, rnd, code, article, w_tp, w_pid, b_tp, b_pid in rows
    ]


def period_tournaments(*, period: RatingPeriod) -> dict[int, Any]:
    return {
        t.pk: t
        for t in Tournament.objects.filter(
            period_tournaments_q(period_id=period.pk), status__in=RATED_TOURNAMENT_STATUSES
        )
        .distinct()
        .select_related("rating_system")
    }


def player_input(*, state: PlayerState) -> et.PlayerInput:
    return et.PlayerInput(
        id=str(state.player_id),
        rating=state.rating,
        games=state.games,
        birth_date=state.birth_date
        or (dt.date(state.birth_year, 7, 1) if state.birth_year else None),
        sex=state.sex,
        federation=state.federation,
        reached_2400=state.reached_2400,
        reached_2200=state.reached_2200,
        prior_results=tuple(
            et.PriorResult(
                opponent_rating=int(p["opponent_rating"]),
                score=float(p["score"]),
                tournament=str(p.get("tournament", "")),
                end_date=as_date(value=p.get("end_date")),
                forfeit=bool(p.get("forfeit", False)),
            )
            for p in state.prior_results
        ),
        status=state.status,
        last_game_date=state.last_game_date,
        fide_rating=state.fide[0],
        fide_rapid_rating=state.fide[1],
        fide_blitz_rating=state.fide[2],
        iccf_rating=state.fide[3],
        fpx_rating=state.fide[4],
        affiliated=state.affiliated,
        inactive_lists=state.flagged_lists,
        rated_since=state.rated_since if state.rating is not None else None,
    )


def games_last_year(*, period: RatingPeriod, ids: Sequence[int] | None = None) -> dict[int, int]:
    """Rated games of each player in the lists of the 12 months before the period (the latest
    version of each), for regulations that count games per year; of `ids` only, if given."""
    sql = """
        SELECT e.player_id, SUM(e.games) FROM ratings_listentry e
        JOIN ratings_publishedlist pl ON pl.id = e.published_list_id
        JOIN ratings_ratingperiod p ON p.id = pl.period_id
        WHERE p.system_id = %s AND p.start >= %s AND p.start < %s AND e.games > 0
          AND pl.version = (SELECT MAX(version) FROM ratings_publishedlist x WHERE x.period_id =
          pl.period_id) {only}
        GROUP BY e.player_id
    """
    params: list[Any] = [period.system_id, period.start - dt.timedelta(days=365), period.start]
    if ids is not None:
        params.append(list(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            sql.format(only="AND e.player_id = ANY(%s)" if ids is not None else ""), params
        )
        return {pid: int(n) for pid, n in cursor.fetchall()}


def read_states_for(*, period: RatingPeriod, ids: set[int]) -> dict[int, PlayerState]:
    return read_states(period=period, ids=sorted(ids)) if ids else {}
