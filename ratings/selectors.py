"""Reads for rating periods, calculation runs, drafts, published lists and protests.

Cycles (docs/periods.md): the period a day belongs to and the window of periods a report may
go to are pure date arithmetic on the system's cycle and regulation (`ratings.cycles`);
`period_for_tournament` applies the assignment rules (end date, closing date, late reports to
a later list, too-late reports refused).
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
from ratings import cycles
from ratings.cycles import PeriodDates
from ratings.models import (
    CalculationRun,
    DraftExcluded,
    DraftResult,
    DraftTournament,
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


def period_dates(*, system: RatingSystem, day: dt.date) -> PeriodDates:
    """The period of `system` that contains `day` (start, end, closing date, list date):
    `ratings.cycles.period_dates` on the system's regulation and cycle (docs/periods.md).
    fide-2024 periods close 3 days before their list (7.1.3), the others on their last day."""
    return cycles.period_dates(ruleset=system.ruleset, cycle=system.cycle, day=day)


def period_current_open(*, system: RatingSystem) -> RatingPeriod | None:
    return system.periods.filter(status=PeriodStatus.OPEN).order_by("start").first()


@dataclass(frozen=True)
class Assignment:
    """Where a tournament's report goes: `period` (None when refused), `late` (goes to a later
    list than its own because it arrived after the closing date), `reason` when refused."""

    period: RatingPeriod | None
    late: bool = False
    reason: str = ""


def report_window(*, tournament: Any) -> cycles.ReportWindow:
    """The periods a tournament's report may go to and its deadline (`ratings.cycles`): the
    same window the regulation check `report_too_late` uses."""
    system = tournament.rating_system
    return cycles.report_window(ruleset=system.ruleset, cycle=system.cycle,
                                end_date=tournament.end_date)


def _too_late_reason(window: cycles.ReportWindow) -> str:
    if window.article == "fide-2024 9.1" and window.allowance_days:
        return _(
            "Too late: the tournament ended %(days)s days or less before the end of the month, "
            "so its three lists count from the list of %(first_list)s, and the report arrived "
            "after the closing date of the third (%(closing)s)."
        ) % {"days": window.allowance_days, "first_list": window.own_list,
             "closing": window.deadline}
    if window.article == "fide-2024 9.1":
        return _(
            "Too late: the report arrived after the closing date of the third list after the "
            "tournament (%(closing)s)."
        ) % {"closing": window.deadline}
    return _(
        "Too late: the report arrived after the closing date of the next list (%(closing)s)."
    ) % {"closing": window.deadline}


def period_for_tournament(*, tournament: Any, received_on: dt.date | None = None) -> Assignment:
    """The period a tournament is rated in, by its regulation (`ratings.cycles.report_window`).

    A report received after the window's deadline is refused — the deadline the regulation
    check `report_too_late` applies (fide-2024 9.1: the closing date of the third list after
    the end; the others: of the list after the tournament's own). Otherwise the report goes
    to the earliest period of the window that is open and whose closing date it meets: its
    own list (the end date's; fide-2024 9.1, five days or less before month end: also the
    next one) as a regular report, a later one as a late report. A period of the window that
    does not exist yet stops the search ("not open yet"); a late report never re-opens a
    closed period.
    """
    if received_on is None:
        received = tournament.report_received_at
        received_on = timezone.localdate(received) if received else timezone.localdate()
    window = report_window(tournament=tournament)
    if received_on > window.deadline:
        return Assignment(None, late=True, reason=_too_late_reason(window))
    system = tournament.rating_system
    for step, dates in enumerate(window.periods):
        late = step >= window.regular
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
    return Assignment(None, late=True, reason=_(
        "No open period can take the report: the periods it may go to, up to the list of "
        "%(list_date)s, are closed."
    ) % {"list_date": window.periods[-1].list_date})


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
