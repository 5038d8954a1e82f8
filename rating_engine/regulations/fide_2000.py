"""``fide-2000``: FIDE Rating Regulations of the GA '94-2003 era (Spanish translation),
seed ``001_914368713da0b3e8.txt``; digest in RULESETS.md ``fide-2000``.

The method works on averages, not on games: a rated player's change per tournament is
K(W - We) with We = PD x n and PD read for D = R - Rc, Rc the opponents' average (10.5x);
a first rating is the games-weighted average of tournament performances Ru (10.2-10.3).
``feda-1996`` (Spanish federation, 1996) is the same method with other numbers; it subclasses
this module's class and only changes the constants and the round robin expectation.

Decisions where the text is open (also in docs/engine.md, "fide-2000"):
- Non-integer differences (D = R - Rc with Rc an average) are rounded to the nearest integer,
  halves up, before the table B look-up (tables.py); Rc, Ra and Ru are kept exact.
- The 350 cap of 10.51 is written in the Swiss/team/match paragraph: it applies there, to each
  opponent before averaging; a round robin uses the tournament average of 10.51, uncapped.
- A round robin is rated as a round robin only when every pair of its players (after 6.1)
  met the same number of times over the board; otherwise it is rated as a Swiss (6.43).
- 6.1 / 6.3x are checked in that order: an unrated player discarded by 6.1 no longer counts
  for the composition of 6.3-6.33. A failing composition leaves the whole tournament unrated.
- 6.33 "3 men (2 women)": a national round robin championship is rated with 3 rated players,
  with 2 if every player is a woman (``sex`` "F" or "W").
- 6.1 / 6.42 look at the unrated player's score and rated opponents over his games played
  over the board in that tournament; 6.42 counts distinct rated opponents.
- p of 1.00 / .00 has no dp (10.1). Where a dp is still needed (the rated players' dpa of
  10.21b, a p rounded to .00) the last printed value is used: +677 / -677.
- 10.1 (RULESETS.md "Decided readings"): an unrated player whose games against rated opponents
  in a tournament are all lost, or all won, has no performance from it: nothing of it is
  pooled (also in a round robin, where his p covers unrated opponents too; and for pooled
  earlier tournaments). 6.1 may keep him in when he scored against unrated players.
- 10.1b (decided): a non-integer D (Rc is an average) is rounded on its size, halves up, and
  read in the H or L column (``tables.expected_milli``): 32.5 above .55, 32.5 below .45.
- K is fixed for the whole period from the state at its start (games before the period,
  ``reached_2400``); the list shows it (9.12c).
- Pooled results (``PlayerInput.prior_results``) are grouped by (tournament, end date); each
  group's Ru is recomputed as in a Swiss (10.21a, 10.22-10.24) from the recorded opponent
  ratings. For an earlier round robin with unrated players the service records the tournament
  average Ra (10.21b) as the unrated opponents' rating; its n/(n+1) factor (10.25) is not
  recomputed. Results of tournaments ending before the start of the 7th list before this one
  are too old (9.14c: the same and the 7 following periods).
- 10.31 (decided): "la primera actuacion" is the player's first performance ever: the earliest
  tournament with a performance (end date, then input order), pooled results too old for the
  window included. Once it has left the window no later performance is ignored as the first.
- Inactivity (9.23): ``games_last_12_months`` counts the rated games of the year ending with
  this period that were played before it; the engine adds the period's rated games. A player
  with fewer than 4 is inactive; ``inactive_lists`` counts the lists already published with
  him flagged, so this is list ``inactive_lists + 1`` (of the 7 that show him flagged).
  Unknown is not zero (decided): with ``games_last_12_months`` None and fewer than 4 rated
  games in the period there is no inactivity judgement; he keeps his previous activity and a
  note says the figure is missing. With 4 or more in the period the year has at least 4.
- A rated player below the floor in the input (impossible in a published list) is treated as
  unrated (9.21).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from typing import ClassVar

from ..common import (
    _,
    add_months,
    cap_difference,
    capped_average,
    decided_match_games,
    excluded,
    pool_prior_results,
    scores,
    sorted_tournaments,
    unplayed_decision,
    validate_period,
)
from ..errors import EngineInputError
from ..rounding import p_hundredths, round_half_up, to_milli
from ..tables import dp_for_hundredths, expected_milli
from ..types import (
    Decision,
    Excluded,
    Game,
    GameLine,
    PeriodInput,
    PeriodResult,
    PlayerInput,
    PlayerResult,
    TournamentInput,
)
from .base import (
    CompositionFacts,
    DoubleRoundRobinQuorum,
    DurationLimit,
    Facts,
    ListFacts,
    MinimumTime,
    PlayFacts,
    Regulation,
    ReportingFacts,
    Rule,
    SmallRoundRobin,
    result_unchanged,
)

__all__ = ["REGULATION", "AverageMethod", "Fide2000"]

_SWISS_LIKE = ("swiss", "team", "match")
_ROUND_ROBINS = ("round_robin", "double_round_robin")
_SYSTEMS = _SWISS_LIKE + _ROUND_ROBINS


def _q(x: Fraction | float) -> float:
    """A value for a message: two decimals."""
    return round(float(x), 2)


@dataclass(frozen=True, slots=True)
class _Counted:
    """One game counted for one player."""

    opponent: str
    opponent_rating: int | None  # the value that entered the average (capped in a Swiss)
    score: float


@dataclass(slots=True)
class _RatedTally:
    """A rated player's running sums over the period."""

    milli: int = 0  # sum of K(W - We) in thousandths
    games: int = 0
    score: float = 0.0
    expected_milli: int = 0


