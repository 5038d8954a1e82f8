"""Format sniffing and the single entry point :func:`parse_report`."""

from __future__ import annotations

import re
from typing import Literal

from ..problems import error
from .crosstable_csv import is_csv_header, parse_crosstable_csv
from .feda import is_feda_line, parse_feda
from .records import ParsedReport, ReportFormat, ReportHeader
from .trf import parse_trf

Family = Literal["trf", "feda", "csv"]
_FAMILY: dict[str, Family] = {
    "trf": "trf",
    "trf16": "trf",
    "trf26": "trf",
    "trfx": "trf",
    "txt": "trf",
    "tab": "trf",
    "feda": "feda",
    "ascii": "feda",
    "csv": "csv",
}
_TRF_PLAYER = re.compile(r"^001 [ \d]{3}\d", re.ASCII)
_TRF_HEADER = re.compile(r"^(012|022|032|042|052|062|092|102|XXR|142) ", re.ASCII)


def sniff_format(text: str) -> Family | None:
    """Guess the family of ``text``: ``trf``, ``feda``, ``csv`` or ``None``."""
    lines = [ln for ln in text.replace("\r", "\n").split("\n") if ln.strip()]
    if any(_TRF_PLAYER.match(ln) for ln in lines) or (
        sum(1 for ln in lines[:40] if _TRF_HEADER.match(ln)) >= 2
    ):
        return "trf"
    if lines and is_csv_header(lines[0]):
        return "csv"
    if any(is_feda_line(ln) for ln in lines):
        return "feda"
    return None


def parse_report(text: str, *, format: str | None = None) -> ParsedReport:
    """Parse a report, sniffing its format; with ``format`` given (``trf``, ``trf16``,
    ``trf26``, ``feda``, ``csv``), content of another format is reported as
    ``format_mismatch`` instead of being misread."""
    detected = sniff_format(text)
    declared: Family | None = None
    if format is not None:
        declared = _FAMILY.get(format.lower().lstrip("."))
        if declared is None:
            raise ValueError(f"unknown report format {format!r}")
    formats: dict[Family | None, ReportFormat] = {
        "trf": "trf16",
        "feda": "feda",
        "csv": "csv",
        None: "trf16",
    }
    fmt = formats[declared or detected]
    if declared and detected and declared != detected:
        return ParsedReport(
            header=ReportHeader(format=fmt),
            problems=(
                error(
                    "format_mismatch",
                    line=1,
                    column=1,
                    declared=declared.upper(),
                    detected=detected.upper(),
                ),
            ),
        )
    family = declared or detected
    if family is None:
        return ParsedReport(
            header=ReportHeader(format=fmt), problems=(error("unknown_format", line=1, column=1),)
        )
    if family == "trf":
        return parse_trf(text)
    if family == "feda":
        return parse_feda(text)
    return parse_crosstable_csv(text)
