"""Who plays: rated share of round robins, unrated players' scores and opponents (fide-2000 6.x,
feda-1996 7.x)."""

from __future__ import annotations

import math
from collections import defaultdict

from formats.problems import Problem
from formats.reports.records import ParsedReport

from .facts import TournamentFacts, check, fmt, regulation_facts


def championship_need(facts: TournamentFacts, *, all_women: bool = False) -> tuple[int, str] | None:
    """The rated players a championship of the tournament's kind needs and the article
    (``facts.competition.kinds``); a national championship given by the flag alone needs the
    regulation's ``championship_rated``; with every player a woman, the women's kind's
    (fide-2000 6.33 "o 2 mujeres", as the engine reads it). None: not a championship."""
    regulation = regulation_facts(facts.ruleset)
    kinds = regulation.competition.kinds
    kind = regulation.competition.kind(facts.kind)
    if kinds is not None and kind is not None and kind.championship_rated is not None:
        need, article = kind.championship_rated, kinds.article
    elif facts.national_championship and regulation.composition is not None:
        rule = regulation.composition.championship_rated
        need, article = rule.value, rule.article
    else:
        return None
    if all_women and kinds is not None:
        for women in (k for k in kinds.value if k.women and k.championship_rated is not None):
            need = min(need, women.championship_rated or need)
    return need, article


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
    all_women = bool(players) and all(p.sex == "w" for p in players)
    championship = championship_need(facts, all_women=all_women)
    if rr and championship is not None:
        # fide-2000 6.33 / feda-1996 7.33: a round robin championship of a kind the regulation
        # names (national, regional, provincial; a women's one 2) is rated with that many
        # rated players, instead of 6.3-6.32 / 7.3-7.32 (as the engine's composition does).
        need, article = championship
        if r < need:
            out.append(
                check("error", "rr_championship_rated", article, players=n, rated=r, required=need)
            )
    elif rr:
        # fide-2000 6.3 / feda-1996 7.3: a third rated; fewer than 10 players → at least 4.
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
