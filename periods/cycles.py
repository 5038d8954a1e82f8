"""Rating cycles and reporting windows: pure date arithmetic, no Django import.

The one place that says which dates a rating system's periods carry (start, end, closing date,
list date) and how long a tournament's report may wait. `periods.selectors` builds the periods
(`period_dates`) and assigns tournaments (`period_for_tournament`) with it; the regulation check
`report_too_late*` in `tournaments/checks/deadlines.py` calls the same `report_window`, so the
check and the assignment cannot disagree on a deadline.
Decisions: docs/periods.md, docs/arbiters.md.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rating_engine.registry import get_regulation
from rating_engine.regulations.base import ListFacts, Semesters

MONTHLY, QUARTERLY, SEMESTRAL = "monthly", "quarterly", "semestral"  # periods.models.ListCycle

# Each regulation's facts (its cycle, closing dates, semesters, reporting deadline) are its
# module's `Regulation.facts` (rating_engine/regulations/, docs/engine.md "Facts"). Where a
# text fixes none, the office's default:

#: Semesters of a regulation with none of its own: January-June and July-December, each list
#: on the 1st after its semester.
OFFICE_SEMESTERS = Semesters(starts=(1, 7), lists=(7, 1))
#: Lists a report may reach where the regulation sets no limit (fce, cnxc-2000, and
#: fide-2024 on a cycle other than monthly): its own and the next one, then refused
#: (docs/arbiters.md), cited as "<ruleset> (office rule)".
OFFICE_REPORT_LISTS = 2


def _lists(ruleset: str) -> ListFacts:
    return get_regulation(ruleset).facts.lists


def default_cycle(ruleset: str) -> str:
    """The regulation's own list cycle, for callers that do not know the rating system's
    (fide-2024 7.1, fce 9.1: monthly; fide-2000 9.1: quarterly; feda-1996 8.11, cnxc-2000 4.1:
    two lists a year)."""
    return _lists(ruleset).cycle.value


@dataclass(frozen=True)
class PeriodDates:
    start: dt.date
    end: dt.date
    closing_date: dt.date
    list_date: dt.date


def _month_start(day: dt.date, add: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 + add
    return dt.date(index // 12, index % 12 + 1, 1)


def period_dates(*, ruleset: str, cycle: str, day: dt.date) -> PeriodDates:
    """The period of a system (`ruleset`, `cycle`) that contains `day`.

    - monthly (fide-2024, fce, fide-2000 when monthly): the calendar month; list on the 1st of
      the next month.
    - quarterly (fide-2000): Jan–Mar, Apr–Jun, Jul–Sep, Oct–Dec.
    - semestral: the regulation's `semesters` (feda-1996 8.13: 1 Dec–31 May and 1 Jun–30 Nov,
      lists of 1 July and 1 January, 8.11; cnxc-2000 4.1: Jan–Jun, Jul–Dec by the date
      competitions finished), else the office's `OFFICE_SEMESTERS`.

    Closing date: the regulation's `closing_days` before the list (fide-2024 7.1.3: 3 days,
    28 November for the list of 1 December); the others, the period's last day (fide-2000:
    9.43 "a fin de mes", the decision in its module; fce fixes none).
    """
    lists = _lists(ruleset)
    cycle = cycle or lists.cycle.value
    if cycle == MONTHLY:
        start = _month_start(day)
        end = _month_start(start, 1) - dt.timedelta(days=1)
        list_date = end + dt.timedelta(days=1)
    elif cycle == QUARTERLY:
        start = dt.date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
        end = _month_start(start, 3) - dt.timedelta(days=1)
        list_date = end + dt.timedelta(days=1)
    else:
        semesters = lists.semesters.value if lists.semesters is not None else OFFICE_SEMESTERS
        start = max(
            dt.date(year, month, 1)
            for month in semesters.starts
            for year in (day.year - 1, day.year)
            if dt.date(year, month, 1) <= day
        )
        end = _month_start(start, 6) - dt.timedelta(days=1)
        list_month = semesters.lists[semesters.starts.index(start.month)]
        list_date = _month_start(end, (list_month - end.month - 1) % 12 + 1)
    closing = end
    if lists.closing_days is not None and lists.closing_days.applies(cycle):
        # fide-2024 7.1.3: "Las fechas de cierre ... se establecen 3 días antes de la fecha de esa
        # lista".
        closing = list_date - dt.timedelta(days=lists.closing_days.value)
    return PeriodDates(start, end, closing, list_date)


@dataclass(frozen=True)
class ReportWindow:
    """The periods a tournament's report may go to, earliest first.

    `periods[0]` is the first whose list can rate the tournament: the one containing the end
    date (fide-2024: the next one when the tournament ends after its closing date). A report
    goes to the earliest of them that is open and whose closing date it meets; in the first
    `regular` ones it is a regular report (its own list), in the others a late one. After
    `deadline` (the last one's closing date) it is refused (`article`). `own_list` is the date of
    the list the tournament is reported for;
    `allowance_days` the fide-2024 9.1 month-end allowance when it applied (else 0); `lists`
    how many lists, counted from its own, the report may reach (2: its own and the next one).
    """

    periods: tuple[PeriodDates, ...]
    regular: int
    deadline: dt.date
    article: str
    own_list: dt.date
    allowance_days: int = 0
    lists: int = OFFICE_REPORT_LISTS


def report_window(*, ruleset: str, cycle: str, end_date: dt.date) -> ReportWindow:
    """Where and until when a report of a tournament ending on `end_date` may be rated.

    The regulation's facts say how many lists a report may reach (`report_lists`) and whether
    a tournament ending near the end of its month belongs to the next list
    (`month_end_allowance_days`):
    - fide-2024 (monthly lists), 9.1: "Si el informe del torneo no se envía a tiempo para ser
      incluido en la tercera lista de valoración después de su finalización, el torneo no se
      valorará", with 7.1.3's closing date (3 days before the list) and the month-end
      allowance ("si quedan cinco días o menos ... quedará para la siguiente lista"): the
      tournament's own list is the next month's list, or the one after with the allowance
      (as `fide_2024.report_list`), and the three lists are counted from its own list
      (`fide_2024.report_deadline`, bd2636b's decision). A late report goes to the earliest
      open list up to the third.
    - every other regulation (and fide-2024 on a non-monthly cycle): its own list, then one
      late list (feda-1996 8.13a, 10.14; fide-2000 9.13 and the office's limit), then refused.
    """
    regulation = get_regulation(ruleset)
    lists = regulation.facts.lists
    cycle = cycle or lists.cycle.value
    containing = period_dates(ruleset=ruleset, cycle=cycle, day=end_date)
    first = containing
    if first.closing_date < end_date:
        # fide-2024 7.1.3: a list rates the tournaments ending by its closing date; one ending
        # on the last two days of the month can only be in the next list.
        first = _following(first, ruleset=ruleset, cycle=cycle)
    own, allowance = first, 0
    rule = lists.month_end_allowance_days
    if rule is not None and rule.applies(cycle) and regulation.month_end_allowance(end_date):
        # fide-2024 9.1: "quedará para la siguiente lista".
        own, allowance = _following(containing, ruleset=ruleset, cycle=cycle), rule.value
    limit = regulation.facts.reporting.report_lists
    if limit is not None and limit.applies(cycle):
        count, article = limit.value, limit.article
    else:
        count, article = OFFICE_REPORT_LISTS, f"{ruleset} (office rule)"
    last = own
    for _ in range(count - 1):
        last = _following(last, ruleset=ruleset, cycle=cycle)
    deadline = last.closing_date
    periods = [first]
    while periods[-1].closing_date < deadline:
        periods.append(_following(periods[-1], ruleset=ruleset, cycle=cycle))
    regular = sum(1 for p in periods if p.list_date <= own.list_date)
    return ReportWindow(
        periods=tuple(periods),
        regular=regular,
        deadline=deadline,
        article=article,
        own_list=own.list_date,
        allowance_days=allowance,
        lists=count,
    )


def report_deadline(*, ruleset: str, cycle: str, end_date: dt.date) -> dt.date:
    """The last day a report of a tournament ending on `end_date` may arrive and be rated."""
    return report_window(ruleset=ruleset, cycle=cycle, end_date=end_date).deadline


def _following(dates: PeriodDates, *, ruleset: str, cycle: str) -> PeriodDates:
    return period_dates(ruleset=ruleset, cycle=cycle, day=dates.end + dt.timedelta(days=1))
