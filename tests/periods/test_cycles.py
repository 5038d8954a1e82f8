"""Period cycles and the assignment of tournaments to periods."""

from __future__ import annotations

import datetime as dt
import importlib
from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from core.errors import Refused
from periods import cycles
from periods import selectors as period_selectors
from periods import services as period_services
from periods.models import ListCycle, PeriodStatus, RatingPeriod
from tests.factories import make_period, make_system, make_tournament, make_user
from tournaments import services as tournament_services
from tournaments.checks import TournamentFacts, deadline_checks

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.mark.parametrize(
    ("ruleset", "cycle", "day", "want"),
    [
        # fide-2024 7.1.3: the closing date is 3 days before the list (1 March -> 26 February).
        (
            "fide-2024",
            "monthly",
            D(2026, 2, 14),
            (D(2026, 2, 1), D(2026, 2, 28), D(2026, 2, 26), D(2026, 3, 1)),
        ),
        (
            "fide-2024",
            "monthly",
            D(2026, 11, 30),
            (D(2026, 11, 1), D(2026, 11, 30), D(2026, 11, 28), D(2026, 12, 1)),
        ),
        (
            "fide-2024",
            "monthly",
            D(2028, 2, 1),
            (D(2028, 2, 1), D(2028, 2, 29), D(2028, 2, 27), D(2028, 3, 1)),
        ),
        (
            "fce",
            "monthly",
            D(2026, 12, 31),
            (D(2026, 12, 1), D(2026, 12, 31), D(2026, 12, 31), D(2027, 1, 1)),
        ),
        (
            "fide-2000",
            "quarterly",
            D(2026, 5, 3),
            (D(2026, 4, 1), D(2026, 6, 30), D(2026, 6, 30), D(2026, 7, 1)),
        ),
        (
            "fide-2000",
            "monthly",
            D(2026, 5, 3),
            (D(2026, 5, 1), D(2026, 5, 31), D(2026, 5, 31), D(2026, 6, 1)),
        ),
        # feda-1996: closing dates 30 November and 31 May; lists of 1 January and 1 July.
        (
            "feda-1996",
            "semestral",
            D(2026, 1, 10),
            (D(2025, 12, 1), D(2026, 5, 31), D(2026, 5, 31), D(2026, 7, 1)),
        ),
        (
            "feda-1996",
            "semestral",
            D(2026, 12, 2),
            (D(2026, 12, 1), D(2027, 5, 31), D(2027, 5, 31), D(2027, 7, 1)),
        ),
        (
            "feda-1996",
            "semestral",
            D(2026, 11, 30),
            (D(2026, 6, 1), D(2026, 11, 30), D(2026, 11, 30), D(2027, 1, 1)),
        ),
        (
            "cnxc-2000",
            "semestral",
            D(2026, 7, 1),
            (D(2026, 7, 1), D(2026, 12, 31), D(2026, 12, 31), D(2027, 1, 1)),
        ),
    ],
)
def test_period_dates_follow_each_cycle(ruleset, cycle, day, want) -> None:
    system = make_system(ruleset=ruleset, cycle=cycle)
    got = period_selectors.period_dates(system=system, day=day)
    assert (got.start, got.end, got.closing_date, got.list_date) == want


def test_open_next_chains_periods() -> None:
    system = make_system(ruleset="feda-1996", cycle="semestral")
    first = period_services.period_open_next(system=system, today=D(2026, 3, 3))
    period_services.period_close(period=first)  # one open period at a time (issue 23)
    second = period_services.period_open_next(system=system)
    assert (first.start, first.end) == (D(2025, 12, 1), D(2026, 5, 31))
    assert (second.start, second.end) == (D(2026, 6, 1), D(2026, 11, 30))


