"""Calculation runs: a request queues one run per period (the database refuses a second), the
Celery task runs it under an advisory lock, and a run whose worker died is noticed."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import Refused
from core.heartbeat import Heartbeat
from core.jobs import ACTIVE_JOB_STATUSES, JobStatus, jobs_stale_ids
from core.pg import locks
from core.tasks import task_enqueue_on_commit, task_enqueue_or_undo_on_commit
from periods.models import PeriodStatus, RatingPeriod
from rating_engine import ENGINE_VERSION
from rating_engine.registry import get_regulation
from ratings.calculation.bulk_arrays import PlayerArrays
from ratings.calculation.bulk_path import calculate_bulk
from ratings.calculation.engine_path import calculate_engine
from ratings.calculation.period_games import PERIOD_GAMES_PARAMS, period_games_sql
from ratings.calculation.rulesets import period_ruleset_in_force
from ratings.models import CalculationRun

log = logging.getLogger(__name__)

#: Periods of a regulation with a bulk rater (fide-2024) and at least this many games go through
#: the NumPy bulk path.
#: Setting: RATINGS_BULK_MIN_GAMES.
BULK_MIN_GAMES = 5000


def _run_is_orphaned(*, run: CalculationRun) -> bool:
    """A run marked running whose worker is gone: the worker holds a session advisory lock for
    the whole run, released by the server when the worker dies. A queued run counts as lost
    once it has waited longer than the broker's visibility timeout."""
    if run.status == JobStatus.QUEUED:
        visibility = int(
            settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 6 * 3600)
        )
        return timezone.now() - run.requested_at > dt.timedelta(seconds=visibility)
    return locks.advisory_is_free(locks.CALCULATION, run.period_id)


def calculation_request(
    *, period: RatingPeriod, user: Any = None, enqueue: bool = True
) -> CalculationRun:
    """Create a run and enqueue its task after commit. Exactly one run per period can be
    queued or running: the period row is locked (SELECT … FOR UPDATE) while we look, and a
    partial unique index refuses a second active run whatever happens."""
    with transaction.atomic():
        period = RatingPeriod.objects.select_for_update().select_related("system").get(pk=period.pk)
        if period.status == PeriodStatus.OPEN:
            raise Refused(_("Close the period before calculating it."))
        # The regulation its tournaments fall under by their start days, stored on the run
        # (refused when two: ratings.calculation.rulesets).
        in_force = period_ruleset_in_force(period=period)
        active = period.runs.filter(status__in=ACTIVE_JOB_STATUSES).first()
        if active is not None:
            if _run_is_orphaned(run=active):
                CalculationRun.objects.filter(pk=active.pk).update(
                    status=JobStatus.LOST,
                    finished_at=timezone.now(),
                    error=_("The worker stopped during the run; restarted by a new request."),
                )
            else:
                raise Refused(
                    _(
                        "A calculation of this period is already %(status)s (run %(run)s); "
                        "wait for it to finish."
                    )
                    % {"status": active.get_status_display().lower(), "run": active.pk}
                )
        try:
            with transaction.atomic():
                run = CalculationRun.objects.create(
                    period=period,
                    ruleset=in_force.ruleset,
                    engine_version=ENGINE_VERSION,
                    requested_by=user if getattr(user, "is_authenticated", False) else None,
                    phase=gettext_noop("Queued"),
                )
        except IntegrityError:
            raise Refused(_("A calculation of this period is already queued or running.")) from None
        # The run reads the games as they are when it starts: a correction made before now is
        # in it; one made later marks the period again (ratings.office.services).
        RatingPeriod.objects.filter(pk=period.pk).update(needs_recalculation=False)
        if enqueue:
            # With the broker unreachable: 503 and the run taken back, so the period does not
            # show a run waiting for a message that was never sent (issue 28).
            undo = partial(
                _request_undo,
                run_id=run.pk,
                period_id=period.pk,
                needs_recalculation=period.needs_recalculation,
            )
            task_enqueue_or_undo_on_commit("ratings.calculate_period", run.pk, undo=undo)
    return run


def _request_undo(*, run_id: int, period_id: int, needs_recalculation: bool) -> None:
    """Take back a requested run whose message could not be sent: the run (if no worker took
    it after all) and the period's mark as it was."""
    with transaction.atomic():
        if CalculationRun.objects.filter(pk=run_id, status=JobStatus.QUEUED).delete()[0]:
            RatingPeriod.objects.filter(pk=period_id).update(
                needs_recalculation=needs_recalculation
            )


#: Where the bulk path takes the players' state at the start of a period from, when not from the
#: database (a re-rating chain keeps it in memory between periods: ratings.rerating.chain_states).
PlayersSource = Callable[[RatingPeriod], PlayerArrays]


