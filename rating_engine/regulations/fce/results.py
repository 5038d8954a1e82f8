"""fce: K (16.2), a rated player's result (16, 17.3) and first performances (10, 11)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ... import types
from ...common import _, excluded
from ...rounding import p_hundredths, round_half_up, round_half_up_milli
from ...tables import dp_for_hundredths
from ...types import Decision, PlayerInput, PlayerResult, TournamentInput
from .. import base
from .parameters import FCEParameters
from .state import _FLOOR, _TABLE, _PoolGame, _Rated, _under_18


class FCEResults(base.Regulation[FCEParameters]):
    """The helpers of ``FCE.rate``: exclusions, K, results and first performances."""

    # ------------------------------------------------------------------ helpers

    def _excluded(
        self,
        tournament: TournamentInput,
        game: types.Game,
        code: str,
        number: str,
        template: str,
        player: str,
    ) -> types.Excluded:
        article = number if " " in number else self.article(number)
        return excluded(tournament, game, Decision(code, article, template, {"player": player}))

    def _k(
        self,
        p: PlayerInput,
        rating: int,
        list_kind: str,
        on: date,
        youth_max: int,
        k_override: int,
    ) -> tuple[int, str]:
        if k_override:
            return k_override, self.article("16.2 (k_override)")
        if list_kind == "rapid":
            return 20, self.article("16.2.2")  # rapid: always 20
        if p.games < 30:
            return 40, self.article("16.2.1")  # new player, under 30 games
        if _under_18(p.birth_date, on) and rating < youth_max:
            return 40, self.article("16.2.1")  # under 18 and under 2200 (parameter)
        return 20, self.article("16.2.1")

    def _rated_result(self, p: PlayerInput, r: _Rated, notes: list[Decision]) -> PlayerResult:
        if r.seed is not None and r.games == 0:
            # 10.1 / 11.1 / 11.2: no game rated for him in the period: he is not "avaluat per
            # primera vegada" and stays unrated (decided reading).
            notes.append(
                Decision(
                    "no_rated_game",
                    r.seed.article,
                    _(
                        "no game rated for him in this period: no first rating (%(rating)s "
                        "not assigned)"
                    ),
                    {"rating": r.start},
                )
            )
            return PlayerResult(
                p.id, p.rating, None, 0, None, "", 0, 0.0, 0.0, "unrated", tuple(notes)
            )
        change = round_half_up_milli(r.milli)  # 17.1 sum, 17.2 nearest unit
        after = r.start + change
        if r.seed is not None:
            notes.insert(0, r.seed)
        if after < _FLOOR:
            notes.append(
                Decision(
                    "floor",
                    self.article("17.3"),
                    _("%(rating)s is below 1000: the rating is 1000"),
                    {"rating": after},
                )
            )
            after = _FLOOR
        notes.append(Decision("k", r.k_article, _("K = %(k)s"), {"k": r.k}))
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=after,
            change=after - r.start,
            k=r.k,
            k_article=r.k_article,
            games=r.games,
            score=r.score,
            expected=r.expected_milli / 1000,
            status="rated" if r.seed is None else "new",
            notes=tuple(notes),
        )

    def _first_performance(
        self,
        p: PlayerInput,
        period_games: Sequence[_PoolGame],
        zero_first: str | None,
        notes: list[Decision],
    ) -> PlayerResult:
        """10.2 and 14: first rating of a player with no FCE or FIDE rating."""
        art = self.article
        pool = [
            _PoolGame(r.tournament, r.end_date, r.opponent_rating, r.score)
            for r in p.prior_results
            if not r.forfeit  # 8.3
        ] + list(period_games)
        # 10.2.3: the games of a first tournament with no point are discarded.
        if zero_first is not None:
            notes.append(
                Decision(
                    "first_tournament_scoreless",
                    art("10.2.3"),
                    _("first tournament %(tournament)s without a point: discarded"),
                    {"tournament": zero_first},
                )
            )
            pool = [g for g in pool if g.tournament != zero_first]
            period_games = [g for g in period_games if g.tournament != zero_first]
        n = len(pool)
        score = sum(g.score for g in pool)
        period_score = sum(g.score for g in period_games)
        if n < 5 or score < 0.5:
            if n < 5:
                notes.append(
                    Decision(
                        "too_few_games",
                        art("10.2.1"),
                        _("%(games)s games against rated opponents (5 needed)"),
                        {"games": n},
                    )
                )
            else:
                notes.append(
                    Decision(
                        "no_half_point",
                        art("7.1"),
                        _("no point scored: at least 1/2 point is needed"),
                    )
                )
            return PlayerResult(
                p.id,
                None,
                None,
                0,
                None,
                "",
                len(period_games),
                period_score,
                0.0,
                "unrated",
                tuple(notes),
            )
        total = sum(g.opponent_rating for g in pool)
        ra = total / n  # 14.1
        if 2 * score == n:
            performance = ra  # 14.3
            article = art("14.3")
        elif 2 * score > n:
            performance = ra + 20 * (2 * score - n)  # 14.4: +20 per half point over 50%
            article = art("14.4")
        else:
            d = dp_for_hundredths(p_hundredths(score, n), _TABLE)
            assert d is not None  # p is between .01 and .49 here
            performance = ra + d  # 14.5
            article = art("14.5")
        rating = round_half_up(performance)
        notes.append(
            Decision(
                "first_rating",
                article,
                _("first rating: Ra %(ra)s, %(score)s/%(games)s -> %(rating)s"),
                {"ra": round(ra, 2), "score": score, "games": n, "rating": rating},
            )
        )
        if rating < _FLOOR:
            notes.append(
                Decision(
                    "floor",
                    art("17.3"),
                    _("%(rating)s is below 1000: the rating is 1000"),
                    {"rating": rating},
                )
            )
            rating = _FLOOR
        return PlayerResult(
            p.id,
            None,
            rating,
            0,
            None,
            "",
            len(period_games),
            period_score,
            0.0,
            "new",
            tuple(notes),
            performance=performance,
        )
