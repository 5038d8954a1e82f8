"""Celery beat's schedule (CELERY_BEAT_SCHEDULE) and the nightly pruning task it sends."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from config.celery import app as celery_app
from lists import tasks
from lists.models import ListImportJob
from tests.config.processes import run_manage, run_settings, without
from tests.factories import make_system
from tests.lists.test_import_job_requeue import _lost


def test_the_schedule_prunes_import_jobs_nightly_with_the_configured_days() -> None:
    entry: dict[str, Any] = settings.CELERY_BEAT_SCHEDULE["prune-list-import-jobs"]
    # Beat sends by name: the name must be a task the workers know.
    celery_app.loader.import_default_modules()
    assert entry["task"] in celery_app.tasks
    assert celery_app.tasks[entry["task"]] is tasks.prune_import_jobs._get_current_object()  # type: ignore[attr-defined]  # a Proxy at run time
    assert entry["kwargs"] == {"days": settings.LIST_IMPORT_KEEP_DAYS}
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    # Once a day, at night.
    # celery-types' crontab stub lacks the parsed fields (sets of ints) that crontab sets.
    assert schedule.hour == {3} and schedule.minute == {30}  # type: ignore[attr-defined]
    assert len(schedule.day_of_week) == 7 and len(schedule.day_of_month) == 31  # type: ignore[attr-defined]
    # Celery reads it from the Django settings (namespace CELERY).
    from_celery = celery_app.conf.beat_schedule["prune-list-import-jobs"]
    assert from_celery["task"] == "ratings.prune_import_jobs"


def test_keep_days_defaults_to_180_and_is_read_from_the_environment() -> None:
    expression = (
        "settings.LIST_IMPORT_KEEP_DAYS, "
        "settings.CELERY_BEAT_SCHEDULE['prune-list-import-jobs']['kwargs']"
    )
    base = without("LIST_IMPORT_KEEP_DAYS")
    default = run_settings(f"({expression})", env=base)
    assert default.returncode == 0, default.stderr
    assert default.stdout.strip() == "(180, {'days': 180})"
    seven = run_settings(f"({expression})", env={**base, "LIST_IMPORT_KEEP_DAYS": "7"})
    assert seven.stdout.strip() == "(7, {'days': 7})", seven.stderr


@pytest.mark.parametrize("value", ["-1", "a month"])
def test_a_bad_keep_days_stops_start_up_with_one_line_naming_it(value: str) -> None:
    result = run_manage("check", env={"DEBUG": "1", "LIST_IMPORT_KEEP_DAYS": value})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "LIST_IMPORT_KEEP_DAYS" in lines[0], result.stderr


@pytest.mark.django_db
def test_the_task_deletes_old_finished_jobs_and_keeps_the_rest() -> None:
    system = make_system()
    now = timezone.now()
    old = _lost(system, status="succeeded", finished_at=now - dt.timedelta(days=40))
    recent = _lost(system, status="failed", finished_at=now - dt.timedelta(days=20))
    queued = _lost(system, requested_at=now - dt.timedelta(days=100))
    # Keyword arguments only, as beat sends them; run here, in-process.
    result = tasks.prune_import_jobs.apply(kwargs={"days": 30})
    assert result.get() == 1
    assert set(ListImportJob.objects.values_list("pk", flat=True)) == {recent.pk, queued.pk}
    assert not ListImportJob.objects.filter(pk=old.pk).exists()
