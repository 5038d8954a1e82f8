"""FIDE TRF16 / TRF26 reader: lenient with real files, strict about the pairings.

The layout (columns, record codes) is in trf_layout.py, the header records in trf_header.py,
the round cells in trf_rounds.py; this module reads the `001` lines and drives the rest.
"""

from __future__ import annotations

import contextlib
import dataclasses
from datetime import date

from ..numbers import RATING_MAX, NumberError, is_ascii_digits, read_points
from ..problems import error, warning
from .collector import collector_paused
from .dates import parse_birth
from .pairing import build_games
from .records import ParsedReport, ReportFormat, ReportHeader, ReportPlayer
from .trf_header import HeaderRecords
from .trf_layout import (
    _HEADER_INT,
    _HEADER_TEXT,
    _IGNORED_PREFIX,
    PLAYER_GAPS,
    SEXES,
    TITLES,
    _col,
    _cut,
    is_ruler,
    is_trf26,
    record_code,
)
from .trf_rounds import RoundCells
from .validate import check_players, check_points, is_dummy, sort_problems

__all__ = ["TITLES", "is_ruler", "is_trf26", "parse_trf", "record_code"]


class _TrfReader(HeaderRecords, RoundCells):
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
