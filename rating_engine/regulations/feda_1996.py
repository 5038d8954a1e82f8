"""``feda-1996``: the Spanish federation (FEDA) Elo rules in force from 1 January 1996,
seed ``000_12491a826bedc81d.txt``; digest in RULESETS.md ``feda-1996``.

The same average-based method as ``fide-2000`` (this module subclasses it), with:
- a round robin rates a player against the whole tournament's average: D = R - Ra,
  We = PD x (n + 1) - 0.5 (9.53), Ra as in 9.21b when unrated players take part (9.51);
- K 25 / 15 / 10 with 2200 as the threshold (9.53a);
- ratings rounded to the nearest 5 or 0 (9.32, 9.55) and a floor of 1805 (8.12, 8.21);
- first ratings pooled over the same and the next 3 periods (8.14c), 1805 in 9.31/9.32;
- unrated players discarded only when scoring zero (7.1), 4 rated opponents in a Swiss (7.42);
- national championships: all rounds played and at least 50% -> at least 1805 (9.4);
- foreign players not affiliated to FEDA count with their FIDE rating (9.56);
- semestral lists (8.11), inactive players shown in the next 3 lists (8.22b).
Table 1.4 of the seed has typos (RULESETS.md); the engine uses the FIDE table A, as decided
there (``tables.py``, table id ``feda-1996``).

Decisions where the text is open (also in docs/engine.md, "feda-1996"); the ``fide-2000``
module's decisions apply as well:
- 9.51 refers to "9.21.c", which does not exist: it is 9.21b.
- 9.32 "Solamente R(n) = 1805" reads "R(n) >= 1805" (8.12, 8.21).
- 7.31 "if the event has 10 players" reads "fewer than 10", as FIDE 6.31.
- A double round robin expects each cycle: We = cycles x (PD x (n + 1) - 0.5), n opponents.
- FEDA has no article for games after a match is decided (FIDE 6.5): they are rated.
- 7.33: national, regional and provincial round robin championships are rated with 3 rated
  players; they are the ``kind``s of ``facts.competition`` ("national_championship",
  "regional_championship", "provincial_championship"; a national one may also be marked with
  ``national_championship`` alone).
- 9.4 applies to a National Championship (``national_championship``), Swiss or round robin:
  the player has no unplayed game and a game in every round (every round number present in the
  tournament; with unnumbered rounds, as many games as anybody). His performance there is
  recomputed over all his games with unrated opponents at 1800 (Rc their plain average,
  9.22/9.23), pooled as in 9.3 with his other results, 9.31 included (decided reading: the
  first performance ever, if under 1805, is ignored, even when it is the championship's),
  rounded to 5; he gets the larger of that and 1805, even with fewer than 9 games (9.4
  overrides 8.14). At 100% the championship gives no performance (9.1) and nothing of it is
  pooled; 9.4 still gives him 1805.
- 9.56: a non-affiliated player is not rated by FEDA; without a FIDE rating he counts as
  unrated for his opponents.
- A player who got his FEDA rating after a tournament ended counts as unrated for his
  opponents in it (as fide-2000 10.4; FEDA has no article, cited as 9.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from ..common import _, scores
from ..rounding import round_to_5
from ..types import Decision, PlayerInput, TournamentInput
from . import base
from .base import CompositionFacts, DoubleRoundRobinQuorum, Rule, Semesters, SmallRoundRobin
from .fide_2000.method import AverageMethod
from .fide_2000.state import _Event, _Performance, _q, _State

__all__ = ["REGULATION", "Feda1996"]

#: 9.4: unrated opponents count as 1800 for the national championship rule.
_CHAMPIONSHIP_UNRATED = 1800
#: 1.1: an "Arbitro Titulado": FIDE's arbiter titles (International Arbiter, FIDE Arbiter,
#: National Arbiter) direct events of every level.
ARBITER_TITLES = ("IA", "FA", "NA")


class Feda1996(AverageMethod[base.NoParameters]):
    id: ClassVar[str] = "feda-1996"
    title: ClassVar[str] = "FEDA Elo rules (from 1 January 1996)"
    label: ClassVar[str] = _("FEDA Elo rules of 1996")
    parameters_type = base.NoParameters  # 8.0: semestral; the text leaves nothing to set
    source: ClassVar[str] = "seeds/000_12491a826bedc81d.txt; RULESETS.md feda-1996"
    FLOOR: ClassVar[int] = 1805  # 8.12, 8.21, 9.31, 9.32
    K_THRESHOLD: ClassVar[int] = 2200  # 9.53a
    K_FLAG: ClassVar[str] = "reached_2200"
    DISCARD_MAX: ClassVar[float] = 0.0  # 7.1: scoring zero
    MIN_RATED_OPPONENTS: ClassVar[int] = 4  # 7.42
    CHAMPIONSHIP_RATED: ClassVar[int] = 3  # 7.33
    CHAMPIONSHIP_RATED_WOMEN: ClassVar[int] = 3
    POOL_PERIODS: ClassVar[int] = 3  # 8.14c
    INACTIVE_LISTS: ClassVar[int] = 3  # 8.22b
    MATCH_RULE: ClassVar[bool] = False
    facts: ClassVar[base.Facts] = base.Facts(
        lists=base.ListFacts(
            cycle=Rule("semestral", "feda-1996 8.11"),
            # 8.13: closing dates 30 November and 31 May, so the periods run 1 December-31 May
            # and 1 June-30 November; 8.11: lists of January and July (1 July, 1 January).
            semesters=Rule(Semesters(starts=(12, 6), lists=(7, 1)), "feda-1996 8.13"),
            closing_days=None,  # 8.13: the closing dates are the periods' last days
            month_end_allowance_days=None,
            publication_floor=Rule(FLOOR, "feda-1996 8.12"),  # 8.12, 8.21
            rating_floor=None,
            protest_days=None,  # no protest article: the office's default
            # 11.1: "Control de los rating de un grupo selecto de jugadores, por ejemplo los 50
            # primeros del ranking"; 11.2: the same rating, year after year, the same strength.
            scale_monitoring=Rule(50, "feda-1996 11.1"),
            # 8.11: "La lista de Enero entra en vigor para torneos cuya fecha de comienzo se
            # halle entre el 1º de Enero y el 30 de Junio. La lista de Julio es efectiva para
            # torneos que comiencen entre el 1º de Julio y el 31 de Diciembre": the list in
            # force on each tournament's start date.
            list_in_force_at_start=Rule(True, "feda-1996 8.11"),
        ),
        reporting=base.ReportingFacts(
            registration=None,  # no registration article: the rating system's default
            report_due_days=Rule(14, "feda-1996 10.1"),  # 10.11: within two weeks
            # 8.13a: after the closing date, the next list; 10.14: more than one period late,
            # refused.
            report_lists=Rule(2, "feda-1996 10.14"),
            ascii_file_over_players=Rule(40, "feda-1996 10.31"),
        ),
        play=base.PlayFacts(
            # 2.2 (guillotine): at least an hour per player (2.22, 2.3).
            minimum_minutes=Rule((base.MinimumTime(0, 60),), "feda-1996 2.2"),
            first_control_moves=None,
            max_moves_per_hour=Rule(23, "feda-1996 2.1"),
            rounds_per_day=Rule(2, "feda-1996 4.1"),
            hours_per_day=None,
            max_days=None,
            # 5.1: "un periodo inferior a 90 días"; 5.11: longer with FEDA's authorisation.
            authorised_days=Rule(90, "feda-1996 5.1"),
            monthly_report_days=None,
            # 2.3: "con relojes electrónicos, una hora (mínimo) por jugador, podrán ser
            # evaluadas siempre que se añadan 10 segundos (mínimo) ... para cada jugada".
            minimum_increment_seconds=Rule(10, "feda-1996 2.3"),
            # Not in parts (the officer's decision, docs/periods.md "Tournaments in parts"):
            # 5.11 lets FEDA authorise a longer event but names no intermediate report, and
            # 8.11 rates a tournament with the one list in force on its start date; so an
            # authorised long event is rated once, whole, when its report arrives (10.1).
            rated_in_parts=None,
        ),
        composition=CompositionFacts(
            rated_share=Rule(Fraction(1, 3), "feda-1996 7.3"),
            small_round_robin=Rule(SmallRoundRobin(players_under=10, rated=4), "feda-1996 7.31"),
            double_round_robin=Rule(DoubleRoundRobinQuorum(players=6, rated=4), "feda-1996 7.32"),
            championship_rated=Rule(CHAMPIONSHIP_RATED, "feda-1996 7.33"),
            unrated_discard_max=Rule(DISCARD_MAX, "feda-1996 7.1"),
            unrated_min_rated_opponents=Rule(MIN_RATED_OPPONENTS, "feda-1996 7.42"),
        ),
        # 7.33: "Los campeonatos Nacionales, Autonómicos y Provinciales, jugados por sistema
        # liga, deberán ser computados si al menos 3 participantes tienen Rating oficial".
        competition=base.CompetitionFacts(
            kinds=Rule(
                (
                    base.CompetitionKind(
                        "national_championship",
                        _("National championship"),
                        championship_rated=CHAMPIONSHIP_RATED,
                        national=True,
                    ),
                    base.CompetitionKind(
                        "regional_championship",
                        _("Regional (autonomous community) championship"),
                        championship_rated=CHAMPIONSHIP_RATED,
                    ),
                    base.CompetitionKind(
                        "provincial_championship",
                        _("Provincial championship"),
                        championship_rated=CHAMPIONSHIP_RATED,
                    ),
                ),
                "feda-1996 7.33",
            ),
        ),
        # 8.12a: "Número de identidad FEDA. Apellidos y nombre. Título FIDE o FEDA. Federación
        # Territorial. Rating Vigente. Fecha de nacimiento. Situación del jugador (activo o
        # inactivo). Número de partidas computadas en el periodo." The FIDE ID goes next to
        # the FEDA ID in every download (issue 24). 8.22b: inactive players appear in the
        # next 3 lists, then are published apart, "junto con la lista de jugadores activos".
        list_layout=base.ListLayout(
            columns=Rule(
                ("fed_id", "name", "title", "region", "rating", "birth_date", "activity", "games"),
                "feda-1996 8.12a",
            ),
            inactive_apart_after=Rule(3, "feda-1996 8.22b"),
        ),
        decisions=base.DecisionFacts(
            # 10.13: "el informe corregido deberá remitirse ... dentro de las cuatro semanas
            # siguientes a la fecha de devolución".
            correction_days=Rule(28, "feda-1996 10.13"),
            # 5.11: "Los torneos con duración superior a 90 días pueden evaluarse con
            # autorización previa de la FEDA".
            authorise_long_event=Rule(True, "feda-1996 5.11"),
        ),
        # 1.1: "los torneos deberán ser dirigidos por un Arbitro Titulado, siendo la categoría
        # del mismo equiparable a la de la competición a disputar"; the levels of 1.11 (national
        # and international), 1.12 (autonómica) and 1.13 (provincial). Decided: a higher
        # category directs a lower level (docs/arbiters.md "Arbiters and organisers").
        arbiters=base.ArbiterFacts(
            directed_by=Rule(
                (
                    base.ArbiterLevel(
                        "national",
                        _("National or international (1.11)"),
                        titles=ARBITER_TITLES,
                        categories=("national",),
                    ),
                    base.ArbiterLevel(
                        "regional",
                        _("Regional, autonomous community (1.12)"),
                        titles=ARBITER_TITLES,
                        categories=("national", "regional"),
                    ),
                    base.ArbiterLevel(
                        "provincial",
                        _("Provincial (1.13)"),
                        titles=ARBITER_TITLES,
                        categories=("national", "regional", "provincial"),
                    ),
                ),
                "feda-1996 1.1",
            ),
        ),
    )
    ART: ClassVar[Mapping[str, str]] = {
        "forfeit": "6.1",
        "discard": "7.1",
        "rr_third": "7.3",
        "rr_small": "7.31",
        "rr_double": "7.32",
        "championship": "7.33",
        "swiss_unrated": "7.4",
        "swiss_rated": "7.41",
        "min_opponents": "7.42",
        "rr_as_swiss": "7.43",
        "match": "7.4",
        "list": "8.11",
        "publish": "8.12",
        "min_games": "8.14",
        "pool_window": "8.14c",
        "out_of_list": "8.21",
        "inactive": "8.22a",
        "inactive_flag": "8.22b",
        "inactive_gone": "8.22b",
        "active_again": "8.22c",
        "dp_undefined": "9.1",
        "rc_swiss": "9.21a",
        "rc_rr": "9.21b",
        "ru_50": "9.22",
        "ru_above": "9.23",
        "ru_below_swiss": "9.24",
        "ru_below_rr": "9.25",
        "rn": "9.3",
        "first_low": "9.31",
        "rn_floor": "9.32",
        "championship_floor": "9.4",
        "rated_since": "9.2",
        "rc": "9.51",
        "cap": "9.51",
        "pd": "9.52",
        "we": "9.53",
        "k": "9.53a",
        "sum": "9.54",
        "round": "9.55",
        "foreign": "9.56",
    }

    def months_per_list(self, params: base.NoParameters) -> int:
        return 6  # 8.0, 8.11: January and July lists

    def round_rating(self, x: Fraction) -> int:
        return round_to_5(x)  # 9.32, 9.55: nearest 5 or 0

    def rates_player(self, p: PlayerInput) -> bool:
        return p.affiliated  # 9.56: non-affiliated foreigners only count for their opponents

    def not_rated_note(self, p: PlayerInput) -> Decision:
        return Decision(
            "not_affiliated",
            self.art("foreign"),
            _(
                "not affiliated to FEDA: not rated; counts for his opponents with his FIDE "
                "rating %(fide)s"
            ),
            {"fide": p.fide_rating if p.fide_rating is not None else "(none: unrated)"},
        )

    def own_rating(self, p: PlayerInput) -> int | None:
        if not p.affiliated:
            return None
        return super().own_rating(p)

    def opponent_rating(self, p: PlayerInput, t: TournamentInput) -> int | None:
        if not p.affiliated:
            return p.fide_rating  # 9.56: his FIDE rating
        return super().opponent_rating(p, t)

    def rr_rc(self, ra: Fraction, rating: int, opponents: int) -> tuple[Fraction, str]:
        return ra, self.art("rc")  # 9.51/9.52: D = R - Ra, the whole tournament's average

    def rr_expected_milli(self, pd_milli: int, games: int, opponents: int) -> int:
        return pd_milli * (opponents + 1) - 500  # 9.53: We = PD x (n + 1) - 0.5

    def championship_need(self, t: TournamentInput, women: bool) -> int | None:
        # 7.33: national, regional and provincial round robin championships, 3 rated (the
        # kinds of ``facts.competition``; a national one may also come as the flag).
        kind = self.facts.competition.kind(t.kind)
        if kind is not None and kind.championship_rated is not None:
            return kind.championship_rated
        if t.national_championship:
            return self.CHAMPIONSHIP_RATED
        return None

    def _inactive_after(self, params: Mapping[str, object]) -> Decision:
        return Decision(
            "inactive_separate",
            self.art("inactive_gone"),
            _("inactive for more than %(lists)s lists: published separately as inactive"),
            params,
        )

    def _championship_floor(self, event: _Event, state: _State) -> None:
        """9.4: an unrated player who plays every round of a National Championship and
        scores at least 50% gets at least 1805; unrated opponents count as 1800."""
        t, order, played, opp_value = event.t, event.order, event.played, event.opp_value
        players, unrated, notes = state.players, state.unrated, state.notes
        if not t.national_championship:
            return
        rounds = {g.round for g in t.games}
        most = max(
            (sum(1 for g in t.games if pid in (g.white, g.black)) for pid in players), default=0
        )
        for pid, tally in unrated.items():
            all_games = [g for g in t.games if pid in (g.white, g.black)]
            mine = [g for g in played if pid in (g.white, g.black)]
            if not mine or len(mine) != len(all_games):
                continue  # an unplayed game: not every round played
            if rounds != {0}:
                if not rounds <= {g.round for g in mine}:
                    continue
            elif len(mine) < most:
                continue
            n = len(mine)
            w = 0.0
            total = 0
            for g in mine:
                ws, bs = scores(g.result)
                opp, score = (g.black, ws) if g.white == pid else (g.white, bs)
                value = opp_value[opp]
                total += value if value is not None else _CHAMPIONSHIP_UNRATED
                w += score
            if 2 * w < n:
                continue
            tally.qualified.append(t.id)
            if self._indeterminate(n, w):
                # 9.1: 100% has no d(p): no performance to pool; 9.4 still gives 1805.
                notes[pid].append(self._no_performance(t.id, n, w))
                continue
            rc = Fraction(total, n)
            ru = rc + Fraction(25, 2) * (round(2 * w) - n)  # 9.22 / 9.23
            tally.championship.append(
                _Performance(t.id, t.end_date, order, n, w, rc, ru, self.art("championship_floor"))
            )

    def _floor_rating(
        self, average: Fraction | None, params: Mapping[str, object]
    ) -> tuple[int, Decision]:
        if average is None:
            # 9.4: nothing left to pool (9.1 at 100%, or 9.31): 1805.
            return self.FLOOR, Decision(
                "championship_floor",
                self.art("championship_floor"),
                _(
                    "national championship, every round played with at least 50%%: no "
                    "performance to pool -> %(rating)s"
                ),
                {**params, "rating": self.FLOOR},
            )
        rn = self.round_rating(average)
        rating = max(self.FLOOR, rn)
        return rating, Decision(
            "championship_floor",
            self.art("championship_floor"),
            _(
                "national championship, every round played with at least 50%%: Rn "
                "%(rn)s (unrated opponents at 1800) -> %(rating)s (at least 1805)"
            ),
            {**params, "rn": _q(average), "rating": rating},
        )


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "feda-1996/4"
REGULATION = Feda1996(version=VERSION)
