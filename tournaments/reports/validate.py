"""Consistency checks shared by every parser, so a problem reads the same in every format.

Parsers turn each player's per-round cell into a :class:`RoundEntry`; :func:`build_games`
pairs the two entries of each game (each game appears once) and reports what does not match.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .problems import Problem, error, warning
from .records import GameKind, ReportGame, ReportPlayer

# Default points of each result code (FORMATS.md, "Result codes"). Blank counts as Z.
POINTS: dict[str, float] = {
    "1": 1.0, "=": 0.5, "0": 0.0,
    "+": 1.0, "-": 0.0,
    "W": 1.0, "D": 0.5, "L": 0.0,
    "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0, "": 0.0,
}
GAME_CODES = frozenset("1=0+-WDL")
BYE_CODES = frozenset({"H", "F", "U", "Z", ""})
MIRROR: dict[str, str] = {
    "1": "0", "0": "1", "=": "=",
    "+": "-", "-": "+",
    "W": "L", "L": "W", "D": "D",
}
_BYE_KIND: dict[str, GameKind] = {
    "H": "bye_half", "F": "bye_full", "U": "bye_pab", "Z": "bye_zero", "": "bye_zero",
    "+": "bye_full", "-": "absent",
}
# Canonical code of each bye kind (`0000 - +` is stored as F, a blank result as Z).
_CANONICAL: dict[str, str] = {
    "bye_half": "H", "bye_full": "F", "bye_pab": "U", "bye_zero": "Z", "absent": "-",
}
DUMMY_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "pab", "exempt", "descansa", "libre", "bye player"}
)

ColumnOf = Callable[[ReportPlayer, str], "int | None"]


def _no_column(player: ReportPlayer, field: str) -> int | None:
    return None


@dataclass(frozen=True)
class RoundEntry:
    """One player's cell for one round, as written."""

    rank: int
    round: int
    opponent: int | None  # None: no opponent (bye / absence)
    colour: str  # "w", "b" or "-" (unknown / none)
    result: str  # upper-case code, "" when blank
    line: int | None = None
    opponent_column: int | None = None
    colour_column: int | None = None
    result_column: int | None = None


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
    problems: list[Problem] = []
    kept: list[ReportPlayer] = []
    by_rank: dict[int, ReportPlayer] = {}
    by_id: dict[str, ReportPlayer] = {}
    for p in players:
        first = by_rank.get(p.start_rank)
        if first is not None:
            problems.append(error(
                "duplicate_start_rank", line=p.line, column=column_of(p, "start_rank"),
                field="start_rank", rank=p.start_rank, first_line=first.line,
            ))
            continue
        by_rank[p.start_rank] = p
        kept.append(p)
        for key in (p.fide_id, p.national_id):
            if not key or not key.strip("0"):
                continue
            field = "fide_id" if key == p.fide_id else "national_id"
            other = by_id.get(f"{field}:{key}")
            if other is not None:
                problems.append(error(
                    "duplicate_id", line=p.line, column=column_of(p, field), field=field,
                    id=key, rank=p.start_rank, other=other.start_rank, first_line=other.line,
                ))
            else:
                by_id[f"{field}:{key}"] = p
    return kept, problems


