"""Per-regulation checks of a tournament and its report. Pure: no Django import.

Every problem carries the article it applies in ``params["article"]`` (e.g. ``"fide-2024 1.1"``)
and a stable ``code``; errors block rating, warnings are for the officer's attention.
The numbers and their articles are the regulation's facts (``Regulation.facts``, defined in its
module under ratings/engine/regulations/); a check applies where the regulation has the fact.
Digest of the articles: /work/shared/RULESETS.md; the decisions are in docs/arbiters.md.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from periods import cycles
from ratings.engine.registry import get_regulation
from ratings.engine.regulations.base import Facts
from tournaments.reports.problems import Problem, Severity
from tournaments.reports.records import ParsedReport


def _(s: str) -> str:
    return s


TEMPLATES: dict[str, str] = {
    "registration_late": _(
        "Registered %(days)s days before the start; the regulation asks for %(required)s days. "
        "A rating officer must approve the late registration"
    ),
    "rate_of_play": _(
        "Rate of play: %(minutes)s minutes per player for 60 moves; at least %(required)s are "
        "needed because a player is rated %(rating)s"
    ),
    "rate_of_play_min": _(
        "Rate of play: %(minutes)s minutes per player for 60 moves; at least %(required)s are "
        "needed"
    ),
    "first_control_moves": _(
        "The first time control is %(moves)s moves; it must be at least %(required)s moves"
    ),
    "feda_moves_per_hour": _(
        "Rate of play: %(rate)s moves an hour; at most %(required)s moves an hour "
        "(or a guillotine of at least %(minutes)s minutes)"
    ),
    "rounds_per_day": _("%(rounds)s rounds on %(day)s; at most %(limit)s rounds a day"),
    "rounds_per_day_average": _(
        "%(rounds)s rounds in %(days)s days: some day has more than %(limit)s rounds"
    ),
    "hours_per_day": _(
        "%(rounds)s rounds a day at %(minutes)s minutes per player can take %(hours)s hours; "
        "at most %(limit)s hours of play a day"
    ),
    "duration": _("The tournament lasts %(days)s days; at most %(limit)s days"),
    "duration_authorised": _(
        "The tournament lasts %(days)s days; over %(limit)s days needs the federation's "
        "authorisation"
    ),
    "duration_monthly": _(
        "The tournament lasts %(days)s days: intermediate results must be reported monthly"
    ),
    "rr_rated_share": _(
        "Round robin with %(players)s players and %(rated)s rated: at least %(required)s must be "
        "rated"
    ),
    "drr_unrated": _(
        "Double round robin with unrated players: at least 6 players and 4 rated "
        "(%(players)s players, %(rated)s rated)"
    ),
    "unrated_low_score": _(
        "Player %(rank)s (unrated) scored %(points)s: their games are not rated"
    ),
    "unrated_few_opponents": _(
        "Player %(rank)s (unrated) met %(opponents)s rated opponents; at least %(required)s are "
        "needed"
    ),
    "report_late_feda": _(
        "Report received %(days)s days after the last round; it is due within 14 days"
    ),
    "report_too_late": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the third list "
        "after the tournament: it is not rated"
    ),
    "report_too_late_month_end": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the third list "
        "after the tournament, counted from the list of %(first_list)s because it ended "
        "%(days)s days or less before the end of the month: it is not rated"
    ),
    "report_too_late_next_list": _(
        "Report received on %(received)s, after the closing date %(deadline)s of the list after "
        "the tournament's own: it is not rated"
    ),
    "feda_ascii_missing": _(
        "%(players)s players: a tournament of over 40 players must also send the FEDA ASCII file"
    ),
    "feda_ascii_count": _(
        "The FEDA ASCII file lists %(ascii)s players but the report has %(players)s"
    ),
    "dates_differ": _(
        "The report's dates %(report)s differ from the registered dates %(registered)s"
    ),
}


def check(severity: Severity, code: str, article: str, **params: object) -> Problem:
    return Problem(
        severity=severity,
        code=code,
        template=TEMPLATES[code],
        params={**params, "article": article},
    )


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
    cycle: str = (
        ""  # the rating system's list cycle; "": the regulation's own (cycles.default_cycle)
    )


def _facts(ruleset: str) -> Facts:
    return get_regulation(ruleset).facts


# --------------------------------------------------------------------------- registration


def registration_days_required(
    *,
    ruleset: str,
    default_days: int,
    top_rating: int | None = None,
    top_woman_rating: int | None = None,
) -> tuple[int, str]:
    """Days ahead a tournament must be registered, and the article that says so; the rating
    system's `default_days` where the regulation fixes none."""
    rule = _facts(ruleset).reporting.registration
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
        return [check("error", "registration_late", article, days=days, required=required)]
    return []