@dataclass(frozen=True, slots=True)
class _Performance:
    """One tournament's performance Ru of an unrated player (10.2)."""

    tournament: str
    end: date | None
    order: int
    games: int
    score: float
    rc: Fraction
    ru: Fraction
    article: str


@dataclass(slots=True)
class _Unrated:
    performances: list[_Performance] = field(default_factory=list)
    championship: list[_Performance] = field(default_factory=list)  # feda-1996 9.4
    #: Tournaments where feda-1996 9.4 applies to him (even with no performance there).
    qualified: list[str] = field(default_factory=list)
    games: int = 0
    score: float = 0.0


@dataclass(slots=True)
class _State:
    """What the period's tournaments add to, one after the other."""

    players: Mapping[str, PlayerInput]
    rated: dict[str, _RatedTally]
    unrated: dict[str, _Unrated]
    k_of: Mapping[str, tuple[int, str]]
    notes: dict[str, list[Decision]]
    lines: list[GameLine]
    out: list[Excluded]


@dataclass(frozen=True, slots=True)
class _Event:
    """A tournament being rated: its place in the period, each player's value as an opponent
    in it, its games played over the board (5.1) and whether any game was not."""

    t: TournamentInput
    order: int
    opp_value: Mapping[str, int | None]
    played: Sequence[Game]
    unplayed_any: bool


