"""Period cycles and the assignment of tournaments to periods."""
from __future__ import annotations

import datetime as dt

import pytest

from ratings import selectors, services
from ratings.models import PeriodStatus
from tests.factories import make_system, make_tournament, make_user

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.mark.parametrize(("ruleset", "cycle", "day", "want"), [
    ("fide-2024", "monthly", D(2026, 2, 14), (D(2026, 2, 1), D(2026, 2, 28), D(2026, 2, 28), D(2026, 3, 1))),
    ("fce", "monthly", D(2026, 12, 31), (D(2026, 12, 1), D(2026, 12, 31), D(2026, 12, 31), D(2027, 1, 1))),
    ("fide-2000", "quarterly", D(2026, 5, 3), (D(2026, 4, 1), D(2026, 6, 30), D(2026, 6, 30), D(2026, 7, 1))),
    ("fide-2000", "monthly", D(2026, 5, 3), (D(2026, 5, 1), D(2026, 5, 31), D(2026, 5, 31), D(2026, 6, 1))),
    # feda-1996: closing dates 30 November and 31 May; lists of 1 January and 1 July.
    ("feda-1996", "semestral", D(2026, 1, 10), (D(2025, 12, 1), D(2026, 5, 31), D(2026, 5, 31), D(2026, 7, 1))),
    ("feda-1996", "semestral", D(2026, 12, 2), (D(2026, 12, 1), D(2027, 5, 31), D(2027, 5, 31), D(2027, 7, 1))),
    ("feda-1996", "semestral", D(2026, 11, 30), (D(2026, 6, 1), D(2026, 11, 30), D(2026, 11, 30), D(2027, 1, 1))),
    ("cnxc-2000", "semestral", D(2026, 7, 1), (D(2026, 7, 1), D(2026, 12, 31), D(2026, 12, 31), D(2027, 1, 1))),
])
def test_period_dates_follow_each_cycle(ruleset, cycle, day, want) -> None:
    system = make_system(ruleset=ruleset, cycle=cycle)
    got = selectors.period_dates(system=system, day=day)
    assert (got.start, got.end, got.closing_date, got.list_date) == want


def test_open_next_chains_periods() -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral")
    first = services.period_open_next(system=system, today=D(2026, 3, 3))
    second = services.period_open_next(system=system)
    assert (first.start, first.end) == (D(2025, 12, 1), D(2026, 5, 31))
    assert (second.start, second.end) == (D(2026, 6, 1), D(2026, 11, 30))


def test_tournament_assignment_on_time_late_and_too_late() -> None:
    system = make_system()
    nov = services.period_open_next(system=system, today=D(2026, 11, 5))
    dec = services.period_open_next(system=system)
    # Ends 20 November: 10 days before month end, outside fide-2024 9.1's five-day allowance.
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 16), end_date=D(2026, 11, 20))
    on_time = selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 29))
    assert on_time.period == nov and not on_time.late
    late = selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 4))
    assert late.period == dec and late.late
    services.period_close(period=nov)
    assert selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 29)).period == dec
    refused = selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 2))
    assert refused.period is None and "Too late" in refused.reason
    with pytest.raises(services.CalculationRefused):
        services.tournament_assign_period(tournament=t, received_on=D(2027, 1, 2))
    services.tournament_assign_period(tournament=t, received_on=D(2026, 12, 2))
    t.refresh_from_db()
    assert t.period == dec and dec.status == PeriodStatus.OPEN


# fide-2024 9.1: "si quedan cinco días o menos desde el último día del torneo hasta el final del
# mes, quedará para la siguiente lista". Periods are calendar months closing on their last day.


def _three_months(system, first):
    a = services.period_open_next(system=system, today=first)
    return a, services.period_open_next(system=system), services.period_open_next(system=system)


def test_month_end_allowance_sends_a_report_after_the_closing_date_to_the_next_list_not_late() -> None:
    system = make_system()
    nov, dec, jan = _three_months(system, D(2026, 11, 5))
    # 27 November: 3 days left in a 30-day month.
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 23), end_date=D(2026, 11, 27))
    # "may": in time for its own list, it stays there.
    on_time = selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 30))
    assert (on_time.period, on_time.late) == (nov, False)
    # After November's closing date: the next list, as a regular report.
    next_list = selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 3))
    assert (next_list.period, next_list.late, next_list.reason) == (dec, False, "")
    # After December's closing date: late, one list further (January).
    late = selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4))
    assert (late.period, late.late) == (jan, True)
    # After January's closing date: refused.
    refused = selectors.period_for_tournament(tournament=t, received_on=D(2027, 2, 1))
    assert refused.period is None and refused.late and "Too late" in refused.reason
    assert "2027-01-31" in refused.reason
    # November closed early: the next list is still regular for it.
    services.period_close(period=nov)
    closed = selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 29))
    assert (closed.period, closed.late) == (dec, False)
    services.tournament_assign_period(tournament=t, received_on=D(2026, 12, 20))
    t.refresh_from_db()
    assert t.period == dec


def test_outside_the_allowance_a_report_after_the_closing_date_is_late_as_before() -> None:
    system = make_system()
    nov, dec, jan = _three_months(system, D(2026, 11, 5))
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 16), end_date=D(2026, 11, 20))
    late = selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 3))
    assert (late.period, late.late) == (dec, True)
    refused = selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4))
    assert refused.period is None and "Too late" in refused.reason and "2026-12-31" in refused.reason


@pytest.mark.parametrize(("end", "late"), [
    (D(2026, 11, 25), False),  # 26–30 November left: exactly five days
    (D(2026, 11, 24), True),   # six days
    (D(2026, 11, 30), False),  # the last day of the month
    (D(2026, 12, 26), False),  # 31-day month: 27–31 December, five days
    (D(2026, 12, 25), True),
    (D(2027, 2, 23), False),   # February 2027 (28 days): 24–28, five days
    (D(2027, 2, 22), True),
])
def test_month_end_allowance_boundary(end, late) -> None:
    system = make_system()
    own, nxt, _after = _three_months(system, end)
    t = make_tournament(system, make_user(), start_date=end - dt.timedelta(days=2), end_date=end)
    received = nxt.start + dt.timedelta(days=2)  # after the own period's closing date
    got = selectors.period_for_tournament(tournament=t, received_on=received)
    assert (got.period, got.late) == (nxt, late)


@pytest.mark.parametrize(("ruleset", "cycle"), [("fce", "monthly"), ("fide-2000", "monthly")])
def test_no_month_end_allowance_in_other_regulations(ruleset, cycle) -> None:
    system = make_system(ruleset=ruleset, cycle=cycle)
    _nov, dec, _jan = _three_months(system, D(2026, 11, 5))
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 23), end_date=D(2026, 11, 27))
    got = selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 3))
    assert (got.period, got.late) == (dec, True)
    assert selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4)).period is None
