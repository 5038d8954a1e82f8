"""The TRF reader's state and the two checks every record uses: whole numbers and blank
separator columns."""

from __future__ import annotations

from datetime import date

from ..numbers import SMALLINT_MAX, NumberError, read_int
from ..problems import error, warning
from .pairing import RoundEntry
from .records import ReportPlayer, ReportTeam
from .text import report_lines


class TrfReaderBase:
    def __init__(self, text: str) -> None:
        self.lines, self.problems = report_lines(text)
        self.players: list[ReportPlayer] = []
        self.entries: list[RoundEntry] = []
        self.teams: list[ReportTeam] = []  # 013 (TRF16)
        self.teams26: list[ReportTeam] = []  # 310 (TRF26, replaces 013)
        self.ignored: list[int] = []
        self.header: dict[str, object] = {}
        self.raw_dates: dict[str, tuple[int, int, str]] = {}  # field → line, column, text
        self.deputies: list[str] = []
        self.round_dates: list[date | None] = []
        self.declared_rounds: int | None = None
        self.max_round = 0

    # --- helpers ---------------------------------------------------------
    def number(
        self,
        lineno: int,
        column: int,
        field: str,
        text: str,
        *,
        severity: str = "error",
        high: int = SMALLINT_MAX,
    ) -> int | None:
        """An ASCII whole number in 0–``high``; a problem is recorded and
        :class:`NumberError` (a ``ValueError``) raised when it is not one."""
        try:
            return read_int(text, high=high)
        except NumberError as exc:
            make = error if severity == "error" else warning
            if exc.code == "number_out_of_range":
                self.problems.append(
                    make(
                        exc.code,
                        line=lineno,
                        column=column,
                        field=field,
                        value=text.strip(),
                        low=exc.low,
                        high=exc.high,
                    )
                )
            else:
                self.problems.append(
                    make(
                        "malformed_number",
                        line=lineno,
                        column=column,
                        field=field,
                        value=text.strip(),
                    )
                )
            raise

    def gaps(self, lineno: int, line: str, columns: tuple[int, ...], rank: int) -> None:
        """Warn about anything in columns that separate fields (it is ignored)."""
        for col in columns:
            ch = line[col - 1 : col]
            if ch and ch != " ":
                self.problems.append(
                    warning(
                        "separator_not_blank",
                        line=lineno,
                        column=col,
                        field="separator",
                        rank=rank,
                        value=ch,
                    )
                )
