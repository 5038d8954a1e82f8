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
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 20), end_date=D(2026, 11, 25))
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
