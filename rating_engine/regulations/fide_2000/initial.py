"""First ratings: the games-weighted average of the pooled performances (10.3), the floor
(10.31, 10.32) and the championship floor feda-1996 9.4 overrides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from fractions import Fraction

from ...common import _, add_months, pool_prior_results
from ...types import Decision, PlayerInput, PlayerResult
from ..base import ParamsT
from .results import RatedResults
from .state import _Performance, _q, _Unrated


class InitialRatings(RatedResults[ParamsT]):
    """An unrated player's first rating (10.3)."""

    def _first_rating(
        self, p: PlayerInput, tally: _Unrated, notes: list[Decision], start: date, months: int
    ) -> PlayerResult:
        """10.3: the games-weighted average of the Ru of the pooled tournaments."""
        since = add_months(start, -months * self.POOL_PERIODS)
        pooled = pool_prior_results(p.prior_results, since)
        for r in pooled.too_old:
            notes.append(
                Decision(
                    "pool_too_old",
                    self.art("pool_window"),
                    _("%(tournament)s ended %(end)s, before %(since)s: too old to pool"),
                    {
                        "tournament": r.tournament,
                        "end": str(r.end_date),
                        "since": since.isoformat(),
                    },
                )
            )
            break
        if pooled.forfeits:
            notes.append(
                Decision(
                    "pool_forfeits",
                    self.art("forfeit"),
                    _("%(count)s pooled forfeits not counted"),
                    {"count": len(pooled.forfeits)},
                )
            )
        # Every earlier tournament's Ru is recomputed as in a Swiss (10.21a, 10.22-10.24), those
        # too old to pool included: they still tell which performance was the first (10.31).
        groups: dict[tuple[str, date | None], list[tuple[int, float]]] = {}
        for r in p.prior_results:
            if not r.forfeit:
                groups.setdefault((r.tournament, r.end_date), []).append(
                    (r.opponent_rating, r.score)
                )
        prior: list[_Performance] = []
        gone: list[_Performance] = []  # performances that have left the pooling window
        for order, ((tid, end), rows) in enumerate(groups.items()):
            n = len(rows)
            w = sum(s for _r, s in rows)
            too_old = end is not None and end < since
            if self._indeterminate(n, w):
                # 10.1: 0 or 100% against rated opponents: no performance, nothing pooled.
                if not too_old:
                    notes.append(self._no_performance(tid, n, w))
                continue
            rc = Fraction(sum(r for r, _s in rows), n)  # 10.21a
            ru, article = self._performance(n, w, rc, None)
            perf = _Performance(tid, end, order - len(groups), n, w, rc, ru, article)
            (gone if too_old else prior).append(perf)
        current = list(tally.performances)
        forced = bool(tally.qualified)
        if forced:
            # feda-1996 9.4: the championship's performance with unrated opponents at 1800
            # replaces the ordinary one (none if it was 100%, 9.1).
            names = set(tally.qualified)
            prior = [x for x in prior if x.tournament not in names]
            current = [x for x in current if x.tournament not in names] + tally.championship

        def chronological(x: _Performance) -> tuple[bool, date, int]:
            return (x.end is None, x.end or date.max, x.order)

        performances = sorted(prior + current, key=chronological)
        ever = sorted(gone + performances, key=chronological)
        if ever and any(ever[0] is x for x in gone):
            if performances and performances[0].ru < self.FLOOR:
                # 10.31: the first performance ever has left the window; a later one is not
                # "the first" (decided reading).
                notes.append(
                    Decision(
                        "first_performance_gone",
                        self.art("first_low"),
                        _(
                            "the first performance (%(first)s) has left the pooling window: "
                            "%(ru)s in %(tournament)s is not ignored"
                        ),
                        {
                            "first": ever[0].tournament,
                            "ru": _q(performances[0].ru),
                            "tournament": performances[0].tournament,
                        },
                    )
                )
        elif performances and performances[0].ru < self.FLOOR:
            first = performances.pop(0)
            # 10.31 / 9.31: a first performance under the floor is ignored (feda-1996 9.4
            # pools per 9.3, 9.31 included: decided reading).
            notes.append(
                Decision(
                    "first_performance_ignored",
                    self.art("first_low"),
                    _("first performance %(ru)s in %(tournament)s is under %(floor)s: ignored"),
                    {"ru": _q(first.ru), "tournament": first.tournament, "floor": self.FLOOR},
                )
            )
        n_total = sum(x.games for x in performances)
        base = PlayerResult(
            p.id, None, None, 0, None, "", tally.games, tally.score, 0.0, "unrated", ()
        )
        if not performances:
            if forced:
                return self._forced_rating(base, notes, None, {"games": 0, "tournaments": 0})
            return replace(base, notes=tuple(notes))
        average = sum((x.ru * x.games for x in performances), Fraction(0)) / n_total
        if n_total < self.MIN_GAMES and not forced:
            # 9.14: at least 9 games, pooled over the same and the following periods.
            notes.append(
                Decision(
                    "first_rating_pending",
                    self.art("min_games"),
                    _("%(games)s games pooled (%(need)s needed): no rating yet"),
                    {"games": n_total, "need": self.MIN_GAMES},
                )
            )
            return replace(base, notes=tuple(notes), performance=float(average))
        rn = self.round_rating(average)
        params = {
            "games": n_total,
            "rn": _q(average),
            "rating": rn,
            "tournaments": len(performances),
        }
        if forced:
            return self._forced_rating(base, notes, average, params)
        if rn < self.FLOOR:
            # 10.32: only Rn of at least the floor counts.
            notes.append(
                Decision(
                    "first_rating_below_floor",
                    self.art("rn_floor"),
                    _("Rn %(rating)s over %(games)s games is under the floor: not published"),
                    {**params, "floor": self.FLOOR},
                )
            )
            return replace(base, notes=tuple(notes), performance=float(average))
        # 10.3: Rn the average of the Ru weighted by games; 10.32: rounded.
        notes.append(
            Decision(
                "first_rating",
                self.art("rn"),
                _(
                    "first rating: Rn %(rn)s over %(games)s games in %(tournaments)s "
                    "tournaments -> %(rating)s"
                ),
                params,
            )
        )
        return replace(
            base, rating_after=rn, status="new", notes=tuple(notes), performance=float(average)
        )

    def _forced_rating(
        self,
        base: PlayerResult,
        notes: list[Decision],
        average: Fraction | None,
        params: Mapping[str, object],
    ) -> PlayerResult:
        """The first rating a championship floor forces (feda-1996 9.4), with its note."""
        rating, note = self._floor_rating(average, params)
        notes.append(note)
        if average is None:
            return replace(base, rating_after=rating, status="new", notes=tuple(notes))
        return replace(
            base, rating_after=rating, status="new", notes=tuple(notes), performance=float(average)
        )

    def _floor_rating(
        self, average: Fraction | None, params: Mapping[str, object]
    ) -> tuple[int, Decision]:
        """feda-1996 9.4: the rating and its note (never called here: no championship floor)."""
        raise AssertionError("no forced first rating in fide-2000")
