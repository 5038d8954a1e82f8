"""Conversion tables of the regulations (RULESETS.md "Conversion tables").

Table B: a rating difference D -> expected score PD of the higher (H) and lower (L = 1 - H)
rated player. Table A: a percentage score p -> rating difference dp (its mirror).

Values are kept in exact integer thousandths (``*_milli``) so sums never drift; the float
helpers divide by 1000 at the end. Table ids are the regulation ids.

Non-integer differences (averages of older regulations) are rounded to the nearest integer
before the look-up, because the printed ranges only cover integers: on their size, halves up,
then read in the H or L column (fide-2000 10.1b, feda-1996 9.1c; RULESETS.md "Decided
readings"), so 32.5 above reads .55 and 32.5 below reads .45 (docs/engine.md).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from .rounding import Number, p_hundredths, round_size_half_up

__all__ = [
    "TABLE_IDS",
    "dp",
    "dp_for_hundredths",
    "dp_for_score",
    "expected_milli",
    "expected_milli_array",
    "expected_score",
]

# Upper bound of each D range for H = .50, .51, ..., .99 (FIDE form; fide-2024 8.1 b).
_FIDE_B_UPPER: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip
# cnxc-2000 Tabela II: its own ranges; >= 737 -> .995.
_CNXC_B_UPPER: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 54, 61, 68,
    76, 83, 91, 98, 106, 114, 121, 129, 137, 145,
    154, 162, 170, 179, 188, 197, 206, 216, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 343, 358,
    374, 392, 411, 433, 457, 484, 518, 560, 620, 736,
)  # fmt: skip

# dp for p = .50, .51, ..., .99 (table A, fide-2024 8.1 a); negative mirror below .50.
_FIDE_A: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
)  # fmt: skip


class _TableB:
    __slots__ = ("_upper_array", "top_milli", "upper")

    def __init__(self, upper: tuple[int, ...], top_milli: int) -> None:
        assert len(upper) == 50
        self.upper = upper
        self.top_milli = top_milli
        self._upper_array = np.asarray(upper, dtype=np.int64)

    def higher_milli(self, d: int) -> int:
        """Expected score (thousandths) of the higher rated player for |D| = d >= 0."""
        i = bisect_left(self.upper, d)
        return 500 + 10 * i if i < 50 else self.top_milli

    def higher_milli_array(self, d: NDArray[np.int64]) -> NDArray[np.int64]:
        i = np.searchsorted(self._upper_array, d, side="left").astype(np.int64)
        out: NDArray[np.int64] = np.where(i < 50, 500 + 10 * i, self.top_milli)
        return out


_TABLE_B: Mapping[str, _TableB] = {
    # fide-2024 8.1: > 735 -> 1.00 (in fide-2024 the 400 cap of 8.3.1 keeps D below it).
    "fide-2024": _TableB(_FIDE_B_UPPER, 1000),
    "fide-2000": _TableB(_FIDE_B_UPPER, 1000),
    "feda-1996": _TableB(_FIDE_B_UPPER, 1000),
    # fce Taula 1: > 735 -> .99 / .01.
    "fce": _TableB(_FIDE_B_UPPER, 990),
    # cnxc-2000 Tabela II: >= 737 -> .995 / .005.
    "cnxc-2000": _TableB(_CNXC_B_UPPER, 995),
}

# dp for p = 1.00 (and minus it for p = .00); None: undefined in that regulation.
_A_EXTREME: Mapping[str, int | None] = {
    "fide-2024": 800,  # 8.1 (the seed's ".10 800" is 1.00 -> 800, RULESETS.md typo list)
    "fide-2000": None,
    "feda-1996": None,
    "fce": None,
    "cnxc-2000": 677,  # Tabela I: 1 -> 677, 0 -> -677
}

TABLE_IDS: tuple[str, ...] = tuple(_TABLE_B)


def _table_b(table: str) -> _TableB:
    try:
        return _TABLE_B[table]
    except KeyError:
        raise KeyError(f"unknown table {table!r} (known: {', '.join(TABLE_IDS)})") from None


def expected_milli(diff: Number, table: str) -> int:
    """Expected score, in thousandths, of a player whose rating minus the opponent's is diff."""
    # fide-2000 10.1b / feda-1996 9.1c: |D| rounded halves up, then the H or L column.
    d = round_size_half_up(diff)
    h = _table_b(table).higher_milli(abs(d))
    return h if d >= 0 else 1000 - h


def expected_score(diff: Number, table: str) -> float:
    """Expected score PD (table B) of a player whose rating minus the opponent's is diff."""
    return expected_milli(diff, table) / 1000


def expected_milli_array(diff: NDArray[np.int64], table: str) -> NDArray[np.int64]:
    """Vectorised ``expected_milli`` for integer differences."""
    h = _table_b(table).higher_milli_array(np.abs(diff))
    out: NDArray[np.int64] = np.where(diff >= 0, h, 1000 - h)
    return out


def dp_for_hundredths(ph: int, table: str) -> int | None:
    """dp (table A) for p given in hundredths (0..100); None where the table has no value."""
    if table not in _A_EXTREME:
        raise KeyError(f"unknown table {table!r} (known: {', '.join(TABLE_IDS)})")
    if not 0 <= ph <= 100:
        raise ValueError(f"p must be between 0 and 1 (got {ph / 100})")
    if ph == 100 or ph == 0:
        top = _A_EXTREME[table]
        if top is None:
            return None
        return top if ph == 100 else -top
    return _FIDE_A[ph - 50] if ph >= 50 else -_FIDE_A[50 - ph]


def dp(p: Number, table: str) -> int | None:
    """dp for a percentage score p (rounded to two decimals first, halves up)."""
    return dp_for_hundredths(p_hundredths(p, 1), table)


def dp_for_score(score: Number, games: int, table: str) -> int | None:
    """dp for a score over n games, p = score / games rounded to two decimals exactly."""
    return dp_for_hundredths(p_hundredths(score, games), table)
