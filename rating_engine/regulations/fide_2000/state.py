"""fide-2000 (and feda-1996): the tournament systems rated and the running state of a period
(tallies, performances, the tournament being rated)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from ...types import Decision, Excluded, Game, GameLine, PlayerInput, TournamentInput

_SWISS_LIKE = ("swiss", "team", "match")
_ROUND_ROBINS = ("round_robin", "double_round_robin")
_SYSTEMS = _SWISS_LIKE + _ROUND_ROBINS


def _q(x: Fraction | float) -> float:
    """A value for a message: two decimals."""
    return round(float(x), 2)


@dataclass(frozen=True, slots=True)
class _Counted:
    """One game counted for one player."""

    opponent: str
    opponent_rating: int | None  # the value that entered the average (capped in a Swiss)
    score: float


@dataclass(slots=True)
class _RatedTally:
    """A rated player's running sums over the period."""

    milli: int = 0  # sum of K(W - We) in thousandths
    games: int = 0
    score: float = 0.0
    expected_milli: int = 0


@dataclass(frozen=True, slots=True)
class _Performance:
    """One tournament's performance Ru of an unrated player (10.2)."""

    tournament: str
    end: date | None
    order: int
    games: int
    score: float
    rc: Fraction
    ru: Fraction
    article: str


@dataclass(slots=True)
class _Unrated:
    performances: list[_Performance] = field(default_factory=list)
    championship: list[_Performance] = field(default_factory=list)  # feda-1996 9.4
    #: Tournaments where feda-1996 9.4 applies to him (even with no performance there).
    qualified: list[str] = field(default_factory=list)
    games: int = 0
    score: float = 0.0


@dataclass(slots=True)
class _State:
    """What the period's tournaments add to, one after the other."""

    players: Mapping[str, PlayerInput]
    rated: dict[str, _RatedTally]
    unrated: dict[str, _Unrated]
    k_of: Mapping[str, tuple[int, str]]
    notes: dict[str, list[Decision]]
    lines: list[GameLine]
    out: list[Excluded]


@dataclass(frozen=True, slots=True)
class _Event:
    """A tournament being rated: its place in the period, each player's value as an opponent
    in it, its games played over the board (5.1) and whether any game was not."""

    t: TournamentInput
    order: int
    opp_value: Mapping[str, int | None]
    played: Sequence[Game]
    unplayed_any: bool
