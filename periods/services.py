"""Writes for rating periods: open the next one, close one, mark them for recalculation."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import Refused
from periods import selectors
from periods.models import PeriodStatus, RatingPeriod, RatingSystem


def period_open_next(*, system: RatingSystem, today: dt.date | None = None) -> RatingPeriod:
    """Open the period after the system's latest one (or the one containing today). Refused
    while a period of the system is open: the officer opens one period at a time and closes it
    first (issue 23: clicked twice, it left two periods open). The system's row is locked, so
    two requests at once cannot both pass the check. Periods created otherwise (the synthetic
    federation, the tests of the report window) are not held to it: no database constraint,
    since a late report may go to any open period of its window (docs/periods.md)."""
    with transaction.atomic():
        return _period_open_next(system=system, today=today)


def _period_open_next(*, system: RatingSystem, today: dt.date | None) -> RatingPeriod:
    RatingSystem.objects.select_for_update().filter(pk=system.pk).first()  # one opener at a time
    already = selectors.period_current_open(system=system)
    if already is not None:
        raise Refused(
            _(
                "The period %(start)s – %(end)s of %(system)s is already open: close it before "
                "opening the next one."
            )
            % {
                "start": date_format(already.start, "SHORT_DATE_FORMAT"),
                "end": date_format(already.end, "SHORT_DATE_FORMAT"),
                "system": system.name,
            }
        )
    dates = selectors.period_next_dates(system=system, today=today)
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
