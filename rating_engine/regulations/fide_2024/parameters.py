"""The parameters of a fide-2024 rating system, each citing its article."""

from __future__ import annotations

from dataclasses import dataclass

from .. import base

_FLOOR = 1400  # 7.1.4, 7.2.1: the lowest rating published (parameter "floor")


@dataclass(frozen=True, slots=True)
class Fide2024Parameters:
    """A fide-2024 rating system's parameters (``RatingSystem.parameters``)."""

    #: 7.1.2, 7.2.1, 7.1.4: the lowest rating published (a first rating below it is not
    #: published; a rating falling below it leaves the list).
    floor: int = base.parameter(_FLOOR, non_negative=True)
    #: 8.2.3: a first rating is at most this.
    initial_max: int = base.parameter(2200, non_negative=True)
    #: 7.1.4: games against rated opponents a first rating needs.
    initial_min_games: int = base.parameter(5, non_negative=True)
    #: 7.1.4: a first rating pools results over at most this many months.
    pool_months: int = base.parameter(26, non_negative=True)
    #: 7.2.2 a: a player without a rated game in this many months ("one year") is inactive.
    inactivity_months: int = base.parameter(12, non_negative=True)
