"""How long the upload request takes for the worst inputs of bench_parse_worst.py, through the
real view, and how long the worker then takes for the large ones.

Run: DEBUG=1 DATABASE_URL=postgres://… .venv/bin/python bench/bench_upload_latency.py

In a throw-away database (bench/scratch_db.py). Inputs: the 5 MiB TRF (9,999 players × 43
rounds), the 1,500 × 1,500 CSV crosstable, every adversarial input of bench_parse_worst.py,
and each of them cut to REPORT_INLINE_BYTES (the largest upload parsed inside the request).
An upload over REPORT_INLINE_BYTES is stored as a job and answered with a redirect; its worker
side (tournaments.services.report_upload_job_run, the task's body) is timed apart. The task
is not sent: the bench records the job ids and runs them itself. Target: every request under
1 s (and none over 2 s).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.bench_parse_worst import adversarial, make_csv, make_trf
from bench.scratch_db import run_in_scratch_database


def cut(text: str, limit: int) -> bytes:
    data = text.encode()[:limit]
    return data[: data.rfind(b"\n") + 1] or data


def main() -> None:
    def bench() -> None:
        from django.conf import settings
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.test import Client

        from core import roles
        from tests.factories import make_system, make_tournament, make_user
        from tournaments.services import upload_jobs

        sent: list[int] = []
        upload_jobs.task_enqueue_or_undo_on_commit = lambda name, *args, undo: sent.extend(args)
        inline = settings.REPORT_INLINE_BYTES
        inputs = [
            ("trf", "9,999 players x 43 rounds", make_trf()),
            ("csv", "1,500 x 1,500", make_csv()),
        ]
        for family, cases in adversarial().items():
            inputs += [(family, name, text) for name, text in cases]
        arbiter = make_user("latency-arbiter", role=roles.ARBITER)
        client = Client()
        client.force_login(arbiter)
        ext = {"trf": "trf", "csv": "csv", "feda": "asc"}
        print(f"REPORT_INLINE_BYTES = {inline:,}; wall time of the request, then of the worker")
        print(f"{'input':<34} {'bytes':>9} {'status':>6} {'request s':>9} {'worker s':>9}")
        worst = 0.0
        for family, name, text in inputs:
            for label, data in (
                (name, cut(text, 5 * 1024 * 1024)),
                (f"{name} (cut)", cut(text, inline)),
            ):
                tournament = make_tournament(make_system(), arbiter)
                upload = SimpleUploadedFile(f"x.{ext[family]}", data)
                started = time.perf_counter()
                response = client.post(
                    f"/tournaments/{tournament.pk}/upload/", {"file": upload, "format": "auto"}
                )
                request_s = time.perf_counter() - started
                worst = max(worst, request_s)
                worker = ""
                if sent:
                    started = time.perf_counter()
                    upload_jobs.report_upload_job_run(job_id=sent.pop())
                    worker = f"{time.perf_counter() - started:9.3f}"
                print(
                    f"{family + ' ' + label:<34} {len(data):>9,} {response.status_code:>6} "
                    f"{request_s:>9.3f} {worker:>9}"
                )
        print(f"worst request: {worst:.3f} s")

    run_in_scratch_database(bench)


if __name__ == "__main__":
    main()
