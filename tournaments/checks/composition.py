"""Who plays: rated share of round robins, unrated players' scores and opponents (fide-2000 6.x,
feda-1996 7.x)."""

from __future__ import annotations

import math
from collections import defaultdict

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .facts import TournamentFacts, check, fmt, regulation_facts


def composition_checks(facts: TournamentFacts, report: ParsedReport) -> list[Problem]:
    composition = regulation_facts(facts.ruleset).composition
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
                    points=fmt(points.get(p.start_rank, 0.0)),
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
