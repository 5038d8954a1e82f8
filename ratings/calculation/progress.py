"""Progress of a calculation run, as the period page shows it: a percentage and a phase (an
untranslated msgid, translated when shown; core.jobs)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from core.pg.connections import SideWriter
from ratings.models import CalculationRun


def run_progress_set(*, run_id: int, progress: int, phase: str, **extra: Any) -> None:
    """Progress committed at once (outside any transaction) so the page can show it; it is a
    heartbeat too (core.heartbeat)."""
    CalculationRun.objects.filter(pk=run_id).update(
        progress=progress, phase=phase, heartbeat_at=timezone.now(), **extra
    )


def run_progress_in_tx(*, run_id: int, progress: int, phase: str) -> None:
    """Progress from inside the write transaction: a second connection, so it is visible."""
    side = SideWriter()
    try:
        side.execute(
            f"UPDATE {CalculationRun._meta.db_table} SET progress = %s, phase = %s, "
            "heartbeat_at = now() WHERE id = %s",
            [progress, phase, run_id],
        )
    finally:
        side.close()
