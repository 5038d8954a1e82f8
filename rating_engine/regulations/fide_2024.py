"""``fide-2024``: FIDE Rating Regulations B.02, in force 1 March 2024.

Source: ../shared/seeds/003_*.txt (Spanish translation), digest in RULESETS.md.
Rated players go through the NumPy bulk path (``rating_engine.bulk``); ``explain`` recomputes
one player with plain Python and must agree with it (a property test checks this). First
ratings (8.2) are computed per player in both paths. Decisions the text leaves open are
marked DECISION and collected in docs/engine.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import ClassVar, TypedDict, Unpack

import numpy as np

from .. import types
from ..bulk import (
    K_RULE_REACHED_2400,
    K_RULE_UNDER_30_GAMES,
    K_RULE_UNDER_2400,
    K_RULE_YOUTH,
    BulkInput,
    rate_rated_fide_2024,
)
from ..common import (
    add_months,
    decided_match_games,
    excluded,
    one_year_before,
    pool_prior_results,
    scores,
    unplayed_decision,
    until_end_of_year_of_age,
    validate_period,
    window_start,
)
from ..errors import EngineInputError
from ..rounding import p_hundredths, round_half_up, round_half_up_milli
from ..tables import dp_for_hundredths, expected_milli
from ..types import Decision, GameLine, PlayerInput, PlayerResult, TournamentInput
from . import base
from .base import Explanation, Registration, Rule

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

TABLE = "fide-2024"


def _(s: str) -> str:
    return s


_K_ARTICLE = {
    K_RULE_REACHED_2400: "8.3.3",
    K_RULE_UNDER_30_GAMES: "8.3.3",
    K_RULE_YOUTH: "8.3.3",
    K_RULE_UNDER_2400: "8.3.3",
}
_K_WHY = {
    K_RULE_REACHED_2400: _("K = 10: the published rating has reached 2400"),
    K_RULE_UNDER_30_GAMES: _("K = 40: fewer than 30 rated games completed (%(games)s)"),
    K_RULE_YOUTH: _("K = 40: under 2300 until the end of the year of the 18th birthday"),
    K_RULE_UNDER_2400: _("K = 20: rating below 2400"),
}


# --------------------------------------------------------------------------- reporting dates

CLOSING_DAYS = 3  # 7.1.3: a list's closing date is 3 days before the list (the 1st)
# 9.1: "si quedan cinco días o menos desde el último día del torneo hasta el final del mes,
# quedará para la siguiente lista" (Regulation.month_end_allowance counts the days).
MONTH_END_ALLOWANCE_DAYS = 5
REPORT_LISTS = 3  # 9.1: not rated unless in time for the third list after its end
_FLOOR = 1400  # 7.1.4, 7.2.1: the lowest rating published (parameter "floor")


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


# --------------------------------------------------------------------------- per-game maths


def game_delta_milli(rating: int, opponent: int, score: float, cap: int = 400) -> tuple[int, int]:
    """(expected, score - expected) in thousandths for one game (8.3.1, 8.3.2 a-b)."""
    d = max(-cap, min(cap, rating - opponent))  # 8.3.1: over 400 counts as 400
    exp = expected_milli(d, TABLE)
    return exp, round(score * 1000) - exp


def k_factor(
    *, rating: int, games_before: int, reached_2400: bool, youth: bool, n: int
) -> tuple[int, int, bool]:
    """(K, K_RULE_*, reduced by the 700 rule) for a rated player (8.3.3).

    DECISION: the order is 10 (reached 2400, "for ever") > 40 under 30 games > 40 youth
    under 2300 > 20; K is fixed by the state at the start of the period (the list in force
    publishes it), and n of the 700 rule is the number of games rated in this period.
    """
    if reached_2400 or rating >= 2400:
        rule, k = K_RULE_REACHED_2400, 10
    elif games_before < 30:
        rule, k = K_RULE_UNDER_30_GAMES, 40
    elif youth and rating < 2300:
        rule, k = K_RULE_YOUTH, 40
    else:
        rule, k = K_RULE_UNDER_2400, 20
    if n * k > 700:
        return 700 // n, rule, True
    return k, rule, False


def youth_on(player: PlayerInput, period: types.PeriodInput) -> bool:
    # 8.3.3: "until the end of the year in which they turn 18"; DECISION: judged on the first
    # day of the period (the list whose K applies).
    return until_end_of_year_of_age(player.birth_date, 18, period.start)


# --------------------------------------------------------------------------- game selection


@dataclass(frozen=True, slots=True)
class _Counted:
    tournament: TournamentInput
    game: types.Game
    white_counts: bool  # rated for white (black is a rated opponent for him)
    black_counts: bool
    white_hidden: bool  # 8.2.4: white counts as unrated for his opponents here
    black_hidden: bool


@dataclass(frozen=True, slots=True)
class _Selection:
    counted: tuple[_Counted, ...]
    excluded: tuple[types.Excluded, ...]


def _hidden(player: PlayerInput, tournament: TournamentInput) -> bool:
    """8.2.4: a player whose first rating was published after this tournament ended is rated
    in it as a rated player but counts as unrated for his opponents.
    DECISION: "before the tournament is rated" = the tournament ended before the first list
    carrying his rating (``rated_since``)."""
    return (
        player.rating is not None
        and player.rated_since is not None
        and tournament.end_date is not None
        and tournament.end_date < player.rated_since
    )


def _select(period: types.PeriodInput, players: Mapping[str, PlayerInput], art: str) -> _Selection:
    counted: list[_Counted] = []
    out: list[types.Excluded] = []
    for tournament in period.tournaments:
        late = decided_match_games(tournament) if tournament.system == "match" else set()
        for index, game in enumerate(tournament.games):
            w, b = players[game.white], players[game.black]
            reason = unplayed_decision(game, f"{art} 5.1")  # 5.1: unplayed games not rated
            if (
                reason is None
                and tournament.system == "match"
                and (w.rating is None or b.rating is None)
            ):
                # 6.1: individual matches with an unrated player are not rated.
                reason = Decision(
                    "match_with_unrated", f"{art} 6.1", _("individual match with an unrated player")
                )
            if reason is None and index in late:
                # 6.2: games after a fixed-length match is decided are not rated.
                reason = Decision(
                    "match_decided",
                    f"{art} 6.2",
                    _("played after the match of %(length)s games was decided"),
                    {"length": tournament.match_length},
                )
            w_hidden, b_hidden = _hidden(w, tournament), _hidden(b, tournament)
            w_visible = w.rating is not None and not w_hidden
            b_visible = b.rating is not None and not b_hidden
            if reason is None and not (w_visible or b_visible):
                # 8.3.1 / 8.2.2: games count only against rated opponents.
                reason = Decision(
                    "no_rated_player", f"{art} 8.3.1", _("neither player is rated (for the other)")
                )
            if reason is not None:
                out.append(excluded(tournament, game, reason))
                continue
            counted.append(_Counted(tournament, game, b_visible, w_visible, w_hidden, b_hidden))
    return _Selection(tuple(counted), tuple(out))


# --------------------------------------------------------------------------- the regulation


@dataclass(frozen=True, slots=True)
class _Side:
    """One counted game from one player's side."""

    tournament: TournamentInput
    opponent: PlayerInput
    score: float
    counts: bool  # against a rated opponent (counts for his rating)
    hidden: bool  # he counted as unrated for this opponent (8.2.4)