def build_games(
    players: Sequence[ReportPlayer], entries: Iterable[RoundEntry]
) -> tuple[list[ReportGame], list[Problem]]:
    """Pair the entries into games (each game once) and report every inconsistency."""
    problems: list[Problem] = []
    games: list[ReportGame] = []
    known = {p.start_rank: p for p in players}
    dummies = {p.start_rank for p in players if p.dummy}
    cell: dict[tuple[int, int], RoundEntry] = {}
    claims: dict[tuple[int, int], list[RoundEntry]] = defaultdict(list)
    ordered: list[RoundEntry] = []
    for e in entries:
        key = (e.round, e.rank)
        if key in cell:
            problems.append(error(
                "two_games_in_round", line=e.line, column=e.opponent_column, field="opponent",
                round=e.round, rank=e.rank, opponent=e.rank, other=cell[key].opponent,
            ))
            continue
        cell[key] = e
        ordered.append(e)

    def entry_game(e: RoundEntry) -> None:
        """A cell without an opponent: a bye or an absence."""
        if e.rank in dummies:
            return
        if e.result in BYE_CODES or e.result in ("+", "-"):
            score = POINTS[e.result]
            kind = _BYE_KIND[e.result]
            games.append(ReportGame(
                round=e.round, white_rank=e.rank, black_rank=None, result=_CANONICAL[kind],
                white_score=score, black_score=None, kind=kind, line=e.line,
                colours_known=False,
            ))
        else:
            problems.append(error(
                "game_result_without_opponent", line=e.line, column=e.result_column,
                field="result", round=e.round, rank=e.rank, value=e.result,
            ))

    for e in ordered:
        if e.opponent is None:
            entry_game(e)
            continue
        opp = e.opponent
        if opp == e.rank:
            problems.append(error(
                "self_paired", line=e.line, column=e.opponent_column, field="opponent",
                round=e.round, rank=e.rank,
            ))
            continue
        if opp not in known:
            problems.append(error(
                "unknown_opponent", line=e.line, column=e.opponent_column, field="opponent",
                round=e.round, rank=e.rank, opponent=opp,
            ))
            continue
        if e.result in BYE_CODES:
            problems.append(error(
                "bye_result_with_opponent", line=e.line, column=e.result_column,
                field="result", round=e.round, rank=e.rank, value=e.result or "blank",
                opponent=opp,
            ))
            continue
        claims[(e.round, opp)].append(e)

    for (rnd, opp), claimants in claims.items():
        for later in claimants[1:]:
            problems.append(error(
                "two_games_in_round", line=later.line, column=later.opponent_column,
                field="opponent", round=rnd, rank=later.rank, opponent=opp,
                other=claimants[0].rank,
            ))

    pab_count: dict[int, list[RoundEntry]] = defaultdict(list)
    for e in ordered:
        if e.opponent is None and e.result == "U" and e.rank not in dummies:
            pab_count[e.round].append(e)

    for e in ordered:
        if e.opponent is None or e.opponent == e.rank or e.opponent not in known:
            continue
        if e.result in BYE_CODES:
            continue
        other = cell.get((e.round, e.opponent))
        if other is None or other.opponent != e.rank or other.result in BYE_CODES:
            problems.append(error(
                "asymmetric_pairing", line=e.line, column=e.opponent_column, field="opponent",
                round=e.round, rank=e.rank, opponent=e.opponent,
            ))
            continue
        if e.rank > other.rank:
            continue  # handled from the other side: each game once
        a, b = e, other
        if a.rank in dummies or b.rank in dummies:
            real = b if a.rank in dummies else a
            if real.rank in dummies:
                continue
            code = {"1": "U", "+": "U", "W": "U", "=": "H", "D": "H"}.get(real.result, "Z")
            if code == "U":
                pab_count[real.round].append(real)
            games.append(ReportGame(
                round=real.round, white_rank=real.rank, black_rank=None, result=code,
                white_score=POINTS[code], black_score=None, kind=_BYE_KIND[code],
                line=real.line, colours_known=False,
            ))
            continue
        colours = (a.colour, b.colour)
        colours_ok = colours in (("w", "b"), ("b", "w"), ("-", "-"))
        if not colours_ok:
            problems.append(error(
                "colour_mismatch", line=b.line, column=b.colour_column, field="colour",
                round=b.round, rank=b.rank, opponent=a.rank, colour=b.colour,
                opponent_colour=a.colour,
            ))
        mirrored = MIRROR.get(a.result) == b.result or (a.result == b.result == "-")
        if not mirrored:
            problems.append(error(
                "result_mismatch", line=b.line, column=b.result_column, field="result",
                round=b.round, rank=b.rank, opponent=a.rank, result=b.result,
                opponent_result=a.result,
            ))
            continue
        white, black = (b, a) if a.colour == "b" and colours_ok else (a, b)
        games.append(ReportGame(
            round=a.round, white_rank=white.rank, black_rank=black.rank, result=white.result,
            white_score=POINTS[white.result], black_score=POINTS[black.result],
            kind=game_kind(a.result), line=a.line,
            colours_known=colours_ok and a.colour != "-",
        ))

    for rnd, pabs in sorted(pab_count.items()):
        if len(pabs) > 1:
            last = pabs[-1]
            problems.append(warning(
                "multiple_pab", line=last.line, column=last.result_column, field="result",
                round=rnd, count=len(pabs),
            ))

    games.sort(key=lambda g: (g.round, g.white_rank))
    return games, problems


def check_points(
    players: Sequence[ReportPlayer],
    games: Sequence[ReportGame],
    *,
    column_of: ColumnOf = _no_column,
) -> list[Problem]:
    """Declared points that differ from the games are a warning, never an error."""
    computed: dict[int, float] = {p.start_rank: 0.0 for p in players}
    for g in games:
        computed[g.white_rank] = computed.get(g.white_rank, 0.0) + g.white_score
        if g.black_rank is not None and g.black_score is not None:
            computed[g.black_rank] = computed.get(g.black_rank, 0.0) + g.black_score
    problems: list[Problem] = []
    for p in players:
        if p.declared_points is None or p.dummy:
            continue
        got = computed.get(p.start_rank, 0.0)
        if abs(got - p.declared_points) > 1e-6:
            problems.append(warning(
                "points_mismatch", line=p.line, column=column_of(p, "points"), field="points",
                rank=p.start_rank, declared=_fmt(p.declared_points), computed=_fmt(got),
            ))
    return problems


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def sort_problems(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(
        problems,
        key=lambda p: (p.line if p.line is not None else 0,
                       p.column if p.column is not None else 0),
    ))


@dataclass(frozen=True)
class CrossCell:
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
    problems: list[Problem] = []
    for (i, j), a in sorted(by_pair.items()):
        b = by_pair.get((j, i))
        if b is None:
            problems.append(error(
                "asymmetric_pairing", line=a.line, column=a.column, field="result",
                round="-", rank=i, opponent=j,
            ))
            continue
        if i > j:
            continue
        if len(a.results) != len(b.results) or not all(
            MIRROR.get(x) == y or x == y == "-" for x, y in zip(a.results, b.results, strict=False)
        ):
            problems.append(error(
                "result_mismatch", line=b.line, column=b.column, field="result",
                round="-", rank=j, opponent=i, result=" ".join(b.results),
                opponent_result=" ".join(a.results),
            ))
            continue
        for x, y in zip(a.results, b.results, strict=False):
            games.append(ReportGame(
                round=0, white_rank=i, black_rank=j, result=x, white_score=POINTS[x],
                black_score=POINTS[y], kind=game_kind(x), line=a.line, colours_known=False,
            ))
    return games, problems