def test_tournament_assignment_on_time_late_and_too_late() -> None:
    system = make_system()
    nov, dec = _months(system, D(2026, 11, 5), 2)
    assert (nov.closing_date, dec.closing_date) == (D(2026, 11, 28), D(2026, 12, 29))  # 7.1.3
    # Ends 20 November: 10 days before month end, outside fide-2024 9.1's five-day allowance.
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 16), end_date=D(2026, 11, 20))
    on_time = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 28))
    assert on_time.period == nov and not on_time.late
    late = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 29))
    assert late.period == dec and late.late
    period_services.period_close(period=nov)
    assert (
        period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 27)).period
        == dec
    )
    # In time for the third list (1 February 2027), whose period is not open yet.
    waiting = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 2))
    assert waiting.period is None and waiting.late and "not open yet" in waiting.reason
    refused = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 30))
    assert (
        refused.period is None and "Too late" in refused.reason and "2027-01-29" in refused.reason
    )
    with pytest.raises(Refused):
        tournament_services.tournament_assign_period(tournament=t, received_on=D(2027, 1, 30))
    tournament_services.tournament_assign_period(tournament=t, received_on=D(2026, 12, 2))
    t.refresh_from_db()
    assert t.period == dec and dec.status == PeriodStatus.OPEN


# fide-2024 9.1: "si quedan cinco días o menos desde el último día del torneo hasta el final del
# mes, quedará para la siguiente lista. Si el informe del torneo no se envía a tiempo para ser
# incluido en la tercera lista de valoración después de su finalización, el torneo no se
# valorará." 7.1.3: a list closes 3 days before its date. Periods are calendar months.


def _open_period(system, day):
    """The open period of `system` containing `day`, with the cycle's dates. Made here, not by
    period_open_next, which opens one period at a time (issue 23): these tests need every
    period of a report's window open at once."""
    dates = period_selectors.period_dates(system=system, day=day)
    return RatingPeriod.objects.create(
        system=system,
        start=dates.start,
        end=dates.end,
        closing_date=dates.closing_date,
        list_date=dates.list_date,
    )


def _months(system, first, n=3):
    out = [_open_period(system, first)]
    while len(out) < n:
        out.append(_open_period(system, out[-1].end + dt.timedelta(days=1)))
    return out


def _three_months(system, first):
    return _months(system, first, 3)


def test_a_late_report_goes_to_the_second_or_third_list_and_after_the_third_is_refused() -> None:
    """9.1: ends 20 November -> lists of 1 December (its own), 1 January, 1 February; closing
    dates 28 November, 29 December, 29 January (7.1.3)."""
    system = make_system()
    nov, dec, jan, _feb = _months(system, D(2026, 11, 5), 4)
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 16), end_date=D(2026, 11, 20))
    for received, want in [
        (D(2026, 11, 28), (nov, False)),  # by its own list's closing date
        (D(2026, 11, 29), (dec, True)),  # before the second list's closing date
        (D(2026, 12, 29), (dec, True)),
        (D(2026, 12, 30), (jan, True)),  # before the third list's closing date
        (D(2027, 1, 29), (jan, True)),
    ]:
        got = period_selectors.period_for_tournament(tournament=t, received_on=received)
        assert (got.period, got.late, got.reason) == (*want, ""), received
    refused = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 30))
    assert refused.period is None and refused.late
    assert "Too late" in refused.reason and "third list" in refused.reason
    assert "2027-01-29" in refused.reason
    # The second list's period already closed: the third takes the report.
    period_services.period_close(period=dec)
    got = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 10))
    assert (got.period, got.late) == (jan, True)
    # Every period it may go to closed: refused, but not as too late.
    period_services.period_close(period=jan)
    period_services.period_close(period=nov)
    closed = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 10))
    assert closed.period is None and "closed" in closed.reason and "Too late" not in closed.reason


