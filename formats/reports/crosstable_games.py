"""Games from a crosstable: no rounds and no colours; a[i][j] must mirror a[j][i] (the CSV
crosstable and the crosstable form)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import NamedTuple

from ..problems import Problem, ProblemList, error
from .pairing import _tuple_new
from .records import GameKind, ReportGame, new_game
from .result_codes import _GAME_KIND, MIRROR, POINTS, game_kind


class CrossCell(NamedTuple):
    """One off-diagonal crosstable cell: row player ``rank`` against ``opponent``."""

    rank: int
    opponent: int
    results: tuple[str, ...]  # normalised codes, one per game (several in a match)
    line: int | None = None
    column: int | None = None


def build_crosstable_games(
    cells: Iterable[CrossCell],
) -> tuple[list[ReportGame], list[Problem]]:
    """A crosstable has no rounds and no colours: a[i][j] must mirror a[j][i]."""
    by_pair = {(c.rank, c.opponent): c for c in cells}
    games: list[ReportGame] = []
    problems = ProblemList()
    for (i, j), a in sorted(by_pair.items()):
        b = by_pair.get((j, i))
        if b is None:
            problems.append(_cell_error("asymmetric_pairing", a.line, a.column, i, j))
            continue
        if i > j:
            continue
        if not _mirrors(a.results, b.results):
            problems.append(
                _cell_error(
                    "result_mismatch",
                    b.line,
                    b.column,
                    j,
                    i,
                    result=" ".join(b.results),
                    opponent_result=" ".join(a.results),
                )
            )
            continue
        for x, y in zip(a.results, b.results, strict=False):
            games.append(new_game(0, i, j, x, POINTS[x], POINTS[y], game_kind(x), a.line, False))
    return games, problems


def _cell_error(
    code: str, line: int | None, column: int | None, rank: int, opponent: int, **params: object
) -> Problem:
    """An error about a crosstable cell: rank's result against opponent (a crosstable has no
    rounds: round "-")."""
    return error(
        code,
        line=line,
        column=column,
        field="result",
        round="-",
        rank=rank,
        opponent=opponent,
        **params,
    )


def _mirrors(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether b's codes mirror a's, game by game ("-" against "-" for an unplayed one)."""
    return len(a) == len(b) and all(
        MIRROR.get(x) == y or x == y == "-" for x, y in zip(a, b, strict=True)
    )


# A crosstable cell: one code, "" (no game), or the codes of several games (a match).
Cell = str | tuple[str, ...]


_MIRROR_CELL: dict[Cell, str] = {"": ""}
_MIRROR_CELL.update(MIRROR)


# A single code → (its points, the opponent's points, the kind of game).
_SCORES: dict[Cell, tuple[float, float, GameKind]] = {
    code: (POINTS[code], POINTS[mirror], _GAME_KIND[code]) for code, mirror in MIRROR.items()
}


def build_matrix_games(
    matrix: Sequence[Sequence[Cell]],
    lines: Sequence[int | None],
    where: Callable[[int, int], int | None],
) -> tuple[tuple[ReportGame, ...], ProblemList, dict[int, float] | None]:
    """:func:`build_crosstable_games` for a square crosstable held as a matrix of codes
    (0-based; ``""`` no game, a tuple for several games in one cell), with the same
    problems. A row whose every cell mirrors the cell opposite (``a[j][i]`` is the mirror of
    ``a[i][j]``) is checked by one comparison with its column; only the other rows are
    checked pair by pair. ``lines[i]``: the line of row ``i``; ``where(i, j)``: the column
    of cell ``(i, j)``. Also returns the points per start rank when every row mirrored.

    The games are gathered row by row in tuples (the collector stops walking a tuple of
    numbers and strings, but walks a growing list of a million games at every pass)."""
    columns = list(zip(*matrix))  # columns[i][j] = matrix[j][i]
    chunks: list[tuple[ReportGame, ...]] = []
    problems = ProblemList()
    mirror = _MIRROR_CELL.get
    all_mirrored = True
    for i, row in enumerate(matrix):
        rank, line = i + 1, lines[i]
        if tuple(map(mirror, row)) == columns[i]:
            # a is a single code here (a tuple has no mirror, so its row is not clean)
            chunks.append(
                tuple(
                    [
                        _tuple_new(ReportGame, (0, rank, j, a, *_SCORES[a], line, False))
                        for j, a in enumerate(row[i + 1 :], start=rank + 1)
                        if a
                    ]
                )
            )
            continue
        all_mirrored = False
        games: list[ReportGame] = []
        for j, a in enumerate(row):
            if not a or j == i:
                continue
            b = matrix[j][i]
            if not b:
                problems.append(_cell_error("asymmetric_pairing", line, where(i, j), rank, j + 1))
                continue
            if i > j:
                continue
            ta = a if isinstance(a, tuple) else (a,)
            tb = b if isinstance(b, tuple) else (b,)
            if not _mirrors(ta, tb):
                problems.append(
                    _cell_error(
                        "result_mismatch",
                        lines[j],
                        where(j, i),
                        j + 1,
                        rank,
                        result=" ".join(tb),
                        opponent_result=" ".join(ta),
                    )
                )
                continue
            for x, y in zip(ta, tb, strict=True):
                games.append(
                    new_game(0, rank, j + 1, x, POINTS[x], POINTS[y], game_kind(x), line, False)
                )
        chunks.append(tuple(games))
    all_games = tuple(chain.from_iterable(chunks))
    if not all_mirrored:
        return all_games, problems, None
    get = POINTS.get
    return (
        all_games,
        problems,
        {
            i + 1: sum(map(get, row))  # type: ignore[arg-type]
            for i, row in enumerate(matrix)
        },
    )
