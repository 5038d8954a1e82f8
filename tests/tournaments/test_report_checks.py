"""The report against the registration (tournaments/checks/report.py): dates, round dates,
receipt before the end, round count, an unfinished tournament, a team report. Pure."""

from __future__ import annotations

import datetime as dt

from formats.reports.records import (
    ParsedReport,
    ReportHeader,
    ReportPlayer,
    ReportTeam,
)
from tournaments.checks import (
    dates_checks,
    received_checks,
    registration_check,
    rounds_checks,
    team_checks,
    tournament_checks,
)

from .test_checks import START, codes, facts
from .test_checks import played as won

END = START + dt.timedelta(days=4)


def parsed(
    *,
    rounds: int | None = None,
    played: int = 0,
    start: dt.date | None = None,
    end: dt.date | None = None,
    round_dates: tuple[dt.date | None, ...] = (),
    teams: tuple[ReportTeam, ...] = (),
    fmt: str = "trf16",
) -> ParsedReport:
    """Two players; one game in each of the first `played` rounds."""
    games = tuple(won(r, 1, 2) for r in range(1, played + 1))
    return ParsedReport(
        header=ReportHeader(
            rounds=rounds,
            start_date=start,
            end_date=end,
            round_dates=round_dates,
            format=fmt,  # type: ignore[arg-type]
        ),
        players=(ReportPlayer(start_rank=1, name="A, B"), ReportPlayer(start_rank=2, name="C, D")),
        games=games,
        teams=teams,
    )


def test_report_of_another_edition_is_an_error() -> None:
    # The case: a 27-29 Nov tournament reported with a 2018 file.
    found = dates_checks(facts(), parsed(start=dt.date(2018, 3, 1), end=dt.date(2018, 3, 5)))
    assert codes(found) == [("error", "dates_other_event", "fide-2024 (office rule)")]
    assert found[0].params["report_start"] == dt.date(2018, 3, 1)
    assert found[0].params["start"] == START


def test_dates_overlapping_but_different_are_a_warning() -> None:
    found = dates_checks(facts(), parsed(start=START, end=END + dt.timedelta(days=1)))
    assert codes(found) == [("warning", "dates_differ", "fide-2024 (office rule)")]
    assert dates_checks(facts(), parsed(start=START, end=END)) == []
    assert dates_checks(facts(), parsed()) == []  # a report without dates: nothing to compare


def test_round_dated_outside_the_registered_dates() -> None:
    dates = (START, START + dt.timedelta(days=1), END + dt.timedelta(days=3))
    found = dates_checks(facts(), parsed(start=START, end=END, round_dates=dates))
    assert codes(found) == [("error", "round_date_outside", "fide-2024 (office rule)")]
    assert found[0].params["round"] == 3


def test_report_received_before_the_last_day() -> None:
    assert codes(received_checks(facts(), received_on=END - dt.timedelta(days=1))) == [
        ("error", "report_before_end", "fide-2024 (office rule)")
    ]
    assert received_checks(facts(), received_on=END) == []


def test_round_count_against_the_registration() -> None:
    assert codes(rounds_checks(facts(rounds=9), parsed(rounds=7, played=7))) == [
        ("error", "rounds_differ", "fide-2024 (office rule)"),
        ("error", "unfinished", "fide-2024 (office rule)"),
    ]
    assert rounds_checks(facts(rounds=9), parsed(rounds=9, played=9)) == []
    assert rounds_checks(facts(), parsed(rounds=5, played=5)) == []  # no registered count


def test_unfinished_tournament_is_refused_with_the_reason() -> None:
    found = rounds_checks(facts(rounds=9), parsed(rounds=9, played=4))
    assert codes(found) == [("error", "unfinished", "fide-2024 (office rule)")]
    assert (found[0].params["played"], found[0].params["rounds"]) == (4, 9)
    # The file's own XXR when the registration gives no count.
    assert codes(rounds_checks(facts(), parsed(rounds=9, played=4))) == [
        ("error", "unfinished", "fide-2024 (office rule)")
    ]
    # A crosstable (no round numbers) is not counted.
    assert rounds_checks(facts(rounds=9), parsed(rounds=None, played=0)) == []


def test_long_tournament_reports_intermediate_results_fide_2024_4_1() -> None:
    long = facts(rounds=9, end_date=START + dt.timedelta(days=60))
    assert codes(rounds_checks(long, parsed(rounds=9, played=4))) == [
        ("warning", "unfinished_intermediate", "fide-2024 4.1")
    ]
    # fide-2000 has no such article: the same report is refused.
    old = facts(ruleset="fide-2000", rounds=9, end_date=START + dt.timedelta(days=60))
    assert codes(rounds_checks(old, parsed(rounds=9, played=4))) == [
        ("error", "unfinished", "fide-2000 (office rule)")
    ]


def test_team_report_for_an_individual_tournament() -> None:
    teams = (ReportTeam(number=1, name="Club A", members=(1,)), ReportTeam(2, "Club B", "", (2,)))
    report = parsed(teams=teams, fmt="trf26")
    assert codes(team_checks(facts(pairing_system="swiss"), report)) == [
        ("error", "team_report_individual", "fide-2024 (office rule)")
    ]
    assert team_checks(facts(pairing_system="team"), report) == []
    assert team_checks(facts(pairing_system="swiss"), parsed(fmt="trf26")) == []


def test_registration_after_the_start_says_after() -> None:
    found = registration_check(
        facts=facts(), registered_on=START + dt.timedelta(days=6), approved=False
    )
    assert codes(found) == [("error", "registration_after_start", "fide-2024 0.2")]
    assert found[0].params["days"] == 6
    assert "after the start" in found[0].template and "-" not in str(found[0].params["days"])
    same_day = registration_check(facts=facts(), registered_on=START, approved=False)
    assert codes(same_day) == [("error", "registration_on_start", "fide-2024 0.2")]


def test_all_report_checks_run_in_tournament_checks() -> None:
    found = tournament_checks(
        facts(rounds=9),
        parsed(rounds=9, played=4, start=dt.date(2018, 1, 1), end=dt.date(2018, 1, 5)),
        received_on=START,
        registered_on=START - dt.timedelta(days=10),
        approved=False,
    )
    assert {p.code for p in found} >= {"dates_other_event", "report_before_end", "unfinished"}
