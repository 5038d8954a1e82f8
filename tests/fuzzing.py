"""How hard the fuzz tests try: modest in the default run (the suite stays fast), deeper with
``FUZZ_DEPTH=N`` (N times the examples), e.g. ``FUZZ_DEPTH=20 pytest tests/core``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def depth() -> int:
    try:
        return max(1, int(os.environ.get("FUZZ_DEPTH", "1")))
    except ValueError:
        return 1


def fuzz_settings(examples: int) -> settings:
    """``examples`` in the default run, times FUZZ_DEPTH when it is set."""
    return settings(
        max_examples=examples * depth(),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
