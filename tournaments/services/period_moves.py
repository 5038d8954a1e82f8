"""A tournament validated after the list of its period was published (issue 23, docs/periods.md
"Validated after publication"): it moves to the open period of its system, where the next
calculation rates it; the officer may instead rate it in its own period as a correction."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import Refused
from periods import selectors as period_selectors
from periods.models import PeriodStatus
from periods.services import period_mark_for_recalculation
from tournaments.models import Tournament, TournamentStatus


def tournament_period_follow(*, tournament: Tournament) -> None:
    """Called when the tournament becomes validated: if its period's list is already published,
    it goes to the system's open period (remembering the one it left, `moved_from_period`).
    With no open period (publishing a list opens the next one) it stays."""
    period = tournament.period
    if period is None or period.status != PeriodStatus.PUBLISHED:
        return
    if tournament.moved_from_period_id == period.pk:
        return  # the officer chose to rate it there, as a correction
    target = period_selectors.period_current_open(system=tournament.rating_system)
    if target is None:
        return  # none open (publication opens the next one): it waits where it is
    tournament.moved_from_period = period
    tournament.period = target
    tournament.save(update_fields=["moved_from_period", "period"])


def tournament_rate_as_correction(*, tournament: Tournament, officer: Any) -> Tournament:
    """The officer's choice for a tournament moved after publication: rate it in the period it
    was reported for, as a correction of that list (the period and the later rated ones are
    marked for recalculation and re-rating, docs/periods.md)."""
    own = tournament.moved_from_period
    if own is not None and not officer.has_perm("periods.manage_period", own):
        raise PermissionDenied(_("Only a rating officer can choose to rate it as a correction."))
    if (
        own is None
        or tournament.status != TournamentStatus.VALIDATED
        or tournament.period_id == own.pk
    ):
        raise Refused(_("This tournament is not waiting for that choice."))
    with transaction.atomic():
        tournament.period = own
        tournament.save(update_fields=["period"])
        period_mark_for_recalculation(period=own)
    return tournament
