"""Re-rating: a corrected period and every later one are recalculated and republished, in
order, as a chain of Celery tasks."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from core.errors import Refused
from core.jobs import ACTIVE_JOB_STATUSES, JobStatus
from core.tasks import task_chain_on_commit
from periods.models import PeriodStatus, RatingPeriod
from ratings.calculation.runs import calculation_request, calculation_run
from ratings.models import CalculationRun, PublishedList
from ratings.publication.services import list_publish


def rerate_request(*, period: RatingPeriod, user: Any = None) -> list[int]:
    """Recalculate and republish this period and every later calculated/published one, in
    order, as a chain of Celery tasks (each a new list version)."""
    periods = list(
        RatingPeriod.objects.filter(system=period.system, start__gte=period.start)
        .exclude(status=PeriodStatus.OPEN)
        .order_by("start")
        .values_list("pk", flat=True)
    )
    if not periods:
        raise Refused(_("Nothing to re-rate."))
    if CalculationRun.objects.filter(
        period_id__in=periods, status__in=ACTIVE_JOB_STATUSES
    ).exists():
        raise Refused(
            _("A calculation of one of these periods is running; try again when it ends.")
        )
    user_id = getattr(user, "pk", None)
    task_chain_on_commit("ratings.rerate_period", [(pk, user_id) for pk in periods])
    return periods


def period_rerate(*, period_id: int, user_id: int | None = None) -> PublishedList | None:
    """One link of the re-rating chain: calculate the period now (in this worker) and publish."""
    period = RatingPeriod.objects.get(pk=period_id)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    run = calculation_request(period=period, user=user, enqueue=False)
    calculation_run(run_id=run.pk)
    run.refresh_from_db()
    if run.status != JobStatus.SUCCEEDED:
        raise Refused(_("The re-rating of %(period)s failed.") % {"period": period})
    return list_publish(
        period=period, user=user, note=_("Re-rating after a correction of an earlier period.")
    )
