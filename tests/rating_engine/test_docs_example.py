"""The calculator's input example in docs/calculator.md is a whole period that runs: a reader
who copies it gets a result, not an error."""

from __future__ import annotations

import re
from pathlib import Path

from rating_engine import rate_period
from rating_engine.jsonio import loads_period

DOC = Path(__file__).resolve().parents[2] / "docs" / "calculator.md"


def test_the_input_example_rates() -> None:
    section = DOC.read_text(encoding="utf-8").split("## Input", 1)[1]
    example = re.search(r"```json\n(.*?)```", section, re.S)
    assert example is not None
    result = rate_period(loads_period(example.group(1)))
    after = {p.id: p.rating_after for p in result.players}
    # Worked by hand (fide-2024 8.1.2, 8.3.3): 2105 against 1950, a difference of 155, expects
    # 0.71; 1001 is under 18 and under 2300 (K 40): 40 x (1 - 0.71) = 11.6 -> +12; 1002 has
    # 120 games and is under 2400 (K 20): 20 x (0 - 0.29) = -5.8 -> -6.
    assert after == {"1001": 2117, "1002": 1944}
