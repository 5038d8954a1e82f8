"""An intermediate report of a tournament rated in parts against its published parts
(fide-2024 4.1, fide-2000 4.11; docs/periods.md "Tournaments in parts"): the same players at
the same start ranks and every game of a published part unchanged. Pure: no Django import.

A published part is the record its period's list was calculated from: a report changing it is
refused (the arbiter asks the officer), or, sent by the officer, a correction of that period.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from formats.problems import Problem
from formats.reports.records import ParsedReport, ReportGame

from .facts import check

#: A game of a part: (round, white's start rank, black's or None for a bye).
GameKey = tuple[int, int, int | None]

#: Results as the report and the part store them (ReportGame.result; "" a bye), shown.
_SHOWN = {"1": "1-0", "0": "0-1", "=": "½-½", "+": "+/-", "-": "-/+", "": "bye"}


@dataclass(frozen=True)
class PublishedPart:
    """What a published part held: its number, its period (as shown), its players by start
    rank (name, FIDE ID) and its games with their results."""

    number: int
    period: str
    article: str
    players: dict[int, tuple[str, str]]
    games: dict[GameKey, str]


def game_key(game: ReportGame) -> GameKey:
    return (game.round, game.white_rank, game.black_rank)


def part_problems(parts: Sequence[PublishedPart], report: ParsedReport) -> list[Problem]:
    """An error per player or game of a published part the report changes or leaves out,
    naming the line, the player, the round and the part's period."""
    players = {p.start_rank: p for p in report.players if not p.dummy}
    games = {game_key(g): g for g in report.games}
    out: list[Problem] = []
    for part in parts:
        common = {"part": part.number, "period": part.period}
        for rank, (name, fide_id) in sorted(part.players.items()):
            now = players.get(rank)
            if now is None or (now.name, now.fide_id) != (name, fide_id):
                p = check(
                    "error",
                    "part_player_changed",
                    part.article,
                    rank=rank,
                    before=_who(name, fide_id),
                    now=_who(now.name, now.fide_id) if now is not None else "—",
                    **common,
                )
                out.append(_at(p, now.line if now is not None else None))
        for key, result in sorted(part.games.items(), key=lambda i: _order(i[0])):
            rnd, white, black = key
            names = {
                "round": rnd or "?",
                "white": _name(part, white),
                "black": _name(part, black) if black is not None else "bye",
                "before": _SHOWN.get(result, result),
            }
            found = games.get(key)
            if found is None:
                out.append(check("error", "part_game_missing", part.article, **names, **common))
            elif found.result != result:
                p = check(
                    "error",
                    "part_game_changed",
                    part.article,
                    now=_SHOWN.get(found.result, found.result),
                    **names,
                    **common,
                )
                out.append(_at(p, found.line))
    return out


def _order(key: GameKey) -> tuple[int, int, int]:
    rnd, white, black = key
    return (rnd, white, black if black is not None else 0)


def _who(name: str, fide_id: str) -> str:
    return f"{name} ({fide_id})" if fide_id else name


def _name(part: PublishedPart, rank: int) -> str:
    name = part.players.get(rank, ("", ""))[0]
    return f"{rank}. {name}" if name else str(rank)


def _at(problem: Problem, line: int | None) -> Problem:
    return Problem(
        severity=problem.severity,
        code=problem.code,
        template=problem.template,
        params=problem.params,
        line=line,
        field="",
    )
