"""Reads of the published differentials (fce 9.5): the one in force for a period, as the
engine's parameter, and the public history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet

from periods.models import RatingSystem
from periods.rulesets import RulesetInForce, system_ruleset_on
from rating_engine.registry import get_regulation
from ratings.models import Differential, DifferentialStatus


def differential_in_force(*, system: RatingSystem, on: dt.date) -> Differential | None:
    """The published differential with the latest effective date on or before ``on``."""
    return (
        Differential.objects.filter(
            system=system, status=DifferentialStatus.PUBLISHED, effective_date__lte=on
        )
        .order_by("-effective_date", "-id")
        .first()
    )


def differential_parameters(
    *, system: RatingSystem, end: dt.date, in_force: RulesetInForce | None = None
) -> dict[str, Any]:
    """The system's parameters for a period ending on ``end``, with the published
    differential in force (fce 9.5) in the parameter its regulation reads, under the year of
    the period's end (the engine's key, docs/engine.md "fce decisions" 2). DECISION: the
    published value wins over the JSON typed in the system's parameters for that year; the
    JSON stays only as the fallback for a year with nothing published (older periods, systems
    that publish none yet). `in_force`: the regulation set of the period's tournaments
    (periods.rulesets, effective dates), else the one in force on ``end``."""
    if in_force is None:
        in_force = system_ruleset_on(system=system, day=end)
    parameters: dict[str, Any] = dict(in_force.parameters)
    rule = get_regulation(in_force.ruleset).inputs.differential
    if rule is None:
        return parameters
    published = differential_in_force(system=system, on=end)
    if published is None:
        return parameters
    typed = parameters.get(rule.value)
    by_year: dict[str, Any] = dict(typed) if isinstance(typed, Mapping) else {}
    by_year[str(end.year)] = differential_bands(differential=published)
    parameters[rule.value] = by_year
    return parameters


def differential_bands(*, differential: Differential) -> list[dict[str, int]]:
    """The engine's form of a differential: ``[{"from": rating, "value": points}, …]``."""
    return [{"from": int(b["from"]), "value": int(b["value"])} for b in differential.bands]


def differentials_published(*, system: RatingSystem) -> QuerySet[Differential]:
    """A system's published differentials, latest effective date first."""
    return Differential.objects.filter(system=system, status=DifferentialStatus.PUBLISHED).order_by(
        "-effective_date", "-id"
    )


def differentials_of(*, system: RatingSystem) -> QuerySet[Differential]:
    """Every differential of a system (drafts too), newest first, for officers."""
    return (
        Differential.objects.filter(system=system)
        .select_related("computed_by", "published_by")
        .order_by("-computed_at", "-id")
    )
