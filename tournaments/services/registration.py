"""Registration of a tournament, approval of a late one, and its period."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from periods import selectors as period_selectors
from periods.models import RatingSystem
from periods.rulesets import system_ruleset_on
from tournaments import checks, selectors
from tournaments.models import Tournament

from .validation import tournament_revalidate


def tournament_register(
    *,
    arbiter: Any,
    data: dict[str, Any],
    top_rating: int | None = None,
    top_woman_rating: int | None = None,
    today: dt.date | None = None,
) -> Tournament:
    """Register a tournament; a registration later than the regulation's deadline waits for an
    officer's approval (fide-2024 0.2; elsewhere RatingSystem.registration_days)."""
    today = today or timezone.localdate()
    system: RatingSystem = data["rating_system"]
    required, _article = checks.registration_days_required(
        # the regulation in force on its start day (fide-2024 0.1, fide-2000 0.1.1, cnxc-2000 8.1)
        ruleset=system_ruleset_on(system=system, day=data["start_date"]).ruleset,
        default_days=system.registration_days,
        top_rating=top_rating,
        top_woman_rating=top_woman_rating,
    )
    tournament = Tournament(arbiter=arbiter, **data)
    tournament.late_registration = (tournament.start_date - today).days < required
    tournament.full_clean(exclude=["arbiter"])
    tournament.period = period_selectors.period_for_tournament(tournament=tournament).period
    tournament.save()
    return tournament


def tournament_approve_late(*, tournament: Tournament, officer: Any) -> Tournament:
    if not officer.has_perm("tournaments.approve_registration", tournament):
        raise PermissionDenied(_("Only a rating officer can approve a late registration."))
    tournament.approved_by = officer
    tournament.approved_at = timezone.now()
    tournament.save(update_fields=["approved_by", "approved_at"])
    if selectors.report_current(tournament=tournament):
        tournament_revalidate(tournament=tournament)
    return tournament


def tournament_assign_period(
    *, tournament: Tournament, received_on: dt.date | None = None
) -> period_selectors.Assignment:
    """Put a tournament in the period its regulation assigns; refuse a too-late report.
    Late reports go to a later list, so nothing already rated is re-rated."""
    assignment = period_selectors.period_for_tournament(
        tournament=tournament, received_on=received_on
    )
    if assignment.period is None:
        raise Refused(assignment.reason)
    tournament.period = assignment.period
    tournament.save(update_fields=["period"])
    return assignment
