"""Publication: the current draft becomes an immutable list version; player states advance."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import Refused
from core.jobs import ACTIVE_JOB_STATUSES
from core.pg.connections import tune_transaction
from core.pg.ids import reserve_id
from core.pg.planner import planner_refresh
from core.timing import StepTimer
from periods.models import PeriodStatus, RatingPeriod
from periods.services import period_open_next
from rating_engine.list_layout import list_layout_of
from rating_engine.registry import get_regulation
from ratings.calculation.selectors import run_draft
from ratings.calculation.states import previous_list
from ratings.models import CalculationRun, PublishedList
from ratings.publication.counts import list_filter_counts_write
from ratings.publication.ranks import active_sql, ranked_sql
from ratings.publication.sections import section_sql
from ratings.publication.signals import list_published
from ratings.statistics.services import list_statistics_publish_step
from tournaments.models import Tournament

log = logging.getLogger(__name__)


# fide-2024 8.2.4: a first rating is "rated since" this list; a rating that stays keeps its date;
# no rating, no date (below the floor he is listed as unrated from now on, 7.2.1).
_RATED_SINCE_SQL = (
    "CASE WHEN d.rating_after IS NULL THEN NULL WHEN d.rating_before IS NULL "
    "THEN %(list_date)s ELSE cur.rated_since END"
)
_KIND_SQL = (
    "CASE WHEN d.status = 'provisional' THEN 'provisional' "
    "WHEN d.rating_after IS NULL THEN 'unrated' ELSE 'effective' END"
)
_ACTIVITY_SQL = (
    "CASE WHEN d.status = 'inactive' OR d.inactive THEN 'inactive' "
    "WHEN d.status = 'passive' THEN 'passive' ELSE 'active' END"
)


def carry_source(*, period: RatingPeriod) -> tuple[str, list[Any]]:
    """The entries of players the run did not touch, unchanged: from the list in force (the
    latest version of the previous period's list) or, with none, from the players' state."""
    previous = previous_list(period=period)
    if previous is not None:
        return (
            "SELECT player_id, rating, total_games AS games, "
            "CASE WHEN status = 'new' THEN 'rated' ELSE status END AS status, inactive, "
            "provisional, "
            # Lists published before issue 24 have no count: an inactive entry counts as one.
            "COALESCE(inactive_lists, CASE WHEN inactive THEN 1 ELSE 0 END) AS inactive_lists "
            "FROM ratings_listentry WHERE published_list_id = %s",
            [previous.pk],
        )
    return (
        "SELECT player_id, rating, games, CASE WHEN out_of_list THEN 'out_of_list' "
        "WHEN activity = 'inactive' THEN 'inactive' WHEN activity = 'passive' THEN 'passive' "
        "WHEN kind = 'provisional' THEN 'provisional' ELSE 'rated' END AS status, "
        "activity = 'inactive' AS inactive, kind = 'provisional' AS provisional, "
        "flagged_lists AS inactive_lists "
        "FROM ratings_playerrating WHERE system_id = %s",
        [period.system_id],
    )


def licensed_source(
    *,
    period: RatingPeriod,
    run: CalculationRun,
    list_id: int,
    carry_sql: str,
    carry_params: list[Any],
) -> tuple[str, list[Any]]:
    """The list's licensed players whom neither the run nor the carried entries list, as a
    ``UNION ALL`` branch of the entries, when the regulation's facts say so (fce 9.2: "tots els
    jugadors que tinguin tramitada la llicència ... a l'actual temporada"): the season in force
    on the list date, each player without a rating ("unrated"). Empty otherwise."""
    rule = get_regulation(run.ruleset).facts.lists.licensed_players
    if rule is None or not rule.value:
        return "", []
    sql = f"""UNION ALL
                   SELECT %s, l.player_id, NULL, 0, NULL, 0, 0, 'unrated', false, false,
                          %s, %s, %s, 0
                   FROM (
                       -- A merged record's licence counts for the kept one (docs/registry.md).
                       SELECT DISTINCT COALESCE(p.merged_into_id, p.id) AS player_id
                       FROM players_licence li JOIN players_season s ON s.id = li.season_id
                       JOIN players_player p ON p.id = li.player_id
                       WHERE s.start <= %s AND s."end" >= %s
                   ) l
                   WHERE NOT EXISTS (SELECT 1 FROM ratings_draftresult x
                                     WHERE x.run_id = %s AND x.player_id = l.player_id)
                     AND NOT EXISTS (SELECT 1 FROM ({carry_sql}) c
                                     WHERE c.player_id = l.player_id AND c.rating IS NOT NULL)"""
    params = [
        list_id,
        run.ruleset,
        run.engine_version,
        run.regulation_version,
        period.list_date,
        period.list_date,
        run.pk,
        *carry_params,
    ]
    return sql, params


def list_publish(*, period: RatingPeriod, user: Any = None, note: str = "") -> PublishedList:
    """The current draft becomes an immutable list version (n+1 after a correction); player
    states advance (unless a later period is already published), tournaments go to
    "published", and the next period opens."""
    with transaction.atomic():
        period = RatingPeriod.objects.select_for_update().select_related("system").get(pk=period.pk)
        run = _draft_to_publish(period=period)
        version = _list_version_next(period=period)
        now = timezone.now()
        # The list row and its entries are written by one statement (a data-modifying WITH): the
        # row needs the entry count and is immutable once written, and the entries' references
        # are checked at the end of that statement (ratings migration 0005).
        list_id = reserve_id("ratings_publishedlist")
        published_by = user if getattr(user, "is_authenticated", False) else None
        timer = StepTimer(f"publish period {period.pk}", log)
        with connection.cursor() as cursor:
            tune_transaction()
            published = _list_write(
                cursor=cursor,
                period=period,
                run=run,
                list_id=list_id,
                version=version,
                now=now,
                published_by=published_by,
                note=note,
            )
            timer.step("list entries")
            # The planner learns the new list at once: its pages are asked for from the commit
            # on (core.pg.planner; 3 s for a table of 10 million entries). Only the list's key:
            # the other columns' figures do not hinge on one more list.
            planner_refresh(tables=["ratings_listentry"], columns=["published_list_id"])
            timer.step("analyze")
            # The scale's health (feda-1996 11.1, fide-2000 12.3): the list's figures by one
            # statement, and the drift check, in this transaction (docs/periods.md).
            list_statistics_publish_step(published=published, snapshot=True)
            timer.step("statistics")
            # Issue 29: what the page's common filters keep, by one statement, so the first
            # page of a filter reads its count (ratings.publication.counts).
            list_filter_counts_write(published=published)
            timer.step("filter counts")
            later = _later_list_exists(period=period)
            if not later:
                _player_states_advance(cursor=cursor, period=period, run=run, now=now)
                timer.step("player states")
        _run_period_tournaments_mark(period=period, run=run, published=published, now=now)
        _list_published_announce(period=period, published=published)
        _next_periods_update(period=period, later=later)
        timer.step("periods and tournaments")
    timer.step("commit")
    return published


def _draft_to_publish(*, period: RatingPeriod) -> CalculationRun:
    """The run whose draft is published: refused while a calculation runs, or with no new
    draft."""
    if period.runs.filter(status__in=ACTIVE_JOB_STATUSES).exists():
        raise Refused(_("A calculation of this period is running; publish when it has finished."))
    run = run_draft(period=period)
    if run is not None and run.published_list_id is not None:
        # A second click or a second tab: say what the first one did.
        raise Refused(list_published_already(period=period))
    if run is None:
        raise Refused(_("There is no new draft to publish: calculate the period first."))
    return run


def list_published_already(*, period: RatingPeriod) -> str:
    """What publishing again is told when the draft is already published (a double click, a
    second tab): which version, by whom and when, and that a new one needs a new calculation."""
    latest = period.lists.select_related("published_by").order_by("-version").first()
    if latest is None:
        return _("There is no new draft to publish: calculate the period first.")
    by = latest.published_by.get_username() if latest.published_by else _("the system")
    when = date_format(timezone.localtime(latest.published_at), "DATETIME_FORMAT")
    return _(
        "Version %(version)s of this list was already published by %(by)s on %(when)s. There "
        "is no new draft to publish: a new version needs a new calculation."
    ) % {"version": latest.version, "by": by, "when": when}


def _list_version_next(*, period: RatingPeriod) -> int:
    """1 for the first list of the period, n+1 for a correction."""
    version = (period.lists.order_by("-version").values_list("version", flat=True).first() or 0) + 1
    return version


def _list_write(
    *,
    cursor: Any,
    period: RatingPeriod,
    run: CalculationRun,
    list_id: int,
    version: int,
    now: dt.datetime,
    published_by: Any,
    note: str,
) -> PublishedList:
    """The list row and its entries, in one statement: the run's draft rows, and the entries of
    the players the run did not touch carried over unchanged (carry_source)."""
    carry_sql, carry_params = carry_source(period=period)
    licensed_sql, licensed_params = licensed_source(
        period=period, run=run, list_id=list_id, carry_sql=carry_sql, carry_params=carry_params
    )
    # The section (issue 24 item 2) from the regulation's facts, and what the list publishes
    # of the player as he is now (title, federation, region, club, birth date: a snapshot,
    # issue 24 item 1), joined once to the players.
    section = section_sql(layout=list_layout_of(run.ruleset), entry="e", player="p")
    # Issue 27 item 1: the entries' ranks and filter columns by the same statement
    # (ranked_sql), so the list is never shown without them and no task rewrites the list.
    source = f"""SELECT e.*, {section}, p.title, p.federation, p.region, p.club,
                          p.birth_date, p.birth_year, p.name_key, p.sex,
                          {active_sql(entry="e")} AS active
                   FROM (
                   SELECT %s AS published_list_id, d.player_id, d.rating_after AS rating,
                   d.change, d.k, d.games, d.total_games, d.status,
                          d.inactive, d.provisional, d.ruleset, d.engine_version,
                          d.regulation_version,
                          CASE WHEN d.inactive THEN GREATEST(d.flagged_lists, 1) ELSE 0 END
                          AS inactive_lists
                   FROM ratings_draftresult d WHERE d.run_id = %s
                   UNION ALL
                   SELECT %s, c.player_id, c.rating, 0, NULL, 0, c.games, c.status, c.inactive,
                   c.provisional,
                          %s, %s, %s,
                          CASE WHEN c.inactive THEN GREATEST(c.inactive_lists, 1) ELSE 0 END
                   FROM ({carry_sql}) c
                   WHERE c.rating IS NOT NULL AND NOT EXISTS (
                       SELECT 1 FROM ratings_draftresult x WHERE x.run_id = %s AND x.player_id =
                       c.player_id)
                   {licensed_sql}
                   ) AS e JOIN players_player p ON p.id = e.player_id
                   -- fide-2024 10.2: a deceased player leaves the lists from this publication
                   -- on (his record and his earlier entries stay; docs/lists.md).
                   WHERE p.deceased_on IS NULL"""
    # The columns in the order of the source's, then the four ranks ranked_sql adds.
    entries_sql = f"""INSERT INTO ratings_listentry (published_list_id, player_id, rating,
                change, k, games,
                       total_games, status, inactive, provisional, ruleset, engine_version,
                       regulation_version, inactive_lists, section, title, federation, region,
                       club, birth_date, birth_year, name_key, sex, active, rank_national,
                       rank_region, rank_club, rank_active)
                   {ranked_sql(source=source)}"""
    entries_params = [
        list_id,
        run.pk,
        list_id,
        run.ruleset,
        run.engine_version,
        # A carried entry names the list's regulation and version: the run that decided
        # to carry it (docs/engine.md "Versions: when to bump").
        run.regulation_version,
        *carry_params,
        run.pk,
        *licensed_params,
    ]
    list_values = [
        list_id,
        period.system_id,
        period.pk,
        version,
        period.list_date,
        now,
        getattr(published_by, "pk", None),
        run.ruleset,
        run.engine_version,
        run.regulation_version,
        note,
    ]
    cursor.execute(
        f"""WITH entries AS ({entries_sql} RETURNING 1)
                    INSERT INTO ratings_publishedlist (id, system_id, period_id, version, list_date,
                        published_at, published_by_id, ruleset, engine_version, regulation_version,
                        note, entry_count)
                    SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, count(*) FROM entries""",
        [*entries_params, *list_values],
    )
    published = PublishedList.objects.get(pk=list_id)
    return published


def _later_list_exists(*, period: RatingPeriod) -> bool:
    """A list of a later period of the system is already published (this one is a
    correction of an old list)."""
    later = RatingPeriod.objects.filter(
        system=period.system, start__gt=period.start, status=PeriodStatus.PUBLISHED
    ).exists()
    return later


def _player_states_advance(
    *, cursor: Any, period: RatingPeriod, run: CalculationRun, now: dt.datetime
) -> None:
    """The players' states advance to the draft's (PlayerRating), with the list date as
    "rated since" of a first rating."""
    # Existing states: one UPDATE … FROM of the rows that change; new players: INSERT.
    cursor.execute(
        f"""UPDATE ratings_playerrating cur SET rating = d.rating_after, games =
                    d.total_games,
                           kind = {_KIND_SQL}, activity = {_ACTIVITY_SQL}, out_of_list = d.status =
                               'out_of_list',
                           reached_2400 = d.reached_2400, reached_2200 = d.reached_2200,
                           last_game_date = d.last_game_date, flagged_lists = d.flagged_lists,
                           prior_results = COALESCE(d.prior_results, cur.prior_results), ruleset =
                               d.ruleset,
                           engine_version = d.engine_version, updated_at = %(now)s, rated_since =
                               {_RATED_SINCE_SQL}, regulation_version = d.regulation_version
                       FROM ratings_draftresult d
                       WHERE d.run_id = %(run)s AND cur.player_id = d.player_id AND cur.system_id =
                       %(system)s
                         AND ((cur.rating, cur.games, cur.kind, cur.activity, cur.out_of_list,
                         cur.flagged_lists,
                               cur.last_game_date, cur.engine_version, cur.reached_2400,
                               cur.reached_2200,
                               cur.rated_since, cur.regulation_version)
                              IS DISTINCT FROM (d.rating_after, d.total_games, {_KIND_SQL},
                              {_ACTIVITY_SQL},
                               d.status = 'out_of_list', d.flagged_lists, d.last_game_date,
                               d.engine_version,
                               d.reached_2400, d.reached_2200, {_RATED_SINCE_SQL},
                               d.regulation_version)
                           OR (d.prior_results IS NOT NULL
                               AND d.prior_results::text <> cur.prior_results::text))""",
        {
            "now": now,
            "run": run.pk,
            "system": period.system_id,
            "list_date": period.list_date,
        },
    )
    cursor.execute(
        f"""INSERT INTO ratings_playerrating (player_id, system_id, rating, games,
                    kind, activity,
                           out_of_list, reached_2400, reached_2200, last_game_date, flagged_lists,
                           prior_results,
                           ruleset, engine_version, updated_at, rated_since, regulation_version)
                       SELECT d.player_id, %(system)s, d.rating_after, d.total_games, {_KIND_SQL},
                       {_ACTIVITY_SQL},
                              d.status = 'out_of_list', d.reached_2400, d.reached_2200,
                              d.last_game_date,
                              d.flagged_lists, COALESCE(d.prior_results, '[]'), d.ruleset,
                              d.engine_version, %(now)s,
                              CASE WHEN d.rating_after IS NOT NULL THEN %(list_date)s END,
                              d.regulation_version
                       FROM ratings_draftresult d
                       WHERE d.run_id = %(run)s AND NOT EXISTS (
                           SELECT 1 FROM ratings_playerrating x
                           WHERE x.player_id = d.player_id AND x.system_id = %(system)s)""",
        {
            "now": now,
            "run": run.pk,
            "system": period.system_id,
            "list_date": period.list_date,
        },
    )


def _run_period_tournaments_mark(
    *, period: RatingPeriod, run: CalculationRun, published: PublishedList, now: dt.datetime
) -> None:
    """The run points at its list; the period and its tournaments are published."""
    CalculationRun.objects.filter(pk=run.pk).update(published_list=published)
    RatingPeriod.objects.filter(pk=period.pk).update(
        status=PeriodStatus.PUBLISHED, published_at=now, needs_recalculation=False
    )
    Tournament.objects.filter(period=period, status__in=("validated", "rated")).update(
        status="published", published_at=now
    )


def _list_published_announce(*, period: RatingPeriod, published: PublishedList) -> None:
    """The apps above hear of the new list in this transaction (the protests app links the
    upheld protests against an earlier version of this list to this correction)."""
    list_published.send(sender=PublishedList, published=published, period=period)


def _next_periods_update(*, period: RatingPeriod, later: bool) -> None:
    """After a correction of an old list, the later periods need a recalculation; after a
    first list, the next period opens."""
    if later:
        # A correction of an old list: every later list must be re-rated from it.
        RatingPeriod.objects.filter(
            system=period.system, start__gt=period.start, status=PeriodStatus.PUBLISHED
        ).update(needs_recalculation=True)
    elif not RatingPeriod.objects.filter(
        Q(start__gt=period.start) | Q(status=PeriodStatus.OPEN), system=period.system
    ).exists():
        # The first version of this list opens the next period; a correction (version n+1)
        # finds it already there and opens nothing more.
        period_open_next(system=period.system)
