"""The rated change of a tournament: Swiss (10.21a, 10.5x, with the 350 cap of 10.51) and
round robin (10.21b, 10.54), and the performances Ru of unrated players (10.2)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...common import _, cap_difference, capped_average, excluded, scores
from ...rounding import p_hundredths, to_milli
from ...tables import dp_for_hundredths, expected_milli
from ...types import Decision, Game, GameLine, TournamentInput
from ..base import ParamsT
from .hooks import AverageHooks
from .state import _Counted, _Event, _Performance, _q, _RatedTally, _State, _Unrated


class RatedChange(AverageHooks[ParamsT]):
    """A tournament's games added to the period's tallies (10.2, 10.5)."""

    def _swiss(self, event: _Event, games: Sequence[Game], state: _State) -> None:
        t, order, opp_value = event.t, event.order, event.opp_value
        players, rated, unrated, k_of = state.players, state.rated, state.unrated, state.k_of
        notes, lines, out = state.notes, state.lines, state.out
        counted: dict[str, list[_Counted]] = {}
        for game in games:
            ws, bs = scores(game.result)
            for me, opp, score in ((game.white, game.black, ws), (game.black, game.white, bs)):
                if me not in rated and me not in unrated:
                    continue
                value = opp_value[opp]
                if value is None:
                    # 6.4 / 6.41: in a Swiss only games against rated opponents count.
                    key = "swiss_rated" if me in rated else "swiss_unrated"
                    out.append(
                        excluded(
                            t,
                            game,
                            Decision(
                                "opponent_unrated",
                                self.art(key),
                                _("not rated for %(player)s: the opponent is unrated"),
                                {"player": me},
                            ),
                        )
                    )
                    continue
                counted.setdefault(me, []).append(_Counted(opp, value, score))

        for me, mine in counted.items():
            n = len(mine)
            w = sum(c.score for c in mine)
            if me in rated:
                own = self.own_rating(players[me])
                assert own is not None
                k, _k_template = k_of[me]
                ratings = [c.opponent_rating for c in mine if c.opponent_rating is not None]
                capped = [
                    _Counted(c.opponent, own + int(cap_difference(r - own, self.CAP)), c.score)
                    for c, r in zip(mine, ratings, strict=True)
                ]
                for c, cc in zip(mine, capped, strict=True):
                    if cc.opponent_rating != c.opponent_rating:
                        # 10.51: a difference over 350 counts as 350.
                        notes[me].append(
                            Decision(
                                "difference_capped",
                                self.art("cap"),
                                _(
                                    "%(tournament)s: %(opponent)s rated %(rating)s counts as "
                                    "%(capped)s (difference over 350)"
                                ),
                                {
                                    "tournament": t.id,
                                    "opponent": c.opponent,
                                    "rating": c.opponent_rating,
                                    "capped": cc.opponent_rating,
                                },
                            )
                        )
                # 10.51: Rc the average of the opponents; 10.53: D = R - Rc; 10.54: We = PD x n.
                rc = capped_average(own, ratings, self.CAP)
                pd = expected_milli(own - rc, self.id)
                self._add_rated(t, me, own, k, rc, pd, pd * n, capped, rated[me], notes, lines)
            else:
                # 6.42: an unrated player counts only with enough rated opponents.
                distinct = {c.opponent for c in mine}
                if len(distinct) < self.MIN_RATED_OPPONENTS:
                    notes[me].append(
                        Decision(
                            "too_few_rated_opponents",
                            self.art("min_opponents"),
                            _(
                                "%(tournament)s: %(count)s rated opponents (%(need)s needed): "
                                "not counted"
                            ),
                            {
                                "tournament": t.id,
                                "count": len(distinct),
                                "need": self.MIN_RATED_OPPONENTS,
                            },
                        )
                    )
                    continue
                # 10.21a: Rc the average rating of his opponents.
                average = Fraction(sum(c.opponent_rating or 0 for c in mine), n)
                self._add_performance(
                    t, order, me, n, w, average, None, unrated[me], notes, decisive=(n, w)
                )

    def _round_robin(
        self,
        event: _Event,
        games: Sequence[Game],
        entrants: Sequence[str],
        cycles: int,
        state: _State,
    ) -> None:
        t, order, opp_value = event.t, event.order, event.opp_value
        players, rated, unrated, k_of = state.players, state.rated, state.unrated, state.k_of
        notes, lines = state.notes, state.lines
        opponents = len(entrants) - 1  # n of 10.21b iii / 10.51: the number of opponents
        mine: dict[str, list[_Counted]] = {pid: [] for pid in entrants}
        for game in games:
            ws, bs = scores(game.result)
            for me, opp, score in ((game.white, game.black, ws), (game.black, game.white, bs)):
                value = opp_value[opp]
                mine[me].append(_Counted(opp, value, score))
        rated_entrants = [pid for pid in entrants if opp_value[pid] is not None]
        if not rated_entrants:
            return
        rar = Fraction(sum(opp_value[pid] or 0 for pid in rated_entrants), len(rated_entrants))
        if len(rated_entrants) == len(entrants):
            ra = rar  # every player rated: the plain tournament average
            ra_note = None
        else:
            # 10.21b: Ra = Rar - dpa x n/(n+1), dpa the average dp of the rated players'
            # scores against all their opponents.
            dps = []
            for pid in rated_entrants:
                w = sum(c.score for c in mine[pid])
                dps.append(self._dp(w, len(mine[pid])))
            dpa = Fraction(sum(dps), len(dps))
            ra = rar - dpa * Fraction(opponents, opponents + 1)
            ra_note = Decision(
                "tournament_average",
                self.art("rc_rr"),
                _("%(tournament)s: Ra = Rar %(rar)s - dpa %(dpa)s x %(n)s/%(n1)s = %(ra)s"),
                {
                    "tournament": t.id,
                    "rar": _q(rar),
                    "dpa": _q(dpa),
                    "n": opponents,
                    "n1": opponents + 1,
                    "ra": _q(ra),
                },
            )
        for me in entrants:
            counted = mine[me]
            n = len(counted)
            w = sum(c.score for c in counted)
            if me in rated:
                own = self.own_rating(players[me])
                assert own is not None
                k, _k_template = k_of[me]
                rc, _article = self.rr_rc(ra, own, opponents)
                pd = expected_milli(own - rc, self.id)
                we = cycles * self.rr_expected_milli(pd, n // cycles, opponents)
                if ra_note is not None:
                    notes[me].append(ra_note)
                self._add_rated(t, me, own, k, rc, pd, we, counted, rated[me], notes, lines)
            elif me in unrated:
                if ra_note is not None:
                    notes[me].append(ra_note)
                # 10.21b: for an unrated player Rc is the tournament average Ra. 10.1 (decided
                # reading, amended after issue 25, RULESETS.md): Ra gives every player of the
                # field a rating, so the 0 / 100% test reads his score over all his games
                # here, the score his performance is computed from, not only against the
                # rated players (0 of 4 against them and 1 1/2 of 5 against the unrated ones
                # is 1 1/2 of 9: Ru = Ra + dp(1 1/2 / 9) x n/(n+1), pooled).
                self._add_performance(
                    t, order, me, n, w, ra, opponents, unrated[me], notes, decisive=(n, w)
                )

    def _dp(self, score: float, games: int) -> int:
        """dp for a score (table A); 1.00 / .00 read at the last printed rows (decision)."""
        ph = min(99, max(1, p_hundredths(score, games)))
        d = dp_for_hundredths(ph, self.id)
        assert d is not None
        return d

    def _add_rated(
        self,
        t: TournamentInput,
        me: str,
        own: int,
        k: int,
        rc: Fraction | float,
        pd: int,
        we_milli: int,
        counted: Sequence[_Counted],
        tally: _RatedTally,
        notes: dict[str, list[Decision]],
        lines: list[GameLine],
    ) -> None:
        n = len(counted)
        w = sum(c.score for c in counted)
        change = k * (to_milli(w) - we_milli)  # 10.54: K(W - We), thousandths
        tally.milli += change
        tally.games += n
        tally.score += w
        tally.expected_milli += we_milli
        notes[me].append(
            Decision(
                "tournament_change",
                self.art("we"),
                _(
                    "%(tournament)s: Rc %(rc)s, D %(d)s, PD %(pd)s, W %(w)s of %(n)s, "
                    "We %(we)s, K %(k)s: %(change)s"
                ),
                {
                    "tournament": t.id,
                    "rc": _q(rc),
                    "d": _q(own - rc),
                    "pd": pd / 1000,
                    "w": w,
                    "n": n,
                    "we": we_milli / 1000,
                    "k": k,
                    "change": change / 1000,
                },
            )
        )
        per_game = we_milli / 1000 / n
        for c in counted:
            lines.append(
                GameLine(
                    t.id,
                    me,
                    c.opponent,
                    c.opponent_rating,
                    c.score,
                    per_game,
                    k * (c.score - per_game),
                    k,
                )
            )

    def _performance(
        self, n: int, w: float, rc: Fraction, rr_opponents: int | None
    ) -> tuple[Fraction, str]:
        """Ru for a score w over n games with Rc (10.22-10.25)."""
        twice = round(2 * w)
        if twice == n:
            return rc, self.art("ru_50")  # 10.22: 50% -> Ru = Rc
        if twice > n:
            # 10.23: Rc + 12.5 per half point above 50%.
            return rc + Fraction(25, 2) * (twice - n), self.art("ru_above")
        d = self._dp(w, n)
        if rr_opponents is None:
            return rc + d, self.art("ru_below_swiss")  # 10.24: Rc + dp
        # 10.25: round robin, Rc + dp x n/(n+1).
        return rc + d * Fraction(rr_opponents, rr_opponents + 1), self.art("ru_below_rr")

    def _add_performance(
        self,
        t: TournamentInput,
        order: int,
        me: str,
        n: int,
        w: float,
        rc: Fraction,
        rr_opponents: int | None,
        tally: _Unrated,
        notes: dict[str, list[Decision]],
        *,
        decisive: tuple[int, float],
    ) -> None:
        """``decisive`` is the (games, score) the 10.1 test reads: against his rated opponents
        in a Swiss, team or match (Rc their average, 10.21a/10.24); all his games in a round
        robin (Rc the tournament average Ra, 10.21b/10.25)."""
        games, score = decisive
        if self._indeterminate(games, score):
            # 10.1: for 0 or 100% dp is indeterminate: no performance from this tournament,
            # nothing of it pooled (decided reading, RULESETS.md).
            notes[me].append(self._no_performance(t.id, games, score, whole=rr_opponents))
            return
        ru, article = self._performance(n, w, rc, rr_opponents)
        tally.performances.append(_Performance(t.id, t.end_date, order, n, w, rc, ru, article))
        tally.games += n
        tally.score += w
        notes[me].append(
            Decision(
                "performance",
                article,
                _("%(tournament)s: Rc %(rc)s, %(score)s/%(games)s: Ru %(ru)s"),
                {"tournament": t.id, "rc": _q(rc), "score": w, "games": n, "ru": _q(ru)},
            )
        )

    @staticmethod
    def _indeterminate(games: int, score: float) -> bool:
        """A score of 0 or 100% (10.1: dp "necesariamente indeterminado")."""
        return games > 0 and (score == 0 or score == games)

    def _no_performance(
        self, tournament: str, games: int, score: float, *, whole: int | None = None
    ) -> Decision:
        """The 10.1 note; ``whole`` (a round robin's number of opponents) when the score is
        over all his games in a round robin (decided reading, amended after issue 25)."""
        if whole is not None:
            return Decision(
                "no_performance",
                self.art("dp_undefined"),
                _(
                    "%(tournament)s: %(score)s of %(games)s in the round robin (0 or 100%%): "
                    "no performance, nothing pooled"
                ),
                {"tournament": tournament, "score": score, "games": games},
            )
        return Decision(
            "no_performance",
            self.art("dp_undefined"),
            _(
                "%(tournament)s: %(score)s of %(games)s against rated opponents (0 or 100%%): "
                "no performance, nothing pooled"
            ),
            {"tournament": tournament, "score": score, "games": games},
        )

    def _championship_floor(self, event: _Event, state: _State) -> None:
        """feda-1996 9.4 (no-op here)."""