# --------------------------------------------------------------------------- rate of play


def _fmt(x: float) -> str:
    return f"{x:g}"


def rate_of_play_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    if facts.rate_of_play != "standard":
        return []
    play = _facts(facts.ruleset).play
    top = max((p.rating or 0 for p in report.players if not p.dummy), default=0)
    minutes = facts.minutes_for_60_moves
    out: list[Problem] = []
    bands, per_hour = play.minimum_minutes, play.max_moves_per_hour
    if per_hour is not None and facts.moves_per_control and facts.base_minutes:
        # feda-1996 2.x: at most 23 moves an hour for the first control, or a guillotine
        # (whole game, possibly with increment) of at least 60 minutes per player for 60 moves.
        rate = facts.moves_per_control * 60 / facts.base_minutes
        if rate > per_hour.value:
            guillotine = bands.value[-1].minutes if bands is not None else None
            out.append(
                check(
                    "error",
                    "feda_moves_per_hour",
                    per_hour.article,
                    rate=_fmt(round(rate, 1)),
                    required=per_hour.value,
                    minutes=guillotine,
                )
            )
    elif bands is not None:
        # fide-2024 1.1: 120 min if a player is rated ≥2400, 90 if ≥1800, 60 otherwise;
        # fide-2000 1.1x: 2200 / 1600; feda-1996 2.2 (guillotine), fce 5.1: 60 minutes.
        for band in bands.value:
            if top >= band.rating:
                if minutes < band.minutes and band.rating:
                    out.append(
                        check(
                            "error",
                            "rate_of_play",
                            bands.article,
                            minutes=_fmt(minutes),
                            required=band.minutes,
                            rating=band.rating,
                        )
                    )
                elif minutes < band.minutes:
                    out.append(
                        check(
                            "error",
                            "rate_of_play_min",
                            bands.article,
                            minutes=_fmt(minutes),
                            required=band.minutes,
                        )
                    )
                break
    first = play.first_control_moves
    if (
        first is not None
        and facts.moves_per_control is not None
        and facts.moves_per_control < first.value
    ):
        # fide-2024 1.2: the first control is of at least 30 moves.
        out.append(
            check(
                "error",
                "first_control_moves",
                first.article,
                moves=facts.moves_per_control,
                required=first.value,
            )
        )
    return out


# --------------------------------------------------------------------------- days and duration


def schedule_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    out: list[Problem] = []
    play = _facts(facts.ruleset).play
    days = (facts.end_date - facts.start_date).days + 1
    rounds = report.header.rounds or report.rounds_in_file or 0
    dated = [d for d in report.header.round_dates if d is not None]
    per_day = Counter(dated)
    busiest = (
        max(per_day.values(), default=0) if dated else (math.ceil(rounds / days) if rounds else 0)
    )
    rounds_rule = play.rounds_per_day
    if rounds_rule is not None and facts.rate_of_play == "standard":
        # fide-2000 3.1: 3 rounds a day; feda-1996 4.1: 2; fce 6.1: 3.
        limit, article = rounds_rule.value, rounds_rule.article
        if dated:
            for day, n in sorted(per_day.items()):
                if n > limit:
                    out.append(
                        check(
                            "error",
                            "rounds_per_day",
                            article,
                            rounds=n,
                            day=day.isoformat(),
                            limit=limit,
                        )
                    )
        elif rounds > limit * days:
            out.append(
                check(
                    "error",
                    "rounds_per_day_average",
                    article,
                    rounds=rounds,
                    days=days,
                    limit=limit,
                )
            )
    hours_rule = play.hours_per_day
    if hours_rule is not None and facts.rate_of_play == "standard" and busiest:
        # fide-2024 3.1, fide-2000 3.1: 12 hours. A game can last twice each player's time for
        # 60 moves.
        hours = busiest * 2 * facts.minutes_for_60_moves / 60
        if hours > hours_rule.value:
            out.append(
                check(
                    "warning",
                    "hours_per_day",
                    hours_rule.article,
                    rounds=busiest,
                    minutes=_fmt(facts.minutes_for_60_moves),
                    hours=_fmt(round(hours, 1)),
                    limit=hours_rule.value,
                )
            )
    team = facts.pairing_system == "team"
    longest, authorised, monthly = play.max_days, play.authorised_days, play.monthly_report_days
    if (
        longest is not None
        and days > longest.value.days
        and not (team and longest.value.teams_exempt)
    ):
        # fide-2000 4.1: at most 90 days; fce 6.2: 90, except team competitions.
        out.append(check("error", "duration", longest.article, days=days, limit=longest.value.days))
    elif authorised is not None and days >= authorised.value:
        # feda-1996 5.1: under 90 days; 5.11: longer with the federation's authorisation.
        out.append(
            check(
                "warning",
                "duration_authorised",
                authorised.article,
                days=days,
                limit=authorised.value,
            )
        )
    elif monthly is not None and days > monthly.value:
        # fide-2024 4.1: over 30 days, intermediate results are reported monthly.
        out.append(check("warning", "duration_monthly", monthly.article, days=days))
    return out


