"""Rate of play, rounds and hours a day, duration."""

from __future__ import annotations

import math
from collections import Counter

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .facts import TournamentFacts, check, fmt, regulation_facts


def rate_of_play_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    if facts.rate_of_play != "standard":
        return []
    play = regulation_facts(facts.ruleset).play
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
                    rate=fmt(round(rate, 1)),
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
                            minutes=fmt(minutes),
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
                            minutes=fmt(minutes),
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


def schedule_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    out: list[Problem] = []
    play = regulation_facts(facts.ruleset).play
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
                    minutes=fmt(facts.minutes_for_60_moves),
                    hours=fmt(round(hours, 1)),
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
