"""Reads for rating periods, calculation runs, drafts, published lists and protests.

Cycles (docs/periods.md): the period a day belongs to is pure date arithmetic on the system's
cycle and regulation; `period_for_tournament` applies the assignment rules (end date, closing
date, late reports to the next list, too-late reports refused).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from players.roles import RATING_OFFICER, user_has_role
from ratings.engine.errors import UnknownRulesetError
from ratings.engine.registry import get_regulation
from ratings.models import (
    CalculationRun,
    DraftExcluded,
    DraftResult,
    DraftTournament,
    ListCycle,
    ListEntry,
    PeriodStatus,
    Protest,
    ProtestStatus,
    PublishedList,
    RatingPeriod,
    RatingSystem,
    RunStatus,
)


def user_is_officer(*, user: Any) -> bool:
    return user_has_role(user, RATING_OFFICER)


# --------------------------------------------------------------------------- cycles


@dataclass(frozen=True)
class PeriodDates:
    start: dt.date
    end: dt.date
    closing_date: dt.date
    list_date: dt.date


def _month_start(day: dt.date, add: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 + add
    return dt.date(index // 12, index % 12 + 1, 1)


def period_dates(*, system: RatingSystem, day: dt.date) -> PeriodDates:
    """The period of `system` that contains `day`.

    - monthly (fide-2024, fce, fide-2000 when monthly): the calendar month; list on the 1st of
      the next month; reports close on the last day.
    - quarterly (fide-2000): Jan–Mar, Apr–Jun, Jul–Sep, Oct–Dec.
    - semestral feda-1996: 1 Dec–31 May and 1 Jun–30 Nov (closing dates 31 May / 30 Nov),
      lists of 1 July and 1 January.
    - semestral cnxc-2000 (and any other): Jan–Jun, Jul–Dec by the date competitions finished.
    """
    if system.cycle == ListCycle.MONTHLY:
        start = _month_start(day)
        months = 1
    elif system.cycle == ListCycle.QUARTERLY:
        start = dt.date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
        months = 3
    elif system.ruleset == "feda-1996":
        # Semesters start on 1 December and 1 June.
        if day.month == 12:
            start = dt.date(day.year, 12, 1)
        elif day.month <= 5:
            start = dt.date(day.year - 1, 12, 1)
        else:
            start = dt.date(day.year, 6, 1)
        end = _month_start(start, 6) - dt.timedelta(days=1)
        return PeriodDates(start, end, end, _month_start(end, 2))
    else:
        start = dt.date(day.year, 1 if day.month <= 6 else 7, 1)
        months = 6
    end = _month_start(start, months) - dt.timedelta(days=1)
    return PeriodDates(start, end, end, end + dt.timedelta(days=1))


def period_current_open(*, system: RatingSystem) -> RatingPeriod | None:
    return system.periods.filter(status=PeriodStatus.OPEN).order_by("start").first()


@dataclass(frozen=True)
class Assignment:
    """Where a tournament's report goes: `period` (None when refused), `late` (goes to a later
    list than its own because it arrived after the closing date), `reason` when refused."""

    period: RatingPeriod | None
    late: bool = False
    reason: str = ""


def month_end_allowance_days(*, system: RatingSystem, end_date: dt.date) -> int:
    """The regulation's month-end allowance (fide-2024 9.1: 5 days) when it applies to a
    tournament of `system` ending on `end_date` — it may go to the next list as a regular
    report —, else 0. Monthly lists only (the allowance is about the month's list)."""
    if system.cycle != ListCycle.MONTHLY:
        return 0
    try:
        regulation = get_regulation(system.ruleset)
    except UnknownRulesetError:
        return 0
    return regulation.month_end_allowance_days if regulation.month_end_allowance(end_date) else 0


def period_for_tournament(*, tournament: Any, received_on: dt.date | None = None) -> Assignment:
    """The period a tournament is rated in, by its regulation's cycle.

    The tournament goes to the period containing its end date if that period is still open and
    the report arrived by its closing date; a report received after the closing date (or after
    the period was closed) goes to the next period (a late report), if that one is open; later
    than that it is refused.

    fide-2024 9.1: "si quedan cinco días o menos desde el último día del torneo hasta el final
    del mes, quedará para la siguiente lista". DECISION: for such a tournament the next period
    is its own too: it goes to the end date's period if it can (open, received by its closing
    date), else to the next one as a regular report (not late); a late report goes one period
    further, and later than that it is refused — every step one list later.
    """
    system = tournament.rating_system
    if received_on is None:
        received = tournament.report_received_at
        received_on = timezone.localdate(received) if received else timezone.localdate()
    chain = [period_dates(system=system, day=tournament.end_date)]
    allowance = month_end_allowance_days(system=system, end_date=tournament.end_date)
    regular = 2 if allowance else 1
    while len(chain) < regular + 1:
        chain.append(period_dates(system=system, day=chain[-1].end + dt.timedelta(days=1)))
    for step, dates in enumerate(chain):
        late = step >= regular
        period = RatingPeriod.objects.filter(system=system, start=dates.start).first()
        if period is not None and period.status == PeriodStatus.OPEN and received_on <= period.closing_date:
            return Assignment(period, late=late)
        if period is None and received_on <= dates.closing_date:
            if step == 1:
                reason = _("The next period (%(start)s) is not open yet.") % {"start": dates.start}
            else:
                reason = _("The period %(start)s – %(end)s is not open yet.") % {
                    "start": dates.start, "end": dates.end}
            return Assignment(None, late=late, reason=reason)
    if regular == 1:
        return Assignment(None, late=True, reason=_(
            "Too late: the report arrived after the closing date of the next list (%(closing)s)."
        ) % {"closing": chain[-1].closing_date})
    return Assignment(None, late=True, reason=_(
        "Too late: the tournament ended %(days)s days or less before the end of the month, so it "
        "went to the next list, and the report arrived after the closing date of the list after "
        "that (%(closing)s)."
    ) % {"days": allowance, "closing": chain[-1].closing_date})


# --------------------------------------------------------------------------- runs and drafts


def run_latest(*, period: RatingPeriod) -> CalculationRun | None:
    return period.runs.order_by("-requested_at", "-id").first()


def run_draft(*, period: RatingPeriod) -> CalculationRun | None:
    """The run whose rows are the period's current draft: the latest succeeded one."""
    return period.runs.filter(status=RunStatus.SUCCEEDED).order_by("-finished_at", "-id").first()


def run_progress(*, run: CalculationRun | None) -> dict[str, Any]:
    if run is None:
        return {"run": None, "status": "", "progress": 0, "phase": "", "done": True}
    return {
        "run": run.pk, "status": run.status, "progress": run.progress, "phase": run.phase,
        "done": run.status not in (RunStatus.QUEUED, RunStatus.RUNNING), "error": run.error,
        "players": run.player_count, "games": run.game_count,
    }


def draft_changes_by_tournament(*, run: CalculationRun) -> list[dict[str, Any]]:
    """Per tournament: game lines, rated players, sum and extremes of the changes."""
    from django.db.models import Count

    from tournaments.models import Tournament

    rows = list(
        DraftTournament.objects.filter(run=run).order_by("tournament_id")
        .values("tournament_id", "line_count", "player_count", "change_sum", "change_max", "change_min")
    )
    names = dict(Tournament.objects.filter(id__in=[r["tournament_id"] for r in rows]).values_list("id", "name"))
    excluded = dict(
        DraftExcluded.objects.filter(run=run).values("tournament_id").order_by("tournament_id")
        .annotate(n=Count("id")).values_list("tournament_id", "n")
    )
    return [
        {"tournament_id": r["tournament_id"], "name": names.get(r["tournament_id"], "?"), "lines": r["line_count"],
         "players": r["player_count"], "total": r["change_sum"], "best": r["change_max"], "worst": r["change_min"],
         "excluded": excluded.get(r["tournament_id"], 0)}
        for r in rows
    ]


def draft_status_changes(*, run: CalculationRun) -> QuerySet[DraftResult]:
    """Players whose status changes (new, out of list, inactive, active again) or who carry a
    flag (floor, inactivity, provisional, …)."""
    from django.db.models import Q

    return (
        DraftResult.objects.filter(run=run)
        .filter(~Q(status="rated") | ~Q(flags=[]) | ~Q(previous_status=""))
        .exclude(status="unrated", previous_status="", flags=[])
        .select_related("player")
        .order_by("status", "player__surname")
    )


@dataclass(frozen=True)
class GameLine:
    tournament_id: int
    opponent: Any  # Player or None
    opponent_key: str
    opponent_rating: int | None
    score: float
    expected: float
    change: float
    k: int


def draft_player(*, run: CalculationRun, player_id: int) -> dict[str, Any]:
    """The per-player calculation table: result, game lines and the games left out."""
    from players.models import Player
    from tournaments.models import Tournament, TournamentPlayer

    result = DraftResult.objects.filter(run=run, player_id=player_id).select_related("player").first()
    played_in = TournamentPlayer.objects.filter(player_id=player_id, tournament__period_id=run.period_id).values(
        "tournament_id")
    raw = []
    for row in DraftTournament.objects.filter(run=run, tournament_id__in=played_in).order_by("tournament_id"):
        lines = row.decode()
        for line in lines[lines["player"] == player_id]:
            raw.append((row.tournament_id, line))
    opponents = Player.objects.in_bulk([int(line["opponent"]) for _t, line in raw if line["opponent"] > 0])
    lines_out = [
        GameLine(
            tournament_id=t, opponent=opponents.get(int(line["opponent"])),
            opponent_key=str(line["opponent"]) if line["opponent"] > 0 else f"tp{-int(line['opponent'])}",
            opponent_rating=None if line["opponent_rating"] < 0 else int(line["opponent_rating"]),
            score=int(line["score2"]) / 2, expected=round(float(line["expected"]), 4),
            change=round(float(line["change"]), 4), k=int(line["k"]),
        )
        for t, line in raw
    ]
    key = str(player_id)
    excluded = list(DraftExcluded.objects.filter(run=run).filter(white_key=key)
                    | DraftExcluded.objects.filter(run=run, black_key=key))
    tournaments = dict(Tournament.objects.filter(
        id__in={line.tournament_id for line in lines_out} | {e.tournament_id for e in excluded}
    ).values_list("id", "name"))
    return {"result": result, "lines": lines_out, "excluded": excluded, "tournaments": tournaments}


# --------------------------------------------------------------------------- lists


def player_list_history(*, player_id: int, limit: int = 200) -> QuerySet[ListEntry]:
    """The player's entry in every published list version, by system, newest first.

    The entries have no index on the player alone (it would slow every publication); the
    unique (list, player) index answers this with one probe per published list."""
    list_ids = list(PublishedList.objects.values_list("id", flat=True))
    return (
        ListEntry.objects.filter(published_list_id__in=list_ids, player_id=player_id)
        .select_related("published_list", "published_list__system")
        .order_by("published_list__system__name", "-published_list__list_date", "-published_list__version")[:limit]
    )


def list_latest_version(*, period: RatingPeriod) -> PublishedList | None:
    return period.lists.order_by("-version").first()


def list_diff(*, published: PublishedList, limit: int = 2000) -> tuple[PublishedList | None, list[dict[str, Any]]]:
    """Version n against version n-1 of the same period: every player whose entry differs."""
    previous = PublishedList.objects.filter(period=published.period, version=published.version - 1).first()
    if previous is None:
        return None, []
    sql = """
        SELECT COALESCE(n.player_id, o.player_id) AS player_id, o.rating, n.rating,
               o.status, n.status, o.change, n.change
        FROM (SELECT * FROM ratings_listentry WHERE published_list_id = %s) n
        FULL OUTER JOIN (SELECT * FROM ratings_listentry WHERE published_list_id = %s) o
          ON o.player_id = n.player_id
        WHERE n.player_id IS NULL OR o.player_id IS NULL
           OR n.rating IS DISTINCT FROM o.rating OR n.status <> o.status OR n.change <> o.change
        ORDER BY 1 LIMIT %s
    """
    if connection.vendor != "postgresql":
        # SQLite has no FULL OUTER JOIN before 3.39: two LEFT JOINs.
        sql = """
        SELECT n.player_id, o.rating, n.rating, o.status, n.status, o.change, n.change
        FROM ratings_listentry n LEFT JOIN ratings_listentry o
          ON o.player_id = n.player_id AND o.published_list_id = %(old)s
        WHERE n.published_list_id = %(new)s AND (o.id IS NULL OR n.rating IS NOT o.rating
              OR n.status <> o.status OR n.change <> o.change)
        UNION ALL
        SELECT o.player_id, o.rating, NULL, o.status, NULL, o.change, NULL
        FROM ratings_listentry o LEFT JOIN ratings_listentry n
          ON n.player_id = o.player_id AND n.published_list_id = %(new)s
        WHERE o.published_list_id = %(old)s AND n.id IS NULL
        ORDER BY 1 LIMIT %(limit)s
        """
        params: Any = {"old": previous.pk, "new": published.pk, "limit": limit}
    else:
        params = [published.pk, previous.pk, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    from players.models import Player

    players = Player.objects.in_bulk([r[0] for r in rows])
    out = [
        {"player": players.get(r[0]), "old_rating": r[1], "new_rating": r[2], "old_status": r[3],
         "new_status": r[4], "old_change": r[5], "new_change": r[6]}
        for r in rows
    ]
    return previous, out


def protest_open_until(*, published: PublishedList) -> dt.datetime:
    return published.published_at + dt.timedelta(days=published.system.protest_days)


def protest_list_pending() -> QuerySet[Protest]:
    return Protest.objects.filter(status=ProtestStatus.SUBMITTED).select_related(
        "published_list__system", "player", "submitted_by"
    )


def periods_needing_recalculation(*, system: RatingSystem) -> QuerySet[RatingPeriod]:
    return system.periods.filter(needs_recalculation=True).order_by("start")