def _sides(
    selection: _Selection, players: Mapping[str, PlayerInput], *, unrated_only: bool = False
) -> dict[str, list[_Side]]:
    """Each player's counted games from his side (``unrated_only``: only players without a
    rating get an entry, for a first-ratings-only pass)."""
    out: dict[str, list[_Side]] = {}
    for c in selection.counted:
        ws, bs = scores(c.game.result)
        w, b = players[c.game.white], players[c.game.black]
        if not unrated_only or w.rating is None:
            out.setdefault(w.id, []).append(
                _Side(c.tournament, b, ws, c.white_counts, c.white_hidden)
            )
        if not unrated_only or b.rating is None:
            out.setdefault(b.id, []).append(
                _Side(c.tournament, w, bs, c.black_counts, c.black_hidden)
            )
    return out


class _RatedFacts(TypedDict):
    """What a rated player's period decided, as :meth:`Fide2024.rated_notes` words it."""

    k: int
    rule: int
    reduced: bool
    n: int
    out_of_list: bool
    inactive: bool
    reactivated: bool
    hidden_in: Sequence[str]
    floor: int


class Fide2024(base.Regulation):
    id: ClassVar[str] = "fide-2024"
    title: ClassVar[str] = "FIDE Rating Regulations B.02 (1 March 2024)"
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
        ),
        composition=None,  # 8.2.1 (a first tournament scoring zero) applies when rating
    )
    defaults: ClassVar[Mapping[str, object]] = {
        "floor": _FLOOR,  # 7.1.2, 7.2.1, 7.1.4
        "initial_max": 2200,  # 8.2.3
        "initial_min_games": 5,  # 7.1.4
        "pool_months": 26,  # 7.1.4
        "inactivity_months": 12,  # 7.2.2 a ("one year")
    }

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = super().validate_parameters(parameters)
        for key, value in out.items():
            if isinstance(value, int) and value < 0:
                raise EngineInputError(
                    "parameters", key, _("must not be negative (got %(value)s)"), {"value": value}
                )
        return out

    # -- shared pieces --------------------------------------------------------------------

    def _prepare(
        self, period: types.PeriodInput
    ) -> tuple[Mapping[str, object], dict[str, PlayerInput], _Selection]:
        params = self.validate_parameters(period.parameters)
        players = validate_period(period)
        return params, players, _select(period, players, self.id)

    def inactivity_cutoff(self, period_end: date, params: Mapping[str, object]) -> date:
        """7.2.2 a: a rated player whose last rated game is on or before this day (and who has
        none in the period ending on ``period_end``) becomes inactive."""
        # 7.2.2 a: inactive after no rated game "in one year". DECISION: the year is the
        # 12 months ending on the last day of the period; a last game on or before the same
        # day a year earlier (and none in the period) starts inactivity.
        months = int(params["inactivity_months"])  # type: ignore[call-overload]
        return one_year_before(period_end) if months == 12 else add_months(period_end, -months)

    def rated_notes(
        self,
        player: PlayerInput,
        *,
        k: int,
        rule: int,
        reduced: bool,
        n: int,
        rating_after: int,
        out_of_list: bool,
        inactive: bool,
        reactivated: bool,
        hidden_in: Sequence[str],
        floor: int,
    ) -> tuple[Decision, ...]:
        """The notes that explain a rated player's result (K lowered by the 700 rule, a game
        not counted for his opponents under 8.2.4, below the floor, inactive, active again),
        in this order; the database's bulk path words its rows with them too."""
        art = self.id
        notes: list[Decision] = []
        if reduced:
            notes.append(
                Decision(
                    "k_700",
                    f"{art} 8.3.3",
                    _("K lowered to %(k)s: %(games)s games x K may not exceed 700"),
                    {"k": k, "games": n},
                )
            )
        for tournament in hidden_in:
            notes.append(
                Decision(
                    "rated_after_first_list",
                    f"{art} 8.2.4",
                    _("%(tournament)s: rated with his rating, unrated for his opponents"),
                    {"tournament": tournament},
                )
            )
        if out_of_list:
            notes.append(
                Decision(
                    "below_floor",
                    f"{art} 7.2.1",
                    _("rating %(rating)s below %(floor)s: listed as unrated from now on"),
                    {"rating": rating_after, "floor": floor},
                )
            )
        if inactive:
            last = player.last_game_date.isoformat() if player.last_game_date else "-"
            notes.append(
                # An inactive player without a game in the period stays inactive whenever his
                # last game was; a rated one becomes inactive a year after his last game.
                Decision(
                    "inactive",
                    f"{art} 7.2.2",
                    _("still inactive: no rated game in this period (last: %(last)s)"),
                    {"last": last},
                )
                if player.status == "inactive"
                else Decision(
                    "inactive",
                    f"{art} 7.2.2",
                    _("no rated game in one year (last: %(last)s): inactive"),
                    {"last": last},
                )
            )
        if reactivated:
            notes.append(
                Decision("reactivated", f"{art} 7.2.2", _("rated game played: active again"))
            )
        return tuple(notes)

    def _rated_result(
        self,
        player: PlayerInput,
        *,
        score2: int,
        expected_milli_sum: int,
        change: int,
        **facts: Unpack[_RatedFacts],
    ) -> PlayerResult:
        assert player.rating is not None
        rating_after = player.rating + change
        k, rule, n = facts["k"], facts["rule"], facts["n"]
        out_of_list = facts["out_of_list"]
        status = "out_of_list" if out_of_list else "inactive" if facts["inactive"] else "rated"
        return PlayerResult(
            id=player.id,
            rating_before=player.rating,
            rating_after=None if out_of_list else rating_after,
            change=change,
            k=k,
            k_article=f"{self.id} {_K_ARTICLE[rule]}",
            games=n,
            score=score2 / 2,
            expected=expected_milli_sum / 1000,
            status=status,
            notes=(
                Decision(
                    "k",
                    f"{self.id} {_K_ARTICLE[rule]}",
                    _K_WHY[rule],
                    {"games": player.games} if rule == K_RULE_UNDER_30_GAMES else {},
                ),
                *self.rated_notes(player, rating_after=rating_after, **facts),
            ),
        )

    def _initial(
        self,
        player: PlayerInput,
        sides: Sequence[_Side],
        period: types.PeriodInput,
        params: Mapping[str, object],
    ) -> PlayerResult:
        """First rating of an unrated player (8.2, 7.1.4)."""
        art = self.id
        notes: list[Decision] = []
        floor = int(params["floor"])  # type: ignore[call-overload]
        # 7.1.4: results pooled over consecutive periods spanning at most 26 months.
        # DECISION: the window is the 26 months ending on the last day of this period;
        # results of tournaments that ended earlier are dropped (undated results are kept).
        since = window_start(period.end, int(params["pool_months"]))  # type: ignore[call-overload]
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
        needed = int(params["initial_min_games"])  # type: ignore[call-overload]
        fields: dict[str, object] = {
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
            return PlayerResult(rating_after=None, status="unrated", notes=tuple(notes), **fields)  # type: ignore[arg-type]
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
        initial_max = int(params["initial_max"])  # type: ignore[call-overload]
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
                performance=float(performance), **fields,  # type: ignore[arg-type]
            )  # fmt: skip
        return PlayerResult(
            rating_after=ru, status="new", notes=tuple(notes),
            performance=float(performance), **fields,  # type: ignore[arg-type]
        )  # fmt: skip

    # -- bulk ------------------------------------------------------------------------------

    def rate(self, period: types.PeriodInput) -> types.PeriodResult:
        params, players, selection = self._prepare(period)
        order = list(players)
        index = {pid: i for i, pid in enumerate(order)}
        plist = [players[pid] for pid in order]
        floor = int(params["floor"])  # type: ignore[call-overload]
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
        floor = int(params["floor"])  # type: ignore[call-overload]
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
