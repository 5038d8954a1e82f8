"""fce: what a period keeps of each rated player and of an unrated player's pooled games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ... import common
from ...types import Decision

_TABLE = "fce"
_FLOOR = 1000  # 17.3


def _under_18(birth: date | None, on: date) -> bool:
    """Under 18 years of age on ``on`` (16.2.1 "menors de 18 anys")."""
    return birth is not None and on < common.add_months(birth, 18 * 12)


@dataclass(slots=True)
class _Rated:
    """A player rated in this period: his starting rating and how he got it."""

    start: int
    k: int
    k_article: str
    seed: Decision | None  # 10.1 / 11.1 / 11.2 when the starting rating is a first rating
    milli: int = 0  # sum of K x (P - PD) in thousandths
    games: int = 0
    score: float = 0.0
    expected_milli: int = 0


@dataclass(frozen=True, slots=True)
class _PoolGame:
    tournament: str
    end: date | None
    opponent_rating: int
    score: float
