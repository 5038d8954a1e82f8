"""fide-2024: first ratings (8.2, 7.1.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TypedDict

import numpy as np
from numpy.typing import NDArray

from ... import types
from ...bulk_initial import INITIAL_TOO_FEW, InitialInput, InitialOutput, rate_initial_fide_2024
from ...common import excluded as excluded_game
from ...common import (
    pool_prior_results,
    scores,
    unplayed_decision,
    window_start,
)
from ...rounding import p_hundredths, round_half_up
from ...tables import dp_for_hundredths
from ...types import Decision, Excluded, PlayerInput, PlayerResult
from .maths import TABLE, _
from .parameters import Fide2024Parameters
from .rated import RatedResults
from .selection import _hidden, _Side, match_with_unrated, no_rated_player


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


@dataclass(frozen=True, slots=True)
class _Figures:
    """A first rating's figures (8.2.2-8.2.3): Ra, W, p in hundredths, dp, Ru before the cap."""

    ra: Fraction
    w: Fraction
    ph: int
    dp: int
    ru: int


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
        notes: list[Decision] = []
        # 7.1.4: results pooled over consecutive periods spanning at most 26 months.
        # DECISION: the window is the 26 months ending on the last day of this period;
        # results of tournaments that ended earlier are dropped (undated results are kept).
        since = window_start(period.end, params.pool_months)
        pooled = pool_prior_results(player.prior_results, since)
        notes.extend(self._pool_notes(too_old=len(pooled.too_old), since=since))
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
                notes.append(self._zero_first_note(tournament=first.id, dropped=len(dropped)))
        opponents = [r.opponent_rating for r in pooled.kept] + [
            s.opponent.rating for s in current if s.opponent.rating is not None
        ]
        score = sum(r.score for r in pooled.kept) + sum(s.score for s in current)
        n = len(opponents)
        figures = None
        if n >= params.initial_min_games:
            # 8.2.2: Ra = average of the rated opponents plus two fictitious 1800 opponents,
            # both games counted as draws; 8.2.3: Ru = Ra + dp (p over n + 2 games).
            ra = Fraction(sum(opponents) + 2 * 1800, n + 2)
            w = Fraction(score).limit_denominator(2) + 1
            ph = p_hundredths(w, n + 2)
            dp = dp_for_hundredths(ph, TABLE)
            assert dp is not None  # fide-2024 table A is defined everywhere (8.1)
            figures = _Figures(ra=ra, w=w, ph=ph, dp=dp, ru=round_half_up(ra + dp))
        return self._initial_result(
            player.id,
            notes=notes,
            n=n,
            games_now=len(current),
            score_now=sum(s.score for s in current),
            figures=figures,
            params=params,
        )

    def _initial_result(
        self,
        player_id: str,
        *,
        notes: list[Decision],
        n: int,
        games_now: int,
        score_now: float,
        figures: _Figures | None,
        params: Fide2024Parameters,
    ) -> PlayerResult:
        """The result of a first-rating attempt from its figures, with its notes (after
        ``notes``, those of 7.1.4's pool and 8.2.1): both paths word it here."""
        art = self.id
        floor = params.floor
        needed = params.initial_min_games
        fields: _InitialFields = {
            "id": player_id, "rating_before": None, "change": 0, "k": None, "k_article": "",
            "games": games_now, "score": score_now, "expected": 0.0,
        }  # fmt: skip
        if figures is None:
            notes.append(
                Decision(
                    "too_few_games",
                    f"{art} 7.1.4",
                    _("%(games)s games against rated opponents so far, %(needed)s needed"),
                    {"games": n, "needed": needed},
                )
            )
            return PlayerResult(rating_after=None, status="unrated", notes=tuple(notes), **fields)
        ra, w, ph, dp, ru = figures.ra, figures.w, figures.ph, figures.dp, figures.ru
        performance = ra + dp
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

    def _pool_notes(self, *, too_old: int, since: date) -> list[Decision]:
        """7.1.4: the note of pooled results dropped as too old (none when none were)."""
        if not too_old:
            return []
        return [
            Decision(
                "pool_too_old",
                f"{self.id} 7.1.4",
                _("%(count)s earlier results dropped: played before %(since)s"),
                {"count": too_old, "since": since.isoformat()},
            )
        ]

    def _zero_first_note(self, *, tournament: str, dropped: int) -> Decision:
        """8.2.1: the note of a scoreless first tournament's games discarded."""
        return Decision(
            "zero_first_tournament",
            f"{self.id} 8.2.1",
            _("zero points in the first tournament %(tournament)s: %(games)s games discarded"),
            {"tournament": tournament, "games": dropped},
        )

    # -- on arrays (rating_engine.bulk_initial) ---------------------------------------------

    def initial_window_start(self, period_end: date, params: Fide2024Parameters) -> date:
        """7.1.4: pooled results of tournaments ending before this day are too old.
        DECISION: the window is the 26 months ending on the last day of the period."""
        return window_start(period_end, params.pool_months)

    def initial_dp_table(self) -> NDArray[np.int64]:
        """8.1 table A as an array: dp for p = 0.00 .. 1.00."""
        values = [dp_for_hundredths(ph, TABLE) for ph in range(101)]
        assert None not in values  # fide-2024 table A is defined everywhere (8.1)
        return np.array(values, dtype=np.int64)

    def unrated_exclusions(self) -> tuple[Decision, Decision]:
        """The decisions leaving out a played game with an unrated player: an individual
        match (6.1), neither player rated for the other (8.3.1)."""
        return match_with_unrated(self.id), no_rated_player(self.id)

    def initial_results(
        self,
        out: InitialOutput,
        *,
        ids: Sequence[str],
        tournaments: Sequence[str],
        period_end: date,
        params: Fide2024Parameters,
    ) -> list[PlayerResult]:
        """The results of ``rate_initial_fide_2024``'s players (``ids`` in its order;
        ``tournaments``: ids by rank), worded as the per-player path words them."""
        since = self.initial_window_start(period_end, params)
        results: list[PlayerResult] = []
        columns = (
            out.too_old, out.first_tournament, out.first_dropped, out.n, out.games, out.score2,
            out.outcome, out.opponents_sum, out.w2, out.p_hundredths, out.dp,
            out.performance_rounded,
        )  # fmt: skip
        for pid, (old, first, dropped, n, games, score2, outcome, osum, w2, ph, dp, ru) in zip(
            ids, zip(*(c.tolist() for c in columns), strict=True), strict=True
        ):
            notes = self._pool_notes(too_old=old, since=since)
            if first >= 0:
                notes.append(self._zero_first_note(tournament=tournaments[first], dropped=dropped))
            figures = None
            if outcome != INITIAL_TOO_FEW:
                figures = _Figures(
                    ra=Fraction(osum + 2 * 1800, n + 2), w=Fraction(w2, 2), ph=ph, dp=dp, ru=ru
                )
            results.append(
                self._initial_result(
                    pid,
                    notes=notes,
                    n=n,
                    games_now=games,
                    score_now=score2 / 2,
                    figures=figures,
                    params=params,
                )
            )
        return results

    def rate_unrated_on_arrays(self, period: types.PeriodInput) -> types.PeriodResult:
        """``rate_unrated`` through the arrays (``rate_initial_fide_2024``): the unrated
        players' results and the games with an unrated player left out (5.1, 6.1, 8.3.1).
        The database's bulk path builds the same arrays from its own; a property test checks
        this equals ``rate_unrated`` on random periods."""
        params = self.parameters_from(period.parameters)
        players = {p.id: p for p in period.players}
        unrated = [p for p in period.players if p.rating is None]
        index = {p.id: i for i, p in enumerate(unrated)}
        ranked = sorted(
            period.tournaments,
            key=lambda t: (t.end_date is None, t.end_date or date.max, t.id),
        )
        rank = {t.id: r for r, t in enumerate(ranked)}
        prior: list[tuple[int, int, int, int, bool]] = []
        for i, p in enumerate(unrated):
            for r in p.prior_results:
                end = r.end_date.toordinal() if r.end_date is not None else 0
                prior.append((i, r.opponent_rating, round(r.score * 2), end, r.forfeit))
        sides: list[tuple[int, int, bool, int, int]] = []
        left_out: list[Excluded] = []
        match_6_1, none_8_3_1 = self.unrated_exclusions()
        for t in period.tournaments:
            for game in t.games:
                w, b = players[game.white], players[game.black]
                if w.rating is not None and b.rating is not None:
                    continue  # the rated players' games: not this pass's
                reason = unplayed_decision(game, f"{self.id} 5.1")
                if reason is None and t.system == "match":
                    reason = match_6_1  # before 6.2 (a decided match), as in _select
                w_visible = w.rating is not None and not _hidden(w, t)
                b_visible = b.rating is not None and not _hidden(b, t)
                if reason is None and not (w_visible or b_visible):
                    reason = none_8_3_1
                if reason is not None:
                    left_out.append(excluded_game(t, game, reason))
                    continue
                ws, _bs = scores(game.result)
                ws2 = round(ws * 2)
                for me, opp, visible, s2 in ((w, b, b_visible, ws2), (b, w, w_visible, 2 - ws2)):
                    if me.rating is None:
                        sides.append((index[me.id], rank[t.id], visible, opp.rating or 0, s2))
        pr = np.array(prior, dtype=np.int64).reshape(-1, 5)
        sd = np.array(sides, dtype=np.int64).reshape(-1, 5)
        out = rate_initial_fide_2024(
            InitialInput(
                games_before=np.array([p.games for p in unrated], dtype=np.int64),
                has_prior=np.array([bool(p.prior_results) for p in unrated], dtype=np.bool_),
                prior_player=pr[:, 0],
                prior_rating=pr[:, 1],
                prior_score2=pr[:, 2],
                prior_end_ordinal=pr[:, 3],
                prior_forfeit=pr[:, 4] == 1,
                side_player=sd[:, 0],
                side_tournament=sd[:, 1],
                side_counts=sd[:, 2] == 1,
                side_opponent_rating=sd[:, 3],
                side_score2=sd[:, 4],
                since_ordinal=self.initial_window_start(period.end, params).toordinal(),
                min_games=params.initial_min_games,
                initial_max=params.initial_max,
                floor=params.floor,
                dp_by_hundredths=self.initial_dp_table(),
            )
        )
        results = self.initial_results(
            out,
            ids=[p.id for p in unrated],
            tournaments=[t.id for t in ranked],
            period_end=period.end,
            params=params,
        )
        return self.period_result(results, (), left_out)

    # -- bulk ------------------------------------------------------------------------------
