"""Consistency checks shared by every parser, so a problem reads the same in every format:
players (duplicate start ranks and IDs), declared points against the games, the order and
cap of the problem list. Parsers turn each player's per-round cell into a ``RoundEntry``;
``pairing.build_games`` pairs the two entries of each game, ``crosstable_games`` reads a
crosstable's cells; the result codes are in ``result_codes``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter

from ..problems import MAX_PROBLEMS, Problem, ProblemList, Severity, error, problem, warning
from .crosstable_games import Cell, CrossCell, build_crosstable_games, build_matrix_games
from .pairing import RoundEntry, build_games
from .records import ReportGame, ReportPlayer
from .result_codes import BYE_CODES, GAME_CODES, MIRROR, POINTS, game_kind

# The checks' building blocks moved to their own modules stay importable from here.
__all__ = [
    "BYE_CODES",
    "DUMMY_NAMES",
    "GAME_CODES",
    "MIRROR",
    "POINTS",
    "Cell",
    "ColumnOf",
    "CrossCell",
    "RoundEntry",
    "build_crosstable_games",
    "build_games",
    "build_matrix_games",
    "check_players",
    "check_points",
    "game_kind",
    "is_dummy",
    "sort_problems",
]


DUMMY_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "pab", "exempt", "descansa", "libre", "bye player"}
)


_WHITE, _WHITE_SCORE = attrgetter("white_rank"), attrgetter("white_score")


_BLACK, _BLACK_SCORE = attrgetter("black_rank"), attrgetter("black_score")


ColumnOf = Callable[[ReportPlayer, str], "int | None"]


def _player_problem(
    make: Callable[..., Problem],
    code: str,
    p: ReportPlayer,
    field: str,
    column_of: ColumnOf,
    **params: object,
) -> Problem:
    """``make`` (error or warning) about player ``p``'s ``field``, at its line and column."""
    return make(
        code, line=p.line, column=column_of(p, field), field=field, rank=p.start_rank, **params
    )


def _no_column(player: ReportPlayer, field: str) -> int | None:
    return None


def is_dummy(player: ReportPlayer) -> bool:
    return (
        player.name.strip().casefold() in DUMMY_NAMES
        and player.rating is None
        and not player.fide_id
    )


def check_players(
    players: Sequence[ReportPlayer], *, column_of: ColumnOf = _no_column
) -> tuple[list[ReportPlayer], list[Problem]]:
    """Drop duplicate start ranks (keeping the first) and report duplicate IDs."""
    problems = ProblemList()
    kept: list[ReportPlayer] = []
    by_rank: dict[int, ReportPlayer] = {}
    by_id: dict[str, ReportPlayer] = {}
    for p in players:
        first = by_rank.get(p.start_rank)
        if first is not None:
            problems.append(
                _player_problem(
                    error, "duplicate_start_rank", p, "start_rank", column_of, first_line=first.line
                )
            )
            continue
        by_rank[p.start_rank] = p
        kept.append(p)
        for key in (p.fide_id, p.national_id):
            if not key or not key.strip("0"):
                continue
            field = "fide_id" if key == p.fide_id else "national_id"
            other = by_id.get(f"{field}:{key}")
            if other is not None:
                problems.append(
                    _player_problem(
                        error,
                        "duplicate_id",
                        p,
                        field,
                        column_of,
                        id=key,
                        other=other.start_rank,
                        first_line=other.line,
                    )
                )
            else:
                by_id[f"{field}:{key}"] = p
    return kept, problems


def check_points(
    players: Sequence[ReportPlayer],
    games: Sequence[ReportGame],
    *,
    column_of: ColumnOf = _no_column,
    computed: Mapping[int, float] | None = None,
) -> list[Problem]:
    """Declared points that differ from the games are a warning, never an error.
    ``computed``: the points per start rank when the caller has them already."""
    if computed is None:
        computed = _points_of(games)
    problems = ProblemList()
    for p in players:
        if p.declared_points is None or p.dummy:
            continue
        got = computed.get(p.start_rank, 0.0)
        if abs(got - p.declared_points) > 1e-6:
            problems.append(
                _player_problem(
                    warning,
                    "points_mismatch",
                    p,
                    "points",
                    column_of,
                    declared=_fmt(p.declared_points),
                    computed=_fmt(got),
                )
            )
    return problems


def _points_of(games: Sequence[ReportGame]) -> dict[int, float]:
    computed: dict[int, float] = defaultdict(float)
    for w, ws, b, bs in zip(
        map(_WHITE, games),
        map(_WHITE_SCORE, games),
        map(_BLACK, games),
        map(_BLACK_SCORE, games),
        strict=True,
    ):
        computed[w] += ws
        if b is not None and bs is not None:
            computed[b] += bs
    return computed


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _where(p: Problem) -> tuple[int, int]:
    return (p.line if p.line is not None else 0, p.column if p.column is not None else 0)


def sort_problems(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    """By line and column; beyond ``MAX_PROBLEMS``, errors are kept first and the rest
    counted in a final ``too_many_problems`` (an error when an error was left out)."""
    found = ProblemList(problems)
    left_out_errors, left_out_warnings = found.left_out_errors, found.left_out_warnings
    if len(found) + left_out_errors + left_out_warnings <= MAX_PROBLEMS:
        return tuple(sorted(found, key=_where))
    found.sort(key=lambda p: (not p.is_error, *_where(p)))
    beyond = found[MAX_PROBLEMS:]
    severity: Severity = (
        "error" if left_out_errors or any(p.is_error for p in beyond) else "warning"
    )
    return (
        *sorted(found[:MAX_PROBLEMS], key=_where),
        problem(
            severity, "too_many_problems", count=left_out_errors + left_out_warnings + len(beyond)
        ),
    )
