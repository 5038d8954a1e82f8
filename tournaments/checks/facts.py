"""What the checks know about the registered tournament, the regulation's facts, and the
``Problem`` they give."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from formats.problems import Problem, Severity
from rating_engine.registry import get_regulation
from rating_engine.regulations.base import Facts, RatedInParts, Rule

from .messages import TEMPLATES


def check(severity: Severity, code: str, article: str, **params: object) -> Problem:
    return Problem(
        severity=severity,
        code=code,
        template=TEMPLATES[code],
        params={**params, "article": article},
    )


@dataclass(frozen=True)
class ChiefArbiter:
    """The tournament's chief arbiter as the registry records him (tournaments.officials)."""

    title: str = ""  # IA / FA / NA, "" none
    category: str = ""  # national / regional / provincial, "" none
    state: str = "approved"  # pending / approved / refused (the officer's decision)
    name: str = ""


@dataclass(frozen=True)
class TournamentFacts:
    """What the checks need to know about the registered tournament."""

    ruleset: str
    rate_of_play: str  # standard / rapid / blitz / correspondence
    pairing_system: str  # swiss / round_robin / double_round_robin / match / team
    start_date: dt.date
    end_date: dt.date
    minutes_for_60_moves: float
    moves_per_control: int | None = None
    base_minutes: int = 0
    increment_seconds: int = 0
    national_championship: bool = False
    registration_days: int = 3  # the rating system's default (RatingSystem.registration_days)
    rounds: int | None = None  # the registered rounds (Tournament.rounds); None: not given
    cycle: str = (
        ""  # the rating system's list cycle; "": the regulation's own (cycles.default_cycle)
    )
    kind: str = ""  # the kind of competition (Tournament.kind; facts.competition.kinds)
    thematic: bool = False  # cnxc-2000 3.1
    organised_by_others: bool = False  # cnxc-2000 3.1
    rated_by_its_rules: bool = False  # cnxc-2000 3.1
    # feda-1996 5.11: the officer authorised an event longer than play.authorised_days
    # (a TournamentDecision): the duration check no longer asks for the authorisation.
    long_event_authorised: bool = False
    level: str = ""  # the event's level (Tournament.level; facts.arbiters, feda-1996 1.1)
    chief_arbiter: ChiefArbiter | None = None  # None: no record of the registry named


def regulation_facts(ruleset: str) -> Facts:
    return get_regulation(ruleset).facts


def fmt(x: float) -> str:
    return f"{x:g}"


def parts_rule(facts: TournamentFacts) -> Rule[RatedInParts] | None:
    """The regulation's rule rating this tournament in parts (fide-2024 4.1: over 30 days;
    fide-2000 4.11: a league over 90 days), None when it is rated whole."""
    rule = regulation_facts(facts.ruleset).play.rated_in_parts
    days = (facts.end_date - facts.start_date).days + 1
    if rule is None or not rule.value.applies(days=days, pairing_system=facts.pairing_system):
        return None
    return rule
