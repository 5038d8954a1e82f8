"""Builders for engine tests (plain Python, no Django)."""

from __future__ import annotations

from datetime import date

from ratings.engine.types import Game, PeriodInput, PlayerInput, PriorResult, TournamentInput

START = date(2026, 10, 1)
END = date(2026, 10, 31)


def player(pid: str, rating: int | None, **kw: object) -> PlayerInput:
    kw.setdefault("games", 100)
    return PlayerInput(id=pid, rating=rating, **kw)  # type: ignore[arg-type]


def game(white: str, black: str, result: str, **kw: object) -> Game:
    return Game(white=white, black=black, result=result, **kw)  # type: ignore[arg-type]


def tournament(
    tid: str, games: list[Game], *, end: date = date(2026, 10, 20), **kw: object
) -> TournamentInput:
    kw.setdefault("system", "swiss")
    return TournamentInput(id=tid, end_date=end, games=tuple(games), **kw)  # type: ignore[arg-type]


def period(
    players: list[PlayerInput],
    tournaments: list[TournamentInput],
    *,
    start: date = START,
    end: date = END,
    ruleset: str = "fide-2024",
    parameters: dict[str, object] | None = None,
) -> PeriodInput:
    return PeriodInput(
        ruleset=ruleset,
        start=start,
        end=end,
        parameters=parameters or {},
        players=tuple(players),
        tournaments=tuple(tournaments),
    )


def prior(rating: int, score: float, end: date | None = None, **kw: object) -> PriorResult:
    return PriorResult(opponent_rating=rating, score=score, end_date=end, **kw)  # type: ignore[arg-type]
