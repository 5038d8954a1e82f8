"""FEDA ASCII rating report (FEDA 1996 rules, article 10.31).

One line per player: ``Code,Surname Name,Sex,Fed,BirthDate(dd-mm-yy),Points,Games,
OpponentsAverage``; unrated players use code ``00000000``. Title lines, column headings
and dashed rulers are skipped. ``;`` is accepted as the separator (then ``4,5`` is a
decimal), fields may be quoted and padded, years may have two or four digits.
"""

from __future__ import annotations

import re
from datetime import date

from ..numbers import SMALLINT_MAX, is_ascii_digits
from ..problems import error, out_of_range, warning
from .collector import collector_paused
from .fields import Field, split_fields
from .records import ParsedReport, ReportHeader, ReportPlayer
from .text import report_lines
from .validate import check_players, sort_problems

FIELDS = ("code", "name", "sex", "federation", "birth_date", "points", "games", "opponents_average")
_SEX = {"m": "m", "v": "m", "h": "m", "f": "w", "w": "w", "d": "w"}
_DATE = re.compile(r"^(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{2}|\d{4})$", re.ASCII)
_JOINED = re.compile(r"^(\d{1,3})\.(\d{4})$", re.ASCII)
# A code, maybe quoted, then the separator. No two blank runs meet (`\s*"?\s*` would
# backtrack quadratically on a long run of blanks).
_START = re.compile(r'"?\s*[0-9A-Za-z]{1,10}\s*(?:"\s*)?[,;]', re.ASCII)
_POINTS = re.compile(r"\d{1,3}(\.\d{1,2})?", re.ASCII)
_GAMES = re.compile(r"\d{1,3}", re.ASCII)
_AVERAGE = re.compile(r"\d{1,4}", re.ASCII)
_FEDERATION = re.compile(r"[A-Z]{2,3}", re.ASCII)


def is_feda_line(line: str) -> bool:
    s = line.strip()
    if not _START.match(s):
        return False
    return max(s.count(","), s.count(";")) >= 6


def _year(two: int, reference_year: int) -> int:
    # Nobody younger than 4 plays rated chess: 2-digit years later than that are 19xx.
    full = 2000 + two
    return full if full <= reference_year - 4 else 1900 + two


@collector_paused()
def parse_feda(text: str, *, reference_year: int | None = None) -> ParsedReport:
    """Parse a FEDA ASCII file into players (with declared points, games and average)."""
    ref = reference_year or date.today().year
    players: list[ReportPlayer] = []
    code_columns: dict[int, int] = {}  # start rank → column of the code (duplicate IDs)
    ignored: list[int] = []
    lines, problems = report_lines(text)
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if not is_feda_line(line):
            ignored.append(lineno)
            continue
        delimiter = ";" if line.count(";") > line.count(",") else ","
        fields = split_fields(line, delimiter)
        if len(fields) == 7:
            m = _JOINED.match(fields[6].text)
            if m:
                problems.append(
                    warning(
                        "fields_joined",
                        line=lineno,
                        column=fields[6].column,
                        field="games",
                        value=fields[6].text,
                        first=m.group(1),
                        second=m.group(2),
                    )
                )
                col = fields[6].column
                fields = [
                    *fields[:6],
                    Field(m.group(1), col),
                    Field(m.group(2), col + len(m.group(1)) + 1),
                ]
        while len(fields) > 8 and not fields[-1].text:
            fields.pop()  # trailing separator
        if len(fields) != 8:
            problems.append(
                error("field_count", line=lineno, column=1, expected=8, found=len(fields))
            )
            continue
        rank = len(players) + 1
        if rank > SMALLINT_MAX:  # start ranks are smallints: the rest is not read
            problems.append(out_of_range(line=lineno, column=1, field="start_rank", value=rank))
            break
        f = dict(zip(FIELDS, fields, strict=True))
        code_columns[rank] = fields[0].column

        def bad(
            code: str, name: str, *, _line: int = lineno, _f: dict[str, Field] = f, **params: object
        ) -> None:
            problems.append(error(code, line=_line, column=_f[name].column, field=name, **params))

        code = f["code"].text.replace(" ", "")
        national_id = ""
        if not is_ascii_digits(code) or len(code) > 8:
            bad("malformed_number", "code", value=f["code"].text)
        elif int(code):
            national_id = str(int(code))
        name = " ".join(f["name"].text.split())
        if not name:
            bad("missing_name", "name", rank=rank)
        sex_raw = f["sex"].text
        sex = _SEX.get(sex_raw.lower(), "")
        if not sex:
            bad("invalid_sex", "sex", rank=rank, value=sex_raw)
        fed = f["federation"].text.upper()
        if not _FEDERATION.fullmatch(fed):
            bad("invalid_federation", "federation", rank=rank, value=f["federation"].text)
        birth: date | None = None
        raw = f["birth_date"].text
        if raw:
            m = _DATE.match(raw)
            if m:
                y = int(m.group(3))
                year = y if len(m.group(3)) == 4 else _year(y, ref)
                try:
                    birth = date(year, int(m.group(2)), int(m.group(1)))
                except ValueError:
                    birth = None
            if birth is None:
                bad("invalid_date", "birth_date", value=raw)
        points: float | None = None
        p_raw = f["points"].text
        p_txt = p_raw.replace(",", ".") if delimiter == ";" else p_raw
        if _POINTS.fullmatch(p_txt) and float(p_txt) * 2 == int(float(p_txt) * 2):
            points = float(p_txt)
        else:
            bad("malformed_number", "points", value=p_raw)
        games: int | None = None
        if _GAMES.fullmatch(f["games"].text):
            games = int(f["games"].text)
        else:
            bad("malformed_number", "games", value=f["games"].text)
        average: int | None = None
        a_raw = f["opponents_average"].text
        if _AVERAGE.fullmatch(a_raw):
            average = int(a_raw)
            if average and not 1000 <= average <= 3000:
                problems.append(
                    warning(
                        "invalid_rating",
                        line=lineno,
                        column=f["opponents_average"].column,
                        field="opponents_average",
                        rank=rank,
                        value=a_raw,
                    )
                )
        else:
            bad("malformed_number", "opponents_average", value=a_raw)
        if points is not None and games is not None and points > games:
            bad("points_exceed_games", "points", rank=rank, points=points, games=games)
        players.append(
            ReportPlayer(
                start_rank=rank,
                name=name,
                sex=sex,
                federation=fed,
                national_id=national_id,
                birth_date=birth,
                birth_year=birth.year if birth else None,
                declared_points=points,
                declared_games=games,
                opponents_average=average,
                line=lineno,
            )
        )

    def column_of(p: ReportPlayer, field: str) -> int | None:
        return code_columns.get(p.start_rank) if field == "national_id" else None

    kept, player_problems = check_players(players, column_of=column_of)
    problems += player_problems
    if not kept:
        problems.append(error("no_players"))
    return ParsedReport(
        header=ReportHeader(format="feda"),
        players=tuple(kept),
        problems=sort_problems(problems),
        ignored_lines=tuple(ignored),
    )
