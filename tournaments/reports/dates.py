"""Lenient date reading for the many forms found in real reports (FORMATS.md)."""

from __future__ import annotations

import re
from datetime import date

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_MONTHS.update({"ene": 1, "abr": 4, "ago": 8, "dic": 12, "mai": 5, "okt": 10, "dez": 12,
                "set": 9, "out": 10, "gen": 1, "mag": 5, "giu": 6, "lug": 7})
_NUM3 = re.compile(r"^(\d{1,4})\s*[./\-]\s*(\d{1,2})\s*[./\-]\s*(\d{1,4})\.?$")
_TEXT1 = re.compile(r"^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$")  # Jun 26, 2020
_TEXT2 = re.compile(r"^(\d{1,2})\.?\s+([A-Za-z]{3})[a-z]*\.?,?\s+(\d{4})$")  # 26 Jun 2020


def _make(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _year2(y: int) -> int:
    # Two-digit years in tournament dates: 1950–2049.
    return 2000 + y if y < 50 else 1900 + y


def parse_date(text: str, *, short_year_first: bool = False) -> date | None:
    """Parse a header or round date; ``None`` if it is not recognisable.

    ``short_year_first``: the TRF ``132`` form ``YY/MM/DD`` (and the Irish ``YY.DD.MM``).
    """
    s = text.strip()
    if not s:
        return None
    m = _NUM3.match(s)
    if m:
        a, b, c = m.group(1), m.group(2), m.group(3)
        x, y, z = int(a), int(b), int(c)
        if len(a) == 4:  # YYYY/MM/DD
            return _make(x, y, z)
        if len(c) == 4:  # DD/MM/YYYY, or MM/DD/YYYY when the second part exceeds 12
            if y > 12 >= x:
                return _make(z, x, y)
            return _make(z, y, x)
        if short_year_first or (len(a) == 2 and x > 31):
            # YY/MM/DD, or YY.DD.MM when the middle part cannot be a month
            if y > 12 >= z:
                return _make(_year2(x), z, y)
            return _make(_year2(x), y, z)
        # DD/MM/YY
        if y > 12 >= x:
            return _make(_year2(z), x, y)
        return _make(_year2(z), y, x)
    for rx, order in ((_TEXT1, "mdy"), (_TEXT2, "dmy")):
        m = rx.match(s)
        if m:
            if order == "mdy":
                mon, day, year = m.group(1), m.group(2), m.group(3)
            else:
                day, mon, year = m.group(1), m.group(2), m.group(3)
            month = _MONTHS.get(mon.lower())
            if month is None:
                return None
            return _make(int(year), month, int(day))
    return None


def parse_birth(text: str) -> tuple[date | None, int | None, bool]:
    """Birth date → (date, year, ok). Accepts ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY``,
    ``YYYY/00/00`` (year only) and blanks such as ``    .  .``."""
    s = text.strip()
    if not s or not any(ch.isdigit() for ch in s):
        return None, None, True
    if re.fullmatch(r"\d{4}", s):
        year = int(s)
        return (None, year, True) if 1850 <= year <= 2100 else (None, None, False)
    m = re.fullmatch(r"(\d{4})\s*[./\-]\s*(\d{1,2})\s*[./\-]\s*(\d{1,2})", s)
    if m:
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not 1850 <= year <= 2100:
            return None, None, False
        if month == 0 or day == 0:
            return None, year, True
        d = _make(year, month, day)
        return (d, year, True) if d else (None, year, False)
    d = parse_date(s)
    if d is not None:
        return d, d.year, True
    return None, None, False
