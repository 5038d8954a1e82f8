"""TRF16 / TRF26 layout: record codes, the columns of a `001` line and of its round cells,
column rulers.

Columns are 1-based, as in the FIDE specification (FORMATS.md).
"""

from __future__ import annotations

import itertools
import re

from .records import ReportPlayer

TITLES = {
    "GM": "GM",
    "IM": "IM",
    "FM": "FM",
    "CM": "CM",
    "WGM": "WGM",
    "WIM": "WIM",
    "WFM": "WFM",
    "WCM": "WCM",
    # old one/two-letter codes (TRF06-era files such as FIDE's example1)
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
}
SEXES = {"m": "m", "w": "w", "f": "w"}
RESULT_CODES = frozenset("1=0+-WDLHFUZ")
TRF26_RECORDS = frozenset(
    {
        "142",
        "152",
        "162",
        "172",
        "182",
        "192",
        "202",
        "212",
        "222",
        "352",
        "362",
        "240",
        "250",
        "260",
        "299",
        "300",
        "310",
        "320",
        "330",
        "801",
        "802",
    }
)
_HEADER_TEXT = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "092": "tournament_type",
    "102": "chief_arbiter",
    "122": "time_control",
}
_HEADER_INT = {"062": "declared_players", "072": "declared_rated_players", "082": "declared_teams"}
_COLUMNS = {
    "start_rank": 5,
    "sex": 10,
    "title": 11,
    "name": 15,
    "rating": 49,
    "federation": 54,
    "fide_id": 58,
    "birth_date": 70,
    "points": 81,
    "rank": 86,
}
_IGNORED_PREFIX = re.compile(r"^(XX.|BB.|DAT|###|[A-Z]{3}\b|\d{3}\b)", re.ASCII)
_FAST_SLOT = re.compile(
    r"( {3}[0-9]| {2}[0-9]{2}| [0-9]{3}|[0-9]{4}| {4}) ([wWbB\- ]) ([10=+\-WDLHFUZwdlhfuz ])\Z"
)
# A whole row of well-formed cells, each followed by its two blanks (the row is padded to a
# multiple of 10 first), and the cells of such a row.
_ROW = re.compile(
    r"(?:(?: {3}[0-9]| {2}[0-9]{2}| [0-9]{3}|[0-9]{4}| {4}) [wWbB\- ] [10=+\-WDLHFUZwdlhfuz ]  )*",
    re.ASCII,
)
_ROW_CELLS = re.compile(r"(....) (.) (.)  ")
_new_entry = tuple.__new__
# Opponent cells as written → start rank (shared int objects, no int() per cell); 0 → None.
_OPPONENTS: dict[str, int | None] = {
    **{f"{i:04d}": i or None for i in range(10000)},
    **{f"{i:4d}": i or None for i in range(10000)},
    "    ": None,
}
_COLOURS = {"w": "w", "W": "w", "b": "b", "B": "b", "-": "-", " ": "-"}
_RESULTS = {" ": "", **{c: c.upper() for c in "10=+-WDLHFUZwdlhfuz"}}
ROUND0 = 92  # column of round 1's opponent
ROUND_STEP = 10
# Columns of a `001` line that separate its fields and must be blank (column 4 is the
# record rule); in each round cell, the columns after the opponent and after the colour,
# then the two before the next round.
PLAYER_GAPS = (9, 14, 48, 53, 57, 69, 80, 85, 90, 91)
_NUMBERS = re.compile(r"[0-9]+", re.ASCII)
_ONES = "0123456789" * 2


_COLUMNS_OF_CELLS: list[tuple[int, int, int]] = []


def _cell_columns(cells: int) -> list[tuple[int, int, int]]:
    """(opponent, colour, result) columns of the first ``cells`` rounds, shared by every
    line (one set of int objects, not three new ones per cell). A longer list replaces the
    shared one whole, so threads never see it half built."""
    global _COLUMNS_OF_CELLS
    known = _COLUMNS_OF_CELLS
    if len(known) < cells:
        known = [
            (col, col + 5, col + 7)
            for col in range(ROUND0, ROUND0 + ROUND_STEP * cells, ROUND_STEP)
        ]
        _COLUMNS_OF_CELLS = known
    return known


def _col(player: ReportPlayer, field: str) -> int | None:
    return _COLUMNS.get(field)


def record_code(line: str) -> str:
    """Columns 1–3, when column 4 is blank or the line ends there; else "" (no record:
    ``0123456789…`` is not a `012` line)."""
    return line[:3] if len(line) <= 3 or line[3] == " " else ""


def is_ruler(line: str) -> bool:
    """A column ruler: ``0123456789012…`` (or from ``1``), or the tens line above it
    (``         1         2``) — digits only, counting the columns."""
    s = line.rstrip()
    if len(s) < 10 or not s.isascii():
        return False
    if s.isdigit():
        start = int(s[0])
        ones = _ONES[start : start + 10] * (len(s) // 10 + 1)
        return s == ones[: len(s)]
    if not s.replace(" ", "").isdigit():
        return False
    tokens = list(_NUMBERS.finditer(s))
    return len(tokens) >= 2 and all(
        b.end() - a.end() == ROUND_STEP and int(b.group()[-1]) == (int(a.group()[-1]) + 1) % 10
        for a, b in itertools.pairwise(tokens)
    )


def is_trf26(lines: list[str]) -> bool:
    return any(record_code(ln) in TRF26_RECORDS or ln.startswith("###") for ln in lines)


def _cut(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive)."""
    return line[first - 1 : last]
