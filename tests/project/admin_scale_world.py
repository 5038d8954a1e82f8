"""The world of the admin-scale test (tests/project/test_admin_scale.py, issue 28): a
registry of 100,000 players and 100,000 games (the synthetic federation, demo/synthetic.py)
and at least MIN_ROWS rows of every model the admin shows, built set-based (COPY,
INSERT … SELECT) in about 20 s. bench/admin_pages.py builds it too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.utils import timezone

from accounts.models import ClaimRequest, CorrectionRequest
from core.outbox import OutboxMail
from demo.synthetic import federation_generate
from lists.models import ListImportChunk, ListImportJob
from notices.models import ListNotices, Notice, NoticePreference
from periods.models import RatingPeriod, RatingSystem, SystemRuleset
from players.models import (
    ErasureRequest,
    ExternalList,
    ExternalListEntry,
    Licence,
    Player,
    Season,
)
from protests.models import Protest, ProtestAttachment
from ratings.models import (
    CalculationRun,
    Calibration,
    CalibrationEntry,
    Differential,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    ListEntry,
    ListFilterCount,
    ListFilterRow,
    ListRank,
    ListStatistics,
    LiveRating,
    PlayerRating,
    PublishedList,
    RerateChain,
    ScaleMonitoring,
)
from tournaments.models import (
    Game,
    Report,
    ReportUploadJob,
    Substitution,
    Tournament,
    TournamentDecision,
    TournamentPart,
    TournamentPlayer,
)
from tournaments.officials.models import Arbiter, Organiser

PLAYERS = 100_000
GAMES = 100_000
#: Lines of the big open whose change page is rendered (they were an inline of it: 1.7 s).
BIG_OPEN_PLAYERS = 500
SYSTEM_CODE = "adminscale"
#: Rows of every model the admin shows, at least, but the small tables' (admin_scale.py): a
#: list page with a query per row (of its 100) then breaks the query budget.
MIN_ROWS = 50


def insert_select(
    model: type[Model], exprs: Mapping[str, str], source: str, params: tuple[Any, ...] = ()
) -> int:
    """``INSERT INTO <model's table> (…) SELECT … <source>`` with ``exprs`` (column attname →
    SQL, without parameters: ``params`` are the source's) and every other column at its
    field's default, cast to the column's type: a field added to the model later keeps
    working if it has a default and fails loudly if it has none."""
    columns: list[str] = []
    selects: list[str] = []
    values: list[Any] = []
    for f in model._meta.concrete_fields:
        if f.primary_key:
            continue  # the identity column numbers the rows
        columns.append(connection.ops.quote_name(f.column))
        if f.attname in exprs:
            selects.append(exprs[f.attname])
        else:
            selects.append(f"%s::{f.db_type(connection)}")
            values.append(f.get_db_prep_save(f.get_default(), connection))
    if any("%s" in e for e in exprs.values()):
        raise ValueError("parameters go in the source, not in the expressions")
    unknown = set(exprs) - {f.attname for f in model._meta.concrete_fields}
    if unknown:
        raise ValueError(f"{model._meta.label}: no columns {sorted(unknown)}")
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(selects)} {source}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, (*values, *params))
        return cursor.rowcount


def _t(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@dataclass
class World:
    superuser: Any
    #: The row whose change page is rendered, per registered model.
    pks: dict[type[Model], Any]
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class _Ctx:
    system: RatingSystem
    period: RatingPeriod
    superuser: Any
    published: PublishedList

    @property
    def stamp(self) -> dict[str, str]:
        return {"ruleset": f"'{self.system.ruleset}'", "engine_version": "'admin-scale'"}


def world_build(
    *, players: int = PLAYERS, games: int = GAMES, log: Callable[[str], None] = print
) -> World:
    """The synthetic federation (demo/synthetic.py, COPY) of ``players`` players and
    ``games`` games; a published list with an entry, a rank and a filter row per player; a
    calculation run with a draft result per player and a line row per tournament; a 500-player
    open; and at least MIN_ROWS rows of every other model the admin shows, so that a list page
    with a query per row breaks the budget. Set-based throughout (COPY, INSERT … SELECT)."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    federation_generate(players=players, games=games, system_code=SYSTEM_CODE)
    timings["federation"] = time.perf_counter() - started
    system = RatingSystem.objects.get(code=SYSTEM_CODE)
    period = RatingPeriod.objects.get(system=system)
    superuser = get_user_model().objects.create_superuser(
        "admin-scale", "admin-scale@example.org", None
    )
    published = PublishedList.objects.create(
        system=system,
        period=period,
        list_date=period.list_date,
        published_at=timezone.now(),
        published_by=superuser,
        ruleset=system.ruleset,
        engine_version="admin-scale",
        entry_count=players,
    )
    ctx = _Ctx(system, period, superuser, published)
    timings["players' list rows"] = _timed(lambda: _list_rows(ctx))
    timings["runs"] = _timed(lambda: _run_rows(ctx, players=players, games=games))
    started = time.perf_counter()
    big_open, protest = _office_rows(ctx)
    _more_rows(ctx)
    _statistics_rows(ctx)
    _external_rows(ctx)
    _licence_rows(ctx)
    _official_rows(ctx)
    _part_and_chain_rows(ctx)
    timings["other rows"] = time.perf_counter() - started

    def check() -> None:
        # The foreign keys checked now, once: else every test's savepoint would check the
        # whole world's deferred constraints again when it ends (2.5 s each; Django's
        # TestCase), then the planner's statistics.
        connection.check_constraints()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    timings["checks, ANALYZE"] = _timed(check)
    log(
        f"admin-scale world: {players:,} players, {games:,} games; "
        + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
    )
    pks: dict[type[Model], Any] = {Tournament: big_open.pk, Protest: protest.pk}
    for model in admin.site._registry:
        if model not in pks:
            pks[model] = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
    return World(superuser=superuser, pks=pks, timings=timings)


