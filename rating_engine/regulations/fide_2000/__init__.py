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
  with 2 if every player is a woman (``sex`` "F" or "W") or its ``kind`` is the women's
  national championship; the kinds are ``facts.competition.kinds``.
- 6.1 / 6.42 look at the unrated player's score and rated opponents over his games played
  over the board in that tournament; 6.42 counts distinct rated opponents.
- p of 1.00 / .00 has no dp (10.1). Where a dp is still needed (the rated players' dpa of
  10.21b, a p rounded to .00) the last printed value is used: +677 / -677.
- 10.1 (RULESETS.md "Decided readings", amended after issue 25): for 0 or 100% dp is
  indeterminate; the score that decides is the one the performance is computed from. In a
  Swiss, team or match (Rc the average of his rated opponents, 10.21a/10.24) an unrated player
  whose games against rated opponents are all lost, or all won, has no performance from it:
  nothing of it is pooled (also for pooled earlier tournaments); 6.1 may keep him in when he
  scored against unrated players. In a round robin (Ra of 10.21b rates the whole field) his
  score over all his games in it decides: 0 of 4 against the rated players and 1 1/2 of 5
  against the unrated ones is 1 1/2 of 9, Ru = Ra + dp(1 1/2 / 9) x n/(n+1) (10.25), pooled.
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

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ...common import _
from ...errors import EngineInputError
from ..base import (
    CompetitionFacts,
    CompetitionKind,
    CompositionFacts,
    DecisionFacts,
    DoubleRoundRobinQuorum,
    DurationLimit,
    Facts,
    ListFacts,
    ListLayout,
    MinimumTime,
    PlayFacts,
    RatedInParts,
    ReportingFacts,
    Rule,
    SmallRoundRobin,
    parameter,
)
from .method import AverageMethod

__all__ = ["REGULATION", "AverageMethod", "Fide2000", "Fide2000Parameters"]


@dataclass(frozen=True, slots=True)
class Fide2000Parameters:
    """A fide-2000 rating system's parameters (``RatingSystem.parameters``)."""

    #: 9.1: four lists a year; 9.4: twelve (monthly lists by decision of the Presidential
    #: Board).
    lists_per_year: int = parameter(4)


class Fide2000(AverageMethod[Fide2000Parameters]):
    id: ClassVar[str] = "fide-2000"
    title: ClassVar[str] = "FIDE Rating Regulations (GA 1994-2003)"
    label: ClassVar[str] = _("FIDE 1994–2003 regulations")
    parameters_type = Fide2000Parameters
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
            # 12.3: the rating administrator must detect any shift of the scale (12.1-12.2: the
            # same rating, year after year, the same strength). The text names no group: the
            # office watches the top 50, as feda-1996 11.1 (its FEDA adaptation) does.
            scale_monitoring=Rule(50, "fide-2000 12.3"),
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
            # 11.31: a computer table as the rating report shows Rar, n, W and W - We; "Para un
            # jugador no rankeado que enfrenta al menos a 3 jugadores rankeados, se debería dar
            # su Ru aunque esté por debajo de 1801".
            rating_report=Rule(3, "fide-2000 11.31"),
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
            # 4.11: "Respecto a las competencias de liga que se extiendan por más de 90 días,
            # las listas efectivas de rating se aplicarán a las partidas jugadas dentro de sus
            # respectivos períodos de rating": a league over 4.1's 90 days is allowed and each
            # game is rated with the list of its own period; any other event over 90 days is
            # still 4.1's error.
            rated_in_parts=Rule(RatedInParts(after_days=90, leagues_only=True), "fide-2000 4.11"),
        ),
        composition=CompositionFacts(
            rated_share=Rule(Fraction(1, 3), "fide-2000 6.3"),
            small_round_robin=Rule(SmallRoundRobin(players_under=10, rated=4), "fide-2000 6.31"),
            double_round_robin=Rule(DoubleRoundRobinQuorum(players=6, rated=4), "fide-2000 6.32"),
            championship_rated=Rule(AverageMethod.CHAMPIONSHIP_RATED, "fide-2000 6.33"),
            unrated_discard_max=Rule(AverageMethod.DISCARD_MAX, "fide-2000 6.1"),
            unrated_min_rated_opponents=Rule(AverageMethod.MIN_RATED_OPPONENTS, "fide-2000 6.42"),
        ),
        # 6.33: "Los Campeonatos Nacionales jugados como round robin se computarán si por lo
        # menos 3 hombres (o 2 mujeres en torneos femeninos) tienen ranking oficial".
        competition=CompetitionFacts(
            kinds=Rule(
                (
                    CompetitionKind(
                        "national_championship",
                        _("National championship"),
                        championship_rated=AverageMethod.CHAMPIONSHIP_RATED,
                        national=True,
                    ),
                    CompetitionKind(
                        "womens_national_championship",
                        _("Women's national championship"),
                        championship_rated=AverageMethod.CHAMPIONSHIP_RATED_WOMEN,
                        national=True,
                        women=True,
                    ),
                ),
                "fide-2000 6.33",
            ),
        ),
        # 9.12: "a. El nombre ... b. Título FIDE, Federación, rating actualizado, Id number,
        # número de partidas computadas en el período computado y fecha de nacimiento. c. Valor
        # del k del jugador y cuantas partidas tiene acumuladas, si k=25". 9.22: titled unrated
        # players "se publican en una lista separada". 9.23b: inactive players are shown
        # flagged in the next 7 lists, then removed from the federation's list.
        list_layout=ListLayout(
            columns=Rule(
                (
                    "name",
                    "fide_title",
                    "federation",
                    "rating",
                    "fide_id",
                    "games",
                    "birth_date",
                    "k",
                    "games_k25",
                ),
                "fide-2000 9.12",
            ),
            inactive_left_out_after=Rule(7, "fide-2000 9.23b"),
            titled_unrated_apart=Rule(True, "fide-2000 9.22"),
        ),
        # 11.1: reports "como en el artículo 7 de B.01"; B.01 7.13: a report returned for
        # correction comes back within four weeks, or the event counts as not reported.
        decisions=DecisionFacts(correction_days=Rule(28, "fide-2000 11.1 (B.01 7.13)")),
    )

    def months_per_list(self, params: Fide2000Parameters) -> int:
        return 12 // params.lists_per_year

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


#: Bump on any change of a result for some input (docs/engine.md "Versions: when to bump").
VERSION = "fide-2000/4"
REGULATION = Fide2000(version=VERSION)
