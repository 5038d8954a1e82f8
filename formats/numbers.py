"""Numbers in reports: ASCII digits only, and the limits of the database columns.

``str.isdigit()`` accepts ``²`` and other Unicode digits that ``int()`` refuses, ``int()`` of
more than 4,300 digits raises, and ``float()`` reads ``inf``, ``nan`` and ``1e308``: parsers
read numbers here instead. The limits are those of the columns the numbers end up in
(``tournaments/models.py``): a number the database cannot hold is refused with a problem
instead of failing when the report is stored.
"""

from __future__ import annotations

import re

# PositiveSmallIntegerField: TournamentPlayer.start_rank, Game.round, Tournament.rounds.
SMALLINT_MAX = 32767
# TournamentPlayer.rating_at_start (MaxValueValidator(3500)).
RATING_MAX = 3500
# TournamentPlayer.declared_points: DecimalField(max_digits=5, decimal_places=1).
POINTS_MAX = 9999.9
# TournamentPlayer.fide_id: CharField(max_length=15); Player.fide_id is a bigint.
FIDE_ID_DIGITS = 15

_POINTS = re.compile(r"([0-9]*)(?:[.,]([0-9]+))?", re.ASCII)


class NumberError(ValueError):
    """A field that is not a number (``malformed_number``) or is out of range
    (``number_out_of_range``, with the limits in ``low`` and ``high``)."""

    def __init__(self, code: str, low: object = None, high: object = None) -> None:
        super().__init__(code)
        self.code = code
        self.low = low
        self.high = high


def is_ascii_digits(text: str) -> bool:
    """``0``–``9`` only (``str.isdigit`` alone accepts ``²``, ``٣``…)."""
    return text.isascii() and text.isdigit()


def read_int(text: str, *, low: int = 0, high: int = SMALLINT_MAX) -> int | None:
    """A whole number written in ASCII digits, within ``low``–``high``; ``None`` when blank."""
    s = text.strip()
    if not s:
        return None
    if not is_ascii_digits(s):
        raise NumberError("malformed_number")
    digits = s.lstrip("0") or "0"
    if len(digits) > len(str(high)):  # never int() of thousands of digits
        raise NumberError("number_out_of_range", low, high)
    value = int(digits)
    if not low <= value <= high:
        raise NumberError("number_out_of_range", low, high)
    return value


def read_points(text: str) -> float | None:
    """Points such as ``11.5``, ``4,5``, ``.5`` or ``4.50``: ASCII digits, at most one
    significant decimal, 0–9999.9 (``None`` when blank). Signs, exponents, ``inf``
    and ``nan`` are not numbers here."""
    s = text.strip()
    if not s:
        return None
    m = _POINTS.fullmatch(s)
    if m is None or not (m.group(1) or m.group(2)):
        raise NumberError("malformed_number")
    whole = m.group(1).lstrip("0")
    decimals = (m.group(2) or "").rstrip("0")
    if len(decimals) > 1:
        raise NumberError("malformed_number")
    if len(whole) > 4:
        raise NumberError("number_out_of_range", 0, POINTS_MAX)
    return int(whole or "0") + int(decimals or "0") / 10
