"""Per-regulation checks of a tournament and its report. Pure: no Django import.

Every problem carries the article it applies in ``params["article"]`` (e.g. ``"fide-2024 1.1"``)
and a stable ``code``; errors block rating, warnings are for the officer's attention.
The numbers and their articles are the regulation's facts (``Regulation.facts``, defined in its
module under rating_engine/regulations/); a check applies where the regulation has the fact.
Digest of the articles: ../shared/RULESETS.md; the decisions are in docs/arbiters.md.

One module per kind of check: registration, play (rate of play, increment, schedule,
duration), composition, scope (thematic, organised by others, the kind), officials
(feda-1996 1.1: who directed it), deadlines (report deadlines, the FEDA ASCII file), report
(the report against the registration: dates, rounds, an unfinished tournament, a team report),
parts (an intermediate report against the published parts of a tournament rated in parts).
"""

from __future__ import annotations

import datetime as dt

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .composition import championship_need, composition_checks
from .deadlines import deadline_checks, feda_ascii_checks, fide_2024_report_deadline, report_window
from .facts import ChiefArbiter, TournamentFacts, check, parts_rule
from .messages import TEMPLATES
from .officials import arbiter_checks
from .parts import GameKey, PublishedPart, game_key, part_problems
from .play import (
    games_below_minimum_time,
    minimum_time_threshold,
    per_game_minimum_time,
    rate_of_play_checks,
    schedule_checks,
)
from .registration import registration_check, registration_days_required
from .report import dates_checks, received_checks, rounds_checks, team_checks
from .scope import scope_checks

__all__ = [
    "TEMPLATES",
    "ChiefArbiter",
    "GameKey",
    "PublishedPart",
    "TournamentFacts",
    "arbiter_checks",
    "championship_need",
    "check",
    "composition_checks",
    "dates_checks",
    "deadline_checks",
    "feda_ascii_checks",
    "fide_2024_report_deadline",
    "game_key",
    "games_below_minimum_time",
    "minimum_time_threshold",
    "part_problems",
    "parts_rule",
    "per_game_minimum_time",
    "rate_of_play_checks",
    "received_checks",
    "registration_check",
    "registration_days_required",
    "report_window",
    "rounds_checks",
    "schedule_checks",
    "scope_checks",
    "team_checks",
    "tournament_checks",
]


def tournament_checks(
    facts: TournamentFacts,
    report: ParsedReport,
    *,
    received_on: dt.date,
    registered_on: dt.date,
    approved: bool,
    ascii_players: int | None = None,
) -> list[Problem]:
    """Every regulation check, errors first."""
    out = (
        registration_check(
            facts=facts, registered_on=registered_on, approved=approved, report=report
        )
        + rate_of_play_checks(facts, report)
        + schedule_checks(facts, report)
        + composition_checks(facts, report)
        + deadline_checks(facts, received_on=received_on)
        + feda_ascii_checks(facts, report, ascii_players=ascii_players)
        + dates_checks(facts, report)
        + received_checks(facts, received_on=received_on)
        + rounds_checks(facts, report)
        + team_checks(facts, report)
        + scope_checks(facts)
        + arbiter_checks(facts)
    )
    return sorted(out, key=lambda p: p.severity != "error")
