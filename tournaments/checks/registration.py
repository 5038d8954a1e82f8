"""Registration deadlines (fide-2024 0.2; elsewhere the rating system's registration_days)."""

from __future__ import annotations

import datetime as dt

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .facts import TournamentFacts, check, regulation_facts


def registration_days_required(
    *,
    ruleset: str,
    default_days: int,
    top_rating: int | None = None,
    top_woman_rating: int | None = None,
) -> tuple[int, str]:
    """Days ahead a tournament must be registered, and the article that says so; the rating
    system's `default_days` where the regulation fixes none."""
    rule = regulation_facts(ruleset).reporting.registration
    if rule is None:
        return default_days, f"{ruleset} (registration_days)"
    # fide-2024 0.2: 30 days when a player is over 2700 or a woman over 2500, else 3 days.
    deadline = rule.value
    if (top_rating or 0) > deadline.over_rating or (
        top_woman_rating or 0
    ) > deadline.over_woman_rating:
        return deadline.days_top, rule.article
    return deadline.days, rule.article


def registration_check(
    *,
    facts: TournamentFacts,
    registered_on: dt.date,
    approved: bool,
    report: ParsedReport | None = None,
) -> list[Problem]:
    """Re-checks the deadline with the ratings of the report (a 2700 only known afterwards)."""
    top = top_w = None
    if report is not None:
        top = max((p.rating or 0 for p in report.players), default=0)
        top_w = max((p.rating or 0 for p in report.players if p.sex == "w"), default=0)
    required, article = registration_days_required(
        ruleset=facts.ruleset,
        default_days=facts.registration_days,
        top_rating=top,
        top_woman_rating=top_w,
    )
    days = (facts.start_date - registered_on).days
    if days < required and not approved:
        if days < 0:
            return [
                check("error", "registration_after_start", article, days=-days, required=required)
            ]
        if days == 0:
            return [check("error", "registration_on_start", article, required=required)]
        return [check("error", "registration_late", article, days=days, required=required)]
    return []
