"""Seconds per step of a long piece of bulk work, logged at INFO (calculation, publication,
list import): the breakdowns that docs/benchmarks.md quotes come from these lines."""
from __future__ import annotations

import logging
import time


class StepTimer:
    def __init__(self, label: str, log: logging.Logger) -> None:
        self.label = label
        self.log = log
        self.last = time.perf_counter()

    def step(self, name: str) -> None:
        """Log the seconds since the previous step (or the start) under `name`."""
        now = time.perf_counter()
        self.log.info("%s: %s %.2f s", self.label, name, now - self.last)
        self.last = now
