"""Pure report parsers for the arbiters' upload flow (no Django import).

Callers decode the uploaded bytes with :func:`decode_report` and pass the text to
:func:`parse_report`, which sniffs the format (TRF16/TRF26, FEDA ASCII, CSV crosstable).
"""

from __future__ import annotations

from ..problems import Problem
from .decode import ReportDecodeError, decode_report
from .records import (
    ParsedReport,
    ReportGame,
    ReportHeader,
    ReportPlayer,
    ReportTeam,
)
from .render import render_trf
from .sniff import parse_report, sniff_format
from .trf import parse_trf

__all__ = [
    "ParsedReport",
    "Problem",
    "ReportDecodeError",
    "ReportGame",
    "ReportHeader",
    "ReportPlayer",
    "ReportTeam",
    "decode_report",
    "parse_report",
    "parse_trf",
    "render_trf",
    "sniff_format",
]
