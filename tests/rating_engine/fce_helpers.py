"""The fce tests' helpers (test_fce.py, test_fce_decided.py): a player, a tournament and a
period of March 2026 rated under fce."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from engine_helpers import rate_in

from rating_engine.types import Game, PeriodResult, PlayerInput, PlayerResult, TournamentInput

START, END = date(2026, 3, 1), date(2026, 3, 31)
ADULT = date(1980, 1, 1)


def player(pid: str, rating: int | None, games: int = 50, **kw: object) -> PlayerInput:
    kw.setdefault("birth_date", ADULT)
    return PlayerInput(id=pid, rating=rating, games=games, **kw)  # type: ignore[arg-type]


def tour(
    tid: str, games: Sequence[Game], end: date = date(2026, 3, 20), rate: str = "90+30"
) -> TournamentInput:
    return TournamentInput(
        id=tid, system="swiss", end_date=end, rate_of_play=rate, games=tuple(games)
    )


def rate(
    players: Sequence[PlayerInput], tournaments: Sequence[TournamentInput], **parameters: object
) -> PeriodResult:
    return rate_in("fce", START, END, [*players], [*tournaments], parameters=parameters)


def articles(p: PlayerResult) -> set[str]:
    return {d.article for d in p.notes}
