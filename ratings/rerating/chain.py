"""Re-rating a chain in one pass: after a correction of an early period, one worker job
recalculates and republishes that period and every later one, in order.

The job reads as its steps, each a call into the calculation and publication services:

1. `chain_period_calculate`: a calculation run of the period (ratings.calculation.runs), the
   players' state at its start taken from memory (ratings.rerating.chain_states) instead of
   the whole registry;
2. `chain_period_publish`: the draft becomes the period's next list version
   (ratings.publication.services.list_publish) and the chain's count of periods done moves on,
   in one transaction;
3. `chain_states_advance`: the state held moves to the start of the next period, reading again
   only the players that period's publication changed.

Stopped and resumed: the count of periods done is committed with each list version, so a
killed worker's redelivered message (acks_late), or a new request, starts again from the first
period not committed. One chain per rating system is queued or running (a partial unique
index); the worker holds an advisory lock on the system while it runs.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import Refused
from core.heartbeat import Heartbeat
from core.jobs import ACTIVE_JOB_STATUSES, JobStatus
from core.pg import locks
from core.tasks import task_enqueue_on_commit
from periods.models import PeriodStatus, RatingPeriod
from ratings.calculation.runs import calculation_request, calculation_run
from ratings.models import CalculationRun, PublishedList, RerateChain
from ratings.publication.services import list_publish
from ratings.rerating.chain_states import ChainStates

log = logging.getLogger(__name__)

#: The note of every list version a chain publishes.
CHAIN_NOTE = gettext_noop("Re-rating after a correction of an earlier period.")


def rerate_chain_request(*, period: RatingPeriod, user: Any = None) -> RerateChain:
    """A chain re-rating this period and every later calculated or published one of its system,
    queued for a worker after commit. Refused while a calculation of one of them runs or another
    chain of the system is queued or running; a chain whose worker is gone (its lock is free)
    is marked lost and replaced."""
    with transaction.atomic():
        periods = list(
            RatingPeriod.objects.filter(system=period.system, start__gte=period.start)
            .exclude(status=PeriodStatus.OPEN)
            .order_by("start")
            .values_list("pk", flat=True)
        )
        if not periods:
            raise Refused(_("Nothing to re-rate."))
        active_runs = CalculationRun.objects.filter(
            period_id__in=periods, status__in=ACTIVE_JOB_STATUSES
        ).values_list("status", "period_id")
        # A running run whose lock is free lost its worker: the chain's own request of that
        # period marks it lost (ratings.calculation.runs.calculation_request).
        if any(
            status == JobStatus.QUEUED or not locks.advisory_is_free(locks.CALCULATION, period_id)
            for status, period_id in active_runs
        ):
            raise Refused(
                _("A calculation of one of these periods is running; try again when it ends.")
            )
        active = (
            RerateChain.objects.select_for_update()
            .filter(system=period.system, status__in=ACTIVE_JOB_STATUSES)
            .first()
        )
        if active is not None:
            if active.status == JobStatus.RUNNING and locks.advisory_is_free(
                locks.RERATING, period.system_id
            ):
                RerateChain.objects.filter(pk=active.pk).update(
                    status=JobStatus.LOST,
                    finished_at=timezone.now(),
                    error=gettext_noop("The worker stopped; replaced by a new request."),
                )
            else:
                raise Refused(_("A re-rating of this rating system is already queued or running."))
        try:
            with transaction.atomic():
                chain = RerateChain.objects.create(
                    system=period.system,
                    first_period=period,
                    periods=periods,
                    requested_by=user if getattr(user, "is_authenticated", False) else None,
                    phase=gettext_noop("Queued"),
                )
        except IntegrityError:
            raise Refused(
                _("A re-rating of this rating system is already queued or running.")
            ) from None
        task_enqueue_on_commit("ratings.rerate_chain", chain.pk)
    return chain


def rerate_chain_run(*, chain_id: int) -> RerateChain:
    """What the Celery task does: every period of the chain not yet committed, in order."""
    chain = RerateChain.objects.select_related("requested_by").get(pk=chain_id)
    if chain.status not in ACTIVE_JOB_STATUSES:
        log.info("re-rating chain %s is %s; nothing to do", chain_id, chain.status)
        return chain
    if not locks.advisory_try_lock(locks.RERATING, chain.system_id):
        log.warning("re-rating chain %s: another worker holds the system; leaving it", chain_id)
        return chain
    try:
        RerateChain.objects.filter(pk=chain_id).update(
            status=JobStatus.RUNNING,
            started_at=chain.started_at or timezone.now(),
            attempts=chain.attempts + 1,
            error="",
            heartbeat_at=timezone.now(),
        )
        try:
            with Heartbeat(RerateChain._meta.db_table, chain_id):
                _chain_periods(chain=chain)
        except Exception as exc:
            log.exception("re-rating chain %s failed", chain_id)
            RerateChain.objects.filter(pk=chain_id).update(
                status=JobStatus.FAILED,
                finished_at=timezone.now(),
                error=f"{type(exc).__name__}: {exc}"[:2000],
                phase=gettext_noop("Failed"),
            )
            raise
        RerateChain.objects.filter(pk=chain_id).update(
            status=JobStatus.SUCCEEDED,
            finished_at=timezone.now(),
            progress=100,
            phase=gettext_noop("Done"),
        )
    finally:
        locks.advisory_unlock(locks.RERATING, chain.system_id)
    return RerateChain.objects.get(pk=chain_id)


def _chain_periods(*, chain: RerateChain) -> None:
    by_id = {
        p.pk: p for p in RatingPeriod.objects.filter(pk__in=chain.periods).select_related("system")
    }
    periods = [by_id[pk] for pk in chain.periods]
    user = chain.requested_by
    states = ChainStates()
    for index in range(chain.periods_done, len(periods)):
        period = periods[index]
        started = time.perf_counter()
        run = chain_period_calculate(
            chain=chain, period=period, index=index, states=states, user=user
        )
        calculated = time.perf_counter()
        chain_period_publish(chain=chain, period=period, run=run, index=index, user=user)
        published = time.perf_counter()
        if index + 1 < len(periods):
            chain_states_advance(states=states, done=period, run=run, following=periods[index + 1])
        log.info(
            "re-rating chain %s: period %s (%s of %s): calculate %.2f s, publish %.2f s, "
            "states %.2f s",
            chain.pk,
            period.pk,
            index + 1,
            len(periods),
            calculated - started,
            published - calculated,
            time.perf_counter() - published,
        )


def chain_progress_set(*, chain: RerateChain, index: float, phase: str) -> None:
    """The chain's progress (committed at once: the page polls it); a heartbeat too."""
    RerateChain.objects.filter(pk=chain.pk).update(
        progress=min(99, int(100 * index / max(len(chain.periods), 1))),
        phase=phase,
        heartbeat_at=timezone.now(),
    )


