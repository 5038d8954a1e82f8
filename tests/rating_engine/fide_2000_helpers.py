"""The fide-2000 tests' period and helpers (test_fide_2000.py, test_fide_2000_decided.py)."""

from __future__ import annotations

from datetime import date

from engine_helpers import ending, rate_in

from rating_engine.types import Game, PeriodResult, PlayerInput

RULESET = "fide-2000"
START, END = date(2000, 10, 1), date(2000, 12, 31)  # a quarterly list (9.1, 9.11)
T_END = date(2000, 11, 15)


def rate(players: list[PlayerInput], tournaments: list, **kw: object) -> PeriodResult:
    return rate_in(RULESET, START, END, players, tournaments, **kw)


def swiss(tid: str, games: list[Game], **kw: object):
    return ending(T_END, tid, games, **kw)
