"""Seconds per step of a long piece of bulk work, logged at INFO (calculation, publication,
list import): the breakdowns that docs/benchmarks.md quotes come from these lines."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class StepTimer:
    def __init__(
        self, label: str, log: logging.Logger, on_step: Callable[[str], None] | None = None
    ) -> None:
        self.label = label
        self.log = log
        self.on_step = on_step  # told each step's name once it is done (a progress report)
        self.last = time.perf_counter()

    def step(self, name: str) -> None:
        """Log the seconds since the previous step (or the start) under `name`."""
        now = time.perf_counter()
        self.log.info("%s: %s %.2f s", self.label, name, now - self.last)
        self.last = now
        if self.on_step is not None:
            self.on_step(name)
