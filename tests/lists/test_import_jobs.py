"""List import jobs (lists/imports/jobs.py): the file stored in pieces, the task run eagerly
(the embedded default; tests/lists/test_import_worker.py has a real worker), the outcome on
the job row, the file dropped at the end, the progress (the pages: test_import_job_pages.py;
stuck jobs, requeue and pruning: test_import_job_requeue.py).

Runs on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings

from core import roles
from lists.imports import importer
from lists.imports import jobs as import_jobs
from lists.imports.jobs import (
    CHUNK_BYTES,
    ListImportRefused,
    list_import_request,
    list_import_run,
)
from lists.models import ListImportChunk, ListImportJob
from players.models import Player
from ratings.models import PlayerRating
from tests.factories import make_player, make_system, make_user
from tests.lists.test_import import BAD_TXT


def _stored(job: ListImportJob) -> bytes:
    return b"".join(
        bytes(d)
        for d in ListImportChunk.objects.filter(job=job)
        .order_by("seq")
        .values_list("data", flat=True)
    )


# ---------------------------------------------------------------------------------- services


@pytest.mark.django_db
def test_request_stores_the_file_in_pieces_and_enqueues_after_commit(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system()
    officer = make_user(role=roles.RATING_OFFICER)
    data = bytes(range(256)) * (CHUNK_BYTES * 5 // 2 // 256)  # 2.5 pieces
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = list_import_request(
            system=system, data=data, format="TXT", filename="list.txt", user=officer
        )
    assert len(callbacks) == 1  # the task, sent once the request's transaction commits
    job.refresh_from_db()
    assert (job.status, job.progress, job.format, job.filename, job.size, job.requested_by) == (
        "queued",
        0,
        "txt",
        "list.txt",
        len(data),
        officer,
    )
    assert ListImportChunk.objects.filter(job=job).count() == 3
    assert _stored(job) == data
    # An upload's chunks() (an iterable of pieces of any size) is stored the same way.
    with django_capture_on_commit_callbacks(execute=False):
        again = list_import_request(
            system=system,
            data=iter([data[:1000], data[1000:]]),
            format="txt",
            filename="list.txt",
            user=officer,
        )
    assert _stored(again) == data and ListImportChunk.objects.filter(job=again).count() == 3


@pytest.mark.django_db
def test_a_job_imports_the_list_and_drops_the_file(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(
            system=system, data=excerpt, format="txt", players="all", filename="mar11.txt"
        )
    job.refresh_from_db()
    assert (job.status, job.progress, job.phase) == ("succeeded", 100, "Done")
    # The excerpt has 500 players, none of them in the registry (SOURCES.md), 163 of them
    # rated. A FIDE TXT list writes the players' FIDE rating by default, not the system's.
    assert (job.rows, job.players_created, job.players_updated, job.ratings_written) == (
        500,
        500,
        0,
        163,
    )
    assert (job.method, job.target) == ("copy", "fide")
    assert job.attempts == 1 and job.started_at is not None and job.finished_at is not None
    assert job.problems == [] and job.problem_total == 0 and job.error == ""
    assert not ListImportChunk.objects.filter(job=job).exists()
    assert Player.objects.count() == 500 and not PlayerRating.objects.exists()
    assert Player.objects.get(fide_id=4158814).fide_standard == 2686


@pytest.mark.django_db
def test_a_failed_job_keeps_the_row_numbered_problems_writes_nothing_and_drops_the_file(
    django_capture_on_commit_callbacks,
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(
            system=system, data=BAD_TXT.encode(), format="txt", filename="bad.txt"
        )
    job.refresh_from_db()
    assert job.status == "failed" and job.phase == "Failed" and job.finished_at is not None
    assert [(p["line"], p["code"], p["field"]) for p in job.problems] == [
        (3, "bad_number", "Mar11"),
        (4, "duplicate_id", "ID number"),
        (5, "rating_out_of_range", "Mar11"),
        (6, "bad_flag", "Flag"),
        (7, "missing_id", "ID number"),
    ]
    assert job.problem_total == 5 and job.rows is None
    assert import_jobs.problem_message(job.problems[1]) == (
        "Row 4, column ID number: FIDE ID 4158814 already appears in row 2."
    )
    assert Player.objects.count() == 0 and PlayerRating.objects.count() == 0
    assert not ListImportChunk.objects.filter(job=job).exists()


@pytest.mark.django_db
def test_a_problem_found_after_the_checks_still_writes_nothing(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    """fed_id_taken is found once the rows are staged."""
    make_player(fed_id="FIDE-4158814", fide_id=None)
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=system, data=excerpt, format="txt", players="all")
    job.refresh_from_db()
    assert job.status == "failed"
    assert [(p["line"], p["code"]) for p in job.problems] == [(2, "fed_id_taken")]
    assert Player.objects.count() == 1 and PlayerRating.objects.count() == 0


@pytest.mark.django_db
def test_a_finished_job_is_not_run_again(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    """A redelivered message after success leaves the job (and the registry) alone."""
    system = make_system()
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=system, data=excerpt, format="txt", players="all")
    list_import_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.attempts, job.players_created) == ("succeeded", 1, 500)


@pytest.mark.django_db
def test_a_job_whose_worker_died_runs_again_but_not_forever(
    excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    system = make_system()
    with django_capture_on_commit_callbacks(execute=False):
        job = list_import_request(system=system, data=excerpt, format="txt")
    # A worker took it and died (the import's transaction was rolled back): run again.
    ListImportJob.objects.filter(pk=job.pk).update(status="running", attempts=1)
    assert list_import_run(job_id=job.pk).status == "succeeded"
    assert ListImportJob.objects.get(pk=job.pk).attempts == 2
    # Killed three times: the file probably does not fit; the job fails and the file goes.
    with django_capture_on_commit_callbacks(execute=False):
        other = list_import_request(system=make_system(), data=excerpt, format="txt")
    ListImportJob.objects.filter(pk=other.pk).update(status="running", attempts=3)
    done = list_import_run(job_id=other.pk)
    assert done.status == "failed" and "worker stopped" in done.error
    assert not ListImportChunk.objects.filter(job=other).exists()


@pytest.mark.django_db
def test_an_unexpected_error_is_recorded_not_raised(
    monkeypatch, excerpt: bytes, django_capture_on_commit_callbacks
) -> None:
    def broken(**kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(importer, "list_import", broken)
    with django_capture_on_commit_callbacks(execute=True):
        job = list_import_request(system=make_system(), data=excerpt, format="txt")
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "RuntimeError: disk on fire")
    assert not ListImportChunk.objects.filter(job=job).exists()


@pytest.mark.django_db
def test_missing_pieces_fail_the_job(excerpt: bytes, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        job = list_import_request(system=make_system(), data=excerpt, format="txt")
    ListImportChunk.objects.filter(job=job).delete()
    done = list_import_run(job_id=job.pk)
    assert done.status == "failed" and "incomplete" in done.error
    assert Player.objects.count() == 0


@pytest.mark.django_db
@override_settings(LIST_IMPORT_MAX_BYTES=1000)
def test_a_file_over_the_limit_is_refused_without_a_job() -> None:
    with pytest.raises(ListImportRefused):
        list_import_request(system=make_system(), data=b"x" * 1001, format="txt")
    assert not ListImportJob.objects.exists() and not ListImportChunk.objects.exists()


@pytest.mark.django_db
def test_list_import_reports_progress(excerpt: bytes) -> None:
    calls: list[tuple[int, str]] = []
    importer.list_import(
        system=make_system(),
        data=excerpt,
        format="txt",
        progress=lambda percent, message: calls.append((percent, message)),
    )
    assert calls[0] == (5, "Reading the file")
    percents = [p for p, _m in calls]
    assert len(calls) >= 3 and percents == sorted(percents) and percents[-1] < 100
    assert {m for _p, m in calls} <= {
        "Reading the file",
        "Checking the rows",
        "Writing players and ratings",
        "Saving",
    }


@pytest.mark.django_db(transaction=True)
def test_progress_inside_the_import_transaction_is_visible_to_other_connections(
    monkeypatch, excerpt: bytes
) -> None:
    import psycopg

    job = list_import_request(system=make_system(), data=excerpt, format="txt", enqueue=False)
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    seen: list[tuple[int, str]] = []
    report = import_jobs._Progress.__call__

    def observed(self, percent: int, message: str) -> None:
        report(self, percent, message)
        with psycopg.connect(**params, autocommit=True) as other:
            row = other.execute(
                "SELECT progress, phase FROM ratings_listimportjob WHERE id = %s", [job.pk]
            ).fetchone()
            assert row is not None
            seen.append(row)

    monkeypatch.setattr(import_jobs._Progress, "__call__", observed)
    assert list_import_run(job_id=job.pk).status == "succeeded"
    assert seen[0] == (5, "Reading the file")
    assert any(p > 5 for p, _m in seen) and all(p < 100 for p, _m in seen)
