"""FIDE TRF16 / TRF26 reader: lenient with real files, strict about the pairings.

Columns below are 1-based, as in the FIDE specification (FORMATS.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from datetime import date

from .dates import parse_birth, parse_date
from .problems import Problem, error, warning
from .records import ParsedReport, ReportFormat, ReportHeader, ReportPlayer, ReportTeam
from .validate import RoundEntry, build_games, check_players, check_points, is_dummy, sort_problems

TITLES = {
    "GM": "GM", "IM": "IM", "FM": "FM", "CM": "CM",
    "WGM": "WGM", "WIM": "WIM", "WFM": "WFM", "WCM": "WCM",
    # old one/two-letter codes (TRF06-era files such as FIDE's example1)
    "G": "GM", "M": "IM", "F": "FM", "C": "CM",
    "WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM",
}
SEXES = {"m": "m", "w": "w", "f": "w"}
RESULT_CODES = frozenset("1=0+-WDLHFUZ")
TRF26_RECORDS = frozenset({
    "142", "152", "162", "172", "182", "192", "202", "212", "222", "352", "362",
    "240", "250", "260", "299", "300", "310", "320", "330", "801", "802",
})
_HEADER_TEXT = {
    "012": "name", "022": "city", "032": "federation", "092": "tournament_type",
    "102": "chief_arbiter", "122": "time_control",
}
_HEADER_INT = {"062": "declared_players", "072": "declared_rated_players",
               "082": "declared_teams"}
_COLUMNS = {"start_rank": 5, "sex": 10, "title": 11, "name": 15, "rating": 49,
            "federation": 54, "fide_id": 58, "birth_date": 70, "points": 81, "rank": 86}
_IGNORED_PREFIX = re.compile(r"^(XX.|BB.|DAT|###|[A-Z]{3}\b|\d{3}\b)")
_FAST_SLOT = re.compile(r"( {3}[0-9]| {2}[0-9]{2}| [0-9]{3}|[0-9]{4}| {4}) ([wWbB\- ]) ([10=+\-WDLHFUZwdlhfuz ])\Z")
ROUND0 = 92  # column of round 1's opponent
ROUND_STEP = 10


def _col(player: ReportPlayer, field: str) -> int | None:
    return _COLUMNS.get(field)


def split_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def is_trf26(lines: list[str]) -> bool:
    return any(ln[:3] in TRF26_RECORDS or ln.startswith("###") for ln in lines)


def _cut(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive)."""
    return line[first - 1:last]


def _int(text: str) -> int | None:
    s = text.strip()
    if not s:
        return None
    if not s.isdigit() or not s.isascii():
        raise ValueError(s)
    return int(s)


def _float(text: str) -> float | None:
    s = text.strip().replace(",", ".")
    if not s:
        return None
    if not re.fullmatch(r"\d{1,4}(\.\d{1,2})?|\.\d", s):
        raise ValueError(s)
    return float(s)


