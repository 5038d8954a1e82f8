"""Rating cycles and reporting windows: pure date arithmetic, no Django import.

The one place that says which dates a rating system's periods carry (start, end, closing date,
list date) and how long a tournament's report may wait. `ratings.selectors` builds the periods
(`period_dates`) and assigns tournaments (`period_for_tournament`) with it; the regulation check
`report_too_late*` in `tournaments/checks.py` calls the same `report_window`, so the check and
the assignment cannot disagree on a deadline. Decisions: docs/periods.md, docs/arbiters.md.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ratings.engine.regulations import fide_2024

MONTHLY, QUARTERLY, SEMESTRAL = "monthly", "quarterly", "semestral"  # ratings.models.ListCycle

#: Each regulation's own cycle, for callers that do not know the rating system's
#: (fide-2024 7.1, fce 9.1: monthly; fide-2000 9.1: quarterly; feda-1996 8.11, cnxc-2000 4.1:
#: two lists a year).
DEFAULT_CYCLE = {
    "fide-2024": MONTHLY,
    "fce": MONTHLY,
    "fide-2000": QUARTERLY,
    "feda-1996": SEMESTRAL,
    "cnxc-2000": SEMESTRAL,
}

#: The article behind "one late list, then refused" (every regulation but fide-2024).
#: feda-1996 8.13a sends a report after the closing date to the next list and 10.14 refuses one
#: more than a period late. fide-2000 9.13 only says a report after the closing date is not
#: rated in that list; fce and cnxc-2000 say nothing: the limit is the office's (docs/arbiters.md).
ONE_LATE_LIST_ARTICLE = {
    "feda-1996": "feda-1996 10.14",
    "fide-2000": "fide-2000 9.13",
}


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
      the next month. Closing date: fide-2024 7.1.3, 3 days before the list (28 November for
      the list of 1 December); the others, the last day of the month (fide-2000 9.43: "a fin
      de mes"; fce fixes none).
    - quarterly (fide-2000): Jan–Mar, Apr–Jun, Jul–Sep, Oct–Dec; closes on the last day.
    - semestral feda-1996: 1 Dec–31 May and 1 Jun–30 Nov (closing dates 31 May / 30 Nov,
      8.13), lists of 1 July and 1 January.
    - semestral cnxc-2000 (and any other): Jan–Jun, Jul–Dec by the date competitions finished.
    """
    cycle = cycle or DEFAULT_CYCLE.get(ruleset, SEMESTRAL)
    if cycle == MONTHLY:
        start = _month_start(day)
        end = _month_start(start, 1) - dt.timedelta(days=1)
        list_date = end + dt.timedelta(days=1)
        if ruleset == "fide-2024":
            # 7.1.3: "Las fechas de cierre ... se establecen 3 días antes de la fecha de esa lista".
            return PeriodDates(start, end, list_date - dt.timedelta(days=fide_2024.CLOSING_DAYS),
                               list_date)
        return PeriodDates(start, end, end, list_date)
    if cycle == QUARTERLY:
        start = dt.date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
        months = 3
    elif ruleset == "feda-1996":
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


@dataclass(frozen=True)
class ReportWindow:
    """The periods a tournament's report may go to, earliest first.

    `periods[0]` is the first whose list can rate the tournament: the one containing the end
    date (fide-2024: the next one when the tournament ends after its closing date). A report
    goes to the earliest of them that is open and whose closing date it meets; in the first
    `regular` ones it is a regular report (its own list), in the others a late one. After `deadline` (the last one's closing date) it is
    refused (`article`). `own_list` is the date of the list the tournament is reported for;
    `allowance_days` the fide-2024 9.1 month-end allowance when it applied (else 0).
    """

    periods: tuple[PeriodDates, ...]
    regular: int
    deadline: dt.date
    article: str
    own_list: dt.date
    allowance_days: int = 0


def report_window(*, ruleset: str, cycle: str, end_date: dt.date) -> ReportWindow:
    """Where and until when a report of a tournament ending on `end_date` may be rated.

    - fide-2024 (monthly lists), 9.1: "Si el informe del torneo no se envía a tiempo para ser
      incluido en la tercera lista de valoración después de su finalización, el torneo no se
      valorará", with 7.1.3's closing date (3 days before the list) and the month-end
      allowance ("si quedan cinco días o menos ... quedará para la siguiente lista"): the
      tournament's own list is `fide_2024.report_list`, the deadline `fide_2024.report_deadline`
      (the three lists are counted from its own list, bd2636b's decision). A late report goes
      to the earliest open list up to the third.
    - every other regulation (and fide-2024 on a non-monthly cycle): its own list, then one
      late list (feda-1996 8.13a, 10.14; fide-2000 9.13 and the office's limit), then refused.
    """
    cycle = cycle or DEFAULT_CYCLE.get(ruleset, SEMESTRAL)
    first = period_dates(ruleset=ruleset, cycle=cycle, day=end_date)
    if first.closing_date < end_date:
        # fide-2024 7.1.3: a list rates the tournaments ending by its closing date; one ending
        # on the last two days of the month can only be in the next list.
        first = _following(first, ruleset=ruleset, cycle=cycle)
    allowance = 0
    if ruleset == "fide-2024" and cycle == MONTHLY:
        own_list = fide_2024.report_list(end_date)
        deadline = fide_2024.report_deadline(end_date)
        article = "fide-2024 9.1"
        if fide_2024.REGULATION.month_end_allowance(end_date):
            allowance = fide_2024.MONTH_END_ALLOWANCE_DAYS
    else:
        own_list = first.list_date
        deadline = _following(first, ruleset=ruleset, cycle=cycle).closing_date
        article = ONE_LATE_LIST_ARTICLE.get(ruleset, f"{ruleset} (office rule)")
    periods = [first]
    while periods[-1].closing_date < deadline:
        periods.append(_following(periods[-1], ruleset=ruleset, cycle=cycle))
    regular = sum(1 for p in periods if p.list_date <= own_list)
    return ReportWindow(periods=tuple(periods), regular=regular, deadline=deadline,
                        article=article, own_list=own_list, allowance_days=allowance)


def report_deadline(*, ruleset: str, cycle: str, end_date: dt.date) -> dt.date:
    """The last day a report of a tournament ending on `end_date` may arrive and be rated."""
    return report_window(ruleset=ruleset, cycle=cycle, end_date=end_date).deadline


def _following(dates: PeriodDates, *, ruleset: str, cycle: str) -> PeriodDates:
    return period_dates(ruleset=ruleset, cycle=cycle, day=dates.end + dt.timedelta(days=1))