class AverageMethod(Regulation):
    """The average-based method shared by ``fide-2000`` and ``feda-1996``."""

    #: Lowest published rating (fide-2000 9.12/9.21, feda-1996 8.12/8.21).
    FLOOR: ClassVar[int] = 1801
    #: K = 10 once the published rating reached this with 30 games.
    K_THRESHOLD: ClassVar[int] = 2400
    K_FLAG: ClassVar[str] = "reached_2400"
    #: Unrated players scoring at most this are discarded (6.1: 0 or 1/2).
    DISCARD_MAX: ClassVar[float] = 0.5
    #: Rated opponents an unrated player needs in a Swiss (6.42).
    MIN_RATED_OPPONENTS: ClassVar[int] = 3
    #: Rated players a national round robin championship needs (6.33).
    CHAMPIONSHIP_RATED: ClassVar[int] = 3
    CHAMPIONSHIP_RATED_WOMEN: ClassVar[int] = 2
    #: Periods after the first one over which results are pooled (9.14c).
    POOL_PERIODS: ClassVar[int] = 7
    #: Lists that show an inactive player flagged (9.23b).
    INACTIVE_LISTS: ClassVar[int] = 7
    MIN_GAMES: ClassVar[int] = 9
    CAP: ClassVar[int] = 350
    #: Games of a decided match are left out (6.5); feda-1996 has no such article.
    MATCH_RULE: ClassVar[bool] = True
    #: Article numbers by rule.
    ART: ClassVar[Mapping[str, str]] = {
        "forfeit": "5.1",
        "discard": "6.1",
        "rr_third": "6.3",
        "rr_small": "6.31",
        "rr_double": "6.32",
        "championship": "6.33",
        "swiss_unrated": "6.4",
        "swiss_rated": "6.41",
        "min_opponents": "6.42",
        "rr_as_swiss": "6.43",
        "match": "6.5",
        "list": "9.1",
        "publish": "9.12",
        "min_games": "9.14",
        "pool_window": "9.14c",
        "out_of_list": "9.21",
        "inactive": "9.23a",
        "inactive_flag": "9.23b",
        "inactive_gone": "9.23",
        "active_again": "9.23c",
        "dp_undefined": "10.1",
        "rc_swiss": "10.21a",
        "rc_rr": "10.21b",
        "ru_50": "10.22",
        "ru_above": "10.23",
        "ru_below_swiss": "10.24",
        "ru_below_rr": "10.25",
        "rn": "10.3",
        "first_low": "10.31",
        "rn_floor": "10.32",
        "rated_since": "10.4",
        "rc": "10.51",
        "cap": "10.51",
        "pd": "10.53",
        "we": "10.54",
        "k": "10.54a",
        "sum": "10.55",
        "round": "10.56",
    }
    defaults: ClassVar[Mapping[str, object]] = {"lists_per_year": 4}

    # ------------------------------------------------------------------ hooks

    def art(self, key: str) -> str:
        return self.article(self.ART[key])

    def round_rating(self, x: Fraction) -> int:
        return round_half_up(x)  # 10.32, 10.56: nearest integer

    def months_per_list(self, params: Mapping[str, object]) -> int:
        lists = params["lists_per_year"]
        assert isinstance(lists, int)
        return 12 // lists

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        out = super().validate_parameters(parameters)
        # 9.1: four lists a year; 9.4: monthly lists by decision of the Presidential Board.
        if out["lists_per_year"] not in (4, 12):
            raise EngineInputError(
                "parameters",
                "lists_per_year",
                _("must be 4 (quarterly, 9.1) or 12 (monthly, 9.4) (got %(value)r)"),
                {"value": out["lists_per_year"]},
            )
        return out

    def rates_player(self, p: PlayerInput) -> bool:
        """Whether this regulation rates the player at all (feda-1996 9.56)."""
        return True

    def not_rated_note(self, p: PlayerInput) -> Decision:
        raise AssertionError("fide-2000 rates every player")

    def own_rating(self, p: PlayerInput) -> int | None:
        """The rating the player is rated with (None: unrated; 9.21 below the floor)."""
        if p.rating is None or p.rating < self.FLOOR:
            return None
        return p.rating

    def opponent_rating(self, p: PlayerInput, t: TournamentInput) -> int | None:
        """The rating the player counts with for his opponents in ``t`` (None: unrated)."""
        own = self.own_rating(p)
        if own is None:
            return None
        if p.rated_since is not None and t.end_date is not None and t.end_date < p.rated_since:
            return None  # 10.4: rated for himself, unrated for his opponents
        return own

    def rr_expected_milli(self, pd_milli: int, games: int, opponents: int) -> int:
        """We of a rated player in a round robin (10.54: PD x n)."""
        return pd_milli * games

    def rr_rc(self, ra: Fraction, rating: int, opponents: int) -> tuple[Fraction, str]:
        """Rc of a rated player in a round robin: (Ra(n+1) - R)/n (10.51)."""
        return (ra * (opponents + 1) - rating) / opponents, self.art("rc")

    def championship_need(self, t: TournamentInput, women: bool) -> int | None:
        """Rated players a round robin championship needs, None if ``t`` is not one (6.33)."""
        if not t.national_championship:
            return None
        return self.CHAMPIONSHIP_RATED_WOMEN if women else self.CHAMPIONSHIP_RATED

    def k_factor(self, p: PlayerInput, rating: int) -> tuple[int, str]:
        # 10.54a: 25 until 30 games; 10 once the published rating reached 2400 with 30 games
        # (for ever); 15 otherwise.
        if p.games < 30:
            return 25, _("K = 25: %(games)s games before the period (under 30)")
        if rating >= self.K_THRESHOLD or bool(getattr(p, self.K_FLAG)):
            return 10, _("K = 10: the published rating has reached %(threshold)s")
        return 15, _("K = 15: under %(threshold)s")

    # ------------------------------------------------------------------ rating

    def rate(self, period: PeriodInput) -> PeriodResult:
        params = self.validate_parameters(period.parameters)
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

    # ------------------------------------------------------------------ one tournament

    def _tournament(self, t: TournamentInput, order: int, state: _State) -> None:
        players, rated, unrated = state.players, state.rated, state.unrated
        notes, out = state.notes, state.out
        opp_value = {pid: self.opponent_rating(p, t) for pid, p in players.items()}

        def drop(game: Game, code: str, key: str, template: str, **params: object) -> None:
            out.append(excluded(t, game, Decision(code, self.art(key), template, params)))

        # 5.1: unplayed games (forfeits or any other reason) are not rated.
        played: list[Game] = []
        unplayed_any = False
        late = decided_match_games(t) if t.system == "match" and self.MATCH_RULE else set()
        for i, game in enumerate(t.games):
            decision = unplayed_decision(game, self.art("forfeit"))
            if decision is not None:
                unplayed_any = True
                out.append(excluded(t, game, decision))
            elif i in late:
                # 6.5: games of a fixed-length match played after it was decided.
                drop(game, "match_decided", "match", _("played after the match was decided"))
            else:
                played.append(game)
        event = _Event(t, order, opp_value, tuple(played), unplayed_any)

        # 6.1: an unrated player scoring 0 (or 1/2) - his games are discarded for both sides.
        totals: dict[str, float] = {}
        for game in played:
            ws, bs = scores(game.result)
            totals[game.white] = totals.get(game.white, 0.0) + ws
            totals[game.black] = totals.get(game.black, 0.0) + bs
        discarded = {
            pid
            for pid, total in totals.items()
            if opp_value[pid] is None
            and self.own_rating(players[pid]) is None
            and total <= self.DISCARD_MAX
        }
        for pid in sorted(discarded):
            notes[pid].append(
                Decision(
                    "unrated_low_score",
                    self.art("discard"),
                    _("unrated with %(score)s points in %(tournament)s: results discarded"),
                    {"score": totals[pid], "tournament": t.id},
                )
            )
        kept: list[Game] = []
        for game in played:
            gone = game.white if game.white in discarded else game.black
            if gone in discarded:
                drop(
                    game,
                    "unrated_low_score",
                    "discard",
                    _("%(player)s is unrated and scored %(score)s: discarded"),
                    player=gone,
                    score=totals[gone],
                )
            else:
                kept.append(game)

        round_robin = t.system in _ROUND_ROBINS
        cycles = 0
        entrants = sorted({pid for g in kept for pid in (g.white, g.black)})
        if round_robin and kept:
            # 6.43: a round robin with unplayed games is rated as a Swiss.
            pairs: dict[frozenset[str], int] = {}
            for game in kept:
                key = frozenset((game.white, game.black))
                pairs[key] = pairs.get(key, 0) + 1
            counts = set(pairs.values())
            n = len(entrants)
            complete = len(pairs) == n * (n - 1) // 2 and len(counts) == 1
            if unplayed_any or not complete:
                round_robin = False
                for pid in entrants:
                    if pid in rated or pid in unrated:
                        notes[pid].append(
                            Decision(
                                "round_robin_as_swiss",
                                self.art("rr_as_swiss"),
                                _(
                                    "%(tournament)s: round robin with unplayed games, "
                                    "rated as a Swiss"
                                ),
                                {"tournament": t.id},
                            )
                        )
            else:
                cycles = counts.pop()

        if round_robin and kept:
            failure = self._composition(t, entrants, opp_value, players, cycles)
            if failure is not None:
                for game in kept:
                    out.append(excluded(t, game, failure))
                return
            self._round_robin(event, kept, entrants, cycles, state)
        else:
            self._swiss(event, kept, state)
        self._championship_floor(event, state)

    def _composition(
        self,
        t: TournamentInput,
        entrants: Sequence[str],
        opp_value: Mapping[str, int | None],
        players: Mapping[str, PlayerInput],
        cycles: int,
    ) -> Decision | None:
        """The reason a round robin is not rated (6.3-6.33), or None if it is."""
        n = len(entrants)
        n_rated = sum(1 for pid in entrants if opp_value[pid] is not None)
        params: dict[str, object] = {"tournament": t.id, "players": n, "rated": n_rated}
        women = all(players[pid].sex.strip().upper() in ("F", "W") for pid in entrants)
        need = self.championship_need(t, women)
        if need is not None:
            # 6.33: a national round robin championship is rated with 3 men (2 women) rated.
            if n_rated >= need:
                return None
            params["need"] = need
            return Decision(
                "composition_championship",
                self.art("championship"),
                _(
                    "%(tournament)s: championship with %(rated)s rated players "
                    "(%(need)s needed): not rated"
                ),
                params,
            )
        if 3 * n_rated < n:
            # 6.3: at least a third of the players rated.
            return Decision(
                "composition_third",
                self.art("rr_third"),
                _(
                    "%(tournament)s: %(rated)s of %(players)s players rated, under a third: "
                    "not rated"
                ),
                params,
            )
        if n < 10 and n_rated < 4:
            # 6.31: under 10 players, at least 4 rated.
            return Decision(
                "composition_small",
                self.art("rr_small"),
                _(
                    "%(tournament)s: %(players)s players with %(rated)s rated (4 needed under "
                    "10 players): not rated"
                ),
                params,
            )
        double = cycles >= 2 or t.system == "double_round_robin"
        if double and n_rated < n and (n < 6 or n_rated < 4):
            # 6.32: a double round robin with unrated players: 6 players, 4 of them rated.
            return Decision(
                "composition_double",
                self.art("rr_double"),
                _(
                    "%(tournament)s: double round robin with unrated players needs 6 players, "
                    "4 rated (%(players)s, %(rated)s): not rated"
                ),
                params,
            )
        return None

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
                    t, order, me, n, w, average, None, unrated[me], notes, against_rated=(n, w)
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
                # 10.21b: for an unrated player Rc is the tournament average Ra.
                versus_rated = [c.score for c in counted if c.opponent_rating is not None]
                self._add_performance(
                    t,
                    order,
                    me,
                    n,
                    w,
                    ra,
                    opponents,
                    unrated[me],
                    notes,
                    against_rated=(len(versus_rated), sum(versus_rated)),
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
        against_rated: tuple[int, float],
    ) -> None:
        rated_games, rated_score = against_rated
        if self._indeterminate(rated_games, rated_score):
            # 10.1: for 0 or 100% dp is indeterminate: no performance from this tournament,
            # nothing of it pooled (decided reading, RULESETS.md).
            notes[me].append(self._no_performance(t.id, rated_games, rated_score))
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

    def _no_performance(self, tournament: str, games: int, score: float) -> Decision:
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

    # ------------------------------------------------------------------ results

    def _rated_result(
        self, p: PlayerInput, tally: _RatedTally, k: tuple[int, str], notes: list[Decision]
    ) -> PlayerResult:
        own = self.own_rating(p)
        assert own is not None
        k_value, k_template = k
        k_note = Decision(
            "k",
            self.art("k"),
            k_template,
            {"k": k_value, "games": p.games, "threshold": self.K_THRESHOLD},
        )
        # 10.55: Rn = Ro + sum of the tournament changes; 10.56: rounded.
        exact = own + Fraction(tally.milli, 1000)
        after = self.round_rating(exact)
        all_notes = [k_note, *notes]
        status = "rated"
        rating_after: int | None = after
        if after < self.FLOOR:
            # 9.21: below the floor -> "out of list", unrated from then on.
            all_notes.append(
                Decision(
                    "out_of_list",
                    self.art("out_of_list"),
                    _("%(rating)s is below %(floor)s: out of list, unrated from now on"),
                    {"rating": after, "floor": self.FLOOR},
                )
            )
            status = "out_of_list"
            rating_after = None
        else:
            inactive = self._inactivity(p, tally.games, all_notes)
            if inactive:
                status = "inactive"
        return PlayerResult(
            id=p.id,
            rating_before=p.rating,
            rating_after=rating_after,
            change=after - own,
            k=k_value,
            k_article=self.art("k"),
            games=tally.games,
            score=tally.score,
            expected=tally.expected_milli / 1000,
            status=status,
            notes=tuple(all_notes),
        )

    def _inactivity(self, p: PlayerInput, games: int, notes: list[Decision]) -> bool:
        was = p.status == "inactive"
        before = p.games_last_12_months
        if before is None and games < 4:
            # 9.23a: unknown is not zero (decided reading): without the rated games of the
            # months before the period the year cannot be counted; no judgement, he keeps his
            # previous activity.
            notes.append(
                Decision(
                    "inactivity_unknown",
                    self.art("inactive"),
                    _(
                        "rated games of the 12 months before the period unknown "
                        "(%(games)s in this period): inactivity not judged"
                    ),
                    {"games": games},
                )
            )
            return was
        # With 4 or more rated games in the period the year has at least 4 whatever before is.
        year = (before or 0) + games
        if year >= 4:
            if was:
                # 9.23c: active again after 4 games in a year.
                notes.append(
                    Decision(
                        "active_again",
                        self.art("active_again"),
                        _("%(games)s rated games in a year: active again"),
                        {"games": year},
                    )
                )
            return False
        number = p.inactive_lists + 1 if was else 1
        params = {"games": year, "list": number, "lists": self.INACTIVE_LISTS}
        # 9.23a: fewer than 4 rated games in a year.
        notes.append(
            Decision(
                "inactive",
                self.art("inactive"),
                _("%(games)s rated games in a year (fewer than 4): inactive"),
                params,
            )
        )
        if number <= self.INACTIVE_LISTS:
            notes.append(self._inactive_shown(params))
        else:
            notes.append(self._inactive_after(params))
        return True

    def _inactive_shown(self, params: Mapping[str, object]) -> Decision:
        return Decision(
            "inactive_flagged",
            self.art("inactive_flag"),
            _("shown flagged as inactive (list %(list)s of %(lists)s)"),
            params,
        )

    def _inactive_after(self, params: Mapping[str, object]) -> Decision:
        return Decision(
            "inactive_not_listed",
            self.art("inactive_gone"),
            _(
                "inactive for more than %(lists)s lists: not in the list, rated with "
                "his last rating"
            ),
            params,
        )

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