# --------------------------------------------------------------------------- composition


def composition_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    composition = _facts(facts.ruleset).composition
    if composition is None:  # only fide-2000 6.x and feda-1996 7.x have such a chapter
        return []
    out: list[Problem] = []
    players = [p for p in report.players if not p.dummy]
    rated = {p.start_rank for p in players if p.rating}
    n, r = len(players), len(rated)
    points = report.points()
    rr = facts.pairing_system in ("round_robin", "double_round_robin")
    if rr and not (facts.national_championship and r >= composition.championship_rated.value):
        # fide-2000 6.3 / feda-1996 7.3: a third rated; fewer than 10 players → at least 4.
        # (National championships: 3 rated players suffice, 6.33 / 7.33.)
        small = composition.small_round_robin
        required = max(
            math.ceil(n * composition.rated_share.value),
            small.value.rated if n < small.value.players_under else 0,
        )
        if r < required:
            out.append(
                check(
                    "error", "rr_rated_share", small.article, players=n, rated=r, required=required
                )
            )
        double = composition.double_round_robin
        if (
            facts.pairing_system == "double_round_robin"
            and r < n
            and (n < double.value.players or r < double.value.rated)
        ):
            out.append(check("error", "drr_unrated", double.article, players=n, rated=r))
    rated_opponents: dict[int, set[int]] = defaultdict(set)
    for g in report.games:
        if g.black_rank is None or not g.is_rated:
            continue
        if g.black_rank in rated:
            rated_opponents[g.white_rank].add(g.black_rank)
        if g.white_rank in rated:
            rated_opponents[g.black_rank].add(g.white_rank)
    low = composition.unrated_discard_max  # fide-2000 6.1: 0 or ½; feda-1996 7.1: zero
    needed = composition.unrated_min_rated_opponents  # fide-2000 6.42: 3; feda-1996 7.42: 4
    for p in players:
        if p.start_rank in rated:
            continue
        if points.get(p.start_rank, 0.0) <= low.value:
            out.append(
                check(
                    "warning",
                    "unrated_low_score",
                    low.article,
                    rank=p.start_rank,
                    points=_fmt(points.get(p.start_rank, 0.0)),
                )
            )
        elif not rr and len(rated_opponents[p.start_rank]) < needed.value:
            out.append(
                check(
                    "warning",
                    "unrated_few_opponents",
                    needed.article,
                    rank=p.start_rank,
                    opponents=len(rated_opponents[p.start_rank]),
                    required=needed.value,
                )
            )
    return out


# --------------------------------------------------------------------------- report deadlines


def report_window(facts: TournamentFacts) -> cycles.ReportWindow:
    """The periods the report may go to and its deadline: `periods.cycles.report_window`, the
    function the period assignment (`ratings.selectors.period_for_tournament`) calls too."""
    return cycles.report_window(ruleset=facts.ruleset, cycle=facts.cycle, end_date=facts.end_date)


def fide_2024_report_deadline(end_date: dt.date) -> dt.date:
    """fide-2024 9.1 with 7.1.3: closing date (3 days before) of the third list after the end;
    for a tournament ending five days or less before month end the lists are counted from the
    next month's list (9.1; the decision is in ratings/engine/regulations/fide_2024.py)."""
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
    due = _facts(facts.ruleset).reporting.report_due_days
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
    rule = _facts(facts.ruleset).reporting.ascii_file_over_players
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


def dates_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    h = report.header
    if (
        h.start_date
        and h.end_date
        and (h.start_date, h.end_date) != (facts.start_date, facts.end_date)
    ):
        return [
            check(
                "warning",
                "dates_differ",
                "registration",
                report=f"{h.start_date}–{h.end_date}",
                registered=f"{facts.start_date}–{facts.end_date}",
            )
        ]
    return []


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
    )
    return sorted(out, key=lambda p: p.severity != "error")
