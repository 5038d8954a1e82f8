"""Calibration as a step of the calculation (cnxc-2000 7.3), for the regulations whose
``inputs.calibration`` names an external list (the registry says which; no ruleset compared).

7.3: "As pontuações Elo a figurar numa lista serão aferidas pelas classificações da lista da
ICCF em vigor no dia imediato ao último a que correspondem os cálculos".

1. ``calibration_prepare(*, period, players)``, before rating: the list of that source in
   force on the period's last day + ``days_after_end`` (players.external), its ratings given
   to the engine per player (``PlayerInput.calibration_rating``). Nothing is given, with the
   reason, when no list was in force that day, or when that same list was already applied to
   an earlier period of the system (a list is applied once: a later period never applies an
   earlier one's calibration again; its own is read from its own day).
2. The engine counts the players in both lists, computes the mean difference and applies it
   or not (7.3 a, b), noting each common player's two ratings (``calibration_reference``) and
   each shifted rating (``calibration``).
3. ``calibration_store(*, run, plan, result)``, after rating: the run's ``Calibration`` and its
   entries (players in both lists with their two ratings, each effective rating before and
   after), read back from the engine's notes. A second calculation of the period replaces the
   calibrations of its earlier runs that were not published.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal

from django.db import transaction

from periods.models import RatingPeriod
from players.external import external_list_in_force, external_ratings_of
from players.models import ExternalList
from rating_engine import types as et
from rating_engine.registry import get_regulation
from ratings.calculation.rulesets import period_ruleset_in_force
from ratings.models import CalculationRun, Calibration, CalibrationEntry, CalibrationReason


@dataclass(frozen=True)
class CalibrationPlan:
    """What the calculation gave the engine for the calibration."""

    article: str
    source: str
    read_on: dt.date
    minimum_players: int
    external_list: ExternalList | None
    #: Why nothing was given (no_list, already_used); "" when the list's ratings were given.
    refused: str = ""


def calibration_prepare(
    *, period: RatingPeriod, players: list[et.PlayerInput]
) -> tuple[list[et.PlayerInput], CalibrationPlan | None]:
    """The players with their rating in the list the regulation calibrates against, and the
    plan; the players unchanged and None when the regulation has no calibration."""
    rule = get_regulation(period_ruleset_in_force(period=period).ruleset).inputs.calibration
    if rule is None:
        return players, None
    facts = rule.value
    read_on = period.end + dt.timedelta(days=facts.days_after_end)
    found = external_list_in_force(source=facts.source, on=read_on)
    plan = CalibrationPlan(
        article=rule.article,
        source=facts.source,
        read_on=read_on,
        minimum_players=facts.minimum_players,
        external_list=found,
    )
    if found is None:
        return players, replace(plan, refused=CalibrationReason.NO_LIST)
    used_before = Calibration.objects.filter(
        external_list=found,
        applied=True,
        period__system=period.system,
        period__start__lt=period.start,
    ).exists()
    if used_before:
        return players, replace(plan, refused=CalibrationReason.ALREADY_USED)
    ids = [int(p.id) for p in players if p.id.isdigit()]
    ratings = external_ratings_of(external_list=found, player_ids=ids)
    given = [
        replace(p, calibration_rating=ratings.get(int(p.id))) if p.id.isdigit() else p
        for p in players
    ]
    return given, plan


def calibration_store(
    *, run: CalculationRun, plan: CalibrationPlan | None, result: et.PeriodResult
) -> Calibration | None:
    """The run's calibration, from the engine's notes (module docstring, step 3)."""
    if plan is None:
        return None
    common: dict[int, tuple[int, int]] = {}  # player -> (rating, reference)
    shifted: dict[int, tuple[int, int]] = {}  # player -> (before, after)
    shift = 0
    difference: float | None = None
    for r in result.players:
        if not r.id.isdigit():
            continue
        pid = int(r.id)
        for note in r.notes:
            if note.code == "calibration_reference":
                common[pid] = (int(str(note.params["rating"])), int(str(note.params["reference"])))
            elif note.code == "calibration":
                shift = int(str(note.params["shift"]))
                difference = float(str(note.params["difference"]))
                assert r.rating_after is not None
                shifted[pid] = (r.rating_after - shift, r.rating_after)
    applied = bool(shifted)
    if plan.refused:
        reason = plan.refused
    elif applied:
        reason = CalibrationReason.APPLIED
    else:
        reason = CalibrationReason.TOO_FEW
    found = plan.external_list
    with transaction.atomic():
        Calibration.objects.filter(period=run.period).exclude(
            run__published_list__isnull=False
        ).delete()
        calibration = Calibration.objects.create(
            run=run,
            period=run.period,
            article=plan.article,
            source=plan.source,
            read_on=plan.read_on,
            external_list=found,
            list_date=found.list_date if found is not None else None,
            players=len(common),
            minimum_players=plan.minimum_players,
            mean_difference=None if difference is None else Decimal(str(difference)),
            shift=shift,
            applied=applied,
            reason=reason,
        )
        entries = []
        for pid in sorted(set(common) | set(shifted)):
            rating, reference = common.get(pid, (None, None))
            before, after = shifted.get(pid, (rating, rating))
            assert before is not None and after is not None
            entries.append(
                CalibrationEntry(
                    calibration=calibration,
                    player_id=pid,
                    in_both_lists=pid in common,
                    reference=reference,
                    rating_before=before,
                    rating_after=after,
                )
            )
        # A federation's correspondence list: a few thousand rows at most, one INSERT.
        CalibrationEntry.objects.bulk_create(entries, batch_size=5000)
    return calibration
