"""The average method shared by ``fide-2000`` and ``feda-1996``: a period rated tournament
by tournament (``tournaments``), then each player's result (``results``, ``initial``)."""

from __future__ import annotations

from ...common import _, sorted_tournaments, validate_period
from ...errors import EngineInputError
from ...types import Decision, Excluded, GameLine, PeriodInput, PeriodResult, PlayerResult
from ..base import ParamsT, result_unchanged
from .initial import InitialRatings
from .state import _SYSTEMS, _RatedTally, _State, _Unrated


class AverageMethod(InitialRatings[ParamsT]):
    """The average-based method shared by ``fide-2000`` and ``feda-1996``."""

    # ------------------------------------------------------------------ rating

    def rate(self, period: PeriodInput) -> PeriodResult:
        params = self.parameters_from(period.parameters)
        players = validate_period(period)
        for index, t in enumerate(period.tournaments):
            if t.system not in _SYSTEMS:
                raise EngineInputError(
                    f"tournaments[{index}]",
                    "system",
                    _("unknown system %(value)r (known: %(known)s)"),
                    {"value": t.system, "known": ", ".join(_SYSTEMS)},
                )

        notes: dict[str, list[Decision]] = {pid: [] for pid in players}
        lines: list[GameLine] = []
        out_excluded: list[Excluded] = []
        rated: dict[str, _RatedTally] = {}
        unrated: dict[str, _Unrated] = {}
        k_of: dict[str, tuple[int, str]] = {}
        for pid, p in players.items():
            if not self.rates_player(p):
                notes[pid].append(self.not_rated_note(p))
                continue
            own = self.own_rating(p)
            if own is None:
                if p.rating is not None:
                    notes[pid].append(
                        Decision(
                            "below_floor_input",
                            self.art("out_of_list"),
                            _("rating %(rating)s is below %(floor)s: treated as unrated"),
                            {"rating": p.rating, "floor": self.FLOOR},
                        )
                    )
                unrated[pid] = _Unrated()
            else:
                rated[pid] = _RatedTally()
                k_of[pid] = self.k_factor(p, own)

        state = _State(players, rated, unrated, k_of, notes, lines, out_excluded)
        for order, (_index, t) in enumerate(sorted_tournaments(period)):
            self._tournament(t, order, state)

        results: list[PlayerResult] = []
        months = self.months_per_list(params)
        for pid, p in players.items():
            if pid in rated:
                results.append(self._rated_result(p, rated[pid], k_of[pid], notes[pid]))
            elif pid in unrated:
                results.append(
                    self._first_rating(p, unrated[pid], notes[pid], period.start, months)
                )
            else:
                results.append(result_unchanged(p, notes[pid]))
        return self.period_result(results, lines, out_excluded)
