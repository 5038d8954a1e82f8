"""Re-rating: a corrected period and every later one are recalculated and republished, in
order, by one worker job (ratings.rerating.chain). `period_rerate` is one link of the chain of
tasks re-ratings were before it, kept for the messages queued then."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from core.errors import Refused
from core.jobs import JobStatus
from periods.models import RatingPeriod
from ratings.calculation.runs import calculation_request, calculation_run
from ratings.models import PublishedList, RerateChain
from ratings.publication.services import list_publish
from ratings.rerating.chain import rerate_chain_request


def rerate_request(*, period: RatingPeriod, user: Any = None) -> RerateChain:
    """Recalculate and republish this period and every later calculated/published one, in
    order, in one worker job (each a new list version): ratings.rerating.chain."""
    return rerate_chain_request(period=period, user=user)


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
