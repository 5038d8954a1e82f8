"""cnxc-2000: effective (6.x) and provisional (5.x) ratings, passive players and the ICCF
calibration (7.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from ... import types
from ...common import _, add_months
from ...rounding import p_hundredths, round_half_up, round_half_up_milli, to_milli
from ...tables import dp_for_hundredths, expected_milli
from ...types import Decision, GameLine, PlayerInput, PlayerResult
from .state import _Competition
from .substitutions import Substitutions
from .tables import _TABLE, k_factor


class CNXCResults(Substitutions):
    """The period's results: effective and provisional ratings, passive players, calibration."""

    def _effective(
        self,
        p: PlayerInput,
        comp_map: Mapping[str, _Competition],
        norm_winner: Mapping[str, str],
        notes: list[Decision],
        lines: list[GameLine],
        counted: int,
    ) -> PlayerResult:
        assert p.rating is not None
        k = k_factor(p.rating, p.games)  # 6.4, from the list in force (6.1)
        total_milli = 0
        score = 0.0
        expected_total = 0
        for tid, comp in comp_map.items():
            w_milli = 0
            we_milli = 0
            for entry in comp.entries:
                pd = expected_milli(p.rating - entry.opponent_rating, _TABLE)  # Tabela II
                w_milli += to_milli(entry.score)
                we_milli += pd
                lines.append(
                    GameLine(
                        tid,
                        p.id,
                        entry.opponent,
                        entry.opponent_rating,
                        entry.score,
                        pd / 1000,
                        k * (to_milli(entry.score) - pd) / 1000,
                        k,
                    )
                )
            v_milli = k * (w_milli - we_milli)  # 6.4: V = K (W - We)
            if norm_winner.get(tid) == p.id and v_milli < 0:
                notes.append(
                    Decision(
                        "norm_winner_keeps_rating",
                        self.article("7.1"),
                        _(
                            "winner of %(tournament)s (valid for national master norms): "
                            "V %(v)s not applied"
                        ),
                        {"tournament": tid, "v": v_milli / 1000},
                    )
                )
                v_milli = 0
            total_milli += v_milli
            score += w_milli / 1000
            expected_total += we_milli
        change = round_half_up_milli(total_milli)  # 6.5 Rn = Ro + sum V, 6.6 half up
        notes.append(Decision("k", self.article("6.4"), _("K = %(k)s"), {"k": k}))
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=p.rating + change,
            change=change,
            k=k,
            k_article=self.article("6.4"),
            games=counted,
            score=score,
            expected=expected_total / 1000,
            status="passive" if p.status == "passive" else "rated",
            notes=tuple(notes),
        )

    def _provisional(
        self,
        p: PlayerInput,
        comp_map: Mapping[str, _Competition],
        notes: list[Decision],
        lines: list[GameLine],
        counted: int,
    ) -> PlayerResult:
        """6.2, 6.3: provisional rating = overall performance of all games so far."""
        pool: list[tuple[int, float]] = [(r.opponent_rating, r.score) for r in p.prior_results]
        score_now = 0.0
        for tid, comp in comp_map.items():
            for entry in comp.entries:
                pool.append((entry.opponent_rating, entry.score))
                score_now += entry.score
                lines.append(
                    GameLine(
                        tid, p.id, entry.opponent, entry.opponent_rating, entry.score, 0.0, 0.0, 0
                    )
                )
        if counted == 0 or not pool:
            status = "provisional" if p.rating is not None else "unrated"
            return PlayerResult(
                p.id, p.rating, p.rating, 0, None, "", 0, 0.0, 0.0, status, tuple(notes)
            )
        n = len(pool)
        total_score = sum(s for _r, s in pool)
        rc = Fraction(sum(r for r, _s in pool), n)  # 6.2: average of the opponents
        d = dp_for_hundredths(p_hundredths(total_score, n), _TABLE)  # Tabela I
        assert d is not None  # Tabela I covers 0 and 1
        performance = rc + d
        rating = round_half_up(performance)  # 6.6
        total_games = p.games + counted
        if total_games >= 12:
            status = "rated"
            notes.append(
                Decision(
                    "effective",
                    self.article("5.1"),
                    _("%(games)s games: the rating becomes effective"),
                    {"games": total_games},
                )
            )
        else:
            status = "provisional"
        notes.append(
            Decision(
                "provisional_rating",
                self.article("6.3"),
                _("overall performance: Rc %(rc)s, %(score)s/%(games)s, D %(d)s -> %(rating)s"),
                {
                    "rc": round(float(rc), 2),
                    "score": total_score,
                    "games": n,
                    "d": d,
                    "rating": rating,
                },
            )
        )
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=rating,
            change=rating - p.rating if p.rating is not None else 0,
            k=None,
            k_article="",
            games=counted,
            score=score_now,
            expected=0.0,
            status=status,
            notes=tuple(notes),
            performance=float(performance),
        )

    def _passive(
        self,
        period: types.PeriodInput,
        results: Sequence[PlayerResult],
        players: Mapping[str, PlayerInput],
    ) -> list[PlayerResult]:
        """5.2: passive after five years without a counted game; active after one game."""
        limit = add_months(period.end, -60)
        out: list[PlayerResult] = []
        for result in results:
            p = players[result.id]
            if p.rating is None or p.status == "provisional":  # DECISION: effective only
                out.append(result)
                continue
            if result.games > 0:
                if p.status == "passive":
                    result = replace(
                        result,
                        status="rated",
                        notes=result.notes
                        + (
                            Decision(
                                "active_again",
                                self.article("5.2"),
                                _("a counted game: the rating is active again"),
                            ),
                        ),
                    )
            elif (
                p.last_game_date is not None and p.last_game_date <= limit and p.status != "passive"
            ):
                result = replace(
                    result,
                    status="passive",
                    notes=result.notes
                    + (
                        Decision(
                            "passive",
                            self.article("5.2"),
                            _("no counted game since %(date)s (five years): passive"),
                            {"date": p.last_game_date.isoformat()},
                        ),
                    ),
                )
            out.append(result)
        return out

    def _calibrate(
        self, results: Sequence[PlayerResult], players: Mapping[str, PlayerInput]
    ) -> list[PlayerResult]:
        """7.3: calibration against the ICCF list in force the day after the period, given per
        player as ``PlayerInput.calibration_rating`` (None: not in that list).

        a) the players in both lists: effective in the list being made (as if in force) and
        in the ICCF list; each gets a ``calibration_reference`` note with his two ratings.
        b) fewer than 8: no calibration (``calibration_skipped`` on each of them); otherwise
        the mean difference of the two lists' means is added to every effective rating,
        active or passive (``calibration`` on each one shifted)."""
        reference: dict[str, int] = {}
        for r in results:
            value = players[r.id].calibration_rating if r.id in players else None
            if r.status == "rated" and r.rating_after is not None and value is not None:
                reference[r.id] = value

        def with_reference(r: PlayerResult) -> PlayerResult:
            if r.id not in reference:
                return r
            return replace(
                r,
                notes=r.notes
                + (
                    Decision(
                        "calibration_reference",
                        self.article("7.3 a"),
                        _("in both lists: %(rating)s here, %(reference)s in the ICCF list"),
                        {"rating": r.rating_after, "reference": reference[r.id]},
                    ),
                ),
            )

        results = [with_reference(r) for r in results]
        count = len(reference)
        rule = self.inputs.calibration  # 7.3 b: "inferior a oito"
        minimum = rule.value.minimum_players if rule is not None else 8
        if count < minimum:
            return [
                replace(
                    r,
                    notes=r.notes
                    + (
                        Decision(
                            "calibration_skipped",
                            self.article("7.3 b"),
                            _("only %(count)s players in both lists (8 needed): no calibration"),
                            {"count": count},
                        ),
                    ),
                )
                if r.id in reference
                else r
                for r in results
            ]
        iccf_total = sum(reference.values())
        cnxc_total = sum(r.rating_after or 0 for r in results if r.id in reference)
        mean_difference = Fraction(iccf_total - cnxc_total, count)
        shift = round_half_up(mean_difference)  # 6.6 (R + d rounds as R + round(d))
        out: list[PlayerResult] = []
        for r in results:
            if r.status in ("rated", "passive") and r.rating_after is not None:
                after = r.rating_after + shift
                r = replace(
                    r,
                    rating_after=after,
                    change=r.change + shift,
                    notes=r.notes
                    + (
                        Decision(
                            "calibration",
                            self.article("7.3 b"),
                            _(
                                "calibration on %(count)s players in both lists: mean "
                                "difference %(difference)s, %(shift)+d"
                            ),
                            {
                                "count": count,
                                "difference": round(float(mean_difference), 3),
                                "shift": shift,
                            },
                        ),
                    ),
                )
            out.append(r)
        return out