def test_month_end_allowance_sends_a_report_after_the_closing_date_to_the_next_list_not_late() -> (
    None
):
    system = make_system()
    nov, dec, jan, feb = _months(system, D(2026, 11, 5), 4)
    # 27 November: 3 days left in a 30-day month; its own lists are 1 December (it ends by
    # November's closing date, 28 November) and 1 January; the third from 1 January is 1 March.
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 23), end_date=D(2026, 11, 27))
    # "may": in time for its own list, it stays there.
    on_time = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 28))
    assert (on_time.period, on_time.late) == (nov, False)
    # After November's closing date: the next list, as a regular report.
    for received in (D(2026, 11, 29), D(2026, 12, 3), D(2026, 12, 29)):
        next_list = period_selectors.period_for_tournament(tournament=t, received_on=received)
        assert (next_list.period, next_list.late, next_list.reason) == (dec, False, ""), received
    # After December's closing date: late, in January's list, then February's (the third).
    late = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4))
    assert (late.period, late.late) == (jan, True)
    later = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 2, 26))
    assert (later.period, later.late) == (feb, True)
    # After the third list's closing date (1 March - 3 days): refused.
    refused = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 2, 27))
    assert refused.period is None and refused.late and "Too late" in refused.reason
    assert "2027-02-26" in refused.reason and "2027-01-01" in refused.reason
    # November closed early: the next list is still regular for it.
    period_services.period_close(period=nov)
    closed = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 11, 28))
    assert (closed.period, closed.late) == (dec, False)
    tournament_services.tournament_assign_period(tournament=t, received_on=D(2026, 12, 20))
    t.refresh_from_db()
    assert t.period == dec


def test_a_tournament_ending_after_the_closing_date_never_goes_to_that_list() -> None:
    """7.1.3: "se valorarán en la lista todos los torneos que acaben antes de o en ese día" -
    ending on 29 November, even registered (received) earlier, it is not in the 1 December list."""
    system = make_system()
    _nov, dec, _jan = _three_months(system, D(2026, 11, 5))
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 25), end_date=D(2026, 11, 29))
    for received in (D(2026, 11, 10), D(2026, 11, 29)):
        got = period_selectors.period_for_tournament(tournament=t, received_on=received)
        assert (got.period, got.late) == (dec, False), received


def test_outside_the_allowance_a_report_after_the_closing_date_is_late() -> None:
    system = make_system()
    _nov, dec, jan = _three_months(system, D(2026, 11, 5))
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 16), end_date=D(2026, 11, 20))
    late = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 3))
    assert (late.period, late.late) == (dec, True)
    later = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4))
    assert (later.period, later.late) == (jan, True)
    refused = period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 30))
    assert (
        refused.period is None and "Too late" in refused.reason and "2027-01-29" in refused.reason
    )


@pytest.mark.parametrize(
    ("end", "late"),
    [
        (D(2026, 11, 25), False),  # 26–30 November left: exactly five days
        (D(2026, 11, 24), True),  # six days
        (D(2026, 11, 30), False),  # the last day of the month
        (D(2026, 12, 26), False),  # 31-day month: 27–31 December, five days
        (D(2026, 12, 25), True),
        (D(2027, 2, 23), False),  # February 2027 (28 days): 24–28, five days
        (D(2027, 2, 22), True),
    ],
)
def test_month_end_allowance_boundary(end, late) -> None:
    system = make_system()
    own, nxt, _after = _three_months(system, end)
    t = make_tournament(system, make_user(), start_date=end - dt.timedelta(days=2), end_date=end)
    received = nxt.start + dt.timedelta(days=2)  # after the own period's closing date
    got = period_selectors.period_for_tournament(tournament=t, received_on=received)
    assert (got.period, got.late) == (nxt, late)


@pytest.mark.parametrize(("ruleset", "cycle"), [("fce", "monthly"), ("fide-2000", "monthly")])
def test_no_month_end_allowance_in_other_regulations(ruleset, cycle) -> None:
    system = make_system(ruleset=ruleset, cycle=cycle)
    _nov, dec, _jan = _three_months(system, D(2026, 11, 5))
    t = make_tournament(system, make_user(), start_date=D(2026, 11, 23), end_date=D(2026, 11, 27))
    got = period_selectors.period_for_tournament(tournament=t, received_on=D(2026, 12, 3))
    assert (got.period, got.late) == (dec, True)
    assert (
        period_selectors.period_for_tournament(tournament=t, received_on=D(2027, 1, 4)).period
        is None
    )


