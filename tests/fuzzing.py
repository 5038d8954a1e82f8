"""How hard the fuzz tests try: modest in the default run (the suite stays fast), deeper with
``FUZZ_DEPTH=N`` (N times the examples), e.g. ``FUZZ_DEPTH=20 pytest tests/core``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: Text that breaks naive number parsing (superscripts, other digits, 4,301 digits, inf…),
#: control characters and quoting, shared by the parsers' fuzz tests and the upload probe.
JUNK_NUMBERS = ("²", "²²", "٣", "9" * 4301, "inf", "nan", "1e308", "-99999", "123456")
JUNK_CONTROLS = ("\x00", "\x01", "\x1a", "\x7f", "\x85")
JUNK_QUOTES = ('"', '""', ",", ";")


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
