"""FIDE TRF16 / TRF26 reader: lenient with real files, strict about the pairings.

Columns below are 1-based, as in the FIDE specification (FORMATS.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import re
from datetime import date

from .collector import collector_paused
from .dates import choose_header_dates, parse_birth, parse_date
from .numbers import RATING_MAX, SMALLINT_MAX, NumberError, is_ascii_digits, read_int, read_points
from .problems import error, warning
from .records import ParsedReport, ReportFormat, ReportHeader, ReportPlayer, ReportTeam
from .text import report_lines
from .validate import RoundEntry, build_games, check_players, check_points, is_dummy, sort_problems

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


class _TrfReader:
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
                        warning(
                            "number_out_of_range",
                            line=lineno,
                            column=col,
                            field="round",
                            value=k + 1,
                            low=1,
                            high=SMALLINT_MAX,
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

    def player_line(self, lineno: int, line: str) -> None:
        try:
            start_rank = self.number(lineno, 5, "start_rank", _cut(line, 5, 8))
        except ValueError:
            return
        if start_rank is None or start_rank == 0:
            self.problems.append(
                error(
                    "malformed_number",
                    line=lineno,
                    column=5,
                    field="start_rank",
                    value=_cut(line, 5, 8).strip(),
                )
            )
            return
        name = _cut(line, 15, 47).strip()
        sex_raw = _cut(line, 10, 10).strip()
        sex = SEXES.get(sex_raw.lower(), "")
        if sex_raw and not sex:
            self.problems.append(
                warning(
                    "invalid_sex",
                    line=lineno,
                    column=10,
                    field="sex",
                    rank=start_rank,
                    value=sex_raw,
                )
            )
        title_raw = _cut(line, 11, 13).strip()
        title = TITLES.get(title_raw.upper(), title_raw)
        if title_raw and title_raw.upper() not in TITLES:
            self.problems.append(
                warning(
                    "unknown_title",
                    line=lineno,
                    column=11,
                    field="title",
                    rank=start_rank,
                    value=title_raw,
                )
            )
        rating: int | None = None
        with contextlib.suppress(ValueError):
            rating = self.number(lineno, 49, "rating", _cut(line, 49, 52)) or None
        if rating is not None and rating > RATING_MAX:
            self.problems.append(
                warning(
                    "invalid_rating",
                    line=lineno,
                    column=49,
                    field="rating",
                    rank=start_rank,
                    value=rating,
                )
            )
            rating = None
        fide_id = _cut(line, 58, 68).strip()
        if fide_id and not is_ascii_digits(fide_id):
            # refused: matching (tournaments/selectors.py) only ever sees ASCII digits
            self.problems.append(
                warning("malformed_number", line=lineno, column=58, field="fide_id", value=fide_id)
            )
            fide_id = ""
        if fide_id.strip("0") == "":
            fide_id = ""
        birth_raw = _cut(line, 70, 79)
        birth_date, birth_year, ok = parse_birth(birth_raw)
        if not ok:
            self.problems.append(
                warning(
                    "invalid_date",
                    line=lineno,
                    column=70,
                    field="birth_date",
                    value=birth_raw.strip(),
                )
            )
        points: float | None = None
        try:
            points = read_points(_cut(line, 81, 84))
        except NumberError as exc:
            self.problems.append(
                error(
                    exc.code,
                    line=lineno,
                    column=81,
                    field="points",
                    value=_cut(line, 81, 84).strip(),
                    low=exc.low,
                    high=exc.high,
                )
            )
        rank: int | None = None
        with contextlib.suppress(ValueError):
            rank = self.number(lineno, 86, "rank", _cut(line, 86, 89)) or None
        player = ReportPlayer(
            start_rank=start_rank,
            name=name,
            sex=sex,
            title=title,
            rating=rating,
            federation=_cut(line, 54, 56).strip(),
            fide_id=fide_id,
            birth_date=birth_date,
            birth_year=birth_year,
            declared_points=points,
            rank=rank,
            line=lineno,
        )
        if is_dummy(player):
            player = dataclasses.replace(player, dummy=True)
        if not name:
            self.problems.append(
                warning("missing_name", line=lineno, column=15, field="name", rank=start_rank)
            )
        self.gaps(lineno, line, PLAYER_GAPS, start_rank)
        self.players.append(player)
        self.round_entries(lineno, line, start_rank)

    def half_bye(self, lineno: int, col: int, rnd: int, rank: int, slot: str) -> str:
        """`0000 - =` (Irish files): a half-point bye, read as H with a warning."""
        self.problems.append(
            warning(
                "bye_draw_sign",
                line=lineno,
                column=col + 7,
                field="result",
                round=rnd,
                rank=rank,
                value=slot.strip(),
            )
        )
        return "H"

    def row_entries(self, lineno: int, padded: str, rank: int) -> None:
        """The cells of a row that ``_ROW`` accepted (the fast path of every clean file)."""
        entries = self.entries
        cells = _ROW_CELLS.findall(padded)
        columns = _cell_columns(len(cells))
        rnd = last = 0
        for opp, colour, raw in cells:
            rnd += 1
            if opp == "    " and colour == " " and raw == " ":
                continue
            opponent = _OPPONENTS[opp] if opp in _OPPONENTS else (int(opp) or None)
            result = _RESULTS[raw]
            col, colour_col, result_col = columns[rnd - 1]
            if result == "=" and opponent is None:
                result = self.half_bye(lineno, col, rnd, rank, f"{opp} {colour} {raw}")
            # tuple.__new__: the named tuple without its Python-level __new__
            entries.append(
                _new_entry(
                    RoundEntry,
                    (
                        rank,
                        rnd,
                        opponent,
                        _COLOURS[colour],
                        result,
                        lineno,
                        col,
                        colour_col,
                        result_col,
                    ),
                )
            )
            last = rnd
        if last > self.max_round:
            self.max_round = last

    def round_entries(self, lineno: int, line: str, rank: int) -> None:
        tail = line[ROUND0 - 1 :]
        cells = -(-len(tail) // ROUND_STEP)
        if cells <= SMALLINT_MAX:
            padded = tail + " " * (cells * ROUND_STEP - len(tail))
            if _ROW.fullmatch(padded):
                self.row_entries(lineno, padded, rank)
                return
        k = 0
        while ROUND0 + ROUND_STEP * k <= len(line):
            col = ROUND0 + ROUND_STEP * k
            rnd = k + 1
            k += 1
            if rnd > SMALLINT_MAX:  # Game.round is a smallint: the rest of the line is junk
                self.problems.append(
                    error(
                        "number_out_of_range",
                        line=lineno,
                        column=col,
                        field="round",
                        value=rnd,
                        low=1,
                        high=SMALLINT_MAX,
                    )
                )
                break
            slot = line[col - 1 : col + 7]
            gap = line[col + 7 : col + 9]
            if gap and not gap.isspace():
                self.gaps(lineno, line, (col + 8, col + 9), rank)
            if slot.isspace() or not slot:
                continue
            m = _FAST_SLOT.match(slot)
            if m is not None:  # fast path: a well-formed cell
                opp_text, colour, result = m.groups()
                colour = colour.lower()
                result = result.upper()
                opponent = (int(opp_text) or None) if opp_text.strip() else None
                if result == "=" and opponent is None:
                    result = self.half_bye(lineno, col, rnd, rank, slot)
                self.max_round = rnd if rnd > self.max_round else self.max_round
                self.entries.append(
                    RoundEntry(
                        rank,
                        rnd,
                        opponent,
                        "-" if colour == " " else colour,
                        "" if result == " " else result,
                        lineno,
                        col,
                        col + 5,
                        col + 7,
                    )
                )
                continue
            slot = slot.ljust(8)
            if not slot.strip():
                continue
            self.gaps(lineno, line, (col + 4, col + 6), rank)
            opp_raw, colour_raw, result_raw = slot[0:4], slot[5], slot[7]
            try:
                opp = self.number(lineno, col, "opponent", opp_raw)
            except ValueError:
                continue
            colour = colour_raw.lower()
            if colour == " ":
                colour = "-"
            if colour not in ("w", "b", "-"):
                self.problems.append(
                    error(
                        "invalid_colour",
                        line=lineno,
                        column=col + 5,
                        field="colour",
                        round=rnd,
                        rank=rank,
                        value=colour_raw,
                    )
                )
                colour = "-"
            result = result_raw.upper().strip()
            if result and result not in RESULT_CODES:
                self.problems.append(
                    error(
                        "invalid_result",
                        line=lineno,
                        column=col + 7,
                        field="result",
                        round=rnd,
                        rank=rank,
                        value=result_raw,
                    )
                )
                continue
            if result == "=" and not opp:
                result = self.half_bye(lineno, col, rnd, rank, slot)
            self.max_round = max(self.max_round, rnd)
            self.entries.append(
                RoundEntry(
                    rank=rank,
                    round=rnd,
                    opponent=opp or None,
                    colour=colour,
                    result=result,
                    line=lineno,
                    opponent_column=col,
                    colour_column=col + 5,
                    result_column=col + 7,
                )
            )

    # --- driver ----------------------------------------------------------
    def read(self) -> ParsedReport:
        fmt: ReportFormat = "trf26" if is_trf26(self.lines) else "trf16"
        for lineno, line in enumerate(self.lines, start=1):
            if not line.strip():
                continue
            code = record_code(line)
            if code == "001":
                self.player_line(lineno, line)
            elif (
                code in _HEADER_TEXT or code in _HEADER_INT or code in ("042", "052", "112", "132")
            ):
                self.header_line(lineno, code, line)
            elif code in ("XXR", "142"):
                self.rounds_line(lineno, line)
            elif code == "013":
                self.team_013(lineno, line)
            elif code == "310":
                self.team_310(lineno, line)
            else:
                self.ignored.append(lineno)
                if is_ruler(line):
                    self.problems.append(
                        warning("column_ruler", line=lineno, column=1, lineno=lineno)
                    )
                elif not _IGNORED_PREFIX.match(line):
                    self.problems.append(
                        warning(
                            "unknown_line",
                            line=lineno,
                            column=1,
                            record=line[:3] if code else line.split()[0],
                        )
                    )
        self.header_dates()
        players, problems = check_players(self.players, column_of=_col)
        if not players:
            problems.append(error("no_players", line=None))
        games, game_problems = build_games(players, self.entries)
        problems += game_problems
        problems += check_points(players, games, column_of=_col)
        self.problems += problems
        h = self.header
        header = ReportHeader(
            name=str(h.get("name", "")),
            city=str(h.get("city", "")),
            federation=str(h.get("federation", "")),
            start_date=_date_or_none(h.get("start_date")),
            end_date=_date_or_none(h.get("end_date")),
            chief_arbiter=str(h.get("chief_arbiter", "")),
            deputy_arbiters=tuple(self.deputies),
            time_control=str(h.get("time_control", "")),
            rounds=self.declared_rounds or self.max_round or len(self.round_dates) or None,
            round_dates=tuple(self.round_dates),
            tournament_type=str(h.get("tournament_type", "")),
            format=fmt,
            declared_players=_int_or_none(h.get("declared_players")),
            declared_rated_players=_int_or_none(h.get("declared_rated_players")),
            declared_teams=_int_or_none(h.get("declared_teams")),
        )
        return ParsedReport(
            header=header,
            players=tuple(players),
            games=tuple(games),
            teams=tuple(self.teams26 or self.teams),
            problems=sort_problems(self.problems),
            ignored_lines=tuple(self.ignored),
        )


def _date_or_none(v: object) -> date | None:
    return v if isinstance(v, date) else None


def _int_or_none(v: object) -> int | None:
    return v if isinstance(v, int) else None


@collector_paused()
def parse_trf(text: str) -> ParsedReport:
    """Parse a TRF16 or TRF26 report (the version is detected from the records present)."""
    return _TrfReader(text).read()
