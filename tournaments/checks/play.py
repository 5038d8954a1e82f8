"""Rate of play, rounds and hours a day, duration."""

from __future__ import annotations

import math
from collections import Counter

from formats.problems import Problem
from formats.reports.records import ParsedReport, ReportGame

from .facts import TournamentFacts, check, fmt, parts_rule, regulation_facts

#: Games a warning names before "…".
_GAMES_SHOWN = 10


def minimum_time_threshold(facts: TournamentFacts) -> tuple[int, int] | None:
    """The lowest rating from which the tournament's time is below the regulation's minimum,
    and the minutes that band asks: a game with a player rated that or more is too short
    (fide-2024 1.1: 90 minutes are short from 2400, which asks 120). None: no game is short,
    or the regulation sets no minimum; not a standard tournament, no minimum either."""
    bands = regulation_facts(facts.ruleset).play.minimum_minutes
    if bands is None or facts.rate_of_play != "standard":
        return None
    short = [b for b in bands.value if facts.minutes_for_60_moves < b.minutes]
    if not short:
        return None
    lowest = min(short, key=lambda b: b.rating)
    return lowest.rating, lowest.minutes


def per_game_minimum_time(facts: TournamentFacts) -> tuple[int, str] | None:
    """Where the regulation reads the minimum time per game (fide-2024 1.1): the rating from
    which a game of this tournament is too short, and the article. None elsewhere, or when no
    game is."""
    bands = regulation_facts(facts.ruleset).play.minimum_minutes
    if bands is None or regulation_facts(facts.ruleset).play.minimum_minutes_per_game is None:
        return None
    threshold = minimum_time_threshold(facts)
    return None if threshold is None else (threshold[0], bands.article)


def games_below_minimum_time(facts: TournamentFacts, report: ParsedReport) -> list[ReportGame]:
    """The played games whose players' ratings ask more time than the tournament gives, where
    the regulation reads the minimum per game (fide-2024 1.1); [] elsewhere."""
    threshold = per_game_minimum_time(facts)
    if threshold is None:
        return []
    rating = {p.start_rank: p.rating or 0 for p in report.players}
    return [
        g
        for g in report.games
        if g.black_rank is not None
        and g.is_rated
        and max(rating.get(g.white_rank, 0), rating.get(g.black_rank, 0)) >= threshold[0]
    ]


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
    elif bands is not None and play.minimum_minutes_per_game is not None:
        # fide-2024 1.1: the band is each game's ("al menos un jugador de la partida"): the
        # games below it are left out (marked when the report is validated), the rest rated.
        short = games_below_minimum_time(facts, report)
        threshold = minimum_time_threshold(facts)
        if short and threshold is not None:
            rating, required = threshold
            shown = ", ".join(
                f"{g.round or '?'}: {g.white_rank}–{g.black_rank}" for g in short[:_GAMES_SHOWN]
            )
            out.append(
                check(
                    "warning",
                    "rate_of_play_games",
                    bands.article,
                    minutes=fmt(minutes),
                    required=required,
                    rating=rating,
                    count=len(short),
                    games=shown + (" …" if len(short) > _GAMES_SHOWN else ""),
                )
            )
    elif bands is not None:
        # fide-2000 1.12-1.14: 120 min if a player of the tournament is rated ≥2200, 90 if
        # ≥1600, 60 otherwise; feda-1996 2.2 (guillotine), fce 5.1: 60 minutes.
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
    increment = play.minimum_increment_seconds
    if increment is not None and 0 < facts.increment_seconds < increment.value:
        # feda-1996 2.3: a game with an increment adds at least 10 seconds a move.
        out.append(
            check(
                "error",
                "increment_too_short",
                increment.article,
                seconds=facts.increment_seconds,
                required=increment.value,
            )
        )
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
    in_parts = parts_rule(facts)
    if in_parts is not None:
        # fide-2024 4.1 (over 30 days), fide-2000 4.11 (a league over 4.1's 90 days): allowed,
        # and rated in parts, period by period (docs/periods.md "Tournaments in parts").
        out.append(
            check(
                "warning",
                "rated_in_parts",
                in_parts.article,
                days=days,
                limit=in_parts.value.after_days,
            )
        )
    elif (
        longest is not None
        and days > longest.value.days
        and not (team and longest.value.teams_exempt)
    ):
        # fide-2000 4.1: at most 90 days; fce 6.2: 90, except team competitions.
        out.append(check("error", "duration", longest.article, days=days, limit=longest.value.days))
    elif authorised is not None and days >= authorised.value and not facts.long_event_authorised:
        # feda-1996 5.1: under 90 days; 5.11: longer with the federation's authorisation (the
        # officer's decision, facts.decisions.authorise_long_event, silences it).
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
