"""CSV crosstable for small round robins and matches.

Header ``No,Name,FIDE ID,Fed ID,Rating,1,2,…,n`` (optional trailing ``Pts``/``Rank``);
``,`` ``;`` or tab separated. Cells: ``1`` ``0`` ``½``/``=``/``0.5`` ``+`` ``-``; the
diagonal is blank, ``x`` or ``*``. Several games in one cell (a match) are separated by
spaces, e.g. ``1 ½ 0``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate

from ..numbers import (
    FIDE_ID_DIGITS,
    RATING_MAX,
    SMALLINT_MAX,
    NumberError,
    is_ascii_digits,
    read_int,
    read_points,
)
from ..problems import Problem, ProblemList, error, out_of_range, warning
from .collector import collector_paused
from .crosstable_games import Cell, CrossCell, build_crosstable_games, build_matrix_games
from .fields import Field, guess_delimiter, split_fields
from .records import ParsedReport, ReportGame, ReportHeader, ReportPlayer
from .text import report_lines
from .validate import check_players, check_points, sort_problems

_ALIASES = {
    "no": {"no", "nº", "n°", "n", "nr", "num", "number", "#", "sno", "startrank"},
    "name": {"name", "nombre", "nom", "nome", "player", "jugador"},
    "fide_id": {"fideid", "fide", "idfide"},
    "fed_id": {"fedid", "federationid", "nationalid", "natid", "feda", "codigo", "code"},
    "rating": {"rating", "elo", "rtg"},
    "points": {"pts", "points", "total", "score", "puntos", "punts"},
    "rank": {"rank", "place", "pl", "pos", "puesto", "clas"},
}
_HALF = {"½", "=", "0.5", "0,5", ".5", ",5", "1/2"}
_EMPTY = {"", "x", "*", "—", "–", "#"}


_KEY_DROP = str.maketrans("", "", "._-")
_EMPTY_CELL = ""  # in the matrix: no game (blank, the diagonal marks, "not played")
# Cells as usually written → their code (or ``_EMPTY_CELL``); anything else is read by
# ``_cell`` (stripped, case-folded, several games in one cell).
_CELL_CODES: dict[str, str] = {
    **dict.fromkeys(_HALF, "="),
    "1": "1",
    "0": "0",
    "+": "+",
    "-": "-",
    "1.0": "1",
    "0.0": "0",
    **{e: _EMPTY_CELL for e in _EMPTY},
    "X": _EMPTY_CELL,
}


def _key(text: str) -> str:
    return "".join(text.lower().split()).translate(_KEY_DROP)


def _role(text: str) -> str | None:
    if len(text) > 24:  # no heading is that long: skip the work
        return None
    k = _key(text)
    for role, names in _ALIASES.items():
        if k in names:
            return role
    return None


def is_csv_header(line: str) -> bool:
    d = guess_delimiter(line)
    cells = [f.text for f in split_fields(line, d)]
    return (
        len(cells) >= 3
        and "1" in cells
        and any(_role(c) == "name" for c in cells if not c.isdigit())
    )


def _code(cell: str) -> str | None:
    c = cell.strip().upper()
    if c in _HALF:
        return "="
    if c in ("1", "0", "+", "-", "1.0", "0.0"):
        return c[0]
    return None


def _cell(raw: str) -> Cell | None:
    """A cell that is not in ``_CELL_CODES``: ``None`` when it cannot be read."""
    raw = raw.strip()
    if raw.lower() in _EMPTY:
        return _EMPTY_CELL
    codes = [_code(x) for x in raw.split()] if " " in raw else [_code(raw)]
    if any(c is None for c in codes):
        return None
    found = tuple(c for c in codes if c is not None)
    return found[0] if len(found) == 1 else found


class _Row:
    """One data line split on the delimiter. Columns are worked out only when asked for (a
    problem, a player field), from where each field starts, kept in an ``array`` (no Python
    object per cell outlives the row: the garbage collector would walk them all, again and
    again, while the games of a 1,500-player crosstable are built)."""

    __slots__ = ("_columns", "_starts", "cells", "line", "lineno", "real")

    def __init__(self, lineno: int, line: str, delimiter: str, width: int) -> None:
        self.lineno = lineno
        self.line = line
        self._columns: array[int] | None = None
        self._starts: array[int] | None = None
        if '"' in line:
            fields = split_fields(line, delimiter)
            self.cells = [f.text for f in fields]
            self._columns = array("q", (f.column for f in fields))
        else:
            self.cells = line.split(delimiter)
        self.real = len(self.cells)
        if len(self.cells) < width:
            self.cells += [""] * (width - len(self.cells))

    def text(self, idx: int | None) -> str:
        return self.cells[idx].strip() if idx is not None else ""

    def release(self) -> None:
        """Keep only what columns need once the row is read."""
        if self._columns is None and self._starts is None:
            self._starts = array("q", accumulate(map(len, self.cells[: self.real]), initial=0))
        self.cells = []

    def column(self, idx: int | None) -> int | None:
        if idx is None:
            return None
        if idx >= self.real:  # a missing field at the end of the line
            return len(self.line) + 1
        if self._columns is not None:
            return self._columns[idx]
        if self._starts is None:  # where each field starts (one C-level pass)
            self._starts = array("q", accumulate(map(len, self.cells[: self.real]), initial=0))
        # field idx starts after idx delimiters and the fields before it; its column is
        # that of its first non-blank character, as split_fields gives it
        start = self._starts[idx] + idx
        part = self.line[start : self._starts[idx + 1] + idx]
        lead = len(part) - len(part.lstrip(" \t"))
        return start + 1 + (lead if lead < len(part) else 0)


def _header(
    head_no: int, head_fields: list[Field], problems: ProblemList
) -> tuple[dict[str, int], list[int]]:
    roles: dict[str, int] = {}
    result_cols: list[int] = []  # field index of opponent 1..n
    too_many = False
    for idx, f in enumerate(head_fields):
        if is_ascii_digits(f.text):
            if len(result_cols) >= SMALLINT_MAX:
                # More columns than start ranks: one problem for all of them (a problem per
                # column made a 1 MiB header of 150,000 columns cost seconds).
                if not too_many:
                    too_many = True
                    problems.append(
                        out_of_range(line=head_no, column=f.column, field="round", value=f.text)
                    )
                continue
            try:
                number = read_int(f.text, low=1)
            except NumberError as exc:
                problems.append(
                    out_of_range(
                        line=head_no,
                        column=f.column,
                        field="round",
                        value=f.text,
                        low=exc.low or 1,
                        high=exc.high or SMALLINT_MAX,
                    )
                )
            else:
                if number != len(result_cols) + 1:
                    problems.append(
                        error(
                            "csv_header",
                            line=head_no,
                            column=f.column,
                            detail=f"column {f.text} out of order",
                        )
                    )
            result_cols.append(idx)
            continue
        if f.text.isdigit():  # ², ٣…: digits for str.isdigit, not a column number
            problems.append(
                error(
                    "malformed_number", line=head_no, column=f.column, field="round", value=f.text
                )
            )
            continue
        if len(roles) < len(_ALIASES):
            role = _role(f.text)
            if role and role not in roles:
                roles[role] = idx
    return roles, result_cols


@collector_paused()
def parse_crosstable_csv(text: str) -> ParsedReport:
    lines, problems = report_lines(text)
    numbered = [(n, ln) for n, ln in enumerate(lines, start=1) if ln.strip()]
    header = ReportHeader(format="csv")
    if not numbered:
        problems.append(error("no_players"))
        return ParsedReport(header=header, problems=sort_problems(problems))
    head_no, head = numbered[0]
    delimiter = guess_delimiter(head)
    head_fields = split_fields(head, delimiter)
    roles, result_cols = _header(head_no, head_fields, problems)
    if "name" not in roles or not result_cols:
        problems.append(
            error(
                "csv_header",
                line=head_no,
                column=1,
                detail="a Name column and result columns 1…n are required",
            )
        )
        return ParsedReport(header=header, problems=sort_problems(problems))
    rows = numbered[1:]
    n = len(result_cols)
    if len(rows) != n:
        problems.append(error("csv_not_square", line=head_no, column=1, rows=len(rows), columns=n))
    if len(rows) > SMALLINT_MAX:  # start ranks are smallints
        lineno, _line = rows[SMALLINT_MAX]
        problems.append(out_of_range(line=lineno, column=1, field="start_rank", value=len(rows)))
        rows = rows[:SMALLINT_MAX]
    players: list[ReportPlayer] = []
    columns: dict[tuple[int, str], int] = {}
    width = len(head_fields)
    first_result = result_cols[0]
    consecutive = result_cols == list(range(first_result, first_result + n))
    matrix: list[tuple[Cell, ...]] = []
    parsed: list[_Row] = []
    for i, (lineno, line) in enumerate(rows, start=1):
        row = _Row(lineno, line, delimiter, width)
        parsed.append(row)
        for role, idx in roles.items():
            columns[(i, role)] = row.column(idx)  # type: ignore[assignment]  # idx is set

        def cell(role: str, row: _Row = row) -> str:
            return row.text(roles.get(role))

        def col(role: str, row: _Row = row) -> int | None:
            return row.column(roles.get(role))

        if "no" in roles and cell("no") != str(i):
            problems.append(
                error(
                    "csv_row_number",
                    line=lineno,
                    column=col("no"),
                    field="no",
                    row=i,
                    value=cell("no"),
                )
            )
        rating: int | None = None
        r_raw = cell("rating")
        if r_raw:
            try:
                rating = read_int(r_raw, high=9999) or None
            except NumberError as exc:
                problems.append(_number_problem(exc, lineno, col("rating"), "rating", r_raw))
            if rating is not None and rating > RATING_MAX:
                problems.append(
                    warning(
                        "invalid_rating",
                        line=lineno,
                        column=col("rating"),
                        field="rating",
                        rank=i,
                        value=rating,
                    )
                )
                rating = None
        fide_id = cell("fide_id")
        if fide_id and not is_ascii_digits(fide_id):
            problems.append(
                error(
                    "malformed_number",
                    line=lineno,
                    column=col("fide_id"),
                    field="fide_id",
                    value=fide_id,
                )
            )
            fide_id = ""
        elif len(fide_id.lstrip("0")) > FIDE_ID_DIGITS:
            problems.append(
                out_of_range(
                    line=lineno,
                    column=col("fide_id"),
                    field="fide_id",
                    value=fide_id,
                    low=0,
                    high="9" * FIDE_ID_DIGITS,
                )
            )
            fide_id = ""
        points: float | None = None
        p_raw = cell("points").replace("½", ".5")
        try:
            points = read_points(p_raw)
        except NumberError as exc:
            problems.append(_number_problem(exc, lineno, col("points"), "points", cell("points")))
        rank: int | None = None
        rank_raw = cell("rank").rstrip(".")
        if is_ascii_digits(rank_raw):  # "3-4", "=3": a shared place, read as no rank
            try:
                rank = read_int(rank_raw) or None
            except NumberError as exc:
                problems.append(
                    warning(
                        exc.code,
                        line=lineno,
                        column=col("rank"),
                        field="rank",
                        value=rank_raw,
                        low=exc.low,
                        high=exc.high,
                    )
                )
        name = " ".join(cell("name").split())
        if not name:
            problems.append(
                error("missing_name", line=lineno, column=col("name"), field="name", rank=i)
            )
        fed_id = cell("fed_id")
        players.append(
            ReportPlayer(
                start_rank=i,
                name=name,
                rating=rating,
                fide_id="" if not fide_id.strip("0") else fide_id,
                national_id=fed_id.lstrip("0") if is_ascii_digits(fed_id) else fed_id,
                declared_points=points,
                rank=rank,
                line=lineno,
            )
        )
        raw_cells = (
            row.cells[first_result : first_result + n]
            if consecutive
            else [row.cells[idx] for idx in result_cols]
        )
        codes: list[Cell | None] = list(map(_CELL_CODES.get, raw_cells))
        if i <= n:  # the diagonal: blank or x, * …
            own = codes[i - 1]
            if own != _EMPTY_CELL and (
                own is not None or raw_cells[i - 1].strip().lower() not in _EMPTY
            ):
                problems.append(
                    error(
                        "self_paired",
                        line=lineno,
                        column=row.column(result_cols[i - 1]),
                        field="result",
                        round="-",
                        rank=i,
                    )
                )
            codes[i - 1] = _EMPTY_CELL
        if None in codes:
            for j, code in enumerate(codes):
                if code is None:
                    code = codes[j] = _cell(raw_cells[j])
                    if code is None:
                        problems.append(
                            error(
                                "invalid_result",
                                line=lineno,
                                column=row.column(result_cols[j]),
                                field="result",
                                round="-",
                                rank=i,
                                value=raw_cells[j].strip(),
                            )
                        )
                        codes[j] = _EMPTY_CELL
        matrix.append(tuple(codes))  # type: ignore[arg-type]  # no None left
        row.release()

    def column_of(p: ReportPlayer, field: str) -> int | None:
        role = {"start_rank": "no", "national_id": "fed_id"}.get(field, field)
        return columns.get((p.start_rank, role))

    def cell_column(i: int, j: int) -> int | None:
        """The column of row ``i``'s cell against ``j`` (0-based)."""
        return parsed[i].column(result_cols[j])

    kept, player_problems = check_players(players, column_of=column_of)
    problems += player_problems
    if not kept:
        problems.append(error("no_players"))
    game_problems: list[Problem]
    games: Sequence[ReportGame]
    if len(matrix) == n:
        games, game_problems, computed = build_matrix_games(
            matrix, [row.lineno for row in parsed], cell_column
        )
    else:
        games, game_problems = build_crosstable_games(
            CrossCell(
                rank=i + 1,
                opponent=j + 1,
                results=code if isinstance(code, tuple) else (code,),
                line=parsed[i].lineno,
                column=parsed[i].column(result_cols[j]),
            )
            for i, codes in enumerate(matrix)
            for j, code in enumerate(codes)
            if code != _EMPTY_CELL and j < len(matrix)
        )
        computed = None
    problems += game_problems
    problems += check_points(kept, games, column_of=column_of, computed=computed)
    return ParsedReport(
        header=ReportHeader(format="csv", rounds=n - 1 if n > 2 else None),
        players=tuple(kept),
        games=tuple(games),
        problems=sort_problems(problems),
    )


def _number_problem(
    exc: NumberError, line: int, column: int | None, field: str, value: str
) -> Problem:
    if exc.code == "number_out_of_range":
        return error(
            exc.code, line=line, column=column, field=field, value=value, low=exc.low, high=exc.high
        )
    return error("malformed_number", line=line, column=column, field=field, value=value)
