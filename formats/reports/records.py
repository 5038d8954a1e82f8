"""Format-independent records produced by every report parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal, NamedTuple

from ..problems import Problem

ReportFormat = Literal["trf16", "trf26", "feda", "csv"]
GameKind = Literal[
    "played",  # 1 = 0 between two players
    "forfeit",  # + - (not played, not rated)
    "short",  # W D L: less than one move, not rated
    "bye_half",  # H
    "bye_full",  # F, and the old `0000 - +`
    "bye_pab",  # U, pairing-allocated bye (also a win against a dummy "bye" player)
    "bye_zero",  # Z or blank result: zero-point bye / known absence
    "absent",  # `0000 - -`: absent, board not nominated
]
BYE_KINDS: frozenset[str] = frozenset({"bye_half", "bye_full", "bye_pab", "bye_zero", "absent"})
RATED_KINDS: frozenset[str] = frozenset({"played"})


@dataclass(frozen=True)
class ReportHeader:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""
    rounds: int | None = None
    round_dates: tuple[date | None, ...] = ()
    tournament_type: str = ""
    format: ReportFormat = "trf16"
    declared_players: int | None = None
    declared_rated_players: int | None = None
    declared_teams: int | None = None


@dataclass(frozen=True)
class ReportPlayer:
    start_rank: int
    name: str
    sex: str = ""  # "m", "w" or "" (unknown)
    title: str = ""  # GM IM FM CM WGM WIM WFM WCM, old codes normalised
    rating: int | None = None  # None: unrated (blank or 0)
    federation: str = ""
    fide_id: str = ""  # as written, "" when blank or 0
    birth_date: date | None = None
    birth_year: int | None = None
    declared_points: float | None = None
    rank: int | None = None  # None when blank or 0 (withdrawn)
    line: int | None = None
    national_id: str = ""  # FEDA code, CSV "Fed ID"
    declared_games: int | None = None  # FEDA ASCII
    opponents_average: int | None = None  # FEDA ASCII
    dummy: bool = False  # a "bye" pseudo-player such as "spielfrei"


class ReportGame(NamedTuple):
    """One game or bye. A named tuple, not a dataclass like the other records: a
    1,500-player crosstable has 1,124,250 games, and a tuple is built several times faster
    and, holding only numbers and strings, is left alone by the garbage collector."""

    round: int  # 0 when unknown (CSV crosstable)
    white_rank: int
    black_rank: int | None  # None for byes
    result: str  # normalised code from white's side: 1 = 0 + - W D L H F U Z or "" (bye)
    white_score: float
    black_score: float | None
    kind: GameKind
    line: int | None = None  # line of the first entry
    colours_known: bool = True  # False for `204 - +` forfeits and CSV crosstables

    @property
    def is_bye(self) -> bool:
        return self.black_rank is None

    @property
    def is_rated(self) -> bool:
        return self.kind in RATED_KINDS


_tuple_new = tuple.__new__


def new_game(
    round: int,
    white_rank: int,
    black_rank: int | None,
    result: str,
    white_score: float,
    black_score: float | None,
    kind: GameKind,
    line: int | None,
    colours_known: bool,
) -> ReportGame:
    """``ReportGame(...)`` for the parsers' hot loops, every field given: ``tuple.__new__``
    without the named tuple's Python-level ``__new__``."""
    return _tuple_new(
        ReportGame,
        (
            round,
            white_rank,
            black_rank,
            result,
            white_score,
            black_score,
            kind,
            line,
            colours_known,
        ),
    )


@dataclass(frozen=True)
class ReportTeam:
    number: int
    name: str
    federation: str = ""
    members: tuple[int, ...] = ()
    line: int | None = None


@dataclass(frozen=True)
class ParsedReport:
    header: ReportHeader
    players: tuple[ReportPlayer, ...] = ()
    games: tuple[ReportGame, ...] = ()
    teams: tuple[ReportTeam, ...] = ()
    problems: tuple[Problem, ...] = ()
    ignored_lines: tuple[int, ...] = field(default=())  # unknown / unsupported records

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def rounds_in_file(self) -> int:
        """Highest round with any game or bye entry."""
        return max((g.round for g in self.games), default=0)

    @property
    def rounds_played(self) -> int:
        """Highest round with a played, forfeited or short game."""
        return max((g.round for g in self.games if g.black_rank is not None), default=0)

    def player(self, start_rank: int) -> ReportPlayer | None:
        for p in self.players:
            if p.start_rank == start_rank:
                return p
        return None

    def points(self) -> dict[int, float]:
        """Points per start rank computed from the games (default TRF scoring)."""
        pts: dict[int, float] = {p.start_rank: 0.0 for p in self.players}
        for g in self.games:
            pts[g.white_rank] = pts.get(g.white_rank, 0.0) + g.white_score
            if g.black_rank is not None and g.black_score is not None:
                pts[g.black_rank] = pts.get(g.black_rank, 0.0) + g.black_score
        return pts