class _TrfReader:
    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        self.problems: list[Problem] = []
        self.players: list[ReportPlayer] = []
        self.entries: list[RoundEntry] = []
        self.teams: list[ReportTeam] = []  # 013 (TRF16)
        self.teams26: list[ReportTeam] = []  # 310 (TRF26, replaces 013)
        self.ignored: list[int] = []
        self.header: dict[str, object] = {}
        self.deputies: list[str] = []
        self.round_dates: list[date | None] = []
        self.declared_rounds: int | None = None
        self.max_round = 0

    # --- helpers ---------------------------------------------------------
    def number(self, lineno: int, column: int, field: str, text: str,
               *, severity: str = "error") -> int | None:
        try:
            return _int(text)
        except ValueError:
            make = error if severity == "error" else warning
            self.problems.append(make("malformed_number", line=lineno, column=column,
                                      field=field, value=text.strip()))
            raise

    # --- records ---------------------------------------------------------
    def header_line(self, lineno: int, code: str, line: str) -> None:
        value = line[4:].strip()
        if code in _HEADER_TEXT:
            self.header[_HEADER_TEXT[code]] = value
        elif code in _HEADER_INT:
            with contextlib.suppress(ValueError):
                self.header[_HEADER_INT[code]] = self.number(
                    lineno, 5, _HEADER_INT[code], value, severity="warning")
        elif code in ("042", "052"):
            field = "start_date" if code == "042" else "end_date"
            if value:
                d = parse_date(value)
                if d is None:
                    self.problems.append(warning("invalid_date", line=lineno, column=5,
                                                 field=field, value=value))
                self.header[field] = d
        elif code == "112":
            if value:
                self.deputies.append(value)
        elif code == "132":
            dates: list[date | None] = []
            k = 0
            while ROUND0 + ROUND_STEP * k <= len(line):
                col = ROUND0 + ROUND_STEP * k
                raw = _cut(line, col, col + 7).strip()
                d = parse_date(raw, short_year_first=True) if raw else None
                if raw and d is None:
                    self.problems.append(warning("invalid_date", line=lineno, column=col,
                                                 field="round_dates", value=raw))
                dates.append(d)
                k += 1
            while dates and dates[-1] is None:
                dates.pop()
            self.round_dates = dates

    def rounds_line(self, lineno: int, line: str) -> None:
        # `XXR n` (TRF16 + JaVaFo) or `142 n` (TRF26)
        with contextlib.suppress(ValueError):
            self.declared_rounds = self.number(lineno, 5, "rounds", line[4:].strip()[:4],
                                               severity="warning")

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
        self.teams.append(ReportTeam(number=len(self.teams) + 1, name=name,
                                     members=tuple(members), line=lineno))

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
        self.teams26.append(ReportTeam(
            number=number or 0, name=_cut(line, 9, 40).strip(),
            federation=_cut(line, 42, 46).strip(), members=tuple(members), line=lineno))

    def player_line(self, lineno: int, line: str) -> None:
        try:
            start_rank = self.number(lineno, 5, "start_rank", _cut(line, 5, 8))
        except ValueError:
            return
        if start_rank is None or start_rank == 0:
            self.problems.append(error("malformed_number", line=lineno, column=5,
                                       field="start_rank", value=_cut(line, 5, 8).strip()))
            return
        name = _cut(line, 15, 47).strip()
        sex_raw = _cut(line, 10, 10).strip()
        sex = SEXES.get(sex_raw.lower(), "")
        if sex_raw and not sex:
            self.problems.append(warning("invalid_sex", line=lineno, column=10, field="sex",
                                         rank=start_rank, value=sex_raw))
        title_raw = _cut(line, 11, 13).strip()
        title = TITLES.get(title_raw.upper(), title_raw)
        if title_raw and title_raw.upper() not in TITLES:
            self.problems.append(warning("unknown_title", line=lineno, column=11,
                                         field="title", rank=start_rank, value=title_raw))
        rating: int | None = None
        with contextlib.suppress(ValueError):
            rating = self.number(lineno, 49, "rating", _cut(line, 49, 52)) or None
        fide_id = _cut(line, 58, 68).strip()
        if fide_id and not fide_id.isdigit():
            self.problems.append(warning("malformed_number", line=lineno, column=58,
                                         field="fide_id", value=fide_id))
        if fide_id.strip("0") == "":
            fide_id = ""
        birth_raw = _cut(line, 70, 79)
        birth_date, birth_year, ok = parse_birth(birth_raw)
        if not ok:
            self.problems.append(warning("invalid_date", line=lineno, column=70,
                                         field="birth_date", value=birth_raw.strip()))
        points: float | None = None
        try:
            points = _float(_cut(line, 81, 84))
        except ValueError:
            self.problems.append(error("malformed_number", line=lineno, column=81,
                                       field="points", value=_cut(line, 81, 84).strip()))
        rank: int | None = None
        with contextlib.suppress(ValueError):
            rank = self.number(lineno, 86, "rank", _cut(line, 86, 89)) or None
        player = ReportPlayer(
            start_rank=start_rank, name=name, sex=sex, title=title, rating=rating,
            federation=_cut(line, 54, 56).strip(), fide_id=fide_id,
            birth_date=birth_date, birth_year=birth_year, declared_points=points,
            rank=rank, line=lineno,
        )
        if is_dummy(player):
            player = dataclasses.replace(player, dummy=True)
        if not name:
            self.problems.append(warning("missing_name", line=lineno, column=15,
                                         field="name", rank=start_rank))
        self.players.append(player)
        self.round_entries(lineno, line, start_rank)

    def round_entries(self, lineno: int, line: str, rank: int) -> None:
        k = 0
        while ROUND0 + ROUND_STEP * k <= len(line):
            col = ROUND0 + ROUND_STEP * k
            rnd = k + 1
            k += 1
            slot = line[col - 1:col + 7]
            if slot.isspace() or not slot:
                continue
            m = _FAST_SLOT.match(slot)
            if m is not None:  # fast path: a well-formed cell
                opp_text, colour, result = m.groups()
                colour = colour.lower()
                result = result.upper()
                self.max_round = rnd if rnd > self.max_round else self.max_round
                self.entries.append(RoundEntry(
                    rank, rnd, int(opp_text) or None if opp_text.strip() else None,
                    "-" if colour == " " else colour, "" if result == " " else result,
                    lineno, col, col + 5, col + 7,
                ))
                continue
            slot = slot.ljust(8)
            if not slot.strip():
                continue
            opp_raw, colour_raw, result_raw = slot[0:4], slot[5], slot[7]
            try:
                opp = self.number(lineno, col, "opponent", opp_raw)
            except ValueError:
                continue
            colour = colour_raw.lower()
            if colour == " ":
                colour = "-"
            if colour not in ("w", "b", "-"):
                self.problems.append(error("invalid_colour", line=lineno, column=col + 5,
                                           field="colour", round=rnd, rank=rank,
                                           value=colour_raw))
                colour = "-"
            result = result_raw.upper().strip()
            if result and result not in RESULT_CODES:
                self.problems.append(error("invalid_result", line=lineno, column=col + 7,
                                           field="result", round=rnd, rank=rank,
                                           value=result_raw))
                continue
            self.max_round = max(self.max_round, rnd)
            self.entries.append(RoundEntry(
                rank=rank, round=rnd, opponent=opp or None, colour=colour, result=result,
                line=lineno, opponent_column=col, colour_column=col + 5,
                result_column=col + 7,
            ))

    # --- driver ----------------------------------------------------------
    def read(self) -> ParsedReport:
        fmt: ReportFormat = "trf26" if is_trf26(self.lines) else "trf16"
        for lineno, line in enumerate(self.lines, start=1):
            if not line.strip():
                continue
            code = line[:3]
            if code == "001":
                self.player_line(lineno, line)
            elif code in _HEADER_TEXT or code in _HEADER_INT or code in (
                    "042", "052", "112", "132"):
                self.header_line(lineno, code, line)
            elif code in ("XXR", "142"):
                self.rounds_line(lineno, line)
            elif code == "013":
                self.team_013(lineno, line)
            elif code == "310":
                self.team_310(lineno, line)
            else:
                self.ignored.append(lineno)
                if not _IGNORED_PREFIX.match(line):
                    self.problems.append(warning("unknown_line", line=lineno, column=1,
                                                 record=line[:3]))
        players, problems = check_players(self.players, column_of=_col)
        if not players:
            problems.append(error("no_players", line=None))
        games, game_problems = build_games(players, self.entries)
        problems += game_problems
        problems += check_points(players, games, column_of=_col)
        h = self.header
        header = ReportHeader(
            name=str(h.get("name", "")), city=str(h.get("city", "")),
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
            header=header, players=tuple(players), games=tuple(games),
            teams=tuple(self.teams26 or self.teams), problems=sort_problems(self.problems + problems),
            ignored_lines=tuple(self.ignored),
        )


def _date_or_none(v: object) -> date | None:
    return v if isinstance(v, date) else None


def _int_or_none(v: object) -> int | None:
    return v if isinstance(v, int) else None


def parse_trf(text: str) -> ParsedReport:
    """Parse a TRF16 or TRF26 report (the version is detected from the records present)."""
    return _TrfReader(text).read()
