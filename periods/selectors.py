"""Reads for rating systems and periods.

Cycles (docs/periods.md): the period a day belongs to and the window of periods a report may
go to are pure date arithmetic on the system's cycle and regulation (`periods.cycles`);
`period_for_tournament` applies the assignment rules (end date, closing date, late reports to
a later list, too-late reports refused).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from periods import cycles
from periods.cycles import PeriodDates
from periods.models import PeriodStatus, RatingPeriod, RatingSystem
from periods.rulesets import system_ruleset_on


def period_dates(*, system: RatingSystem, day: dt.date) -> PeriodDates:
    """The period of `system` that contains `day` (start, end, closing date, list date):
    `periods.cycles.period_dates` on the system's regulation and cycle (docs/periods.md).
    fide-2024 periods close 3 days before their list (7.1.3), the others on their last day."""
    # The cycle of the regulation in force on that day (periods.rulesets, effective dates).
    ruleset = system_ruleset_on(system=system, day=day).ruleset
    return cycles.period_dates(ruleset=ruleset, cycle=system.cycle, day=day)


def period_current_open(*, system: RatingSystem) -> RatingPeriod | None:
    return system.periods.filter(status=PeriodStatus.OPEN).order_by("start").first()


def period_next_dates(*, system: RatingSystem, today: dt.date | None = None) -> PeriodDates:
    """The dates of the period "Open the next period" would open (the one after the latest,
    or the one containing today): what its confirmation page shows."""
    latest = system.periods.order_by("-start").first()
    day = latest.end + dt.timedelta(days=1) if latest else (today or timezone.localdate())
    return period_dates(system=system, day=day)


@dataclass(frozen=True)
class Assignment:
    """Where a tournament's report goes: `period` (None when refused), `late` (goes to a later
    list than its own because it arrived after the closing date), `reason` when refused."""

    period: RatingPeriod | None
    late: bool = False
    reason: str = ""


def report_window(*, tournament: Any) -> cycles.ReportWindow:
    """The periods a tournament's report may go to and its deadline (`periods.cycles`): the
    same window the regulation check `report_too_late` uses."""
    system = tournament.rating_system
    # The regulation of its start day (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1).
    ruleset = system_ruleset_on(system=system, day=tournament.start_date).ruleset
    return cycles.report_window(ruleset=ruleset, cycle=system.cycle, end_date=tournament.end_date)


def _too_late_reason(window: cycles.ReportWindow) -> str:
    # The window says how many lists the report could reach (the regulation's `report_lists`,
    # as the check `report_too_late*` reads it): its own and the next one, or three (fide-2024
    # 9.1, counted from its own list, the month-end allowance moving that one on).
    if window.lists == 2:
        return _(
            "Too late: the report arrived after the closing date of the next list (%(closing)s)."
        ) % {"closing": window.deadline}
    if window.allowance_days:
        return _(
            "Too late: the tournament ended %(days)s days or less before the end of the month, "
            "so its three lists count from the list of %(first_list)s, and the report arrived "
            "after the closing date of the third (%(closing)s)."
        ) % {
            "days": window.allowance_days,
            "first_list": window.own_list,
            "closing": window.deadline,
        }
    return _(
        "Too late: the report arrived after the closing date of the third list after the "
        "tournament (%(closing)s)."
    ) % {"closing": window.deadline}


def period_for_tournament(*, tournament: Any, received_on: dt.date | None = None) -> Assignment:
    """The period a tournament is rated in, by its regulation (`periods.cycles.report_window`).

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
        if (
            period is not None
            and period.status == PeriodStatus.OPEN
            and received_on <= period.closing_date
        ):
            return Assignment(period, late=late)
        if period is None and received_on <= dates.closing_date:
            if step == 1:
                reason = _("The next period (%(start)s) is not open yet.") % {"start": dates.start}
            else:
                reason = _("The period %(start)s – %(end)s is not open yet.") % {
                    "start": dates.start,
                    "end": dates.end,
                }
            return Assignment(None, late=late, reason=reason)
    return Assignment(
        None,
        late=True,
        reason=_(
            "No open period can take the report: the periods it may go to, up to the list of "
            "%(list_date)s, are closed."
        )
        % {"list_date": window.periods[-1].list_date},
    )


def periods_needing_recalculation(*, system: RatingSystem) -> QuerySet[RatingPeriod]:
    return system.periods.filter(needs_recalculation=True).order_by("start")


def periods_awaiting_work() -> QuerySet[RatingPeriod]:
    """The officers' queue of periods: closed and not yet calculated, calculated and not yet
    published, or marked for recalculation (an upheld protest, a late report); oldest first."""
    return (
        RatingPeriod.objects.filter(
            Q(status__in=[PeriodStatus.CLOSED, PeriodStatus.CALCULATED])
            | Q(needs_recalculation=True)
        )
        .select_related("system")
        .order_by("start", "system__code", "id")
    )
