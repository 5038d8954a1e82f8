"""Per-regulation checks (pure; expected values from the articles, RULESETS.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from formats.reports.records import ParsedReport, ReportGame, ReportHeader, ReportPlayer
from tournaments.checks import (
    TournamentFacts,
    composition_checks,
    deadline_checks,
    feda_ascii_checks,
    fide_2024_report_deadline,
    rate_of_play_checks,
    registration_days_required,
    schedule_checks,
    tournament_checks,
)

START = dt.date(2026, 11, 10)


def facts(**kw) -> TournamentFacts:
    base: dict[str, Any] = dict(
        ruleset="fide-2024",
        rate_of_play="standard",
        pairing_system="swiss",
        start_date=START,
        end_date=START + dt.timedelta(days=4),
        minutes_for_60_moves=120.0,
        base_minutes=90,
        increment_seconds=30,
    )
    base.update(kw)
    return TournamentFacts(**base)


def report(
    ratings: list[int | None],
    *,
    games: tuple[ReportGame, ...] = (),
    rounds: int | None = 5,
    round_dates: tuple[dt.date, ...] = (),
    sexes: list[str] | None = None,
    fmt: str = "trf16",
) -> ParsedReport:
    players = tuple(
        ReportPlayer(
            start_rank=i, name=f"P{i}", rating=r, sex=(sexes or ["m"] * len(ratings))[i - 1]
        )
        for i, r in enumerate(ratings, start=1)
    )
    return ParsedReport(
        header=ReportHeader(rounds=rounds, round_dates=round_dates, format=fmt),  # type: ignore[arg-type]
        players=players,
        games=games,
    )


def codes(problems) -> list[tuple[str, str, str]]:
    return [(p.severity, p.code, p.params["article"]) for p in problems]


def test_registration_deadline_fide_2024_0_2() -> None:
    assert registration_days_required(ruleset="fide-2024", default_days=7, top_rating=2701) == (
        30,
        "fide-2024 0.2",
    )
    assert registration_days_required(ruleset="fide-2024", default_days=7, top_rating=2700)[0] == 3
    assert (
        registration_days_required(ruleset="fide-2024", default_days=7, top_woman_rating=2501)[0]
        == 30
    )
    assert (
        registration_days_required(ruleset="fide-2024", default_days=7, top_woman_rating=2500)[0]
        == 3
    )
    assert registration_days_required(ruleset="fce", default_days=7, top_rating=2800)[0] == 7


def test_rate_of_play_fide_2024() -> None:
    # 1.1 is read per game (tests/tournaments/test_checks_by_kind.py): a report without games
    # has nothing below the minimum.
    assert rate_of_play_checks(facts(minutes_for_60_moves=90), report([2400, 1500])) == []
    assert codes(rate_of_play_checks(facts(moves_per_control=25), report([1200]))) == [
        ("error", "first_control_moves", "fide-2024 1.2")
    ]
    assert (
        rate_of_play_checks(facts(rate_of_play="rapid", minutes_for_60_moves=15), report([2500]))
        == []
    )


def test_rate_of_play_other_regulations() -> None:
    assert codes(
        rate_of_play_checks(facts(ruleset="fide-2000", minutes_for_60_moves=100), report([2200]))
    ) == [("error", "rate_of_play", "fide-2000 1.1")]
    assert (
        rate_of_play_checks(facts(ruleset="fide-2000", minutes_for_60_moves=90), report([2199]))
        == []
    )
    # feda-1996 2.x: 40 moves in 90 minutes = 26.7 moves an hour (> 23).
    bad = facts(ruleset="feda-1996", moves_per_control=40, base_minutes=90)
    assert codes(rate_of_play_checks(bad, report([2000]))) == [
        ("error", "feda_moves_per_hour", "feda-1996 2.1")
    ]
    assert (
        rate_of_play_checks(
            facts(ruleset="feda-1996", moves_per_control=40, base_minutes=120), report([2000])
        )
        == []
    )
    assert codes(
        rate_of_play_checks(facts(ruleset="fce", minutes_for_60_moves=55), report([2000]))
    ) == [("error", "rate_of_play_min", "fce 5.1")]


def test_rounds_per_day_and_hours() -> None:
    d = START
    three = (d, d, d, d + dt.timedelta(days=1))
    assert codes(
        schedule_checks(facts(ruleset="feda-1996"), report([2000], round_dates=three))
    ) == [("error", "rounds_per_day", "feda-1996 4.1")]
    assert (
        schedule_checks(
            facts(ruleset="fide-2000", minutes_for_60_moves=60), report([2000], round_dates=three)
        )
        == []
    )
    # No round dates: 9 rounds in 2 days means some day has 5 (> 3, fce 6.x).
    two_days = facts(ruleset="fce", end_date=START + dt.timedelta(days=1), minutes_for_60_moves=60)
    assert ("error", "rounds_per_day_average", "fce 6.1") in codes(
        schedule_checks(two_days, report([2000], rounds=9))
    )
    # 3 rounds in a day at 120 minutes each: up to 12 hours → fine; 4 hours more → warning.
    busy = facts(minutes_for_60_moves=150.0)
    assert codes(schedule_checks(busy, report([2000], round_dates=three))) == [
        ("warning", "hours_per_day", "fide-2024 3.1")
    ]


def test_duration() -> None:
    long = dict(end_date=START + dt.timedelta(days=90))  # 91 days
    assert codes(schedule_checks(facts(ruleset="fide-2000", **long), report([2000], rounds=1))) == [
        ("error", "duration", "fide-2000 4.1")
    ]
    assert codes(schedule_checks(facts(ruleset="feda-1996", **long), report([2000], rounds=1))) == [
        ("warning", "duration_authorised", "feda-1996 5.1")
    ]
    assert (
        schedule_checks(
            facts(ruleset="fce", pairing_system="team", **long), report([2000], rounds=1)
        )
        == []
    )
    assert (
        schedule_checks(
            facts(ruleset="fide-2000", end_date=START + dt.timedelta(days=89)),
            report([2000], rounds=1),
        )
        == []
    )


def played(rnd: int, white: int, black: int, result: str = "1") -> ReportGame:
    """A game played over the board: "1" white won, "=" a draw."""
    white_score = {"1": 1.0, "=": 0.5}[result]
    return ReportGame(
        round=rnd,
        white_rank=white,
        black_rank=black,
        result=result,
        white_score=white_score,
        black_score=1.0 - white_score,
        kind="played",
    )


def _rr_games(n: int) -> tuple[ReportGame, ...]:
    return tuple(played(1, i, j, "=") for i in range(1, n + 1) for j in range(i + 1, n + 1))


def test_composition_round_robin() -> None:
    rr = facts(ruleset="fide-2000", pairing_system="round_robin")
    # 6 players, 3 rated: fewer than 10 players need 4 rated (fide-2000 6.31).
    found = codes(
        composition_checks(rr, report([2000, 2100, 2200, None, None, None], games=_rr_games(6)))
    )
    assert ("error", "rr_rated_share", "fide-2000 6.31") in found
    assert not [
        c
        for c in codes(
            composition_checks(rr, report([2000, 2100, 2200, 2300, None, None], games=_rr_games(6)))
        )
        if c[0] == "error"
    ]
    # 12 players need a third: 4 rated.
    twelve = [2000] * 3 + [None] * 9
    assert ("error", "rr_rated_share", "fide-2000 6.31") in codes(
        composition_checks(rr, report(twelve))
    )
    feda = facts(ruleset="feda-1996", pairing_system="round_robin")
    assert ("error", "rr_rated_share", "feda-1996 7.31") in codes(
        composition_checks(feda, report([2000, None, None]))
    )
    # National championship: 3 rated suffice (6.33).
    champ = facts(ruleset="fide-2000", pairing_system="round_robin", national_championship=True)
    assert (
        composition_checks(champ, report([2000, 2100, 2200, None, None, None], games=_rr_games(6)))
        == []
    )


def test_composition_unrated_in_a_swiss() -> None:
    games = (played(1, 3, 1), played(2, 3, 2))
    swiss = facts(ruleset="fide-2000")
    assert codes(composition_checks(swiss, report([2000, 2100, None], games=games))) == [
        ("warning", "unrated_few_opponents", "fide-2000 6.42")
    ]
    zero = (played(1, 1, 3),)
    assert codes(
        composition_checks(facts(ruleset="feda-1996"), report([2000, 2100, None], games=zero))
    ) == [("warning", "unrated_low_score", "feda-1996 7.1")]


def test_report_deadlines() -> None:
    # Ends 15 Nov: lists of 1 Dec, 1 Jan, 1 Feb; the third closes 3 days before 1 Feb.
    assert fide_2024_report_deadline(dt.date(2026, 11, 15)) == dt.date(2027, 1, 29)
    f = facts(end_date=dt.date(2026, 11, 15))
    assert deadline_checks(f, received_on=dt.date(2027, 1, 29)) == []
    assert codes(deadline_checks(f, received_on=dt.date(2027, 1, 30))) == [
        ("error", "report_too_late", "fide-2024 9.1")
    ]
    feda = facts(ruleset="feda-1996", end_date=dt.date(2026, 11, 15))
    assert deadline_checks(feda, received_on=dt.date(2026, 11, 29)) == []
    assert codes(deadline_checks(feda, received_on=dt.date(2026, 11, 30))) == [
        ("warning", "report_late_feda", "feda-1996 10.1")
    ]


def test_report_deadline_with_the_month_end_allowance() -> None:
    # fide-2024 9.1: ending five days or less before month end, the tournament belongs to the
    # next list, and the three lists of the too-late rule count from it; 7.1.3: a list closes
    # 3 days before its date.
    d = dt.date
    # 27 Nov (3 days left): lists of 1 Jan, 1 Feb, 1 Mar 2027 -> 26 Feb 2027.
    assert fide_2024_report_deadline(d(2026, 11, 27)) == d(2027, 2, 26)
    # 25 Nov (exactly 5 days left): the same.
    assert fide_2024_report_deadline(d(2026, 11, 25)) == d(2027, 2, 26)
    # 24 Nov (6 days) and 20 Nov: 1 Dec, 1 Jan, 1 Feb -> 29 Jan 2027.
    assert fide_2024_report_deadline(d(2026, 11, 24)) == d(2027, 1, 29)
    assert fide_2024_report_deadline(d(2026, 11, 20)) == d(2027, 1, 29)
    # Across the year: 27 Dec 2026 -> 1 Feb, 1 Mar, 1 Apr 2027 -> 29 Mar; 20 Dec -> 1 Mar -> 26 Feb.
    assert fide_2024_report_deadline(d(2026, 12, 27)) == d(2027, 3, 29)
    assert fide_2024_report_deadline(d(2026, 12, 20)) == d(2027, 2, 26)
    # Leap February 2028: 24 Feb leaves 5 days -> 1 Apr, 1 May, 1 Jun -> 29 May; 23 Feb -> 28 Apr.
    assert fide_2024_report_deadline(d(2028, 2, 24)) == d(2028, 5, 29)
    assert fide_2024_report_deadline(d(2028, 2, 23)) == d(2028, 4, 28)

    month_end = facts(start_date=d(2026, 11, 23), end_date=d(2026, 11, 27))
    assert deadline_checks(month_end, received_on=d(2027, 1, 30)) == []  # too late without 9.1
    assert deadline_checks(month_end, received_on=d(2027, 2, 26)) == []
    late = deadline_checks(month_end, received_on=d(2027, 2, 27))
    assert codes(late) == [("error", "report_too_late_month_end", "fide-2024 9.1")]
    assert (
        late[0].params["deadline"] == "2027-02-26" and late[0].params["first_list"] == "2027-01-01"
    )
    assert "2027-01-01" in late[0].message and "5 days or less" in late[0].message
    mid_month = facts(start_date=d(2026, 11, 16), end_date=d(2026, 11, 20))
    assert codes(deadline_checks(mid_month, received_on=d(2027, 1, 30))) == [
        ("error", "report_too_late", "fide-2024 9.1")
    ]


def test_a_report_before_the_2nd_and_3rd_closing_dates_is_rated_after_the_3rd_it_is_not() -> None:
    """fide-2024 9.1 (7.1.3 closing dates): ends 20 Nov 2026 -> lists of 1 Dec (closes 28 Nov),
    1 Jan (29 Dec), 1 Feb (29 Jan)."""
    d = dt.date
    f = facts(start_date=d(2026, 11, 16), end_date=d(2026, 11, 20))
    assert deadline_checks(f, received_on=d(2026, 12, 29)) == []  # before the second's
    assert deadline_checks(f, received_on=d(2027, 1, 29)) == []  # before the third's
    late = deadline_checks(f, received_on=d(2027, 1, 30))  # after the third's
    assert codes(late) == [("error", "report_too_late", "fide-2024 9.1")]
    assert late[0].params["deadline"] == "2027-01-29"


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def test_fide_2024_too_late_check_over_a_range_of_dates() -> None:
    """9.1 and 7.1.3 worked out here: the own list is the 1st of the next month, or of the month
    after when five days or less are left after the last day; the deadline is 3 days before
    the third list counted from it."""
    for end in [dt.date(2026, 11, 1) + dt.timedelta(days=i) for i in range(0, 120)]:
        days_left = (_add_months(end, 1) - dt.timedelta(days=1)).day - end.day
        own = _add_months(end, 2 if days_left <= 5 else 1)
        deadline = _add_months(own, 2) - dt.timedelta(days=3)
        f = facts(start_date=end - dt.timedelta(days=4), end_date=end)
        for received in (
            deadline - dt.timedelta(days=1),
            deadline,
            deadline + dt.timedelta(days=1),
            end,
            end + dt.timedelta(days=200),
        ):
            found = deadline_checks(f, received_on=received)
            assert bool(found) == (received > deadline), (end, received)
            if found:
                code = "report_too_late_month_end" if days_left <= 5 else "report_too_late"
                assert codes(found) == [("error", code, "fide-2024 9.1")]
                assert found[0].params["deadline"] == deadline.isoformat()


def test_too_late_in_the_other_regulations_after_the_next_list() -> None:
    d = dt.date
    # feda-1996 8.13/8.13a: ends 15 Nov -> closing 30 Nov, the next list closes 31 May; 10.14:
    # more than one period late is not accepted. 10.1's 14-day warning stays.
    feda = facts(ruleset="feda-1996", end_date=d(2026, 11, 15))
    assert codes(deadline_checks(feda, received_on=d(2027, 5, 31))) == [
        ("warning", "report_late_feda", "feda-1996 10.1")
    ]
    assert codes(deadline_checks(feda, received_on=d(2027, 6, 1))) == [
        ("error", "report_too_late_next_list", "feda-1996 10.14"),
        ("warning", "report_late_feda", "feda-1996 10.1"),
    ]
    # fide-2000, its own cycle (quarterly, 9.11): ends 15 Nov -> closes 31 Dec, next 31 Mar.
    q = facts(ruleset="fide-2000", end_date=d(2026, 11, 15))
    assert deadline_checks(q, received_on=d(2027, 3, 31)) == []
    assert codes(deadline_checks(q, received_on=d(2027, 4, 1))) == [
        ("error", "report_too_late_next_list", "fide-2000 9.13")
    ]
    # ... on a monthly system (9.4, 9.43): the next list closes at the end of December.
    m = facts(ruleset="fide-2000", cycle="monthly", end_date=d(2026, 11, 15))
    assert deadline_checks(m, received_on=d(2026, 12, 31)) == []
    late = deadline_checks(m, received_on=d(2027, 1, 1))
    assert late[0].params["deadline"] == "2026-12-31"
    assert (
        "after the closing date 2026-12-31 of the list after the tournament's own"
        in late[0].message
    )
    # fce and cnxc-2000 say nothing: the office keeps one late list.
    assert codes(
        deadline_checks(facts(ruleset="fce", end_date=d(2026, 11, 15)), received_on=d(2027, 1, 1))
    ) == [("error", "report_too_late_next_list", "fce (office rule)")]
    cnxc = facts(ruleset="cnxc-2000", end_date=d(2026, 11, 15))
    assert deadline_checks(cnxc, received_on=d(2027, 6, 30)) == []
    assert codes(deadline_checks(cnxc, received_on=d(2027, 7, 1))) == [
        ("error", "report_too_late_next_list", "cnxc-2000 (office rule)")
    ]


def test_feda_ascii_file_over_40_players() -> None:
    feda = facts(ruleset="feda-1996")
    assert codes(feda_ascii_checks(feda, report([2000] * 41), ascii_players=None)) == [
        ("error", "feda_ascii_missing", "feda-1996 10.31")
    ]
    assert feda_ascii_checks(feda, report([2000] * 40), ascii_players=None) == []
    assert feda_ascii_checks(feda, report([2000] * 41), ascii_players=41) == []
    assert feda_ascii_checks(facts(), report([2000] * 41), ascii_players=None) == []


def test_all_checks_put_errors_first() -> None:
    found = tournament_checks(
        facts(minutes_for_60_moves=60, end_date=START + dt.timedelta(days=40)),
        report([2500]),
        received_on=START + dt.timedelta(days=41),  # the day after the last
        registered_on=START - dt.timedelta(days=1),
        approved=False,
    )
    assert [p.severity for p in found] == ["error", "warning"]
    assert {p.params["article"] for p in found} == {"fide-2024 0.2", "fide-2024 4.1"}


def test_messages_that_name_a_number_agree_with_the_regulations_facts() -> None:
    """Some templates were written for the one regulation with the rule and name its number
    (feda-1996 10.1's 14 days, 10.31's 40 players, 6.32/7.32's 6 players and 4 rated, fide-2024
    9.1's third list): a regulation giving the rule another number needs a new message."""
    from rating_engine.registry import all_regulations
    from tournaments.checks import TEMPLATES

    ordinal = {2: "the list after the tournament's own", 3: "the third list"}
    for regulation in all_regulations().values():
        facts = regulation.facts
        if facts.reporting.report_due_days is not None:
            assert (
                f"within {facts.reporting.report_due_days.value} days"
                in TEMPLATES["report_late_feda"]
            )
        if facts.reporting.ascii_file_over_players is not None:
            assert (
                f"over {facts.reporting.ascii_file_over_players.value} players"
                in TEMPLATES["feda_ascii_missing"]
            )
        if facts.composition is not None:
            quorum = facts.composition.double_round_robin.value
            assert (
                f"at least {quorum.players} players and {quorum.rated} rated"
                in TEMPLATES["drr_unrated"]
            )
        if facts.reporting.report_lists is not None:
            lists = facts.reporting.report_lists.value
            code = "report_too_late_next_list" if lists == 2 else "report_too_late"
            assert ordinal[lists] in TEMPLATES[code]


def test_the_report_window_agrees_with_the_engines_fide_2024_functions() -> None:
    """periods.cycles reads fide-2024's facts (7.1.3, 9.1); the engine keeps report_list and
    report_deadline built on the same facts: they must not drift apart."""
    from periods import cycles
    from rating_engine.regulations import fide_2024

    day = dt.date(2026, 1, 1)
    while day < dt.date(2029, 1, 1):
        window = cycles.report_window(ruleset="fide-2024", cycle="monthly", end_date=day)
        assert (window.own_list, window.deadline) == (
            fide_2024.report_list(day),
            fide_2024.report_deadline(day),
        ), day
        day += dt.timedelta(days=1)
