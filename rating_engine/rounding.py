"""Every rounding the engine does lives here.

Rules of the regulations:
- "nearest integer, .5 upwards whatever the sign" (fide-2024 8.3.4): floor(x + 0.5),
  so 2.5 -> 3 and -2.5 -> -2.
- "nearest 5 or 0" (feda-1996 9.55): 5 * floor(x / 5 + 0.5).
- p is rounded to two decimals before a table look-up (fide-2000 14.2), halves up.
- A difference D read in table B is rounded on its size, halves up, keeping its sign
  (fide-2000 10.1b, feda-1996 9.1c, as decided in RULESETS.md): 32.5 -> 33 and -32.5 -> -33,
  so the H and L readings of one difference still sum to 1.

Float noise. Sums of table values (0.01 steps) drift (``0.1 + 0.2 != 0.3``), so a true
2.5 may arrive as 2.4999999999. Two defences:
1. Wherever the engine can, it works in exact integers: table B values are handled in
   thousandths (``*_milli``), so K x sum(score - PD) is an exact integer N of thousandths and
   the rounded change is ``(N + 500) // 1000`` (``round_half_up_milli``); the NumPy bulk path
   uses the same integer arithmetic, so both paths agree bit for bit.
2. For genuine floats (averages, performances) ``round_half_up`` first snaps the value to
   ``NOISE_DECIMALS`` (9) decimals through ``Decimal(repr(x))`` and then rounds half up. A
   rating quotient a/b with b < 10**4 is either exactly .5 or at least 1/(2b) away from it,
   so snapping at 1e-9 never moves a genuine value across a .5 boundary.
``Fraction``, ``Decimal`` and ``int`` arguments are rounded exactly, with no snapping.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "NOISE_DECIMALS",
    "p_hundredths",
    "round_half_up",
    "round_half_up_milli",
    "round_half_up_milli_array",
    "round_p",
    "round_size_half_up",
    "round_to_5",
    "to_milli",
]

NOISE_DECIMALS = 9
_QUANTUM = Decimal(1).scaleb(-NOISE_DECIMALS)

Number = float | int | Fraction | Decimal


def _exact(x: Number) -> Fraction | int:
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    if isinstance(x, Fraction):
        return x
    if isinstance(x, Decimal):
        return Fraction(x)
    if not math.isfinite(x):
        raise ValueError(f"cannot round {x!r}")
    # Snap float noise: repr gives the shortest decimal that round-trips, then 9 decimals.
    snapped = Decimal(repr(x)).quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)
    return Fraction(snapped)


def round_half_up(x: Number) -> int:
    """Nearest integer, .5 upwards whatever the sign: floor(x + 1/2) (fide-2024 8.3.4)."""
    return math.floor(_exact(x) + Fraction(1, 2))


def round_size_half_up(x: Number) -> int:
    """Nearest integer on the size, halves up, sign kept: 32.5 -> 33, -32.5 -> -33.

    For a table B difference (fide-2000 10.1b, feda-1996 9.1c): the table is read on |D| in
    the H or L column, so the two sides of one difference get .55 / .45, never .54 / .46.
    """
    e = Fraction(_exact(x))
    size = math.floor((e if e >= 0 else -e) + Fraction(1, 2))
    return size if e >= 0 else -size


def round_to_5(x: Number) -> int:
    """Nearest multiple of 5 (a multiple of 5 or of 0 in the seed's words), halves up."""
    return 5 * math.floor(_exact(x) / 5 + Fraction(1, 2))


def p_hundredths(score: Number, games: int) -> int:
    """The percentage score W/n in hundredths, rounded half up (exact)."""
    if games <= 0:
        raise ValueError("p needs at least one game")
    return math.floor(Fraction(_exact(score)) * 100 / games + Fraction(1, 2))


def round_p(p: Number) -> float:
    """p rounded to two decimals, halves up, for the table look-ups."""
    return math.floor(_exact(p) * 100 + Fraction(1, 2)) / 100


def to_milli(x: Number) -> int:
    """A value with at most three decimals (a score or a table value) as integer thousandths."""
    return math.floor(_exact(x) * 1000 + Fraction(1, 2))


def round_half_up_milli(n: int) -> int:
    """Round n/1000 to the nearest integer, .5 upwards whatever the sign (exact)."""
    return (n + 500) // 1000


def round_half_up_milli_array(n: NDArray[np.int64]) -> NDArray[np.int64]:
    """Vectorised ``round_half_up_milli`` (same integer arithmetic)."""
    out: NDArray[np.int64] = np.floor_divide(n + 500, 1000)
    return out
