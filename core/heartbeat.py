"""A running job's sign of life: `heartbeat_at` (core.jobs.Job), set to the database's clock
every JOBS_HEARTBEAT_SECONDS by a small thread of the worker while the job runs, through a
second, autocommit connection (core.pg.connections.SideWriter), so a beat is seen at once even
while the job sits inside a long transaction. Progress updates beat too. The beat's watchdog
(ratings.watch_runs, ratings.watch_import_jobs) calls a running job whose heartbeat is older
than JOBS_HEARTBEAT_STALE_MINUTES and whose advisory lock is free lost.

A SIGKILLed worker takes the thread with it: the beats stop. A beat that fails is logged and
never stops the job (SideWriter)."""

from __future__ import annotations

import threading
from types import TracebackType

from django.conf import settings

from core.pg.connections import SideWriter


class Heartbeat:
    """`with Heartbeat(table, job_id):` beats while the block runs."""

    def __init__(self, table: str, job_id: int, *, seconds: float | None = None) -> None:
        self.sql = f"UPDATE {table} SET heartbeat_at = now() WHERE id = %s"
        self.job_id = job_id
        self.seconds = float(settings.JOBS_HEARTBEAT_SECONDS if seconds is None else seconds)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _beat(self) -> None:
        side = SideWriter()
        try:
            while not self._stop.wait(self.seconds):
                side.execute(self.sql, [self.job_id])
        finally:
            side.close()

    def __enter__(self) -> Heartbeat:
        self._thread = threading.Thread(
            target=self._beat, name=f"heartbeat-{self.job_id}", daemon=True
        )
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
