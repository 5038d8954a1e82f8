"""The feda-1996 tests' period and helpers (test_feda_1996.py, test_feda_1996_decided.py)."""

from __future__ import annotations

from datetime import date

from engine_helpers import ending, rate_in

from rating_engine.types import Game, PeriodResult, PlayerInput

RULESET = "feda-1996"
START, END = date(2000, 7, 1), date(2000, 12, 31)  # the July list's period (8.11)
T_END = date(2000, 10, 15)


def rate(players: list[PlayerInput], tournaments: list, **kw: object) -> PeriodResult:
    return rate_in(RULESET, START, END, players, tournaments, **kw)


def event(tid: str, games: list[Game], **kw: object):
    return ending(T_END, tid, games, **kw)
