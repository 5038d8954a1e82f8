"""Games from per-round cells: :func:`build_games` pairs the two entries of each game (each
game appears once) and reports what does not match (a missing or non-reciprocal opponent,
results that do not mirror, a colour twice)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import NamedTuple

from ..problems import Problem, ProblemList, error, warning
from .records import ReportGame, ReportPlayer, new_game
from .result_codes import _BYE_KIND, _CANONICAL, _GAME_KIND, BYE_CODES, MIRROR, POINTS

_tuple_new = tuple.__new__


_GAME_ORDER = attrgetter("round", "white_rank")


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


def _cell_error(code: str, e: RoundEntry, field: str = "opponent", **params: object) -> Problem:
    """An error about entry ``e``'s ``field`` cell (its opponent, colour or result)."""
    column = {"opponent": e.opponent_column, "colour": e.colour_column}.get(field, e.result_column)
    return error(
        code, line=e.line, column=column, field=field, round=e.round, rank=e.rank, **params
    )


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
                    _cell_error("two_games_in_round", e, opponent=e.rank, other=cell[key].opponent)
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
                own.append(_cell_error("game_result_without_opponent", e, "result", value=ra))
            continue
        if opp == rank:
            own.append(_cell_error("self_paired", e))
            continue
        if opp not in known:
            own.append(_cell_error("unknown_opponent", e, opponent=opp))
            continue
        if ra in BYE_CODES:
            own.append(
                _cell_error(
                    "bye_result_with_opponent", e, "result", value=ra or "blank", opponent=opp
                )
            )
            continue
        key = rnd << 16 | opp
        first = first_claim.setdefault(key, e)
        if first is not e:
            claims.append(_cell_error("two_games_in_round", e, opponent=opp, other=first.rank))
        other = get_cell(key)
        # The opponent's cell must exist and name this player back (not as a bye).
        if other is None or other[2] != rank or other[4] in BYE_CODES:
            pairing.append(_cell_error("asymmetric_pairing", e, opponent=opp))
            continue
        _rank, _rnd, _opp, cb, rb, _line, _oc, _cc, _rc = other
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
                _cell_error(
                    "colour_mismatch", other, "colour", opponent=rank, colour=cb, opponent_colour=ca
                )
            )
        if MIRROR.get(ra) != rb and not (ra == rb == "-"):
            pairing.append(
                _cell_error(
                    "result_mismatch", other, "result", opponent=rank, result=rb, opponent_result=ra
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
