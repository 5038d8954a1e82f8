"""Lenient date reading for the many forms found in real reports (FORMATS.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_MONTHS.update(
    {
        "ene": 1,
        "abr": 4,
        "ago": 8,
        "dic": 12,
        "mai": 5,
        "okt": 10,
        "dez": 12,
        "set": 9,
        "out": 10,
        "gen": 1,
        "mag": 5,
        "giu": 6,
        "lug": 7,
    }
)
_NUM3 = re.compile(r"^(\d{1,4})\s*([./\-])\s*(\d{1,2})\s*[./\-]\s*(\d{1,4})\.?$", re.ASCII)
_TEXT1 = re.compile(r"^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$", re.ASCII)  # Jun 26, 2020
_TEXT2 = re.compile(r"^(\d{1,2})\.?\s+([A-Za-z]{3})[a-z]*\.?,?\s+(\d{4})$", re.ASCII)  # 26 Jun 2020
_YEAR = re.compile(r"\d{4}", re.ASCII)
_YMD = re.compile(r"(\d{4})\s*[./\-]\s*(\d{1,2})\s*[./\-]\s*(\d{1,2})", re.ASCII)


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
        a, b, c = m.group(1), m.group(3), m.group(4)
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
    if not s or not any("0" <= ch <= "9" for ch in s):
        return None, None, True
    if _YEAR.fullmatch(s):
        year = int(s)
        return (None, year, True) if 1850 <= year <= 2100 else (None, None, False)
    m = _YMD.fullmatch(s)
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


# --- header dates (042 / 052): every plausible reading, then the consistent one ------------

# A tournament lasts at most this long (a season-long league included); round dates may be
# a few days outside the header dates (a game played early, the closing a day later).
MAX_SPAN = timedelta(days=400)
SLACK = timedelta(days=7)


@dataclass(frozen=True)
class Reading:
    """One way of reading a date: ``order`` of the parts (``dmy``…) and how it is written."""

    date: date
    order: str
    name: str  # e.g. "YY.MM.DD"


_PART = {"d": "DD", "m": "MM", "y": "YY"}


def date_readings(text: str) -> list[Reading]:
    """Every valid reading of a header date, the usual one first.

    ``YYYY/MM/DD`` has one reading; ``DD/MM/YYYY`` also reads as ``MM/DD/YYYY``; two-digit
    triples read as ``DD/MM/YY``, ``YY/MM/DD``, ``MM/DD/YY`` and ``YY/DD/MM`` (the Irish
    round dates). Month names (``Jun 26, 2020``) have one reading.
    """
    s = text.strip()
    m = _NUM3.match(s)
    if m is None:
        d = parse_date(s)
        return [Reading(d, "text", "")] if d is not None else []
    a, sep, b, c = m.group(1), m.group(2), m.group(3), m.group(4)
    x, y, z = int(a), int(b), int(c)
    if len(a) == 4 and len(c) <= 2:
        options = [(x, y, z, "ymd")]
    elif len(c) == 4 and len(a) <= 2:
        options = [(z, y, x, "dmy"), (z, x, y, "mdy")]
    elif len(a) <= 2 and len(c) <= 2:
        options = [
            (_year2(z), y, x, "dmy"),
            (_year2(x), y, z, "ymd"),
            (_year2(z), x, y, "mdy"),
            (_year2(x), z, y, "ydm"),
        ]
    else:
        return []
    out: list[Reading] = []
    for year, month, day, order in options:
        d = _make(year, month, day)
        if d is None or any(r.date == d for r in out):
            continue
        four = "YYYY" if len(a) == 4 or len(c) == 4 else "YY"
        name = sep.join(four if ch == "y" else _PART[ch] for ch in order)
        out.append(Reading(d, order, name))
    return out


@dataclass(frozen=True)
class HeaderDates:
    start: Reading | None
    end: Reading | None
    start_ambiguous: bool = False  # warn: another reading was possible, or not the usual one
    end_ambiguous: bool = False
    reversed: bool = False  # no reading puts the end on or after the start


def _shape(text: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"\s", "", text), flags=re.ASCII)


def choose_header_dates(
    start_text: str, end_text: str, round_dates: Sequence[date | None] = ()
) -> HeaderDates:
    """Read the start and end dates together: the end on or after the start, at most
    ``MAX_SPAN`` apart, the round dates (``132``) between them (round 1 within ``SLACK``
    of the start), and two dates written alike read alike. Among the readings that fit, the usual
    ones are preferred; a date is ambiguous when the readings that fit give it more than one value
    or when the
    usual reading does not fit. Constraints are dropped (round dates first) when no
    reading fits them all."""
    starts: list[Reading | None] = list(date_readings(start_text)) or [None]
    ends: list[Reading | None] = list(date_readings(end_text)) or [None]
    dated = [d for d in round_dates if d is not None]
    first, last = (min(dated), max(dated)) if dated else (None, None)
    round1 = round_dates[0] if round_dates else None
    alike = bool(start_text.strip()) and _shape(start_text) == _shape(end_text)

    def fits(s: Reading | None, e: Reading | None, level: int) -> bool:
        if s is not None and e is not None:
            if e.date < s.date:
                return False
            if level <= 2 and e.date - s.date > MAX_SPAN:
                return False
            if level <= 1 and alike and s.order != e.order:
                return False
        if level == 0 and first is not None and last is not None:
            if s is not None and round1 is not None and abs(s.date - round1) > SLACK:
                return False  # round 1 is played at the start
            if s is not None and not s.date - SLACK <= first <= s.date + MAX_SPAN:
                return False
            if e is not None and not e.date - MAX_SPAN <= last <= e.date + SLACK:
                return False
        return True

    pairs = [(s, e) for s in starts for e in ends]
    for level in range(4):
        fitting = [(s, e) for s, e in pairs if fits(s, e, level)]
        if fitting:
            break
    reversed_ = not fitting
    if reversed_:
        fitting = pairs

    def rank(r: Reading | None, options: list[Reading | None]) -> int:
        return options.index(r)

    best = min(
        fitting,
        key=lambda p: (
            rank(p[0], starts) + rank(p[1], ends),
            (p[1].date - p[0].date).days if p[0] and p[1] else 0,
        ),
    )

    def ambiguous(i: int, options: list[Reading | None]) -> bool:
        chosen = best[i]
        if chosen is None:
            return False
        values = {r.date for r in (p[i] for p in fitting) if r is not None}
        return len(values) > 1 or rank(chosen, options) > 0

    return HeaderDates(
        start=best[0],
        end=best[1],
        start_ambiguous=ambiguous(0, starts),
        end_ambiguous=ambiguous(1, ends),
        reversed=reversed_,
    )