def _timed(step: Callable[[], None]) -> float:
    started = time.perf_counter()
    step()
    return time.perf_counter() - started


def _list_rows(ctx: _Ctx) -> None:
    """The published list's entries, ranks, filter rows and filter counts: one per player."""
    insert_select(
        ListEntry,
        {
            "published_list_id": str(ctx.published.pk),
            "player_id": "r.player_id",
            "rating": "r.rating",
            "games": "r.games",
            "status": "'rated'",
            **ctx.stamp,
        },
        f"FROM {_t(PlayerRating)} r WHERE r.system_id = %s",
        (ctx.system.pk,),
    )
    entries = (
        f"FROM {_t(ListEntry)} e JOIN {_t(Player)} p ON p.id = e.player_id "
        "WHERE e.published_list_id = %s"
    )
    insert_select(
        ListRank,
        {
            "published_list_id": "e.published_list_id",
            "player_id": "e.player_id",
            "national": "rank() OVER (ORDER BY e.rating DESC NULLS LAST)",
        },
        entries,
        (ctx.published.pk,),
    )
    insert_select(
        ListFilterCount,
        {
            "published_list_id": "e.published_list_id",
            "section": "'active'",
            "dimension": "'club'",
            "value": "'club ' || e.player_id",
            "entries": "1",
            "active_entries": "1",
        },
        entries,
        (ctx.published.pk,),
    )
    insert_select(
        ListFilterRow,
        {
            "published_list_id": "e.published_list_id",
            "player_id": "e.player_id",
            "rating": "e.rating",
            "change": "e.change",
            "games": "e.games",
            **{c: f"p.{c}" for c in ("name_key", "region", "club", "sex", "title", "birth_year")},
            "active": "true",
        },
        entries,
        (ctx.published.pk,),
    )


def _run_rows(ctx: _Ctx, *, players: int, games: int) -> None:
    """The published run with its draft, and MIN_ROWS older runs without one."""
    run = CalculationRun.objects.create(
        period=ctx.period,
        status="succeeded",
        ruleset=ctx.system.ruleset,
        engine_version="admin-scale",
        method="bulk",
        requested_by=ctx.superuser,
        player_count=players,
        game_count=games,
    )
    insert_select(
        DraftResult,
        {
            "run_id": str(run.pk),
            "player_id": "r.player_id",
            "rating_before": "r.rating",
            "rating_after": "r.rating",
            "status": "'rated'",
            **ctx.stamp,
        },
        f"FROM {_t(PlayerRating)} r WHERE r.system_id = %s",
        (ctx.system.pk,),
    )
    insert_select(
        DraftTournament,
        {"run_id": str(run.pk), "tournament_id": "t.id", **ctx.stamp},
        f"FROM {_t(Tournament)} t WHERE t.rating_system_id = %s",
        (ctx.system.pk,),
    )
    insert_select(
        DraftExcluded,
        {
            "run_id": str(run.pk),
            "tournament_id": "t.id",
            "white_key": "'1'",
            "black_key": "'2'",
            "code": "'forfeit'",
            "reason": "'Forfeit'",
            "article": "'fide-2024 2.3'",
            **ctx.stamp,
        },
        f"FROM {_t(Tournament)} t WHERE t.rating_system_id = %s",
        (ctx.system.pk,),
    )
    # Once the run names its list, its draft is immutable: the draft first.
    run.published_list = ctx.published
    run.save(update_fields=["published_list"])
    insert_select(
        CalculationRun,
        {
            "period_id": str(ctx.period.pk),
            "status": "'failed'",
            "requested_by_id": str(ctx.superuser.pk),
            "requested_at": "now()",
            **ctx.stamp,
        },
        "FROM generate_series(1, %s)",
        (MIN_ROWS,),
    )


