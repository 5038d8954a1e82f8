"""The report against the registration: its dates and round dates, its rounds, an unfinished
tournament, a team report for an individual tournament.

These are the office's rules (cited ``"<ruleset> (office rule)"``, as ``ReportingFacts``'s
defaults are): a report describes the registered event, once it is over. The one regulation
fact they read is ``PlayFacts.rated_in_parts`` (fide-2024 4.1, fide-2000 4.11): a tournament
rated in parts reports as it stands at each closing date, so a report before its last day and
an unfinished report are its intermediate reports, not errors.
"""

from __future__ import annotations

import datetime as dt

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .facts import TournamentFacts, check, parts_rule


def office_rule(facts: TournamentFacts) -> str:
    return f"{facts.ruleset} (office rule)"


def dates_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    """The report's start and end dates (TRF 042/052) and its round dates against the registered
    dates: a report of another edition (no day in common) is an error; other differences are
    warnings, a round dated outside the registered dates an error."""
    h = report.header
    article = office_rule(facts)
    out: list[Problem] = []
    start, end = h.start_date, h.end_date or h.start_date
    if start and end and (start, end) != (facts.start_date, facts.end_date):
        overlap = start <= facts.end_date and end >= facts.start_date
        out.append(
            check(
                "warning" if overlap else "error",
                "dates_differ" if overlap else "dates_other_event",
                article,
                report_start=start,
                report_end=end,
                start=facts.start_date,
                end=facts.end_date,
            )
        )
    for number, day in enumerate(h.round_dates, start=1):
        if day is not None and not facts.start_date <= day <= facts.end_date:
            out.append(
                check(
                    "error",
                    "round_date_outside",
                    article,
                    round=number,
                    date=day,
                    start=facts.start_date,
                    end=facts.end_date,
                )
            )
    return out


def received_checks(facts: TournamentFacts, *, received_on: dt.date) -> list[Problem]:
    """A report received before the registered last day describes a tournament not over yet;
    for a tournament rated in parts it is an intermediate report (fide-2024 4.1, fide-2000
    4.11)."""
    if received_on < facts.end_date and parts_rule(facts) is None:
        return [
            check(
                "error",
                "report_before_end",
                office_rule(facts),
                received=received_on,
                end=facts.end_date,
            )
        ]
    return []


def rounds_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    """The report's round count (TRF XXR) against the registration, and the rounds actually
    played against the rounds announced: an unfinished tournament is not rated."""
    out: list[Problem] = []
    article = office_rule(facts)
    declared = report.header.rounds
    if facts.rounds and declared and declared != facts.rounds:
        out.append(
            check("error", "rounds_differ", article, rounds=declared, registered=facts.rounds)
        )
    expected = facts.rounds or declared or 0
    played = report.rounds_played
    # A crosstable has no round numbers (every game is round 0): nothing to count.
    if expected and played and played < expected:
        in_parts = parts_rule(facts)
        if in_parts is not None:
            # fide-2024 4.1, fide-2000 4.11: a tournament rated in parts reports as it stands.
            out.append(
                check(
                    "warning",
                    "unfinished_intermediate",
                    in_parts.article,
                    played=played,
                    rounds=expected,
                )
            )
        else:
            out.append(check("error", "unfinished", article, played=played, rounds=expected))
    return out


def team_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    """A team report (TRF26 team records, a declared team count) for an individual tournament."""
    teams = len(report.teams) or (report.header.declared_teams or 0)
    if teams and facts.pairing_system != "team":
        return [check("error", "team_report_individual", office_rule(facts), teams=teams)]
    return []
