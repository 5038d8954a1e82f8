"""CSV crosstable for small round robins and matches.

Header ``No,Name,FIDE ID,Fed ID,Rating,1,2,…,n`` (optional trailing ``Pts``/``Rank``);
``,`` ``;`` or tab separated. Cells: ``1`` ``0`` ``½``/``=``/``0.5`` ``+`` ``-``; the
diagonal is blank, ``x`` or ``*``. Several games in one cell (a match) are separated by
spaces, e.g. ``1 ½ 0``.
"""

from __future__ import annotations

import re

from .fields import Field, guess_delimiter, split_fields
from .problems import Problem, error
from .records import ParsedReport, ReportHeader, ReportPlayer
from .validate import (
    CrossCell,
    build_crosstable_games,
    check_players,
    check_points,
    sort_problems,
)

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


def _key(text: str) -> str:
    return re.sub(r"[\s._\-]", "", text.lower())


def _role(text: str) -> str | None:
    k = _key(text)
    for role, names in _ALIASES.items():
        if k in names:
            return role
    return None


def is_csv_header(line: str) -> bool:
    d = guess_delimiter(line)
    cells = [f.text for f in split_fields(line, d)]
    return len(cells) >= 3 and any(_role(c) == "name" for c in cells) and "1" in cells


def _code(cell: str) -> str | None:
    c = cell.strip().upper()
    if c in _HALF:
        return "="
    if c in ("1", "0", "+", "-", "1.0", "0.0"):
        return c[0]
    return None


def parse_crosstable_csv(text: str) -> ParsedReport:
    problems: list[Problem] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(n, ln) for n, ln in enumerate(lines, start=1) if ln.strip()]
    header = ReportHeader(format="csv")
    if not numbered:
        return ParsedReport(header=header, problems=(error("no_players"),))
    head_no, head = numbered[0]
    delimiter = guess_delimiter(head)
    head_fields = split_fields(head, delimiter)
    roles: dict[str, int] = {}
    result_cols: list[int] = []  # field index of opponent 1..n
    for idx, f in enumerate(head_fields):
        if f.text.isdigit():
            if int(f.text) != len(result_cols) + 1:
                problems.append(error("csv_header", line=head_no, column=f.column,
                                      detail=f"column {f.text} out of order"))
            result_cols.append(idx)
            continue
        role = _role(f.text)
        if role and role not in roles:
            roles[role] = idx
    if "name" not in roles or not result_cols:
        problems.append(error("csv_header", line=head_no, column=1,
                              detail="a Name column and result columns 1…n are required"))
        return ParsedReport(header=header, problems=sort_problems(problems))
    rows = numbered[1:]
    n = len(result_cols)
    if len(rows) != n:
        problems.append(error("csv_not_square", line=head_no, column=1, rows=len(rows),
                              columns=n))
    players: list[ReportPlayer] = []
    cells: list[CrossCell] = []
    columns: dict[tuple[int, str], int] = {}
    width = len(head_fields)
    for i, (lineno, line) in enumerate(rows, start=1):
        fields = split_fields(line, delimiter)
        fields += [Field("", len(line) + 1)] * (width - len(fields))

        def cell(role: str, fields: list[Field] = fields) -> str:
            idx = roles.get(role)
            return fields[idx].text if idx is not None else ""

        def col(role: str, fields: list[Field] = fields) -> int | None:
            idx = roles.get(role)
            return fields[idx].column if idx is not None else None

        for role in roles:
            c = col(role)
            if c is not None:
                columns[(i, role)] = c
        if "no" in roles and cell("no") != str(i):
            problems.append(error("csv_row_number", line=lineno, column=col("no"), field="no",
                                  row=i, value=cell("no")))
        rating: int | None = None
        r_raw = cell("rating")
        if r_raw:
            if r_raw.isdigit():
                rating = int(r_raw) or None
            else:
                problems.append(error("malformed_number", line=lineno, column=col("rating"),
                                      field="rating", value=r_raw))
        fide_id = cell("fide_id")
        if fide_id and not fide_id.isdigit():
            problems.append(error("malformed_number", line=lineno, column=col("fide_id"),
                                  field="fide_id", value=fide_id))
        points: float | None = None
        p_raw = cell("points").replace(",", ".").replace("½", ".5")
        if p_raw:
            try:
                points = float(p_raw)
            except ValueError:
                problems.append(error("malformed_number", line=lineno, column=col("points"),
                                      field="points", value=cell("points")))
        rank_raw = cell("rank").rstrip(".")
        name = " ".join(cell("name").split())
        if not name:
            problems.append(error("missing_name", line=lineno, column=col("name"),
                                  field="name", rank=i))
        players.append(ReportPlayer(
            start_rank=i, name=name, rating=rating,
            fide_id="" if not fide_id.strip("0") else fide_id,
            national_id=cell("fed_id").lstrip("0") if cell("fed_id").isdigit()
            else cell("fed_id"),
            declared_points=points,
            rank=int(rank_raw) if rank_raw.isdigit() and int(rank_raw) else None,
            line=lineno,
        ))
        for j, idx in enumerate(result_cols, start=1):
            f = fields[idx]
            raw = f.text
            if j == i:
                if raw.lower() not in _EMPTY:
                    problems.append(error("self_paired", line=lineno, column=f.column,
                                          field="result", round="-", rank=i))
                continue
            if raw.lower() in _EMPTY:
                continue
            codes = [_code(x) for x in raw.split()] if " " in raw.strip() else [_code(raw)]
            if any(c is None for c in codes):
                problems.append(error("invalid_result", line=lineno, column=f.column,
                                      field="result", round="-", rank=i, value=raw))
                continue
            if j > n or j > len(rows):
                continue
            cells.append(CrossCell(rank=i, opponent=j,
                                   results=tuple(c for c in codes if c is not None),
                                   line=lineno, column=f.column))

    def column_of(p: ReportPlayer, field: str) -> int | None:
        role = {"start_rank": "no", "national_id": "fed_id"}.get(field, field)
        return columns.get((p.start_rank, role))

    kept, player_problems = check_players(players, column_of=column_of)
    problems += player_problems
    if not kept:
        problems.append(error("no_players"))
    games, game_problems = build_crosstable_games(cells)
    problems += game_problems
    problems += check_points(kept, games, column_of=column_of)
    return ParsedReport(
        header=ReportHeader(format="csv", rounds=max(n - 1, 0) if n > 2 else None),
        players=tuple(kept), games=tuple(games), problems=sort_problems(problems),
    )