def _office_rows(ctx: _Ctx) -> tuple[Tournament, Protest]:
    """The big open, a report and an upload per tournament, protests and their attachments."""
    big_open = Tournament.objects.create(
        name="Big open",
        city="Sitges",
        start_date=ctx.period.start,
        end_date=ctx.period.start,
        system="swiss",
        base_minutes=90,
        increment_seconds=30,
        chief_arbiter="A. Arbiter",
        rating_system=ctx.system,
        period=ctx.period,
        arbiter=ctx.superuser,
    )
    insert_select(
        TournamentPlayer,
        {
            "tournament_id": str(big_open.pk),
            "player_id": "p.id",
            "start_rank": "row_number() OVER (ORDER BY p.id)",
            "name": "p.surname || ', ' || p.given_name",
            "fed_id": "p.fed_id",
        },
        f"FROM {_t(Player)} p ORDER BY p.id LIMIT %s",
        (BIG_OPEN_PLAYERS,),
    )
    user = str(ctx.superuser.pk)
    insert_select(
        Report,
        {
            "tournament_id": "t.id",
            "submission": "1",
            "filename": "'report.trf'",
            "format": "'trf16'",
            "sha256": "''",
            "size": "0",
            "status": "'accepted'",
            "uploaded_by_id": user,
            "uploaded_at": "now()",
        },
        f"FROM {_t(Tournament)} t WHERE t.rating_system_id = %s",
        (ctx.system.pk,),
    )
    insert_select(
        ReportUploadJob,
        {
            "tournament_id": "r.tournament_id",
            "report_id": "r.id",
            "requested_by_id": user,
            "requested_at": "now()",
        },
        f"FROM {_t(Report)} r",
    )
    # Team substitutions (cnxc-2000 7.2) in the big open: rank g handed over to rank g + 1.
    insert_select(
        Substitution,
        {
            "tournament_id": str(big_open.pk),
            "round": "1",
            "side": "CASE WHEN g %% 2 = 0 THEN 'white' ELSE 'black' END",
            "replaced_rank": "g",
            "replaced_moved": "true",
            "substitute_rank": "g + 1",
            "substitute_moved": "true",
            "date": f"'{ctx.period.start.isoformat()}'::date",
            "recorded_by_id": user,
            "recorded_at": "now()",
        },
        "FROM generate_series(1, %s) g",
        (MIN_ROWS,),
    )
    # The officer's decisions: a refusal to rate (fide-2024 0.4) on each of MIN_ROWS
    # tournaments, one of them appealed.
    insert_select(
        TournamentDecision,
        {
            "tournament_id": "t.id",
            "kind": "'refuse_rating'",
            "reason": "'Results not credible'",
            "article": "'fide-2024 0.4'",
            "decided_by_id": user,
            "decided_at": "now()",
            "deadline": "current_date + 7",
            "state": "'in_force'",
            "check_code": "''",
            "appeal_reason": "''",
            "resolution": "''",
        },
        f"FROM {_t(Tournament)} t WHERE t.rating_system_id = %s AND t.id <> %s "
        "ORDER BY t.id LIMIT %s",
        (ctx.system.pk, big_open.pk, MIN_ROWS),
    )
    # The protest of the issue: about one of the federation's games.
    tournament = Tournament.objects.filter(rating_system=ctx.system).exclude(pk=big_open.pk)[0]
    game = Game.objects.filter(tournament=tournament, black__isnull=False).select_related("white")[
        0
    ]
    assert game.white.player_id is not None
    protest = Protest.objects.create(
        published_list=ctx.published,
        player_id=game.white.player_id,
        submitted_by=ctx.superuser,
        tournament=tournament,
        game=game,
        text="Round 1 was a draw.",
    )
    insert_select(
        Protest,
        {
            "published_list_id": "e.published_list_id",
            "player_id": "e.player_id",
            "submitted_by_id": user,
            "submitted_at": "now()",
            "text": "'My rating is wrong.'",
        },
        f"FROM {_t(ListEntry)} e WHERE e.published_list_id = %s AND e.player_id <> %s "
        "ORDER BY e.player_id LIMIT %s",
        (ctx.published.pk, protest.player_id, MIN_ROWS),
    )
    insert_select(
        ProtestAttachment,
        {
            "protest_id": "p.id",
            "name": "'scoresheet.pdf'",
            "content_type": "'application/pdf'",
            "size": "0",
        },
        f"FROM {_t(Protest)} p",
    )
    return big_open, protest


