"""Probe: killed workers, concurrent calculate requests, login lockout (issue 17's figures).

Run (PostgreSQL and Redis up):
    DEBUG=1 DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/probe_workers.py [--kills 20]

In a throw-away database (bench/scratch_db.py), on a Celery queue of its own:

1. Kills. System A is calculated and published (its list entries are hashed). System B's
   period is closed; then, --kills times: a calculation is requested, a real worker
   (`celery worker --pool prefork --concurrency 1`) stalls in the middle of writing the draft
   (a trigger sleeping in the first packed game line, as tests/workers.py does), and is
   SIGKILLed — its main process on even rounds, its pool child on odd ones. Then: the dead
   run's draft rows are counted (must be 0: the write is one transaction), a new worker is
   started, and the watchdog task (`ratings.watch_runs`, what beat sends every minute) is run
   every 2 s with JOBS_HEARTBEAT_STALE_MINUTES=0 until a run of the period succeeds. System A's
   published entries must hash the same at the end.
2. 50 threads post "Calculate" for one closed period at the same moment (a barrier), as an
   officer, through Django's test client: the runs created are counted (must be 1).
3. Login: AXES_FAILURE_LIMIT wrong passwords, then the right one: must be refused.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import psutil

from bench.scratch_db import run_in_scratch_database
from tests.polling import wait_for

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--threads", type=int, default=50)
    args = parser.parse_args()
    failures: list[str] = []

    def probe() -> None:
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.utils import timezone

        from config.celery import app
        from core.jobs import JobStatus
        from core.roles import RATING_OFFICER
        from periods import services as period_services
        from ratings import tasks
        from ratings.calculation import runs
        from ratings.models import CalculationRun, DraftResult, ListEntry
        from ratings.publication import services as publication
        from tests.factories import build, make_user

        queue = f"probe-{uuid.uuid4().hex[:8]}"
        settings.RATINGS_QUEUE = queue
        settings.CELERY_TASK_ALWAYS_EAGER = False
        app.conf.task_always_eager = False
        db = connection.settings_dict
        host = quote(db["HOST"] or "127.0.0.1", safe="")
        url = f"postgres://{db['USER']}@{host}:{db['PORT'] or 5432}/{db['NAME']}"
        name = db["NAME"]

        def sql(statement: str) -> list[tuple]:
            with connection.cursor() as cursor:
                cursor.execute(statement)
                return cursor.fetchall() if cursor.description else []

        def start_worker() -> subprocess.Popen[bytes]:
            log = Path(f"/tmp/probe-worker-{queue}-{uuid.uuid4().hex[:4]}.log")
            env = {**os.environ, "DATABASE_URL": url, "JOBS_HEARTBEAT_SECONDS": "1"}
            proc = subprocess.Popen(
                [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker",
                 "--pool", "prefork", "--concurrency", "1", "-Q", queue, "--without-gossip",
                 "--without-mingle", "-l", "info", "-n", f"{uuid.uuid4().hex[:6]}@%h"],
                cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
            )  # fmt: skip
            deadline = time.monotonic() + 60
            while "ready" not in log.read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("worker did not start:\n" + log.read_text()[-2000:])
                time.sleep(0.2)
            return proc

        def sleeping() -> int:
            return sql(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' "
                "AND datname = current_database()"
            )[0][0]

        def arm(seconds: int) -> None:
            sql(f'ALTER DATABASE "{name}" SET client_connection_check_interval = 500')
            sql(
                "CREATE OR REPLACE FUNCTION probe_stall() RETURNS trigger LANGUAGE plpgsql AS "
                f"$$ BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$"
            )
            sql(
                "CREATE TRIGGER probe_stall BEFORE INSERT ON ratings_drafttournament "
                "FOR EACH ROW EXECUTE FUNCTION probe_stall()"
            )

        def disarm() -> None:
            sql("DROP TRIGGER IF EXISTS probe_stall ON ratings_drafttournament")

        def published_hash() -> str:
            rows = ListEntry.objects.order_by("pk").values_list()
            return hashlib.sha256(repr(list(rows)).encode()).hexdigest()

        # --- set-up: A calculated and published; B closed.
        system_a, period_a, _players, _t = build()
        system_b, period_b, _players, _t = build()
        for period in (period_a, period_b):
            period_services.period_close(period=period)
        worker = start_worker()
        run_a = runs.calculation_request(period=period_a)
        wait_for(lambda: CalculationRun.objects.get(pk=run_a.pk).status == JobStatus.SUCCEEDED,
                 60, "system A's calculation")  # fmt: skip
        publication.list_publish(period=period_a)
        before = published_hash()
        entries = ListEntry.objects.count()

        # --- 1. kills
        print(f"1. {args.kills} SIGKILLs of the worker mid-run (published entries: {entries})")
        partial = recovered = 0
        recover_seconds: list[float] = []
        for k in range(args.kills):
            target = "main process" if k % 2 == 0 else "pool child"
            arm(60)
            if worker.poll() is not None:
                worker = start_worker()
            run = runs.calculation_request(period=period_b)
            wait_for(lambda: sleeping() > 0, 60, "the run to stall in its draft write")
            main = psutil.Process(worker.pid)
            children = main.children()
            victim = main if target == "main process" else children[0]
            victim.send_signal(signal.SIGKILL)
            killed_at = time.monotonic()
            if target == "main process":
                worker.wait(10)
                for child in children:  # the pool child dies with its parent's pipe; be sure
                    if child.is_running():
                        child.kill()
            wait_for(lambda: sleeping() == 0, 60, "the dead worker's server process to end")
            disarm()
            draft_rows = DraftResult.objects.filter(run_id=run.pk).count()
            draft_rows += sql(
                f"SELECT count(*) FROM ratings_drafttournament WHERE run_id = {run.pk}"
            )[0][0]
            partial += draft_rows
            if worker.poll() is not None:
                worker = start_worker()
            settings.JOBS_HEARTBEAT_STALE_MINUTES = 0

            def done(first: int = run.pk) -> bool:
                tasks.watch_runs.apply()  # what beat sends every minute
                time.sleep(1)
                return CalculationRun.objects.filter(
                    period=period_b, pk__gte=first, status=JobStatus.SUCCEEDED
                ).exists()

            try:
                wait_for(done, 120, "recovery")
                recovered += 1
                recover_seconds.append(time.monotonic() - killed_at)
            except AssertionError:
                failures.append(f"kill {k + 1} ({target}): run {run.pk} not recovered")
            settings.JOBS_HEARTBEAT_STALE_MINUTES = 5
            statuses = list(CalculationRun.objects.filter(period=period_b, pk__gte=run.pk)
                            .order_by("pk").values_list("pk", "status", "attempts"))  # fmt: skip
            print(f"   kill {k + 1:2d} ({target:12s}): partial rows {draft_rows}, runs {statuses}")
        after = published_hash()
        print(f"   partial rows: {partial}; recovered: {recovered}/{args.kills}; "
              f"published entries unchanged: {before == after}; "
              f"kill → succeeded: {min(recover_seconds or [0]):.1f}–"
              f"{max(recover_seconds or [0]):.1f} s")  # fmt: skip
        if partial or before != after or recovered != args.kills:
            failures.append("kills")
        worker.terminate()
        worker.wait(20)

        # --- 2. concurrent calculate requests
        system_c, period_c, _players, _t = build()
        period_services.period_close(period=period_c)
        officer = make_user("probe-officer", role=RATING_OFFICER)
        barrier = threading.Barrier(args.threads)
        codes: list[int] = []

        def calculate() -> None:
            client = Client()
            client.force_login(officer)
            barrier.wait()
            codes.append(
                client.post(
                    f"/ratings/periods/{period_c.pk}/calculate/", {"confirm": "1"}
                ).status_code
            )
            connection.close()

        threads = [threading.Thread(target=calculate) for _ in range(args.threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        created = CalculationRun.objects.filter(period=period_c).count()
        print(f"2. {args.threads} concurrent calculate requests: answers {sorted(set(codes))}, "
              f"runs created: {created}")  # fmt: skip
        if created != 1 or any(c >= 500 for c in codes):
            failures.append("concurrent calculate")

        # --- 3. login lockout
        make_user("probe-victim")
        client = Client(REMOTE_ADDR="203.0.113.9")
        limit = settings.AXES_FAILURE_LIMIT
        bad = {"username": "probe-victim", "password": "nope"}
        wrong = [client.post("/accounts/login/", bad).status_code for _ in range(limit)]
        right = client.post(
            "/accounts/login/", {"username": "probe-victim", "password": "pw-12345678"}
        )
        locked = right.status_code != 302
        print(f"3. login: {limit} wrong passwords answered {wrong}; then the right one: "
              f"{right.status_code} ({'locked out' if locked else 'LOGGED IN'})")  # fmt: skip
        if not locked:
            failures.append("lockout")
        sql(f'ALTER DATABASE "{name}" RESET client_connection_check_interval')
        _ = timezone.now()

    run_in_scratch_database(probe)
    print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
