"""When the report arrives: the regulation's deadlines, and the FEDA ASCII companion file."""

from __future__ import annotations

import datetime as dt

from formats.problems import Problem
from formats.reports.records import ParsedReport
from periods import cycles

from .facts import TournamentFacts, check, regulation_facts


def report_window(facts: TournamentFacts) -> cycles.ReportWindow:
    """The periods the report may go to and its deadline: `periods.cycles.report_window`, the
    function the period assignment (`periods.selectors.period_for_tournament`) calls too."""
    return cycles.report_window(ruleset=facts.ruleset, cycle=facts.cycle, end_date=facts.end_date)


def fide_2024_report_deadline(end_date: dt.date) -> dt.date:
    """fide-2024 9.1 with 7.1.3: closing date (3 days before) of the third list after the end;
    for a tournament ending five days or less before month end the lists are counted from the
    next month's list (9.1; the decision is in rating_engine/regulations/fide_2024/)."""
    return cycles.report_deadline(
        ruleset="fide-2024", cycle=cycles.default_cycle("fide-2024"), end_date=end_date
    )


def deadline_checks(facts: TournamentFacts, *, received_on: dt.date) -> list[Problem]:
    """feda-1996 10.11: a warning after 14 days (the regulation's `report_due_days`). Every
    regulation: an error when the report arrived after the deadline of its `report_window`
    (fide-2024 9.1: the third list after the end; feda-1996 10.14: more than one period late;
    the others: after the next list), exactly when the period assignment refuses it as too
    late."""
    out: list[Problem] = []
    due = regulation_facts(facts.ruleset).reporting.report_due_days
    if due is not None:
        late = (received_on - facts.end_date).days
        if late > due.value:  # feda-1996 10.1: within two weeks of the last round
            out.append(check("warning", "report_late_feda", due.article, days=late))
    window = report_window(facts)
    if received_on <= window.deadline:
        return out
    received, deadline = received_on.isoformat(), window.deadline.isoformat()
    if window.lists == 2:  # its own list and the next one
        return [
            check(
                "error",
                "report_too_late_next_list",
                window.article,
                received=received,
                deadline=deadline,
            ),
            *out,
        ]
    # The third list (fide-2024 9.1, the only regulation counting three).
    if window.allowance_days:
        # 9.1: ended five days or less before month end -> counted from the next list.
        return [
            check(
                "error",
                "report_too_late_month_end",
                window.article,
                received=received,
                deadline=deadline,
                first_list=window.own_list.isoformat(),
                days=window.allowance_days,
            ),
            *out,
        ]
    return [
        check("error", "report_too_late", window.article, received=received, deadline=deadline),
        *out,
    ]


def feda_ascii_checks(
    facts: TournamentFacts, report: ParsedReport, *, ascii_players: int | None
) -> list[Problem]:
    """feda-1996 10.3: tournaments of over 40 players also send the ASCII file of 10.31."""
    rule = regulation_facts(facts.ruleset).reporting.ascii_file_over_players
    if rule is None:
        return []
    n = sum(1 for p in report.players if not p.dummy)
    if report.header.format == "feda":
        return []
    if ascii_players is None:
        if n > rule.value:
            return [check("error", "feda_ascii_missing", rule.article, players=n)]
        return []
    if ascii_players != n:
        return [check("warning", "feda_ascii_count", rule.article, ascii=ascii_players, players=n)]
    return []