# --------------------------------------------------------------------------- check = assignment
# Over a range of end and receipt dates, the regulation check (tournaments.checks) and the
# period assignment agree, and both give what the articles give. The expectations are computed
# here from the articles, independently of periods.cycles.


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return D(index // 12, index % 12 + 1, 1)


def _fide_2024_expected(end: dt.date, received: dt.date) -> tuple[dt.date, bool] | None:
    """(list date, late) of the list the report is rated in, None when it is not rated.

    7.1.3: a list closes 3 days before its date and rates the tournaments ending by then.
    9.1: its own list is the first after the month it ended in, or the one after that when it
    ended five days or less before month end (days after the last day, to the end of the
    month); not rated unless in time for the third list after its end, counted from its own
    list (bd2636b's decision)."""
    days_in_month = (_add_months(end, 1) - dt.timedelta(days=1)).day
    own = _add_months(end, 2 if days_in_month - end.day <= 5 else 1)
    third = _add_months(own, 2)
    closing = lambda list_date: list_date - dt.timedelta(days=3)  # noqa: E731
    if received > closing(third):
        return None
    list_date = _add_months(end, 1)
    while list_date <= third:
        if end <= closing(list_date) and received <= closing(list_date):
            return list_date, list_date > own
        list_date = _add_months(list_date, 1)
    raise AssertionError("unreachable: received is by the third list's closing date")


def _facts(ruleset: str, cycle: str, end: dt.date):

    return TournamentFacts(
        ruleset=ruleset,
        cycle=cycle,
        rate_of_play="standard",
        pairing_system="swiss",
        start_date=end - dt.timedelta(days=4),
        end_date=end,
        minutes_for_60_moves=120.0,
    )


def _too_late(problems) -> bool:
    return any(p.severity == "error" and p.code.startswith("report_too_late") for p in problems)


def _open_all(system, first: dt.date, last: dt.date) -> None:
    period = _open_period(system, first)
    while period.end < last:
        period = _open_period(system, period.end + dt.timedelta(days=1))


def test_fide_2024_check_and_assignment_agree_with_9_1_over_a_range_of_dates() -> None:

    system = make_system()
    _open_all(system, D(2026, 10, 1), D(2028, 8, 1))
    by_list = {p.list_date: p for p in system.periods.all()}
    ends = [D(2026, 11, 17) + dt.timedelta(days=i) for i in range(18)]  # 30-day month's end
    ends += [D(2026, 12, 10), D(2026, 12, 15)]
    ends += [D(2026, 12, 20) + dt.timedelta(days=i) for i in range(14)]  # 31 days, the new year
    ends += [D(2028, 2, 20) + dt.timedelta(days=i) for i in range(11)]  # leap February
    seen = {"own": 0, "next regular": 0, "late": 0, "refused": 0}
    for end in ends:
        tournament = SimpleNamespace(
            rating_system=system, start_date=end, end_date=end, report_received_at=None
        )
        facts = _facts("fide-2024", "monthly", end)
        # The expected answer for each of 131 days is cheap; asking the database is not. Ask on
        # both sides of every day where the answer changes, on the first and last, and weekly.
        wants = [_fide_2024_expected(end, end + dt.timedelta(days=d)) for d in range(131)]
        changes = {d for d in range(1, 131) if wants[d] != wants[d - 1]}
        asked = {0, 130} | set(range(0, 131, 7)) | changes | {d - 1 for d in changes}
        for days in sorted(asked):
            received = end + dt.timedelta(days=days)
            want = wants[days]
            got = period_selectors.period_for_tournament(
                tournament=tournament, received_on=received
            )
            too_late = _too_late(deadline_checks(facts, received_on=received))
            assert too_late == (got.period is None) == (want is None), (end, received, got, want)
            if want is None:
                assert "Too late" in got.reason
                seen["refused"] += 1
                continue
            assert (got.period, got.late) == (by_list[want[0]], want[1]), (end, received, got, want)
            key = "late" if want[1] else "own" if want[0] == _add_months(end, 1) else "next regular"
            seen[key] += 1
    assert all(seen.values()), seen  # every case met


@pytest.mark.parametrize(
    ("ruleset", "cycle", "closings"),
    [
        # feda-1996 8.13: closing dates 30 November and 31 May; 8.13a: later -> the next list;
        # 10.14: more than one period late is refused.
        ("feda-1996", "semestral", [(5, 31), (11, 30)]),
        # fide-2000: quarters (9.11); monthly (9.4, 9.43: end of month); fce: monthly lists (9.1);
        # cnxc-2000 4.1: competitions finished by 30 June / 31 December. One late list.
        ("fide-2000", "quarterly", [(3, 31), (6, 30), (9, 30), (12, 31)]),
        ("fide-2000", "monthly", None),
        ("fce", "monthly", None),
        ("cnxc-2000", "semestral", [(6, 30), (12, 31)]),
    ],
)
def test_other_regulations_check_and_assignment_agree_on_one_late_list(
    ruleset, cycle, closings
) -> None:

    def closing_dates():
        for year in range(2026, 2030):
            if closings is None:  # the last day of every month
                yield from (
                    _add_months(D(year, m, 1), 1) - dt.timedelta(days=1) for m in range(1, 13)
                )
            else:
                yield from (D(year, m, d) for m, d in closings)

    all_closings = sorted(closing_dates())
    system = make_system(ruleset=ruleset, cycle=cycle)
    _open_all(system, D(2026, 1, 1), D(2029, 1, 1))
    for end in [D(2026, 6, 1) + dt.timedelta(days=i) for i in range(0, 550, 11)] + [
        D(2026, 11, 30),
        D(2026, 12, 1),
    ]:
        own_closing = next(c for c in all_closings if c >= end)
        next_closing = next(c for c in all_closings if c > own_closing)
        tournament = SimpleNamespace(
            rating_system=system, start_date=end, end_date=end, report_received_at=None
        )
        facts = _facts(ruleset, cycle, end)
        boundaries = [
            own_closing,
            own_closing + dt.timedelta(days=1),
            next_closing,
            next_closing + dt.timedelta(days=1),
        ]
        # The boundaries above are where answers change; between them, a day a month.
        sampled = [end + dt.timedelta(days=i) for i in range(0, 420, 29)]
        for received in sorted(set(boundaries + sampled)):
            got = period_selectors.period_for_tournament(
                tournament=tournament, received_on=received
            )
            too_late = _too_late(deadline_checks(facts, received_on=received))
            refused = received > next_closing
            assert too_late == (got.period is None) == refused, (end, received, got)
            if not refused:
                want = (own_closing, False) if received <= own_closing else (next_closing, True)
                assert (got.period.closing_date, got.late) == want, (end, received, got)


def test_the_pure_cycles_module_knows_every_list_cycle() -> None:

    assert {c.value for c in ListCycle} == {cycles.MONTHLY, cycles.QUARTERLY, cycles.SEMESTRAL}


@pytest.mark.django_db
def test_migration_0009_moves_only_old_default_closing_dates_of_open_fide_2024_periods() -> None:
    """ratings 0009: an open fide-2024 period that still closes on its last day (the old
    default) closes 3 days before its list (7.1.3); a date an officer set, a published period
    and another regulation's period keep theirs."""

    migration = importlib.import_module("ratings.migrations.0009_rated_since")
    fide = make_system(ruleset="fide-2024")
    old_default = make_period(fide, dt.date(2026, 11, 1), closing_date=dt.date(2026, 11, 30))
    by_hand = make_period(fide, dt.date(2026, 12, 1), closing_date=dt.date(2026, 12, 20))
    published = make_period(
        fide, dt.date(2026, 10, 1), closing_date=dt.date(2026, 10, 31), status="published"
    )
    fce = make_period(
        make_system(ruleset="fce"), dt.date(2026, 11, 1), closing_date=dt.date(2026, 11, 30)
    )
    # The models as they were at that migration (RatingPeriod still in the ratings app).
    apps = MigrationLoader(connection).project_state(("ratings", "0009_rated_since")).apps
    migration.fide_2024_closing_dates(apps, None)
    for period in (old_default, by_hand, published, fce):
        period.refresh_from_db()
    assert old_default.closing_date == dt.date(2026, 11, 28)  # list of 1 December minus 3 days
    assert by_hand.closing_date == dt.date(2026, 12, 20)
    assert published.closing_date == dt.date(2026, 10, 31)
    assert fce.closing_date == dt.date(2026, 11, 30)
