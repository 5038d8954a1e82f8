"""The demo replays the office's last months on their own dates: the services read the clock
(`django.utils.timezone.now`: registration and report timestamps, the period a report goes
to, closing and publication times), so while a step of the replay runs the clock shows that
step's day. Only the demo command uses it; the services themselves are unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time
from unittest import mock

from django.utils import timezone


@contextmanager
def replay_on(day: date, hour: int = 12) -> Iterator[datetime]:
    """Inside the block, `timezone.now()` (and so `timezone.localdate()`) is `day` at `hour`."""
    moment = timezone.make_aware(datetime.combine(day, time(hour)))
    with mock.patch.object(timezone, "now", return_value=moment):
        yield moment
