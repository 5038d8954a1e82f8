"""Writes for rating periods: open the next one, close one, mark them for recalculation."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Refused
from periods import selectors
from periods.models import PeriodStatus, RatingPeriod, RatingSystem


def period_open_next(*, system: RatingSystem, today: dt.date | None = None) -> RatingPeriod:
    """Open the period after the system's latest one (or the one containing today). Asked
    twice (a correction of a list, a retry), it returns the period it opened the first time."""
    latest = system.periods.order_by("-start").first()
    day = latest.end + dt.timedelta(days=1) if latest else (today or timezone.localdate())
    dates = selectors.period_dates(system=system, day=day)
    period, _created = RatingPeriod.objects.get_or_create(
        system=system,
        start=dates.start,
        defaults={
            "end": dates.end,
            "closing_date": dates.closing_date,
            "list_date": dates.list_date,
        },
    )
    return period


def period_close(*, period: RatingPeriod) -> RatingPeriod:
    if period.status != PeriodStatus.OPEN:
        raise Refused(_("Only an open period can be closed."))
    period.status = PeriodStatus.CLOSED
    period.closed_at = timezone.now()
    period.save(update_fields=["status", "closed_at"])
    return period


def period_mark_for_recalculation(*, period: RatingPeriod) -> None:
    """A corrected report changed a rated period: it and every later rated period need
    re-rating."""
    RatingPeriod.objects.filter(
        system=period.system,
        start__gte=period.start,
        status__in=[PeriodStatus.CALCULATED, PeriodStatus.PUBLISHED],
    ).update(needs_recalculation=True)
