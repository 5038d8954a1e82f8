"""The FCE proposal's annex B, reproduced through the engine (``fce`` regulation).

    .venv/bin/python bench/annex_b.py

A player rated 2600 performs at 2500 for ever: every month he plays a 9-game tournament
against nine players rated 2500 and scores 4.5 (nine draws). Each tournament is one monthly
``fce`` period rated by ``rating_engine.rate_period`` with ``parameters.k_override`` set to
K = 40, 30, 20, 10, 5 (Taula 1 with the .99 cap, the period change rounded to the unit,
17.2). For each K it prints how many tournaments the rating needs to come within 50, 25, 10,
5 and 1 points of 2500, and the rating it settles on, beside the proposal's figures.

The engine uses the printed tables: once |D| <= 3 the expected score is exactly .50 and the
rating stops moving, and a change under half a point rounds to nothing. For comparison, the
``logistic`` rows run the same schedule with the continuous expectation
1 / (1 + 10^(-D/400)) and no rounding (a model, not the regulation).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rating_engine import rate_period
from rating_engine.common import add_months
from rating_engine.types import Game, PeriodInput, PlayerInput, TournamentInput

THRESHOLDS = (50, 25, 10, 5, 1)
KS = (40, 30, 20, 10, 5)
START, PERFORMANCE, GAMES = 2600, 2500, 9
MAX_TOURNAMENTS = 60

#: The proposal's table (annex B): tournaments to within +50, +25, +10, +5, +1; final rating.
PROPOSAL: dict[int, tuple[tuple[int | None, ...], int]] = {
    40: ((1, 2, 4, 5, 6), 2500),
    30: ((2, 3, 5, 7, 9), 2501),
    20: ((3, 5, 7, 9, 14), 2501),
    10: ((6, 10, 15, 22, None), 2503),
    5: ((11, 20, 34, None, None), 2507),
}


@dataclass(frozen=True)
class Row:
    k: int
    reached: tuple[int | None, ...]  # tournaments needed per threshold (None: never)
    final: int | float
    ratings: tuple[int | float, ...]  # rating after each tournament


def _reached(ratings: tuple[int | float, ...]) -> tuple[int | None, ...]:
    out: list[int | None] = []
    for limit in THRESHOLDS:
        hit = next((i + 1 for i, r in enumerate(ratings) if abs(r - PERFORMANCE) <= limit), None)
        out.append(hit)
    return tuple(out)


def engine_row(k: int, tournaments: int = MAX_TOURNAMENTS) -> Row:
    """Rate ``tournaments`` monthly fce periods through the engine (stops at a fixed point)."""
    rating = START
    ratings: list[int] = []
    for t in range(tournaments):
        start = add_months(date(2026, 1, 1), t)
        end = add_months(start, 1).replace(day=1).toordinal() - 1
        players = (PlayerInput("P", rating, games=1000, birth_date=date(1980, 1, 1)),) + tuple(
            PlayerInput(f"O{i}", PERFORMANCE, games=1000, birth_date=date(1980, 1, 1))
            for i in range(GAMES)
        )
        games = tuple(Game("P", f"O{i}", "1/2-1/2", round=i + 1) for i in range(GAMES))
        tournament = TournamentInput(
            id=f"T{t + 1}",
            system="round_robin",
            end_date=start.replace(day=20),
            rate_of_play="90+30",
            games=games,
        )
        period = PeriodInput(
            "fce", start, date.fromordinal(end), {"k_override": k}, players, (tournament,)
        )
        result = rate_period(period)
        after = next(p for p in result.players if p.id == "P").rating_after
        assert after is not None
        ratings.append(after)
        if after == rating:  # the same input again: the rating no longer moves
            break
        rating = after
    history = tuple(ratings)
    return Row(k, _reached(history), history[-1], history)


def logistic_row(k: int, tournaments: int = MAX_TOURNAMENTS) -> Row:
    """The same schedule with a continuous expectation and no rounding (for comparison)."""
    rating = float(START)
    ratings: list[float] = []
    for _ in range(tournaments):
        expected = 1 / (1 + 10 ** (-(rating - PERFORMANCE) / 400))
        rating += k * GAMES * (0.5 - expected)
        ratings.append(rating)
    history = tuple(ratings)
    return Row(k, _reached(history), round(history[-1], 1), history)


def _cells(values: tuple[int | None, ...]) -> str:
    return " | ".join("-" if v is None else str(v) for v in values)


def table() -> str:
    lines = [
        "| K | source | +50 | +25 | +10 | +5 | +1 | final |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in KS:
        reached, final = PROPOSAL[k]
        lines.append(f"| {k} | proposal | {_cells(reached)} | {final} |")
        row = engine_row(k)
        lines.append(f"| {k} | engine (fce) | {_cells(row.reached)} | {row.final} |")
        model = logistic_row(k)
        lines.append(f"| {k} | logistic, unrounded | {_cells(model.reached)} | {model.final} |")
    return "\n".join(lines)


def main() -> int:
    print(table())
    for k in KS:
        row = engine_row(k)
        print(f"K{k} engine ratings: {', '.join(str(r) for r in row.ratings)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
