"""fide-2024: first ratings (8.2, 7.1.4)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from typing import TypedDict

from ... import types
from ...common import pool_prior_results, window_start
from ...rounding import p_hundredths, round_half_up
from ...tables import dp_for_hundredths
from ...types import Decision, PlayerInput, PlayerResult
from .maths import TABLE, _
from .parameters import Fide2024Parameters
from .rated import RatedResults
from .selection import _Side


class _InitialFields(TypedDict):
    """The fields of an unrated player's result that do not depend on his first rating."""

    id: str
    rating_before: None
    change: int
    k: None
    k_article: str
    games: int
    score: float
    expected: float


class FirstRatings(RatedResults):
    """An unrated player's first rating (8.2, 7.1.4)."""

    def _initial(
        self,
        player: PlayerInput,
        sides: Sequence[_Side],
        period: types.PeriodInput,
        params: Fide2024Parameters,
    ) -> PlayerResult:
        """First rating of an unrated player (8.2, 7.1.4)."""
        art = self.id
        notes: list[Decision] = []
        floor = params.floor
        # 7.1.4: results pooled over consecutive periods spanning at most 26 months.
        # DECISION: the window is the 26 months ending on the last day of this period;
        # results of tournaments that ended earlier are dropped (undated results are kept).
        since = window_start(period.end, params.pool_months)
        pooled = pool_prior_results(player.prior_results, since)
        if pooled.too_old:
            notes.append(
                Decision(
                    "pool_too_old",
                    f"{art} 7.1.4",
                    _("%(count)s earlier results dropped: played before %(since)s"),
                    {"count": len(pooled.too_old), "since": since.isoformat()},
                )
            )
        current = [s for s in sides if s.counts]
        # 8.2.1: an unrated player scoring zero in his first tournament: results discarded.
        # DECISION: "first tournament" applies when the player has no earlier games or pooled
        # results (the pool the caller passes was already cleaned by earlier periods); it is
        # the tournament of this period that ended first, and "zero" is over all his played
        # games in it (against rated and unrated opponents).
        if not player.prior_results and player.games == 0 and sides:
            first = min(
                (s.tournament for s in sides),
                key=lambda t: (t.end_date is None, t.end_date or date.max, t.id),
            )
            first_score = sum(s.score for s in sides if s.tournament is first)
            if first_score == 0:
                dropped = [s for s in current if s.tournament is first]
                current = [s for s in current if s.tournament is not first]
                notes.append(
                    Decision(
                        "zero_first_tournament",
                        f"{art} 8.2.1",
                        _(
                            "zero points in the first tournament %(tournament)s: "
                            "%(games)s games discarded"
                        ),
                        {"tournament": first.id, "games": len(dropped)},
                    )
                )
        opponents = [r.opponent_rating for r in pooled.kept] + [
            s.opponent.rating for s in current if s.opponent.rating is not None
        ]
        score = sum(r.score for r in pooled.kept) + sum(s.score for s in current)
        n = len(opponents)
        games_now = len(current)
        score_now = sum(s.score for s in current)
        needed = params.initial_min_games
        fields: _InitialFields = {
            "id": player.id, "rating_before": None, "change": 0, "k": None, "k_article": "",
            "games": games_now, "score": score_now, "expected": 0.0,
        }  # fmt: skip
        if n < needed:
            notes.append(
                Decision(
                    "too_few_games",
                    f"{art} 7.1.4",
                    _("%(games)s games against rated opponents so far, %(needed)s needed"),
                    {"games": n, "needed": needed},
                )
            )
            return PlayerResult(rating_after=None, status="unrated", notes=tuple(notes), **fields)
        # 8.2.2: Ra = average of the rated opponents plus two fictitious 1800 opponents,
        # both games counted as draws; 8.2.3: Ru = Ra + dp (p over n + 2 games).
        ra = Fraction(sum(opponents) + 2 * 1800, n + 2)
        w = Fraction(score).limit_denominator(2) + 1
        ph = p_hundredths(w, n + 2)
        dp = dp_for_hundredths(ph, TABLE)
        assert dp is not None  # fide-2024 table A is defined everywhere (8.1)
        performance = ra + dp
        ru = round_half_up(performance)  # 8.2.3: rounded to the nearest integer
        params_note = {
            "games": n, "ra": f"{float(ra):.2f}", "score": float(w), "p": f"{ph / 100:.2f}",
            "dp": dp, "rating": ru,
        }  # fmt: skip
        notes.append(
            Decision(
                "first_rating",
                f"{art} 8.2.2",
                _(
                    "%(games)s games + 2 fictitious draws against 1800: Ra %(ra)s, "
                    "W %(score)s, p %(p)s, dp %(dp)s, Ru %(rating)s"
                ),
                params_note,
            )
        )
        initial_max = params.initial_max
        if ru > initial_max:
            notes.append(
                Decision(
                    "initial_max",
                    f"{art} 8.2.3",
                    _("first rating %(rating)s capped at %(max)s"),
                    {"rating": ru, "max": initial_max},
                )
            )
            ru = initial_max
        if ru < floor:
            # 7.1.4: the rating must be at least 1400 to be published.
            notes.append(
                Decision(
                    "initial_below_floor",
                    f"{art} 7.1.4",
                    _("first rating %(rating)s below %(floor)s: not published"),
                    {"rating": ru, "floor": floor},
                )
            )
            return PlayerResult(
                rating_after=None, status="unrated", notes=tuple(notes),
                performance=float(performance), **fields,
            )  # fmt: skip
        return PlayerResult(
            rating_after=ru, status="new", notes=tuple(notes),
            performance=float(performance), **fields,
        )  # fmt: skip

    # -- bulk ------------------------------------------------------------------------------
