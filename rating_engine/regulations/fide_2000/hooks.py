"""The average method's numbers and hooks: floors, K, article numbers by rule, and what
``feda-1996`` overrides (rounding, the round robin expectation, championships)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from ...common import _
from ...rounding import round_half_up
from ...types import Decision, PlayerInput, TournamentInput
from ..base import InputFacts, ParamsT, Regulation


class AverageHooks(Regulation[ParamsT]):
    """The numbers (fide-2000; feda-1996 sets its own) and the hooks a subclass overrides."""

    # 9.23 (feda-1996 8.22): inactivity counts the rated games of the last twelve months.
    inputs: ClassVar[InputFacts] = InputFacts(games_last_12_months=True)

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
    # ------------------------------------------------------------------ hooks

    def art(self, key: str) -> str:
        return self.article(self.ART[key])

    def round_rating(self, x: Fraction) -> int:
        return round_half_up(x)  # 10.32, 10.56: nearest integer

    @abstractmethod
    def months_per_list(self, params: ParamsT) -> int:
        """Months between two lists (9.1)."""

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

    def opponent_values(
        self, t: TournamentInput, players: Mapping[str, PlayerInput]
    ) -> dict[str, int | None]:
        """The rating each player counts with for his opponents in ``t``. With
        ``t.list_ratings`` (feda-1996 8.11: the list in force on the tournament's start date),
        a player this regulation rates counts with his rating in that list (unrated when not in
        it or below the floor); the others as ``opponent_rating`` says (feda-1996 9.56)."""
        if t.list_ratings is None:
            return {pid: self.opponent_rating(p, t) for pid, p in players.items()}
        listed = {r.id: r.rating for r in t.list_ratings}
        out: dict[str, int | None] = {}
        for pid, p in players.items():
            if not self.rates_player(p):
                out[pid] = self.opponent_rating(p, t)
                continue
            rating = listed.get(pid)
            out[pid] = rating if rating is not None and rating >= self.FLOOR else None
        return out

    def rr_expected_milli(self, pd_milli: int, games: int, opponents: int) -> int:
        """We of a rated player in a round robin (10.54: PD x n)."""
        return pd_milli * games

    def rr_rc(self, ra: Fraction, rating: int, opponents: int) -> tuple[Fraction, str]:
        """Rc of a rated player in a round robin: (Ra(n+1) - R)/n (10.51)."""
        return (ra * (opponents + 1) - rating) / opponents, self.art("rc")

    def championship_need(self, t: TournamentInput, women: bool) -> int | None:
        """Rated players a round robin championship needs, None if ``t`` is not one (6.33):
        its kind's (``facts.competition.kinds``: a women's championship 2), else 3 for a
        national championship; 2 when every player is a woman."""
        kind = self.facts.competition.kind(t.kind)
        if kind is not None and kind.championship_rated is not None:
            need = kind.championship_rated
        elif t.national_championship:
            need = self.CHAMPIONSHIP_RATED
        else:
            return None
        return min(need, self.CHAMPIONSHIP_RATED_WOMEN) if women else need

    def k_factor(self, p: PlayerInput, rating: int) -> tuple[int, str]:
        # 10.54a: 25 until 30 games; 10 once the published rating reached 2400 with 30 games
        # (for ever); 15 otherwise.
        if p.games < 30:
            return 25, _("K = 25: %(games)s games before the period (under 30)")
        if rating >= self.K_THRESHOLD or bool(getattr(p, self.K_FLAG)):
            return 10, _("K = 10: the published rating has reached %(threshold)s")
        return 15, _("K = 15: under %(threshold)s")