def calculation_run(
    *, run_id: int, players_source: PlayersSource | None = None
) -> CalculationRun | None:
    """What the Celery task does: read, rate, write the draft in one transaction.

    A worker killed at any point leaves the previous draft and the published lists intact (the
    write is one transaction); the redelivered message, or a new request, runs it again.
    """
    run = CalculationRun.objects.select_related("period__system").get(pk=run_id)
    if run.status not in ACTIVE_JOB_STATUSES:
        log.info("run %s is %s; nothing to do", run_id, run.status)
        return run
    period_id = run.period_id
    if not locks.advisory_try_lock(locks.CALCULATION, period_id):
        log.warning("run %s: another worker holds period %s; leaving it", run_id, period_id)
        return run
    try:
        CalculationRun.objects.filter(pk=run_id).update(
            status=JobStatus.RUNNING,
            started_at=timezone.now(),
            attempts=run.attempts + 1,
            progress=1,
            phase=gettext_noop("Reading players"),
            error="",
            heartbeat_at=timezone.now(),
        )
        try:
            with Heartbeat(CalculationRun._meta.db_table, run_id):
                _calculate(run=run, players_source=players_source)
        except Exception as exc:
            log.exception("run %s failed", run_id)
            CalculationRun.objects.filter(pk=run_id).update(
                status=JobStatus.FAILED,
                finished_at=timezone.now(),
                error=f"{type(exc).__name__}: {exc}"[:2000],
                phase=gettext_noop("Failed"),
            )
            # The draft in force is older than the request: still to be recalculated.
            RatingPeriod.objects.filter(pk=period_id).update(needs_recalculation=True)
            raise
    finally:
        locks.advisory_unlock(locks.CALCULATION, period_id)
    return CalculationRun.objects.get(pk=run_id)


def _calculate(*, run: CalculationRun, players_source: PlayersSource | None = None) -> None:
    period = run.period
    started = time.perf_counter()
    threshold = getattr(settings, "RATINGS_BULK_MIN_GAMES", BULK_MIN_GAMES)
    # The regulation the period's tournaments fall under (ratings.calculation.rulesets).
    if get_regulation(period_ruleset_in_force(period=period).ruleset).bulk is not None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT COUNT(*) FROM tournaments_game g JOIN tournaments_tournament t ON t.id = "
                "g.tournament_id "
                f"WHERE {period_games_sql(period='%s')} "
                "AND t.status IN ('validated', 'rated', 'published')",
                [period.pk] * PERIOD_GAMES_PARAMS,
            )
            n_games = cursor.fetchone()[0]
        if n_games >= threshold:
            calculate_bulk(run=run, players_source=players_source)
            log.info("run %s (bulk) in %.2f s", run.pk, time.perf_counter() - started)
            return
    calculate_engine(run=run)
    log.info("run %s (engine) in %.2f s", run.pk, time.perf_counter() - started)


#: Stored on a run the watchdog found lost (English; the period page words it itself).
LOST_REQUEUED = (
    "No heartbeat from the worker since %(at)s and its lock is free: the worker is gone. Queued "
    "again as run %(run)s."
)
LOST_FAILED = (
    "No heartbeat from the worker since %(at)s and its lock is free: the worker is gone, for the "
    "%(n)s. time; not queued again."
)


def calculation_runs_watch(*, now: dt.datetime | None = None) -> list[CalculationRun]:
    """The watchdog (Celery beat, every minute: ratings.watch_runs). A running run whose
    heartbeat (core.heartbeat) is older than JOBS_HEARTBEAT_STALE_MINUTES and whose advisory
    lock is free has lost its worker (SIGKILL, out of memory, a machine gone): it becomes `lost`
    and a new run of the period is queued, carrying its attempts; after JOBS_MAX_ATTEMPTS it
    becomes `failed` instead. A run whose lock is held is alive (a long step, a clock
    behind) and left alone. Returns the runs marked."""
    now = now or timezone.now()
    candidates = jobs_stale_ids(model=CalculationRun, now=now)
    marked: list[CalculationRun] = []
    for run_id in candidates:
        with transaction.atomic():
            run = (
                CalculationRun.objects.select_for_update()
                .select_related("period")
                .filter(pk=run_id, status=JobStatus.RUNNING)
                .first()
            )
            if run is None or not locks.advisory_is_free(locks.CALCULATION, run.period_id):
                continue
            at = timezone.localtime(run.heartbeat_at or run.started_at or run.requested_at)
            if run.attempts < int(settings.JOBS_MAX_ATTEMPTS):
                lost = CalculationRun.objects.filter(pk=run.pk)
                # Lost first: one active run per period (run_one_active_per_period).
                lost.update(
                    status=JobStatus.LOST, finished_at=now, phase=gettext_noop("Worker lost")
                )
                new = CalculationRun.objects.create(
                    period=run.period,
                    ruleset=run.ruleset,
                    engine_version=ENGINE_VERSION,
                    requested_by=run.requested_by,
                    phase=gettext_noop("Queued"),
                    attempts=run.attempts,
                )
                lost.update(
                    error=LOST_REQUEUED % {"at": at.isoformat(timespec="seconds"), "run": new.pk}
                )
                task_enqueue_on_commit("ratings.calculate_period", new.pk)
                log.warning(
                    "run %s (period %s): no heartbeat since %s, lock free; lost, queued again as "
                    "run %s",
                    run.pk,
                    run.period_id,
                    at,
                    new.pk,
                )
            else:
                CalculationRun.objects.filter(pk=run.pk).update(
                    status=JobStatus.FAILED,
                    finished_at=now,
                    phase=gettext_noop("Failed"),
                    error=LOST_FAILED % {"at": at.isoformat(timespec="seconds"), "n": run.attempts},
                )
                log.error(
                    "run %s (period %s): no heartbeat since %s, lock free, %s attempts; failed",
                    run.pk,
                    run.period_id,
                    at,
                    run.attempts,
                )
            run.refresh_from_db()
            marked.append(run)
    return marked
