"""``fide-2024``: FIDE Rating Regulations B.02, in force 1 March 2024.

Source: ../shared/seeds/003_*.txt (Spanish translation), digest in RULESETS.md.
Rated players go through the NumPy bulk path (``rating_engine.bulk``); ``explain`` recomputes
one player with plain Python and must agree with it (a property test checks this). First
ratings (8.2) are computed per player by ``rate`` and on arrays by ``bulk_initial`` (the
database's bulk path); a property test checks ``rate_unrated_on_arrays`` equals
``rate_unrated``. Decisions the text leaves open are
marked DECISION and collected in docs/engine.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import ClassVar

import numpy as np

from ... import types
from ...bulk import BulkInput, rate_rated_fide_2024
from ...bulk_initial import rate_initial_fide_2024
from ...common import add_months, one_year_before, scores, validate_period
from ...errors import EngineInputError
from ...rounding import round_half_up_milli
from ...types import GameLine, PlayerInput, PlayerResult
from .. import base
from ..base import Explanation, Registration, Rule
from .initial import FirstRatings
from .maths import _K_WHY as _K_WHY  # the K notes' templates (tests, translations)
from .maths import YOUTH_AGE, _, game_delta_milli, k_factor, youth_on
from .parameters import _FLOOR, Fide2024Parameters
from .selection import _select, _Selection, _sides

__all__ = [
    "CLOSING_DAYS",
    "MONTH_END_ALLOWANCE_DAYS",
    "REGULATION",
    "REPORT_LISTS",
    "Fide2024",
    "game_delta_milli",
    "k_factor",
    "report_deadline",
    "report_list",
]


# --------------------------------------------------------------------------- reporting dates

CLOSING_DAYS = 3  # 7.1.3: a list's closing date is 3 days before the list (the 1st)
# 9.1: "si quedan cinco días o menos desde el último día del torneo hasta el final del mes,
# quedará para la siguiente lista" (Regulation.month_end_allowance counts the days).
MONTH_END_ALLOWANCE_DAYS = 5
REPORT_LISTS = 3  # 9.1: not rated unless in time for the third list after its end


def report_list(end_date: date) -> date:
    """7.1, 9.1: the date of the list a tournament ending on ``end_date`` is reported for: the
    1st of the next month (the list rating the month it ended in) or, when it ends five days or
    less before the end of its month, the list after that ("quedará para la siguiente lista").
    """
    months = 2 if REGULATION.month_end_allowance(end_date) else 1
    return add_months(date(end_date.year, end_date.month, 1), months)


def report_deadline(end_date: date) -> date:
    """9.1 with 7.1.3: the last day a report of a tournament ending on ``end_date`` may arrive
    and still be rated: the closing date (3 days before) of the third list after its end.

    DECISION (9.1): a tournament ending five days or less before the end of its month belongs
    to the next list (``report_list``), and the three lists are counted from that list.
    Ends 20 November: lists of 1 December, 1 January, 1 February -> 29 January. Ends 27
    November: 1 January, 1 February, 1 March -> 26 February.
    """
    third_list = add_months(report_list(end_date), REPORT_LISTS - 1)
    return date.fromordinal(third_list.toordinal() - CLOSING_DAYS)


# --------------------------------------------------------------------------- the regulation


class Fide2024(FirstRatings):
    id: ClassVar[str] = "fide-2024"
    title: ClassVar[str] = "FIDE Rating Regulations B.02 (1 March 2024)"
    label: ClassVar[str] = _("FIDE 2024 (B.02, from 1 March 2024)")
    parameters_type = Fide2024Parameters
    # 5.1: unplayed games are not rated; 8.3.1: a game counts for a rated player against a
    # rated opponent only.
    bulk: ClassVar[base.BulkRater | None] = base.BulkRater(
        rate=rate_rated_fide_2024,
        unplayed_article="fide-2024 5.1",
        no_rated_player_article="fide-2024 8.3.1",
        # 8.2, 7.1.4: first ratings on arrays too (``Fide2024._initial`` is the reference).
        first_ratings=rate_initial_fide_2024,
        youth_age=Rule(YOUTH_AGE, "fide-2024 8.3.3"),
    )
    source: ClassVar[str] = "seeds/003_24f4d948a4261732.txt (Spanish); RULESETS.md fide-2024"
    articles_url: ClassVar[str] = "https://handbook.fide.com/chapter/B022024"
    facts: ClassVar[base.Facts] = base.Facts(
        lists=base.ListFacts(
            cycle=Rule("monthly", "fide-2024 7.1"),  # "lista mensual", on the 1st
            semesters=None,
            closing_days=Rule(CLOSING_DAYS, "fide-2024 7.1.3", cycle="monthly"),
            month_end_allowance_days=Rule(
                MONTH_END_ALLOWANCE_DAYS, "fide-2024 9.1", cycle="monthly"
            ),
            publication_floor=Rule(_FLOOR, "fide-2024 7.2.1"),
            rating_floor=None,
            # None: no protest period for a list (0.4's seven days are an organiser's appeal
            # against a tournament not being rated): the office's default.
            protest_days=None,
        ),
        reporting=base.ReportingFacts(
            # 0.2.1: 30 days ahead when a player is rated over 2700 or a woman over 2500;
            # 0.2.2: otherwise three days.
            registration=Rule(
                Registration(days=3, days_top=30, over_rating=2700, over_woman_rating=2500),
                "fide-2024 0.2",
            ),
            report_due_days=None,  # 9.1 counts lists, not days
            # 9.1: "tercera lista de valoración después de su finalización" - monthly lists.
            report_lists=Rule(REPORT_LISTS, "fide-2024 9.1", cycle="monthly"),
            ascii_file_over_players=None,
        ),
        play=base.PlayFacts(
            # 1.1: 120 minutes if a player is rated 2400 or more, 90 if 1800, else 60.
            minimum_minutes=Rule(
                (base.MinimumTime(2400, 120), base.MinimumTime(1800, 90), base.MinimumTime(0, 60)),
                "fide-2024 1.1",
            ),
            first_control_moves=Rule(30, "fide-2024 1.2"),
            max_moves_per_hour=None,
            rounds_per_day=None,  # 3.1 limits hours only
            hours_per_day=Rule(12, "fide-2024 3.1"),
            max_days=None,
            authorised_days=None,
            monthly_report_days=Rule(30, "fide-2024 4.1"),
            # 1.1: "cada jugador debe contar al inicio de la partida con ... Cuando al menos un
            # jugador de la partida tenga ...": the band is each game's, not the tournament's.
            minimum_minutes_per_game=Rule(True, "fide-2024 1.1"),
            # 4.1: "Para los torneos que duren más de 30 días, los resultados intermedios deben
            # informarse mensualmente": each month's games go to that month's list (7.1.1: a
            # period is the time a list is valid), rated with the list in force in it.
            rated_in_parts=Rule(base.RatedInParts(after_days=30), "fide-2024 4.1"),
        ),
        composition=None,  # 8.2.1 (a first tournament scoring zero) applies when rating
        # 7.1.2: "Título FIDE, federación, valoración en vigor, número de ID FIDE, número de
        # partidas valoradas en el periodo de valoración, año de nacimiento, género y valor en
        # vigor de la K" (and the name).
        list_layout=base.ListLayout(
            columns=Rule(
                (
                    "name",
                    "fide_title",
                    "federation",
                    "rating",
                    "fide_id",
                    "games",
                    "birth_year",
                    "sex",
                    "k",
                ),
                "fide-2024 7.1.2",
            ),
        ),
        decisions=base.DecisionFacts(
            # 0.2: "La presidencia de la Comisión de Calificación puede rechazar el registro".
            reject_registration=Rule(True, "fide-2024 0.2"),
            # 0.4: "se reserva el derecho de no valorar ... apelación ... dentro de los siete
            # días siguientes a que le sea comunicada la decisión".
            refusal_appeal_days=Rule(7, "fide-2024 0.4"),
            # 5.1: "a menos que las normas relativas al juego limpio digan lo contrario".
            exclude_game=Rule(True, "fide-2024 5.1"),
        ),
    )
    # -- shared pieces --------------------------------------------------------------------

    def _prepare(
        self, period: types.PeriodInput
    ) -> tuple[Fide2024Parameters, dict[str, PlayerInput], _Selection]:
        params = self.parameters_from(period.parameters)
        players = validate_period(period)
        return params, players, _select(period, players, self.id)

    def inactivity_cutoff(self, period_end: date, params: Fide2024Parameters) -> date:
        """7.2.2 a: a rated player whose last rated game is on or before this day (and who has
        none in the period ending on ``period_end``) becomes inactive."""
        # 7.2.2 a: inactive after no rated game "in one year". DECISION: the year is the
        # 12 months ending on the last day of the period; a last game on or before the same
        # day a year earlier (and none in the period) starts inactivity.
        months = params.inactivity_months
        return one_year_before(period_end) if months == 12 else add_months(period_end, -months)

    def calendar_changes(
        self, period_end: date, parameters: Mapping[str, object]
    ) -> base.CalendarChanges:
        """Without a game, a rated player changes only by 7.2.2 a (inactive after a year
        without a rated game) and 7.2.1 (under the floor: out of the list); an inactive one
        stays inactive. Any status this regulation does not give (out of the list,
        provisional, passive: a list of another regulation) is decided again."""
        params = self.parameters_from(parameters)
        return base.CalendarChanges(
            inactive_on_or_before=Rule(
                self.inactivity_cutoff(period_end, params), "fide-2024 7.2.2 a"
            ),
            below_floor=Rule(params.floor, "fide-2024 7.2.1"),
            kept_statuses=("", "inactive"),
        )

    def rate(self, period: types.PeriodInput) -> types.PeriodResult:
        params, players, selection = self._prepare(period)
        order = list(players)
        index = {pid: i for i, pid in enumerate(order)}
        plist = [players[pid] for pid in order]
        floor = params.floor
        counted = selection.counted
        data = BulkInput(
            rating=np.array([p.rating or 0 for p in plist], dtype=np.int64),
            rated=np.array([p.rating is not None for p in plist], dtype=np.bool_),
            games_before=np.array([p.games for p in plist], dtype=np.int64),
            youth=np.array([youth_on(p, period) for p in plist], dtype=np.bool_),
            reached_2400=np.array([p.reached_2400 for p in plist], dtype=np.bool_),
            inactive_before=np.array([p.status == "inactive" for p in plist], dtype=np.bool_),
            last_game_ordinal=np.array(
                [p.last_game_date.toordinal() if p.last_game_date else 0 for p in plist],
                dtype=np.int64,
            ),
            white=np.array([index[c.game.white] for c in counted], dtype=np.int64),
            black=np.array([index[c.game.black] for c in counted], dtype=np.int64),
            white_score2=np.array(
                [round(scores(c.game.result)[0] * 2) for c in counted], dtype=np.int64
            ),
            white_counts=np.array(
                [c.white_counts and players[c.game.white].rating is not None for c in counted],
                dtype=np.bool_,
            ),
            black_counts=np.array(
                [c.black_counts and players[c.game.black].rating is not None for c in counted],
                dtype=np.bool_,
            ),
            inactive_cutoff_ordinal=self.inactivity_cutoff(period.end, params).toordinal(),
            floor=floor,
        )
        out = rate_rated_fide_2024(data)
        sides = _sides(selection, players)
        results: list[PlayerResult] = []
        for i, player in enumerate(plist):
            if player.rating is None:
                results.append(self._initial(player, sides.get(player.id, []), period, params))
                continue
            hidden_in = sorted({s.tournament.id for s in sides.get(player.id, []) if s.hidden})
            results.append(
                self._rated_result(
                    player,
                    k=int(out.k[i]),
                    rule=int(out.k_rule[i]),
                    reduced=bool(out.k_reduced[i]),
                    n=int(out.games[i]),
                    score2=int(out.score2[i]),
                    expected_milli_sum=int(out.expected_milli[i]),
                    change=int(out.change[i]),
                    out_of_list=bool(out.out_of_list[i]),
                    inactive=bool(out.inactive[i]),
                    reactivated=bool(out.reactivated[i]),
                    hidden_in=hidden_in,
                    floor=floor,
                )
            )
        lines: list[GameLine] = []
        for g, c in enumerate(counted):
            w_exp = int(out.white_expected_milli[g])
            ws, bs = scores(c.game.result)
            for pid, opp, s, exp, counts in (
                (c.game.white, c.game.black, ws, w_exp, bool(data.white_counts[g])),
                (c.game.black, c.game.white, bs, 1000 - w_exp, bool(data.black_counts[g])),
            ):
                if not counts:
                    continue
                k = int(out.k[index[pid]])
                lines.append(
                    GameLine(
                        tournament=c.tournament.id,
                        player=pid,
                        opponent=opp,
                        opponent_rating=players[opp].rating,
                        score=s,
                        expected=exp / 1000,
                        change=k * (round(s * 1000) - exp) / 1000,
                        k=k,
                    )
                )
        return self.period_result(results, lines, selection.excluded)

    def rate_unrated(self, period: types.PeriodInput) -> types.PeriodResult:
        """The first-ratings half of ``rate``: a result for every player without a rating
        (8.2, 7.1.4) and every game left out, nothing for the rated players.

        For callers that rate the rated players on arrays themselves (the database's bulk
        path): rated players here are only the opponents of unrated ones. Their games against
        unrated players do not count for them (8.3.1), and unrated players have no game
        lines (none of their games counts for a rating change), so ``rate`` restricted to the
        unrated players gives exactly this result; a test compares the two."""
        params, players, selection = self._prepare(period)
        sides = _sides(selection, players, unrated_only=True)
        return self.period_result(
            (
                self._initial(p, sides.get(p.id, []), period, params)
                for p in players.values()
                if p.rating is None
            ),
            (),
            selection.excluded,
        )

    # -- per player ------------------------------------------------------------------------

    def explain(self, period: types.PeriodInput, player_id: str) -> Explanation:
        """One player, computed with plain Python (no NumPy); agrees with ``rate``."""
        params, players, selection = self._prepare(period)
        if player_id not in players:
            raise EngineInputError("", "player", _("unknown player %(id)r"), {"id": player_id})
        player = players[player_id]
        mine = _sides(selection, players).get(player_id, [])
        if player.rating is None:
            return Explanation(self._initial(player, mine, period, params), ())
        counted = [s for s in mine if s.counts]
        n = len(counted)
        k, rule, reduced = k_factor(
            rating=player.rating,
            games_before=player.games,
            reached_2400=player.reached_2400,
            youth=youth_on(player, period),
            n=n,
        )
        lines: list[GameLine] = []
        delta_sum = exp_sum = 0
        for s in counted:
            assert s.opponent.rating is not None
            exp, delta = game_delta_milli(player.rating, s.opponent.rating, s.score)
            exp_sum += exp
            delta_sum += delta
            lines.append(
                GameLine(
                    tournament=s.tournament.id,
                    player=player_id,
                    opponent=s.opponent.id,
                    opponent_rating=s.opponent.rating,
                    score=s.score,
                    expected=exp / 1000,
                    change=k * delta / 1000,
                    k=k,
                )
            )
        change = round_half_up_milli(k * delta_sum)  # 8.3.4
        floor = params.floor
        out_of_list = player.rating + change < floor  # 7.2.1
        cutoff = self.inactivity_cutoff(period.end, params)
        stale = player.last_game_date is not None and player.last_game_date <= cutoff
        inactive = n == 0 and not out_of_list and (player.status == "inactive" or stale)
        result = self._rated_result(
            player,
            k=k,
            rule=rule,
            reduced=reduced,
            n=n,
            score2=round(sum(s.score for s in counted) * 2),
            expected_milli_sum=exp_sum,
            change=change,
            out_of_list=out_of_list,
            inactive=inactive,
            reactivated=n > 0 and player.status == "inactive",
            hidden_in=sorted({s.tournament.id for s in mine if s.hidden}),
            floor=floor,
        )
        return Explanation(result, tuple(lines))


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "fide-2024/2"
REGULATION = Fide2024(version=VERSION)
