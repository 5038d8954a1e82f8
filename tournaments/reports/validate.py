"""Consistency checks shared by every parser, so a problem reads the same in every format.

Parsers turn each player's per-round cell into a :class:`RoundEntry`; :func:`build_games`
pairs the two entries of each game (each game appears once) and reports what does not match.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from operator import attrgetter
from typing import NamedTuple

from .problems import MAX_PROBLEMS, Problem, ProblemList, Severity, error, problem, warning
from .records import GameKind, ReportGame, ReportPlayer, new_game

# Default points of each result code (FORMATS.md, "Result codes"). Blank counts as Z.
POINTS: dict[str, float] = {
    "1": 1.0,
    "=": 0.5,
    "0": 0.0,
    "+": 1.0,
    "-": 0.0,
    "W": 1.0,
    "D": 0.5,
    "L": 0.0,
    "H": 0.5,
    "F": 1.0,
    "U": 1.0,
    "Z": 0.0,
    "": 0.0,
}
GAME_CODES = frozenset("1=0+-WDL")
BYE_CODES = frozenset({"H", "F", "U", "Z", ""})
MIRROR: dict[str, str] = {
    "1": "0",
    "0": "1",
    "=": "=",
    "+": "-",
    "-": "+",
    "W": "L",
    "L": "W",
    "D": "D",
}
_BYE_KIND: dict[str, GameKind] = {
    "H": "bye_half",
    "F": "bye_full",
    "U": "bye_pab",
    "Z": "bye_zero",
    "": "bye_zero",
    "+": "bye_full",
    "-": "absent",
}
# Canonical code of each bye kind (`0000 - +` is stored as F, a blank result as Z).
_CANONICAL: dict[str, str] = {
    "bye_half": "H",
    "bye_full": "F",
    "bye_pab": "U",
    "bye_zero": "Z",
    "absent": "-",
}
DUMMY_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "pab", "exempt", "descansa", "libre", "bye player"}
)

_tuple_new = tuple.__new__
_GAME_ORDER = attrgetter("round", "white_rank")
_WHITE, _WHITE_SCORE = attrgetter("white_rank"), attrgetter("white_score")
_BLACK, _BLACK_SCORE = attrgetter("black_rank"), attrgetter("black_score")

ColumnOf = Callable[[ReportPlayer, str], "int | None"]


def _no_column(player: ReportPlayer, field: str) -> int | None:
    return None


class RoundEntry(NamedTuple):
    """One player's cell for one round, as written (a named tuple: a 5 MiB TRF has
    half a million of them)."""

    rank: int
    round: int
    opponent: int | None  # None: no opponent (bye / absence)
    colour: str  # "w", "b" or "-" (unknown / none)
    result: str  # upper-case code, "" when blank
    line: int | None = None
    opponent_column: int | None = None
    colour_column: int | None = None
    result_column: int | None = None


_GAME_KIND: dict[str, GameKind] = {
    "1": "played",
    "=": "played",
    "0": "played",
    "+": "forfeit",
    "-": "forfeit",
    "W": "short",
    "D": "short",
    "L": "short",
}


def game_kind(code: str) -> GameKind:
    if code in "1=0":
        return "played"
    if code in "+-":
        return "forfeit"
    return "short"


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
                error(
                    "duplicate_start_rank",
                    line=p.line,
                    column=column_of(p, "start_rank"),
                    field="start_rank",
                    rank=p.start_rank,
                    first_line=first.line,
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
                    error(
                        "duplicate_id",
                        line=p.line,
                        column=column_of(p, field),
                        field=field,
                        id=key,
                        rank=p.start_rank,
                        other=other.start_rank,
                        first_line=other.line,
                    )
                )
            else:
                by_id[f"{field}:{key}"] = p
    return kept, problems


def build_games(
    players: Sequence[ReportPlayer], entries: Iterable[RoundEntry]
) -> tuple[list[ReportGame], list[Problem]]:
    """Pair the entries into games (each game once) and report every inconsistency.

    One pass over the entries after indexing them by (round, rank); the problems of each
    kind are kept apart and joined in a fixed order (duplicates, then each entry's own,
    then second claims, then pairings, then PAB counts), so the order does not depend on
    the pass they were found in. Cost: linear in the entries.
    """
    games: list[ReportGame] = []
    known = {p.start_rank for p in players}
    dummies = {p.start_rank for p in players if p.dummy}
    entries = list(entries)
    # keyed by round << 16 | rank (ranks are below 2**15): cheaper than (round, rank) tuples
    cell: dict[int, RoundEntry] = {e.round << 16 | e.rank: e for e in entries}
    duplicates = ProblemList()
    ordered: list[RoundEntry] = entries
    if len(cell) != len(entries):  # a (round, rank) twice: keep the first
        cell = {}
        ordered = []
        for e in entries:
            key = e.round << 16 | e.rank
            if key in cell:
                duplicates.append(
                    error(
                        "two_games_in_round",
                        line=e.line,
                        column=e.opponent_column,
                        field="opponent",
                        round=e.round,
                        rank=e.rank,
                        opponent=e.rank,
                        other=cell[key].opponent,
                    )
                )
                continue
            cell[key] = e
            ordered.append(e)
    own = ProblemList()  # problems of an entry by itself
    claims = ProblemList()  # a second player claiming the same opponent in a round
    pairing = ProblemList()  # the two entries of a game disagree
    first_claim: dict[int, RoundEntry] = {}
    pabs: dict[int, list[RoundEntry]] = defaultdict(list)
    dummy_pabs: dict[int, list[RoundEntry]] = defaultdict(list)
    get_cell = cell.get

    for e in ordered:
        rank, rnd, opp, ca, ra, line, opp_col, _colour_col, result_col = e
        if opp is None:  # a bye or an absence
            if rank in dummies:
                continue
            if ra in BYE_CODES or ra == "+" or ra == "-":
                kind = _BYE_KIND[ra]
                if ra == "U":
                    pabs[rnd].append(e)
                games.append(
                    new_game(rnd, rank, None, _CANONICAL[kind], POINTS[ra], None, kind, line, False)
                )
            else:
                own.append(
                    error(
                        "game_result_without_opponent",
                        line=line,
                        column=result_col,
                        field="result",
                        round=rnd,
                        rank=rank,
                        value=ra,
                    )
                )
            continue
        if opp == rank:
            own.append(
                error(
                    "self_paired",
                    line=line,
                    column=opp_col,
                    field="opponent",
                    round=rnd,
                    rank=rank,
                )
            )
            continue
        if opp not in known:
            own.append(
                error(
                    "unknown_opponent",
                    line=line,
                    column=opp_col,
                    field="opponent",
                    round=rnd,
                    rank=rank,
                    opponent=opp,
                )
            )
            continue
        if ra in BYE_CODES:
            own.append(
                error(
                    "bye_result_with_opponent",
                    line=line,
                    column=result_col,
                    field="result",
                    round=rnd,
                    rank=rank,
                    value=ra or "blank",
                    opponent=opp,
                )
            )
            continue
        key = rnd << 16 | opp
        first = first_claim.setdefault(key, e)
        if first is not e:
            claims.append(
                error(
                    "two_games_in_round",
                    line=line,
                    column=opp_col,
                    field="opponent",
                    round=rnd,
                    rank=rank,
                    opponent=opp,
                    other=first.rank,
                )
            )
        other = get_cell(key)
        # The opponent's cell must exist and name this player back (not as a bye).
        if other is None or other[2] != rank or other[4] in BYE_CODES:
            pairing.append(
                error(
                    "asymmetric_pairing",
                    line=line,
                    column=opp_col,
                    field="opponent",
                    round=rnd,
                    rank=rank,
                    opponent=opp,
                )
            )
            continue
        _rank, _rnd, _opp, cb, rb, other_line, _oc, other_colour_col, other_result_col = other
        if rank > opp:
            continue  # handled from the other side: each game once
        a, b = e, other
        if dummies and (rank in dummies or opp in dummies):
            real = b if rank in dummies else a
            if real.rank in dummies:
                continue
            code = {"1": "U", "+": "U", "W": "U", "=": "H", "D": "H"}.get(real.result, "Z")
            if code == "U":
                dummy_pabs[real.round].append(real)
            games.append(
                new_game(
                    real.round,
                    real.rank,
                    None,
                    code,
                    POINTS[code],
                    None,
                    _BYE_KIND[code],
                    real.line,
                    False,
                )
            )
            continue
        colours_ok = (
            (ca == "w" and cb == "b") or (ca == "b" and cb == "w") or (ca == "-" and cb == "-")
        )
        if not colours_ok:
            pairing.append(
                error(
                    "colour_mismatch",
                    line=other_line,
                    column=other_colour_col,
                    field="colour",
                    round=rnd,
                    rank=opp,
                    opponent=rank,
                    colour=cb,
                    opponent_colour=ca,
                )
            )
        if MIRROR.get(ra) != rb and not (ra == rb == "-"):
            pairing.append(
                error(
                    "result_mismatch",
                    line=other_line,
                    column=other_result_col,
                    field="result",
                    round=rnd,
                    rank=opp,
                    opponent=rank,
                    result=rb,
                    opponent_result=ra,
                )
            )
            continue
        if ca == "b" and colours_ok:
            games.append(
                new_game(rnd, opp, rank, rb, POINTS[rb], POINTS[ra], _GAME_KIND[ra], line, True)
            )
        else:
            games.append(
                new_game(
                    rnd,
                    rank,
                    opp,
                    ra,
                    POINTS[ra],
                    POINTS[rb],
                    _GAME_KIND[ra],
                    line,
                    colours_ok and ca != "-",
                )
            )

    pab_problems = ProblemList()
    for rnd in sorted(set(pabs) | set(dummy_pabs)):
        in_round = pabs.get(rnd, []) + dummy_pabs.get(rnd, [])
        if len(in_round) > 1:
            last = in_round[-1]
            pab_problems.append(
                warning(
                    "multiple_pab",
                    line=last.line,
                    column=last.result_column,
                    field="result",
                    round=rnd,
                    count=len(in_round),
                )
            )

    games.sort(key=_GAME_ORDER)
    problems = ProblemList(duplicates)
    for found in (own, claims, pairing, pab_problems):
        problems += found
    return games, problems


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
                warning(
                    "points_mismatch",
                    line=p.line,
                    column=column_of(p, "points"),
                    field="points",
                    rank=p.start_rank,
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
            problems.append(
                error(
                    "asymmetric_pairing",
                    line=a.line,
                    column=a.column,
                    field="result",
                    round="-",
                    rank=i,
                    opponent=j,
                )
            )
            continue
        if i > j:
            continue
        if len(a.results) != len(b.results) or not all(
            MIRROR.get(x) == y or x == y == "-" for x, y in zip(a.results, b.results, strict=False)
        ):
            problems.append(
                error(
                    "result_mismatch",
                    line=b.line,
                    column=b.column,
                    field="result",
                    round="-",
                    rank=j,
                    opponent=i,
                    result=" ".join(b.results),
                    opponent_result=" ".join(a.results),
                )
            )
            continue
        for x, y in zip(a.results, b.results, strict=False):
            games.append(new_game(0, i, j, x, POINTS[x], POINTS[y], game_kind(x), a.line, False))
    return games, problems


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
                problems.append(
                    error(
                        "asymmetric_pairing",
                        line=line,
                        column=where(i, j),
                        field="result",
                        round="-",
                        rank=rank,
                        opponent=j + 1,
                    )
                )
                continue
            if i > j:
                continue
            ta = a if isinstance(a, tuple) else (a,)
            tb = b if isinstance(b, tuple) else (b,)
            if len(ta) != len(tb) or not all(
                MIRROR.get(x) == y or x == y == "-" for x, y in zip(ta, tb, strict=True)
            ):
                problems.append(
                    error(
                        "result_mismatch",
                        line=lines[j],
                        column=where(j, i),
                        field="result",
                        round="-",
                        rank=j + 1,
                        opponent=rank,
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
