"""Reads of a tournament rated in parts (the regulation's ``play.rated_in_parts``: fide-2024
4.1, fide-2000 4.11; docs/periods.md "Tournaments in parts"): whether it is, its parts and the
period its next report goes to."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q

from periods.models import PeriodStatus, RatingPeriod
from periods.rulesets import system_ruleset_on
from rating_engine.registry import get_regulation
from rating_engine.regulations.base import RatedInParts, Rule
from tournaments.models import Game, GameKind, Tournament, TournamentPart, TournamentStatus


def tournament_parts_rule(*, tournament: Tournament) -> Rule[RatedInParts] | None:
    """The article rating this tournament in parts (its regulation on its start day), None
    when it is rated whole."""
    ruleset = system_ruleset_on(system=tournament.rating_system, day=tournament.start_date).ruleset
    rule = get_regulation(ruleset).facts.play.rated_in_parts
    days = (tournament.end_date - tournament.start_date).days + 1
    if rule is None or not rule.value.applies(days=days, pairing_system=tournament.system):
        return None
    return rule


def parts_published(*, tournament: Tournament) -> list[TournamentPart]:
    """Its parts whose period's list is published (locked), in order; not the current one."""
    return list(
        tournament.parts.filter(period__status=PeriodStatus.PUBLISHED)
        .exclude(period_id=tournament.period_id)
        .select_related("period")
        .order_by("number")
    )


def tournament_awaits_part(*, tournament: Tournament) -> bool:
    """Its current part is published and the tournament goes on after that period: its arbiter
    sends the next report, which opens the next part (not a correction)."""
    period = tournament.period
    return (
        period is not None
        and tournament.status == TournamentStatus.PUBLISHED
        and period.status == PeriodStatus.PUBLISHED
        and period.end < tournament.end_date
        and tournament.parts.filter(period=period).exists()
        and tournament_parts_rule(tournament=tournament) is not None
    )


def part_period_choose(*, tournament: Tournament, received_on: dt.date) -> RatingPeriod | None:
    """The period a report of a tournament rated in parts goes to: the period of its current
    part while that is not published (a new report replaces the part's), else the earliest
    open period of its system that overlaps the tournament, has begun by the report's day and
    comes after its published parts. None: no such period is open (the report waits where
    it is, as a report whose period is not open yet)."""
    current = tournament.period
    if (
        current is not None
        and current.status != PeriodStatus.PUBLISHED
        and tournament.parts.filter(period=current).exists()
    ):
        return current
    periods = RatingPeriod.objects.filter(
        system=tournament.rating_system,
        status=PeriodStatus.OPEN,
        end__gte=tournament.start_date,
        start__lte=min(received_on, tournament.end_date),
    )
    last = (
        tournament.parts.filter(period__status=PeriodStatus.PUBLISHED)
        .order_by("-period__end")
        .values_list("period__end", flat=True)
        .first()
    )
    if last is not None:
        periods = periods.filter(start__gt=last)
    return periods.order_by("start").first()


@dataclass(frozen=True)
class PartRow:
    """A part as its tournament's page and the API show it."""

    number: int
    period: RatingPeriod
    published: bool
    current: bool
    played_games: int
    byes: int
    last_round: int | None
    validated_at: dt.datetime | None


def tournament_parts(*, tournament: Tournament) -> list[PartRow]:
    """Its parts, each with its period and the games it holds now (played games and byes,
    counted apart)."""
    parts = list(tournament.parts.select_related("period").order_by("number"))
    if not parts:
        return []
    counts = {
        row["period_id"]: row
        for row in Game.objects.filter(tournament=tournament)
        .values("period_id")
        .annotate(
            n_played=Count("id", filter=Q(kind=GameKind.PLAYED)),
            n_byes=Count("id", filter=Q(black__isnull=True)),
        )
    }
    return [
        PartRow(
            number=p.number,
            period=p.period,
            published=p.period.status == PeriodStatus.PUBLISHED,
            current=p.period_id == tournament.period_id,
            played_games=counts.get(p.period_id, {}).get("n_played", 0),
            byes=counts.get(p.period_id, {}).get("n_byes", 0),
            last_round=p.last_round,
            validated_at=p.validated_at,
        )
        for p in parts
    ]