def chain_period_calculate(
    *, chain: RerateChain, period: RatingPeriod, index: int, states: ChainStates, user: Any
) -> CalculationRun:
    """Step 1: the period calculated in this worker, from the players' state held in memory."""
    chain_progress_set(chain=chain, index=index, phase=gettext_noop("Calculating"))
    run = calculation_request(period=period, user=user, enqueue=False)
    calculation_run(run_id=run.pk, players_source=states.players)
    run.refresh_from_db()
    if run.status != JobStatus.SUCCEEDED:
        raise Refused(_("The re-rating of %(period)s failed.") % {"period": period})
    return run


def chain_period_publish(
    *, chain: RerateChain, period: RatingPeriod, run: CalculationRun, index: int, user: Any
) -> PublishedList:
    """Step 2: the draft published as the period's next list version, and the chain's count of
    periods done, in one transaction (a worker killed before its commit leaves both as they
    were: the period is done again on resume)."""
    chain_progress_set(chain=chain, index=index + 0.5, phase=gettext_noop("Publishing"))
    with transaction.atomic():
        published = list_publish(period=period, user=user, note=_(CHAIN_NOTE))
        RerateChain.objects.filter(pk=chain.pk).update(
            periods_done=index + 1,
            progress=min(99, int(100 * (index + 1) / max(len(chain.periods), 1))),
            heartbeat_at=timezone.now(),
        )
    return published


def chain_states_advance(
    *, states: ChainStates, done: RatingPeriod, run: CalculationRun, following: RatingPeriod
) -> None:
    """Step 3: the state held moves on to the start of the next period."""
    states.advance(done=done, run=run, following=following)