class Fide2000(AverageMethod):
    id: ClassVar[str] = "fide-2000"
    title: ClassVar[str] = "FIDE Rating Regulations (GA 1994-2003)"
    source: ClassVar[str] = "seeds/001_914368713da0b3e8.txt; RULESETS.md fide-2000"
    facts: ClassVar[Facts] = Facts(
        lists=ListFacts(
            # 9.1: four lists a year; 9.11: each for its quarter. 9.4 allows monthly lists
            # (a rating system's cycle).
            cycle=Rule("quarterly", "fide-2000 9.1"),
            semesters=None,
            # DECISION (9.13, 9.43): 9.13 closes "normalmente un mes antes de la publicación"
            # and 9.43 (monthly lists) "normalmente ... a fin de mes, 30 días antes del nuevo
            # listado". Read literally, a quarter's last month (a month's whole self) would
            # always miss its own list. Both say "normalmente": the office closes a period
            # on its last day, as 9.43's "a fin de mes" does, and fixes no other closing days.
            closing_days=None,
            month_end_allowance_days=None,
            publication_floor=Rule(AverageMethod.FLOOR, "fide-2000 9.21"),  # 9.12, 9.21
            rating_floor=None,
            protest_days=None,  # no protest article: the office's default
        ),
        reporting=ReportingFacts(
            # 7.1 and 8.1 refer to article 7 of B.01 (registration, reports), which the seed
            # does not hold: no registration deadline and no due date of our own; the rating
            # system's registration_days applies (the office's default).
            registration=None,
            report_due_days=None,
            # DECISION (9.13): "las partidas completadas o recibidas después de la fecha de
            # cierre normalmente no serán incluídas en los cómputos para la lista de rating en
            # cuestión" moves a late report to a later list and sets no limit. The office
            # keeps the limit FEDA states (feda-1996 10.14): its own list and the next one,
            # then refused; cited as 9.13, the article that makes a report late.
            report_lists=Rule(2, "fide-2000 9.13"),
            ascii_file_over_players=None,
        ),
        play=PlayFacts(
            # 1.12-1.14: 120 minutes if a player is rated 2200 or more, 90 if 1600, else 60.
            minimum_minutes=Rule(
                (MinimumTime(2200, 120), MinimumTime(1600, 90), MinimumTime(0, 60)),
                "fide-2000 1.1",
            ),
            first_control_moves=None,
            max_moves_per_hour=None,
            rounds_per_day=Rule(3, "fide-2000 3.1"),
            hours_per_day=Rule(12, "fide-2000 3.1"),
            max_days=Rule(DurationLimit(90), "fide-2000 4.1"),
            authorised_days=None,
            monthly_report_days=None,
        ),
        composition=CompositionFacts(
            rated_share=Rule(Fraction(1, 3), "fide-2000 6.3"),
            small_round_robin=Rule(SmallRoundRobin(players_under=10, rated=4), "fide-2000 6.31"),
            double_round_robin=Rule(DoubleRoundRobinQuorum(players=6, rated=4), "fide-2000 6.32"),
            championship_rated=Rule(AverageMethod.CHAMPIONSHIP_RATED, "fide-2000 6.33"),
            unrated_discard_max=Rule(AverageMethod.DISCARD_MAX, "fide-2000 6.1"),
            unrated_min_rated_opponents=Rule(AverageMethod.MIN_RATED_OPPONENTS, "fide-2000 6.42"),
        ),
    )


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "fide-2000/2"
REGULATION = Fide2000(version=VERSION)
