"""Heartbeats of running jobs and the beat's watchdog (issue 17 item 5): a run beats while it
runs (a timer thread, through a second connection, also inside the draft's transaction); a
worker SIGKILLed mid-run stops beating, and the watchdog — the beat task's service — marks the
run lost (its lock is free), says so on the period's page and queues it again, and the new
run completes. A run whose lock is held is never called lost, however old its beat."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from core.jobs import JobStatus
from core.roles import RATING_OFFICER
from lists.imports import jobs as import_jobs
from lists.models import ListImportJob
from periods import services as period_services
from ratings import tasks
from ratings.calculation import runs
from ratings.models import CalculationRun, DraftResult
from tests.factories import build, make_system, make_user
from tests.workers import wait_for

LATER = dt.timedelta(minutes=10)


def run_of(pk: int) -> CalculationRun:
    return CalculationRun.objects.get(pk=pk)


@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_is_found_lost_and_its_run_queued_again(
    celery_broker, stalled_writes, client
) -> None:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    stalled_writes.arm()
    slow = celery_broker(JOBS_HEARTBEAT_SECONDS="1")
    dead = runs.calculation_request(period=period)
    wait_for(stalled_writes.stalled, what="the run to be writing its draft")
    # The timer thread beats during the long step, from inside the write transaction.
    first = run_of(dead.pk).heartbeat_at
    assert first is not None
    wait_for(
        lambda: (run_of(dead.pk).heartbeat_at or first) > first,
        timeout=10,
        what="a later heartbeat",
    )
    # Alive (its lock is held): never lost, even judged ten minutes from now.
    assert runs.calculation_runs_watch(now=timezone.now() + LATER) == []
    assert run_of(dead.pk).status == JobStatus.RUNNING

    slow.kill()
    stalled_writes.release()
    # Dead, but its last beat is recent: not yet.
    assert runs.calculation_runs_watch() == []
    celery_broker()
    with override_settings(JOBS_HEARTBEAT_STALE_MINUTES=0):
        marked = tasks.watch_runs.apply().get()  # the beat's task, run here
    assert marked == [dead.pk]
    lost = run_of(dead.pk)
    assert lost.status == JobStatus.LOST and lost.finished_at is not None
    new = CalculationRun.objects.get(
        period=period,
        status__in=(JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.SUCCEEDED),
        pk__gt=dead.pk,
    )
    assert f"Queued again as run {new.pk}" in lost.error
    wait_for(lambda: run_of(new.pk).status == JobStatus.SUCCEEDED, what="the run queued again")
    assert run_of(new.pk).attempts == 2  # the lost one's attempt and its own
    assert DraftResult.objects.filter(run_id=new.pk).count() == 4
    assert not DraftResult.objects.filter(run_id=dead.pk).exists()
    # The period's page says what happened.
    client.force_login(make_user(role=RATING_OFFICER))
    page = client.get(reverse("ratings:period", args=[period.pk])).content.decode()
    assert f"Run {dead.pk} stopped: its worker gave no sign of life" in page
    assert runs.calculation_runs_watch(now=timezone.now() + LATER) == []  # nothing else running


def _running_run(attempts: int, beat_minutes_ago: float) -> CalculationRun:
    system, period, players, tournament = build()
    period_services.period_close(period=period)
    run = runs.calculation_request(period=period, enqueue=False)
    CalculationRun.objects.filter(pk=run.pk).update(
        status=JobStatus.RUNNING,
        attempts=attempts,
        started_at=timezone.now() - LATER,
        heartbeat_at=timezone.now() - dt.timedelta(minutes=beat_minutes_ago),
    )
    return run


@pytest.mark.django_db
@override_settings(JOBS_HEARTBEAT_STALE_MINUTES=5, JOBS_MAX_ATTEMPTS=2)
def test_watchdog_threshold_and_attempts(django_capture_on_commit_callbacks) -> None:
    fresh = _running_run(1, beat_minutes_ago=2)
    assert runs.calculation_runs_watch() == []  # a beat 2 minutes ago: alive
    assert run_of(fresh.pk).status == JobStatus.RUNNING
    stale = _running_run(1, beat_minutes_ago=6)
    with django_capture_on_commit_callbacks() as sent:
        (marked,) = runs.calculation_runs_watch()
    assert marked.pk == stale.pk and marked.status == JobStatus.LOST
    assert len(sent) == 1  # the new run's task
    again = CalculationRun.objects.get(period=stale.period, status=JobStatus.QUEUED)
    assert again.attempts == 1
    # Lost again on its second attempt: failed, not queued a third time.
    CalculationRun.objects.filter(pk=again.pk).update(
        status=JobStatus.RUNNING, attempts=2, heartbeat_at=timezone.now() - LATER
    )
    with django_capture_on_commit_callbacks() as sent:
        (failed,) = runs.calculation_runs_watch()
    assert failed.pk == again.pk and failed.status == JobStatus.FAILED and "2. time" in failed.error
    assert not sent
    assert not CalculationRun.objects.filter(period=stale.period, status=JobStatus.QUEUED).exists()


@pytest.mark.django_db
@override_settings(JOBS_HEARTBEAT_STALE_MINUTES=5)
def test_watchdog_queues_a_lost_import_again_then_fails_it(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system()
    job = import_jobs.list_import_request(system=system, data=b"x", format="csv", enqueue=False)
    ListImportJob.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING, attempts=1, heartbeat_at=timezone.now() - LATER
    )
    with django_capture_on_commit_callbacks() as sent:
        assert import_jobs.list_import_jobs_watch() == [job.pk]
    job.refresh_from_db()
    assert (
        job.status == JobStatus.QUEUED and job.phase == import_jobs.LOST_REQUEUED and len(sent) == 1
    )
    ListImportJob.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING,
        attempts=import_jobs.MAX_ATTEMPTS,
        heartbeat_at=timezone.now() - LATER,
    )
    assert import_jobs.list_import_jobs_watch() == [job.pk]
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and job.error == import_jobs.WORKER_LOST


def test_the_beat_sends_the_watchdogs_every_minute() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["watch-calculation-runs"] == {"task": "ratings.watch_runs", "schedule": 60.0}
    assert schedule["watch-list-import-jobs"] == {
        "task": "ratings.watch_import_jobs",
        "schedule": 60.0,
    }
    assert {"ratings.watch_runs", "ratings.watch_import_jobs"} <= set(app.tasks)