def _external_rows(ctx: _Ctx) -> None:
    """MIN_ROWS ICCF lists (one a day), an entry per player of the first, a calibration per
    run of the period with an entry per player of the first."""
    each = "FROM generate_series(1, %s) g"
    insert_select(
        ExternalList,
        {
            "source": "'iccf'",
            "list_date": f"('{ctx.period.end.isoformat()}'::date - g)",
            "filename": "'iccf-' || g || '.txt'",
            "imported_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    first_list = f"(SELECT min(id) FROM {_t(ExternalList)})"
    insert_select(
        ExternalListEntry,
        {
            "external_list_id": first_list,
            "row": "row_number() OVER (ORDER BY p.id) + 1",
            "ext_id": "p.id",
            "name": "p.surname || ', ' || p.given_name",
            "rating": "2000",
            "player_id": "p.id",
        },
        f"FROM {_t(Player)} p ORDER BY p.id LIMIT %s",
        (MIN_ROWS * 4,),
    )
    insert_select(
        Calibration,
        {
            "run_id": "r.id",
            "period_id": "r.period_id",
            "article": "'cnxc-2000 7.3'",
            "source": "'iccf'",
            "read_on": f"'{ctx.period.end.isoformat()}'::date + 1",
            "reason": "'too_few_players'",
            "created_at": "now()",
        },
        f"FROM {_t(CalculationRun)} r WHERE r.period_id = %s",
        (ctx.period.pk,),
    )
    insert_select(
        CalibrationEntry,
        {
            "calibration_id": f"(SELECT min(id) FROM {_t(Calibration)})",
            "player_id": "p.id",
            "in_both_lists": "TRUE",
            "reference": "2010",
            "rating_before": "2000",
            "rating_after": "2000",
        },
        f"FROM {_t(Player)} p ORDER BY p.id LIMIT %s",
        (MIN_ROWS * 4,),
    )


def _licence_rows(ctx: _Ctx) -> None:
    """MIN_ROWS seasons (one a year, back from 2026) and a licence of the newest season for
    MIN_ROWS * 4 players (players.licences)."""
    insert_select(
        Season,
        {
            "name": "(2026 - g) || '-' || (2027 - g)",
            "start": "make_date(2026 - g, 9, 1)",
            "end": "make_date(2027 - g, 8, 31)",
        },
        "FROM generate_series(0, %s) g",
        (MIN_ROWS,),
    )
    insert_select(
        Licence,
        {
            "player_id": "p.id",
            "season_id": f"(SELECT id FROM {_t(Season)} ORDER BY start DESC LIMIT 1)",
            "category": "'Senior'",
            "club": "p.club",
            "licensed_on": "make_date(2026, 9, 1)",
        },
        f"FROM {_t(Player)} p ORDER BY p.id LIMIT %s",
        (MIN_ROWS * 4,),
    )


def _more_rows(ctx: _Ctx) -> None:
    """MIN_ROWS rows of the other models the admin shows: users, periods and list versions
    of the system, list imports, login attempts."""
    each = "FROM generate_series(1, %s) g"
    insert_select(
        get_user_model(),
        {
            "username": "'user-' || g",
            "password": "'!'",
            "email": "'user-' || g || '@example.org'",
            "date_joined": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    month = f"('{ctx.period.start.isoformat()}'::date - g * interval '1 month')::date"
    insert_select(
        RatingPeriod,
        {
            "system_id": str(ctx.system.pk),
            "start": month,
            "end": f"({month} + interval '1 month' - interval '1 day')::date",
            "closing_date": month,
            "list_date": month,
            "status": "'published'",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        PublishedList,
        {
            "system_id": str(ctx.system.pk),
            "period_id": str(ctx.period.pk),
            "version": "g + 1",
            "list_date": f"'{ctx.period.list_date.isoformat()}'::date",
            "published_at": "now()",
            **ctx.stamp,
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        ListImportJob,
        {
            "system_id": str(ctx.system.pk),
            "requested_by_id": str(ctx.superuser.pk),
            "requested_at": "now()",
            "format": "'csv'",
            "filename": "'list-' || g || '.csv'",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(ListImportChunk, {"job_id": "j.id", "seq": "0"}, f"FROM {_t(ListImportJob)} j")
    attempt = {
        "ip_address": "'192.0.2.1'",
        "username": "'someone-' || g",
        "path_info": "'/admin/login/'",
        "user_agent": "'probe'",
        "http_accept": "'*/*'",
        "attempt_time": "now()",
    }
    insert_select(
        AccessAttempt,
        {**attempt, "failures_since_start": "1", "get_data": "''", "post_data": "''"},
        each,
        (MIN_ROWS,),
    )
    insert_select(AccessLog, attempt, each, (MIN_ROWS,))
    insert_select(AccessFailureLog, attempt, each, (MIN_ROWS,))
    # Players' erasure requests (docs/privacy.md): one per player, a third pending.
    insert_select(
        ErasureRequest,
        {
            "player_id": f"(SELECT id FROM {_t(Player)} ORDER BY id OFFSET g LIMIT 1)",
            "note": "'Please erase my data.'",
            "status": "CASE WHEN g %% 3 = 0 THEN 'pending' ELSE 'refused' END",
            "outcome": "''",
            "created_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    # Claims and correction requests (docs/accounts.md), decided: no pending one per user.
    player_g = f"(SELECT id FROM {_t(Player)} ORDER BY id OFFSET g LIMIT 1)"
    user_g = f"(SELECT id FROM {_t(get_user_model())} ORDER BY id OFFSET g LIMIT 1)"
    insert_select(
        ClaimRequest,
        {
            "user_id": user_g,
            "player_id": player_g,
            "method": "'fide_id'",
            "status": "'refused'",
            "reason": "'Not him.'",
            "created_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        CorrectionRequest,
        {
            "player_id": player_g,
            "requested_by_id": user_g,
            "changes": """'{"club": "Sants"}'::jsonb""",
            "previous": """'{"club": ""}'::jsonb""",
            "status": "'refused'",
            "reason": "'No.'",
            "created_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    # Live ratings (docs/live-ratings.md): the open period's figures of MIN_ROWS players.
    insert_select(
        LiveRating,
        {
            "player_id": player_g,
            "system_id": str(ctx.system.pk),
            "period_id": str(ctx.period.pk),
            "status": "'rated'",
            "regulation_version": f"'{ctx.system.ruleset}/2'",
            "computed_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    # FIDE differentials (fce 9.5): one a year, every other one published.
    insert_select(
        Differential,
        {
            "system_id": str(ctx.system.pk),
            "computed_at": "now() - g * interval '1 day'",
            "players": "1000 + g",
            "mean": "(g %% 40)::numeric + 0.25",
            "overall": "g %% 40",
            "bands": "'[]'::jsonb",
            "status": "CASE WHEN g %% 2 = 0 THEN 'published' ELSE 'draft' END",
            "effective_date": "CASE WHEN g %% 2 = 0 THEN make_date(1950 + g, 1, 1) END",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        OutboxMail,
        {
            "kind": "'protest.submitted'",
            "recipients": "ARRAY['player-' || g || '@example.org']",
            "subject": "'Your protest has been received'",
            "body": "''",
            "html": "''",
            "status": "CASE WHEN g %% 3 = 0 THEN 'failed' ELSE 'sent' END",
            "attempts": "1",
            "last_error": "''",
            "created_at": "now()",
            "next_attempt_at": "now()",
        },
        each,
        (MIN_ROWS,),
    )
    # Notices (notices/): one and a preference per user, the notices of each list version.
    users = f"FROM {_t(get_user_model())} u"
    notice = {"user_id": "u.id", "kind": "'event_rated'", "created_at": "now()"}
    insert_select(Notice, {**notice, "subject": "'Rated: ' || u.username", "text": "'x'"}, users)
    insert_select(NoticePreference, {"user_id": "u.id"}, users)
    insert_select(
        ListNotices,
        {"published_list_id": "l.id", "requested_at": "now()"},
        f"FROM {_t(PublishedList)} l",
    )


def _statistics_rows(ctx: _Ctx) -> None:
    """The scale's health (ratings.statistics): the figures of every list version, and a
    drift check's settings for MIN_ROWS rating systems of their own."""
    each = "FROM generate_series(1, %s) g"
    insert_select(
        ListStatistics,
        {
            "published_list_id": "l.id",
            "system_id": "l.system_id",
            "list_date": "l.list_date",
            "scope": "'all'",
            "group": "''",
            "players": "l.entry_count",
            "active": "l.entry_count",
            "new": "0",
            "mean": "2000",
            "top50": "2400",
            "computed_at": "now()",
        },
        f"FROM {_t(PublishedList)} l",
    )
    insert_select(
        RatingSystem,
        {
            "code": "'scale-' || g",
            "name": "'Scale ' || g",
            "ruleset": "'feda-1996'",
            "rate_of_play": "'standard'",
            "cycle": "'semestral'",
            "is_active": "false",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        ScaleMonitoring,
        {"system_id": "s.id", "threshold": "10", "lists": "4", "updated_at": "now()"},
        f"FROM {_t(RatingSystem)} s WHERE s.code LIKE 'scale-%%'",
    )
    # Effective dates: every system's timeline, its own regulation set and fide-2024 from
    # 1 March 2024 (fide-2024 0.1).
    insert_select(
        SystemRuleset,
        {
            "system_id": "s.id",
            "ruleset": "r.ruleset",
            "effective_from": "r.day",
            "created_at": "now()",
        },
        f"FROM {_t(RatingSystem)} s CROSS JOIN LATERAL (VALUES (s.ruleset, DATE '2000-01-01'), "
        "('fide-2024', DATE '2024-03-01')) AS r(ruleset, day)",
    )


def _official_rows(ctx: _Ctx) -> None:
    """MIN_ROWS arbiters and organisers of the registry (tournaments.officials), each state,
    registered and decided by the superuser; some of the system's tournaments name the first."""
    each = "FROM generate_series(1, %s) g"
    state = "CASE g %% 3 WHEN 0 THEN 'pending' WHEN 1 THEN 'approved' ELSE 'refused' END"
    user = str(ctx.superuser.pk)
    insert_select(
        Arbiter,
        {
            "name": "'Arbiter ' || g",
            "fide_id": "22400000 + g",
            "title": "CASE g %% 4 WHEN 0 THEN 'IA' WHEN 1 THEN 'FA' WHEN 2 THEN 'NA' ELSE '' END",
            "category": "CASE g %% 3 WHEN 0 THEN 'national' WHEN 1 THEN 'regional' "
            "ELSE 'provincial' END",
            "state": state,
            "registered_by_id": user,
            "decided_by_id": user,
            "registered_at": "now()",
            "reason": "''",
        },
        each,
        (MIN_ROWS,),
    )
    insert_select(
        Organiser,
        {
            "name": "'Club ' || g",
            "contact": "'club-' || g || '@example.org'",
            "state": state,
            "registered_by_id": user,
            "decided_by_id": user,
            "registered_at": "now()",
            "reason": "''",
        },
        each,
        (MIN_ROWS,),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_t(Tournament)} SET chief_arbiter_record_id = "
            f"(SELECT min(id) FROM {_t(Arbiter)}), organiser_id = (SELECT min(id) FROM "
            f"{_t(Organiser)}) WHERE id IN (SELECT id FROM {_t(Tournament)} "
            f"WHERE rating_system_id = %s ORDER BY id LIMIT {MIN_ROWS * 4})",
            (ctx.system.pk,),
        )


def _part_and_chain_rows(ctx: _Ctx) -> None:
    """A part (tournaments rated in parts) of MIN_ROWS of the system's tournaments, in the
    system's period, and MIN_ROWS finished re-rating chains of the system."""
    insert_select(
        TournamentPart,
        {"tournament_id": "t.id", "number": "1", "period_id": str(ctx.period.pk)},
        f"FROM {_t(Tournament)} t WHERE t.rating_system_id = %s ORDER BY t.id LIMIT %s",
        (ctx.system.pk, MIN_ROWS),
    )
    insert_select(
        RerateChain,
        {
            "system_id": str(ctx.system.pk),
            "first_period_id": str(ctx.period.pk),
            "periods": f"ARRAY[{ctx.period.pk}]::bigint[]",
            "periods_done": "1",
            "status": "'succeeded'",
            "progress": "100",
            "requested_at": "now()",
            "note": "''",
            "phase": "''",
        },
        "FROM generate_series(1, %s) g",
        (MIN_ROWS,),
    )
