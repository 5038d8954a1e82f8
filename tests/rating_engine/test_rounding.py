from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from rating_engine.rounding import (
    round_half_up,
    round_half_up_milli,
    round_half_up_milli_array,
    round_p,
    round_size_half_up,
    round_to_5,
)


@pytest.mark.parametrize(
    ("x", "expected"),
    [(2.5, 3), (-2.5, -2), (2.4, 2), (-2.6, -3), (-0.5, 0), (0.5, 1), (2.4999999999, 3),
     (-2.5000000001, -2), (Fraction(5, 2), 3), (Decimal("-2.5"), -2), (7, 7), (-1.5, -1)],
)  # fmt: skip
def test_round_half_up_whatever_the_sign(x: float, expected: int) -> None:
    """fide-2024 8.3.4: .5 upwards whatever the sign."""
    assert round_half_up(x) == expected


def test_float_noise_from_sums() -> None:
    # 0.1 * 25 summed = 2.5000000000000004 or 2.4999999999999996 depending on order
    total = sum([0.1] * 25)
    assert round_half_up(total) == 3
    assert round_half_up(-total) == -2


@pytest.mark.parametrize(
    ("x", "expected"),
    [(2102.5, 2105), (2102.4, 2100), (2107.5, 2110), (-2.5, 0), (-7.5, -5), (2100, 2100)],
)
def test_round_to_5(x: float, expected: int) -> None:
    assert round_to_5(x) == expected


def test_round_p() -> None:
    assert round_p(0.125) == 0.13
    assert round_p(0.5714) == 0.57
    assert round_p(0.995) == 1.0


def test_milli() -> None:
    assert [round_half_up_milli(n) for n in (2500, -2500, 2499, -2501, 0)] == [3, -2, 2, -3, 0]
    arr = np.array([2500, -2500, 2499, -2501, 0], dtype=np.int64)
    assert round_half_up_milli_array(arr).tolist() == [3, -2, 2, -3, 0]


@pytest.mark.parametrize(
    ("x", "expected"),
    [(32.5, 33), (-32.5, -33), (Fraction(-65, 2), -33), (-32.4, -32), (-32.6, -33),
     (0.5, 1), (-0.5, -1), (-0.4, 0), (Decimal("-186.5"), -187), (-7, -7)],
)  # fmt: skip
def test_round_size_half_up_keeps_the_sign(x: float, expected: int) -> None:
    """fide-2000 10.1b / feda-1996 9.1c (decided): |D| rounded halves up, sign kept."""
    assert round_size_half_up(x) == expected
