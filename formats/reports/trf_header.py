"""TRF header records: tournament data (012–132), the round count (XXR / 142), teams
(013, TRF26's 310)."""

from __future__ import annotations

import contextlib
import re
from datetime import date

from ..numbers import SMALLINT_MAX
from ..problems import out_of_range, warning
from .dates import choose_header_dates, parse_date
from .records import ReportTeam
from .trf_base import TrfReaderBase
from .trf_layout import (
    _HEADER_INT,
    _HEADER_TEXT,
    ROUND0,
    ROUND_STEP,
    _cut,
)


class HeaderRecords(TrfReaderBase):
    # --- records ---------------------------------------------------------
    def header_line(self, lineno: int, code: str, line: str) -> None:
        value = line[4:].strip()
        if code in _HEADER_TEXT:
            self.header[_HEADER_TEXT[code]] = value
        elif code in _HEADER_INT:
            with contextlib.suppress(ValueError):
                self.header[_HEADER_INT[code]] = self.number(
                    lineno, 5, _HEADER_INT[code], value, severity="warning"
                )
        elif code in ("042", "052"):
            # read with the other date and the round dates once the file is read
            field = "start_date" if code == "042" else "end_date"
            if value:
                column = len(line) - len(line[4:].lstrip()) + 1
                self.raw_dates[field] = (lineno, column, value)
        elif code == "112":
            if value:
                self.deputies.append(value)
        elif code == "132":
            dates: list[date | None] = []
            k = 0
            while ROUND0 + ROUND_STEP * k <= len(line):
                col = ROUND0 + ROUND_STEP * k
                if k == SMALLINT_MAX:
                    self.problems.append(
                        out_of_range(
                            line=lineno, column=col, field="round", value=k + 1, severity="warning"
                        )
                    )
                    break
                raw = _cut(line, col, col + 7).strip()
                d = parse_date(raw, short_year_first=True) if raw else None
                if raw and d is None:
                    self.problems.append(
                        warning(
                            "invalid_date", line=lineno, column=col, field="round_dates", value=raw
                        )
                    )
                dates.append(d)
                k += 1
            while dates and dates[-1] is None:
                dates.pop()
            self.round_dates = dates

    def header_dates(self) -> None:
        """042/052 read together with the round dates (dates.choose_header_dates): the
        reading that fits is kept, with a warning when there was a choice to make."""
        if not self.raw_dates:
            return
        start = self.raw_dates.get("start_date")
        end = self.raw_dates.get("end_date")
        chosen = choose_header_dates(
            start[2] if start else "", end[2] if end else "", self.round_dates
        )
        for field, raw, reading, ambiguous in (
            ("start_date", start, chosen.start, chosen.start_ambiguous),
            ("end_date", end, chosen.end, chosen.end_ambiguous),
        ):
            if raw is None:
                continue
            lineno, column, value = raw
            if reading is None:
                self.problems.append(
                    warning("invalid_date", line=lineno, column=column, field=field, value=value)
                )
                self.header[field] = None
                continue
            self.header[field] = reading.date
            if ambiguous:
                self.problems.append(
                    warning(
                        "ambiguous_date",
                        line=lineno,
                        column=column,
                        field=field,
                        value=value,
                        date=reading.date.isoformat(),
                        reading=reading.name or value,
                    )
                )
        if chosen.reversed and start and end and chosen.start and chosen.end:
            self.problems.append(
                warning(
                    "dates_reversed",
                    line=end[0],
                    column=end[1],
                    field="end_date",
                    start=chosen.start.date.isoformat(),
                    end=chosen.end.date.isoformat(),
                )
            )

    def rounds_line(self, lineno: int, line: str) -> None:
        # `XXR n` (TRF16 + JaVaFo) or `142 n` (TRF26)
        with contextlib.suppress(ValueError):
            self.declared_rounds = self.number(
                lineno, 5, "rounds", (line[4:].split() or [""])[0], severity="warning"
            )

    def team_013(self, lineno: int, line: str) -> None:
        name = _cut(line, 5, 36).strip()
        members: list[int] = []
        col = 37
        while col <= len(line):
            raw = _cut(line, col, col + 3)
            try:
                v = self.number(lineno, col, "team_member", raw)
            except ValueError:
                v = None
            if v:
                members.append(v)
            col += 5
        self.teams.append(
            ReportTeam(number=len(self.teams) + 1, name=name, members=tuple(members), line=lineno)
        )

    def team_310(self, lineno: int, line: str) -> None:
        try:
            number = self.number(lineno, 5, "team_number", _cut(line, 5, 7))
        except ValueError:
            return
        members: list[int] = []
        for m in re.finditer(r"\S+", line[73:]):
            try:
                v = self.number(lineno, 74 + m.start(), "team_member", m.group())
            except ValueError:
                continue
            if v:
                members.append(v)
        self.teams26.append(
            ReportTeam(
                number=number or 0,
                name=_cut(line, 9, 40).strip(),
                federation=_cut(line, 42, 46).strip(),
                members=tuple(members),
                line=lineno,
            )
        )
