"""The interface every regulation implements."""

from __future__ import annotations

import calendar
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, NamedTuple, TypeVar, get_args

from ..bulk import BulkInput, BulkOutput
from ..bulk_initial import InitialInput, InitialOutput
from ..errors import EngineInputError
from ..types import (
    Decision,
    Excluded,
    GameLine,
    PeriodInput,
    PeriodResult,
    PlayerInput,
    PlayerResult,
)
from ..version import check_version

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "COLUMN_KEYS",
    "FIDE_TITLES",
    "SECTION_KEYS",
    "BulkRater",
    "CompetitionFacts",
    "CompetitionKind",
    "CompositionFacts",
    "Cycle",
    "DoubleRoundRobinQuorum",
    "DurationLimit",
    "Explanation",
    "Facts",
    "InputFacts",
    "ListColumn",
    "ListFacts",
    "ListLayout",
    "MinimumTime",
    "NoParameters",
    "PlayFacts",
    "RatedInParts",
    "Registration",
    "Regulation",
    "ReportingFacts",
    "Rule",
    "Section",
    "Semesters",
    "SmallRoundRobin",
    "result_unchanged",
]


def _(s: str) -> str:
    return s


# --------------------------------------------------------------------------- facts
# Each regulation's facts (deadlines, floors, rounds per day, protest days, cycles) are
# defined once, in its module, as ``Regulation.facts``; the Django side (periods.cycles,
# periods.models, tournaments.checks) reads them through ``registry.get_regulation``.
# A fact the regulation's text fixes is a ``Rule`` citing its article; ``None`` means the
# text fixes nothing, and the office's default (``OFFICE_DEFAULTS`` of each group, listed in
# docs/engine.md "Facts") applies.

T = TypeVar("T")
#: A regulation's parameters: a frozen dataclass (``Regulation.parameters_type``).
ParamsT = TypeVar("ParamsT", bound="DataclassInstance")

#: A list cycle (``periods.models.ListCycle``).
Cycle = Literal["monthly", "quarterly", "semestral"]


@dataclass(frozen=True)
class Rule(Generic[T]):
    """A fact a regulation's text fixes: its value and the article that says so."""

    value: T
    #: The full citation, as problems and notes carry it: ``"fide-2024 7.1.3"``.
    article: str
    #: The list cycle the article speaks of (fide-2024 9.1: "la lista mensual"); on a rating
    #: system with another cycle the office's default applies. None: any cycle.
    cycle: Cycle | None = None

    def applies(self, cycle: str) -> bool:
        return self.cycle is None or self.cycle == cycle


@dataclass(frozen=True, slots=True)
class Semesters:
    """Two periods a year: the months they start on and the months whose 1st publishes
    their lists, in the same order."""

    starts: tuple[int, int]
    lists: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ListFacts:
    """Lists and periods: cycle, closing dates, floors, protests."""

    #: The regulation's own list cycle (a rating system may set another).
    cycle: Rule[Cycle]
    #: The two periods of a semestral cycle.
    semesters: Rule[Semesters] | None
    #: A period closes this many days before its list date: reports must arrive by then and
    #: only tournaments ending by then are rated in its list.
    closing_days: Rule[int] | None
    #: A tournament ending this many days or fewer before the end of its month may go to the
    #: list after its month's (the last day not counted).
    month_end_allowance_days: Rule[int] | None
    #: Lowest rating published; below it the player is listed as unrated.
    publication_floor: Rule[int] | None
    #: A rating never goes below this.
    rating_floor: Rule[int] | None
    #: Days a published list stays open to protests.
    protest_days: Rule[int] | None
    #: True: the publication day is the first of the ``protest_days`` (fce 9.3); else they
    #: count from the day after it (``protest_last_day``).
    protest_counts_publication_day: Rule[bool] | None = None
    #: Days after a protest's decision to appeal it (to the board: cnxc-2000 4.3), the
    #: decision day not counted. None: no appeal.
    appeal_days: Rule[int] | None = None
    #: What the appellant deposits with the appeal, returned if it succeeds (cnxc-2000 4.3:
    #: ``"membership_fee"``, the membership fee in force; its amount is the office's setting
    #: ``PROTEST_APPEAL_DEPOSIT``). None: no deposit.
    appeal_deposit: Rule[str] | None = None
    #: The scale's health (feda-1996 11.1-11.2, fide-2000 12.1-12.3): the rating administrator
    #: watches the average rating of a fixed group across lists to detect drift of the scale;
    #: the value is the group's size (the top 50, feda-1996 11.1's example). None: the text asks
    #: for no monitoring and the office runs no drift check (the statistics are kept all the
    #: same, ratings.statistics).
    scale_monitoring: Rule[int] | None = None
    #: Which list a tournament is rated with (feda-1996 8.11: "La lista de Enero entra en vigor
    #: para torneos cuya fecha de comienzo se halle entre el 1º de Enero y el 30 de Junio"):
    #: True, the list in force on the tournament's start date, the last one whose list date is
    #: on or before it, chosen per tournament. None: every tournament of a period with the list
    #: in force at the period's start. Not the choice of the ruleset by date (issue 23).
    list_in_force_at_start: Rule[bool] | None = None
    #: List membership: every player licensed for the season in force on the list date is in
    #: the list, the unrated ones without a rating (fce 9.2: "tots els jugadors que tinguin
    #: tramitada la llicència ... a l'actual temporada"). None: the list holds the players the
    #: calculation rated and the entries carried from the list before (docs/lists.md).
    licensed_players: Rule[bool] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "semesters": "January-June and July-December, each list on the 1st after its semester "
        "(periods.cycles.OFFICE_SEMESTERS)",
        "closing_days": "a period closes on its last day",
        "month_end_allowance_days": "no allowance",
        "publication_floor": "every rated player is listed",
        "rating_floor": "no floor",
        "protest_days": "30 days after publication (periods.models.OFFICE_PROTEST_DAYS)",
        "protest_counts_publication_day": "the days count from the day after publication",
        "appeal_days": "no appeal (the officer's decision is final)",
        "appeal_deposit": "no deposit",
        "scale_monitoring": "no drift check (the statistics of each list are kept all the same)",
        "list_in_force_at_start": "every tournament of a period is rated with the list in force "
        "at the period's start (ratings.calculation.states.previous_list)",
        "licensed_players": "the players the calculation rated and the entries carried over; a "
        "licence adds no one (players.Licence)",
    }

    def protest_last_day(self, published: date, days: int) -> date:
        """The last day (inclusive) to protest a list published on ``published``, open for
        ``days`` days: the publication day counts as the first (fce 9.3) or not (cnxc-2000
        4.3 and the office's default)."""
        first_counts = (
            self.protest_counts_publication_day is not None
            and self.protest_counts_publication_day.value
        )
        return date.fromordinal(published.toordinal() + days - (1 if first_counts else 0))

    def appeal_last_day(self, decided: date) -> date | None:
        """The last day (inclusive) to appeal a decision of ``decided``; None: no appeal."""
        if self.appeal_days is None:
            return None
        return date.fromordinal(decided.toordinal() + self.appeal_days.value)


@dataclass(frozen=True, slots=True)
class Registration:
    """Days ahead of its start a tournament must be registered: ``days``, or ``days_top``
    when a player is rated over ``over_rating`` or a woman over ``over_woman_rating``."""

    days: int
    days_top: int
    over_rating: int
    over_woman_rating: int


@dataclass(frozen=True, slots=True)
class ReportingFacts:
    """Registration and reports: deadlines and what a report must bring."""

    registration: Rule[Registration] | None
    #: A report is due within this many days of the last round (a warning after).
    report_due_days: Rule[int] | None
    #: Lists a report may still reach, its own included (2: its own and one late list;
    #: fide-2024 9.1: 3). After the last one's closing date it is refused.
    report_lists: Rule[int] | None
    #: A tournament of more players than this also sends the FEDA ASCII file.
    ascii_file_over_players: Rule[int] | None
    #: The rating report of a tournament (fide-2000 11.31): Rar (Rc), n, W and W - We of each
    #: rated player, and Ru of each unrated player with at least this many rated opponents,
    #: given even below the publication floor. None: the regulation asks for no such report.
    rating_report: Rule[int] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "registration": "the rating system's registration_days (RatingSystem, 3 unless set)",
        "report_due_days": "no warning before the reporting deadline",
        "report_lists": "its own list and the next one (periods.cycles.OFFICE_REPORT_LISTS), "
        "cited as '<id> (office rule)'",
        "ascii_file_over_players": "no ASCII file asked for",
        "rating_report": "no rating report on the tournament's page",
    }


#: A regulation without registration or reporting rules: the office's defaults apply
#: (ReportingFacts.OFFICE_DEFAULTS).
NO_REPORTING_RULES = ReportingFacts(
    registration=None, report_due_days=None, report_lists=None, ascii_file_over_players=None
)


@dataclass(frozen=True, slots=True)
class MinimumTime:
    """At least ``minutes`` per player for 60 moves when a player is rated ``rating`` or more
    (0: the minimum for everybody)."""

    rating: int
    minutes: int


@dataclass(frozen=True, slots=True)
class DurationLimit:
    """A tournament lasts at most ``days`` days (``teams_exempt``: team competitions may
    last longer)."""

    days: int
    teams_exempt: bool = False


@dataclass(frozen=True, slots=True)
class RatedInParts:
    """A tournament lasting more than ``after_days`` days is rated in parts: the games reported
    up to each closing date go to that period and are rated with that period's list in force
    (``leagues_only``: only league competitions, a round robin or a team league)."""

    after_days: int
    leagues_only: bool = False

    #: The pairing systems the texts call a league ("competencias de liga", "sistema liga").
    LEAGUES: ClassVar[frozenset[str]] = frozenset({"round_robin", "double_round_robin", "team"})

    def applies(self, *, days: int, pairing_system: str) -> bool:
        """Whether a tournament of ``days`` days (first to last, both counted) with this
        pairing system is rated in parts."""
        if days <= self.after_days:
            return False
        return not self.leagues_only or pairing_system in self.LEAGUES


@dataclass(frozen=True, slots=True)
class PlayFacts:
    """A standard tournament's rate of play, rounds and duration."""

    #: Minimum time for 60 moves by the highest rating present, highest band first; the last
    #: band's rating is 0.
    minimum_minutes: Rule[tuple[MinimumTime, ...]] | None
    #: The first time control, when it names a number of moves, has at least this many.
    first_control_moves: Rule[int] | None
    #: At most this many moves an hour in the first control (or a guillotine of at least
    #: ``minimum_minutes``).
    max_moves_per_hour: Rule[int] | None
    rounds_per_day: Rule[int] | None
    hours_per_day: Rule[int] | None
    max_days: Rule[DurationLimit] | None
    #: Lasting this many days or more needs the federation's authorisation.
    authorised_days: Rule[int] | None
    #: Lasting more than this many days, intermediate results are reported monthly.
    monthly_report_days: Rule[int] | None
    #: ``minimum_minutes`` is read per game, from that game's two players (fide-2024 1.1 "de la
    #: partida"): a game below its band is left out, the rest of the report is rated. None:
    #: read from the highest rating of the whole tournament, the report refused.
    minimum_minutes_per_game: Rule[bool] | None = None
    #: A time control with an increment adds at least this many seconds a move (feda-1996 2.3).
    minimum_increment_seconds: Rule[int] | None = None
    #: A long tournament is rated in parts, period by period (fide-2024 4.1, fide-2000 4.11).
    #: None: a tournament is rated once, whole, in the period its report goes to.
    rated_in_parts: Rule[RatedInParts] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "minimum_minutes": "no check",
        "first_control_moves": "no check",
        "max_moves_per_hour": "no check",
        "rounds_per_day": "no check",
        "hours_per_day": "no check",
        "max_days": "no check",
        "authorised_days": "no check",
        "monthly_report_days": "no check",
        "minimum_minutes_per_game": "the highest rating of the tournament sets the minimum; "
        "a report below it is refused",
        "minimum_increment_seconds": "no check",
        "rated_in_parts": "a tournament is rated once, whole, in the period its report goes to",
    }


@dataclass(frozen=True, slots=True)
class SmallRoundRobin:
    """A round robin of fewer than ``players_under`` players needs ``rated`` rated players."""

    players_under: int
    rated: int


@dataclass(frozen=True, slots=True)
class DoubleRoundRobinQuorum:
    """A double round robin with unrated players needs ``players`` players, ``rated`` of them
    rated."""

    players: int
    rated: int


@dataclass(frozen=True, slots=True)
class CompositionFacts:
    """Who must be rated for a tournament (fide-2000 6.x, feda-1996 7.x)."""

    #: Share of a round robin's players that must be rated.
    rated_share: Rule[Fraction]
    small_round_robin: Rule[SmallRoundRobin]
    double_round_robin: Rule[DoubleRoundRobinQuorum]
    #: Rated players a national round robin championship needs.
    championship_rated: Rule[int]
    #: An unrated player scoring at most this has his games discarded.
    unrated_discard_max: Rule[float]
    #: Rated opponents an unrated player needs in a Swiss.
    unrated_min_rated_opponents: Rule[int]


@dataclass(frozen=True, slots=True)
class CompetitionKind:
    """A kind of tournament the regulation names (``TournamentInput.kind`` is its ``id``):
    a tournament's form offers them as a choice."""

    id: str
    #: What the form shows (marked with ``_()``, translated by the Django side).
    label: str
    #: A round robin of this kind is rated with this many rated players, instead of the
    #: general composition rules (fide-2000 6.33, feda-1996 7.33). None: the general rules.
    championship_rated: int | None = None
    #: A national championship (``TournamentInput.national_championship``: feda-1996 9.4).
    national: bool = False
    #: A women's event (fide-2000 6.33 "2 mujeres en torneos femeninos").
    women: bool = False
    #: An unrated opponent's virtual rating in it (cnxc-2000 5.3). None: no virtual rating.
    virtual_rating: int | None = None


@dataclass(frozen=True, slots=True)
class CompetitionFacts:
    """What kind of competition a tournament is, and which ones are rated at all."""

    #: The kinds the regulation names, in the order a form offers them.
    kinds: Rule[tuple[CompetitionKind, ...]] | None = None
    #: An unrated opponent's virtual rating in a competition of no named kind (cnxc-2000 5.3).
    other_virtual_rating: Rule[int] | None = None
    #: Thematic tournaments are not rated (cnxc-2000 3.1).
    thematic_not_rated: Rule[bool] | None = None
    #: A competition organised by another body is rated only if its own rules say its results
    #: count for this rating (cnxc-2000 3.1).
    others_rated_by_their_rules: Rule[bool] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "kinds": "no kinds: a tournament has none (the general rules apply)",
        "other_virtual_rating": "no virtual rating",
        "thematic_not_rated": "a thematic tournament is rated like any other",
        "others_rated_by_their_rules": "who organised it does not matter",
    }

    def kind(self, kind_id: str) -> CompetitionKind | None:
        """The named kind ``kind_id``; None for "" or a kind this regulation does not name."""
        if self.kinds is None or not kind_id:
            return None
        return next((k for k in self.kinds.value if k.id == kind_id), None)


#: A regulation that names no kinds of competition and rates every one.
NO_COMPETITION_FACTS = CompetitionFacts()


# --------------------------------------------------------------------------- list layouts
# What a regulation's published list shows (issue 24 items 1-2): rating_engine/list_layout.py
# has the rules that use it (sections, the office's layout, the registry's look-up).

#: A column a list may publish. ``title`` is any title (FIDE or national: feda-1996 8.12a
#: "Título FIDE o FEDA", fce 9.4's list of titles); ``fide_title`` FIDE's titles only
#: (fide-2000 9.12b, fide-2024 7.1.2). ``provisional`` is the mark next to a provisional rating
#: (cnxc-2000 4.2); ``games_k25`` the games accumulated while K is 25 (fide-2000 9.12c);
#: ``activity`` active or inactive (feda-1996 8.12a).
ListColumn = Literal[
    "fide_id",
    "fed_id",
    "name",
    "title",
    "fide_title",
    "federation",
    "region",
    "club",
    "rating",
    "provisional",
    "change",
    "birth_date",
    "birth_year",
    "sex",
    "activity",
    "k",
    "games",
    "total_games",
    "games_k25",
]
#: The columns in the Literal's order, derived from it so the two never drift apart.
COLUMN_KEYS: tuple[ListColumn, ...] = get_args(ListColumn)

#: The sections of a list. ``active``: the list itself (inactive players still within their
#: count of lists are in it, flagged); ``inactive``: published apart (feda-1996 8.22b);
#: ``titled_unrated``: titled players without a rating, a separate list (fide-2000 9.22);
#: ``left_out``: kept in the record (and carried to the next list) but not published: passive
#: players (cnxc-2000 5.2) and inactive players past their limit (fide-2000 9.23b).
Section = Literal["active", "inactive", "titled_unrated", "left_out"]
SECTION_KEYS: tuple[Section, ...] = get_args(Section)

#: FIDE's titles (the others are national: feda-1996 8.12a, fce 9.4).
FIDE_TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"})


@dataclass(frozen=True, slots=True)
class ListLayout:
    """A regulation's published list: the columns its article lists, in its order, and when
    players go to another section or leave the list."""

    #: The columns, in the article's order.
    columns: Rule[tuple[ListColumn, ...]]
    #: Inactive players are published apart after this many lists flagged (feda-1996 8.22b: 3).
    inactive_apart_after: Rule[int] | None = None
    #: Inactive players are left out after this many lists flagged (fide-2000 9.23b: 7).
    inactive_left_out_after: Rule[int] | None = None
    #: Passive players are left out of the lists, their data kept (cnxc-2000 5.2).
    passive_left_out: Rule[bool] | None = None
    #: Titled players without a rating are published in a separate list (fide-2000 9.22).
    titled_unrated_apart: Rule[bool] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "inactive_apart_after": "inactive players stay in the list, flagged",
        "inactive_left_out_after": "inactive players are never left out",
        "passive_left_out": "passive players are listed",
        "titled_unrated_apart": "titled unrated players are listed with the others",
    }

    def sections(self) -> tuple[Section, ...]:
        """The sections published, in the order a page and a download show them."""
        shown: list[Section] = ["active"]
        if self.inactive_apart_after is not None:
            shown.append("inactive")
        if self.titled_unrated_apart is not None:
            shown.append("titled_unrated")
        return tuple(shown)

    def section_articles(self) -> dict[Section, str]:
        """The article behind each section that has one (``left_out`` names its rules)."""
        found: dict[Section, str] = {"active": self.columns.article}
        if self.inactive_apart_after is not None:
            found["inactive"] = self.inactive_apart_after.article
        if self.titled_unrated_apart is not None:
            found["titled_unrated"] = self.titled_unrated_apart.article
        left = [
            rule.article
            for rule in (self.passive_left_out, self.inactive_left_out_after)
            if rule is not None
        ]
        if left:
            found["left_out"] = ", ".join(left)
        return found


@dataclass(frozen=True, slots=True)
class DecisionFacts:
    """The officer's decisions on a tournament that the text provides for (docs/arbiters.md,
    "The officer's decisions"): each with its article, and its days where the text counts them.
    None: the text does not provide for it, and the office does not offer it."""

    #: A defective report returned for correction comes back within this many days of the
    #: return, or the event counts as not reported (feda-1996 10.13; fide-2000 11.1 → B.01 7.13:
    #: four weeks).
    correction_days: Rule[int] | None = None
    #: The rating officer may reject a tournament's registration (fide-2024 0.2).
    reject_registration: Rule[bool] | None = None
    #: The federation may refuse to rate a tournament; its organiser appeals within this many
    #: days of being told (fide-2024 0.4: seven).
    refusal_appeal_days: Rule[int] | None = None
    #: The federation may rate a tournament that does not meet the conditions (fce 2.2): a
    #: blocking check is overridden.
    rate_despite_conditions: Rule[bool] | None = None
    #: An event longer than ``play.authorised_days`` is rated with the federation's prior
    #: authorisation (feda-1996 5.11).
    authorise_long_event: Rule[bool] | None = None
    #: A game is left out under the fair-play rules (fide-2024 5.1 "a menos que las normas
    #: relativas al juego limpio digan lo contrario").
    exclude_game: Rule[bool] | None = None
    #: A withdrawal justified by exceptionally serious reasons may have no effect on the
    #: rating, case by case (cnxc-2000 3.2).
    exempt_withdrawal: Rule[bool] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "correction_days": "no return for correction",
        "reject_registration": "no rejection of a registration",
        "refusal_appeal_days": "no refusal to rate",
        "rate_despite_conditions": "a blocking check is never overridden",
        "authorise_long_event": "no authorisation of a long event",
        "exclude_game": "no game excluded by decision",
        "exempt_withdrawal": "no withdrawal exempted",
    }


#: A regulation that provides for none of the officer's decisions.
NO_DECISION_FACTS = DecisionFacts()


@dataclass(frozen=True, slots=True)
class ArbiterLevel:
    """A level of event and the arbiters who may direct it (feda-1996 1.1: "dirigidos por un
    Arbitro Titulado, siendo la categoría del mismo equiparable a la de la competición")."""

    #: The event's level (``Tournament.level``): its id.
    id: str
    #: What the form shows (marked with ``_()``, translated by the Django side).
    label: str
    #: The FIDE arbiter titles that may direct it (``IA``, ``FA``, ``NA``).
    titles: tuple[str, ...]
    #: The federation's arbiter categories that may direct it (``national``, ``regional``,
    #: ``provincial``).
    categories: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ArbiterFacts:
    """Who must direct a tournament for it to be rated."""

    #: The levels of event and the titles and categories of arbiter that match each one.
    directed_by: Rule[tuple[ArbiterLevel, ...]] | None = None

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "directed_by": "any chief arbiter, registered or not",
    }

    def level(self, level_id: str) -> ArbiterLevel | None:
        """The level ``level_id``; None for "" or a level this regulation does not name."""
        if self.directed_by is None or not level_id:
            return None
        return next((lv for lv in self.directed_by.value if lv.id == level_id), None)


#: A regulation that asks nothing of the chief arbiter.
NO_ARBITER_FACTS = ArbiterFacts()


@dataclass(frozen=True, slots=True)
class Facts:
    """Everything a regulation fixes that the rest of the office reads."""

    lists: ListFacts
    reporting: ReportingFacts
    play: PlayFacts
    #: None: the text has no composition chapter (its rules on unrated players apply when
    #: rating, in the engine); the office checks no composition.
    composition: CompositionFacts | None
    #: The kinds of competition and the scope (thematic, organised by others).
    competition: CompetitionFacts = NO_COMPETITION_FACTS
    #: The published list's columns and sections (rating_engine/list_layout.py). None: the
    #: office's layout (``list_layout.OFFICE_LIST_LAYOUT``); read it with ``list_layout_of``.
    list_layout: ListLayout | None = None
    #: The officer's decisions the text provides for (return for correction, refusal…).
    decisions: DecisionFacts = NO_DECISION_FACTS
    #: Who must direct a tournament (feda-1996 1.1).
    arbiters: ArbiterFacts = NO_ARBITER_FACTS

    OFFICE_DEFAULTS: ClassVar[Mapping[str, str]] = {
        "composition": "no composition check",
        "list_layout": "FIDE's columns and the federation ID, one section",
    }


@dataclass(frozen=True, slots=True)
class CalibrationList:
    """The external list a regulation calibrates its new list against (cnxc-2000 7.3)."""

    #: The external list: "iccf" (lists.models.ExternalList.source).
    source: str
    #: The list read is the one in force this many days after the period's last day.
    days_after_end: int
    #: Fewer players in both lists than this: no calibration.
    minimum_players: int


@dataclass(frozen=True, slots=True)
class InputFacts:
    """What a caller must put in a period's input beyond what every regulation reads.

    ``PlayerInput`` has optional fields only some regulations read; a caller building the
    input (the calculation's engine path) asks these instead of naming regulations.
    """

    #: The player's rated games of the twelve months ending with the period
    #: (``PlayerInput.games_last_12_months``): inactivity counts them (fide-2000 9.23,
    #: feda-1996 8.22).
    games_last_12_months: bool = False
    #: A yearly differential the federation publishes, added to a FIDE rating to read it in
    #: this system (fce 9.5: 7.3 opponents, 10.1 / 11.2 first ratings): the parameter it is
    #: read from (``{"YYYY": value or bands}``, value) and its article. The office computes and
    #: publishes it (ratings.differentials); the calculation passes the published one in force
    #: for the period in that parameter. None: the regulation reads no differential.
    differential: Rule[str] | None = None
    #: Team substitutions per competition (``TournamentInput.substitutions``): the article
    #: that reads them (cnxc-2000 7.2), or "" when the regulation has none.
    substitutions: str = ""
    #: The winner after tie-breaks of a competition valid for norms (``TournamentInput.winner``):
    #: the article that reads it (cnxc-2000 7.1), or "" when the regulation has none.
    norm_winner: str = ""
    #: Each player's rating in an external list (``PlayerInput.calibration_rating``), which
    #: the regulation calibrates its new list against; None: no calibration.
    calibration: Rule[CalibrationList] | None = None
    #: The external lists an unrated opponent's virtual rating is read from
    #: (``PlayerInput.iccf_rating`` / ``.fpx_rating``: "iccf", "fpx", the sources of
    #: players.models.ExternalList), each the list in force on the period's list date (cnxc-2000
    #: 5.3 "em vigor (na altura de efetuar os cálculos)"); None: the regulation reads none.
    virtual_ratings: Rule[tuple[str, ...]] | None = None


#: A regulation whose players need nothing beyond what every regulation reads.
NO_EXTRA_INPUTS = InputFacts()


@dataclass(frozen=True, slots=True)
class BulkRater:
    """A regulation's federation-scale path: its rated players on whole arrays
    (``rating_engine.bulk``), the rest through ``Regulation.rate``. The caller writes the
    exclusions it makes itself with the articles named here."""

    #: Rates the rated players of a period on arrays.
    rate: Callable[[BulkInput], BulkOutput]
    #: The article a game not played (forfeit or not played) is excluded by.
    unplayed_article: str
    #: The article a game is excluded by when neither player is rated (for the other).
    no_rated_player_article: str
    #: Rates the unrated players' first ratings on arrays (``rating_engine.bulk_initial``);
    #: None: they go through ``Regulation.rate`` (its per-player path is the reference).
    first_ratings: Callable[[InitialInput], InitialOutput] | None = None
    #: The youth's K applies until the end of the year in which a player turns this age
    #: (fide-2024 8.3.3); the caller's state query derives ``BulkInput.youth`` from it.
    #: None: the regulation has no youth K on this path.
    youth_age: Rule[int] | None = None


@dataclass(frozen=True, slots=True)
class CalendarChanges:
    """Which players without a game a period can still change by the calendar alone (their
    status or their place in the list); every other player without a game keeps his state,
    and a caller rating the period need not read it (``Regulation.calendar_changes``)."""

    #: A rated player not yet inactive whose last rated game is on or before this day becomes
    #: inactive (fide-2024 7.2.2 a); None: the calendar makes nobody inactive.
    inactive_on_or_before: Rule[date] | None
    #: A rated player under this rating leaves the list (fide-2024 7.2.1); None: no floor.
    below_floor: Rule[int] | None
    #: The statuses a rated player without a game keeps as they are ("" is rated and active);
    #: a player in any other status is decided again.
    kept_statuses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoParameters:
    """The parameters of a regulation that has none."""


class Explanation(NamedTuple):
    """What ``Regulation.explain`` returns: the player's result and his game lines."""

    player: PlayerResult
    games: tuple[GameLine, ...]


class Regulation(ABC, Generic[ParamsT]):
    """A rating regulation: validates its parameters and rates a period.

    Subclasses set ``id`` (the ruleset id, e.g. ``"fide-2024"``), ``title``, ``label``,
    ``source`` (where the articles come from), ``parameters_type`` and ``facts``, and
    implement ``rate``. Each module ends with ``VERSION = "<id>/<n>"`` and
    ``REGULATION = TheClass(version=VERSION)``: the version every result of the regulation
    names (docs/engine.md "Versions: when to bump").
    """

    id: ClassVar[str]
    title: ClassVar[str]
    #: The name a rating system's form shows for it (marked with ``_()``, translated by the
    #: Django side).
    label: ClassVar[str]
    #: Where the articles cited in this module come from (seed file, digest section).
    source: ClassVar[str] = ""
    articles_url: ClassVar[str] = ""
    #: The parameters: a frozen dataclass, every field with its default and a comment citing
    #: its article; ``parameters_from`` builds it from the stored JSON mapping.
    parameters_type: type[ParamsT]
    #: The regulation's facts, each citing its article (``Facts``).
    facts: ClassVar[Facts]
    #: Inputs beyond what every regulation reads (``InputFacts``).
    inputs: ClassVar[InputFacts] = NO_EXTRA_INPUTS
    #: The federation-scale path, None: the caller always uses ``rate``.
    bulk: ClassVar[BulkRater | None] = None

    @property
    def defaults(self) -> Mapping[str, object]:
        """The parameters' names and defaults (the fields of ``parameters_type``)."""
        return {field.name: field.default for field in dataclasses.fields(self.parameters_type)}

    #: ``"<id>/<n>"``, e.g. ``"fide-2024/2"``: named by every result this regulation makes.
    version: str

    def __init__(self, *, version: str) -> None:
        self.version = check_version(self.id, version)

    @property
    def month_end_allowance_days(self) -> int:
        """A tournament ending this many days or fewer before the end of its month may go to
        the next monthly list (fide-2024 9.1); 0: the regulation has no such allowance."""
        rule = self.facts.lists.month_end_allowance_days
        return 0 if rule is None else rule.value

    def article(self, number: str) -> str:
        """``"fide-2024 5.1"`` for ``number="5.1"``."""
        return f"{self.id} {number}"

    def month_end_allowance(self, end_date: date) -> bool:
        """Whether a tournament ending on ``end_date`` may go to the list after its month's:
        ``month_end_allowance_days`` or fewer days from its last day to the end of the month,
        the last day itself not counted (ending on 25 November leaves 26-30 November, 5 days)."""
        if self.month_end_allowance_days <= 0:
            return False
        month_days = calendar.monthrange(end_date.year, end_date.month)[1]
        return month_days - end_date.day <= self.month_end_allowance_days

    def parameters_from(self, parameters: Mapping[str, object]) -> ParamsT:
        """The typed parameters (``parameters_type``) from the stored JSON mapping, defaults
        for the missing fields. An unknown field, a wrong type or a value out of range raises
        an EngineInputError naming ``parameters.<field>`` (``validate_parameters``)."""
        values: dict[str, Any] = dict(self.validate_parameters(parameters))
        return self.parameters_type(**values)

    def validate_parameters(self, parameters: Mapping[str, object]) -> Mapping[str, object]:
        """Return the defaults updated with ``parameters``; unknown keys, wrong types or a
        negative value of a ``non_negative`` field raise an EngineInputError naming
        ``parameters.<key>``. Override for finer checks."""
        out: dict[str, object] = dict(self.defaults)
        for key, value in parameters.items():
            if key not in self.defaults:
                raise EngineInputError(
                    "parameters",
                    key,
                    _("unknown parameter for %(ruleset)s (known: %(known)s)"),
                    {"ruleset": self.id, "known": ", ".join(sorted(self.defaults)) or "none"},
                )
            default = self.defaults[key]
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            else:
                ok = isinstance(value, type(default)) if default is not None else True
            if not ok:
                raise EngineInputError(
                    "parameters",
                    key,
                    _("must be of type %(type)s (got %(value)r)"),
                    {"type": type(default).__name__, "value": value},
                )
            out[key] = (
                float(value) if isinstance(value, int) and isinstance(default, float) else value
            )
        for field in dataclasses.fields(self.parameters_type):
            value = out[field.name]
            if field.metadata.get("non_negative") and isinstance(value, int) and value < 0:
                raise EngineInputError(
                    "parameters",
                    field.name,
                    _("must not be negative (got %(value)s)"),
                    {"value": value},
                )
        return out

    def period_result(
        self,
        players: Iterable[PlayerResult],
        games: Iterable[GameLine],
        excluded: Iterable[Excluded],
    ) -> PeriodResult:
        """What ``rate`` returns, stamped with this regulation's id and version."""
        return PeriodResult(
            ruleset=self.id,
            regulation_version=self.version,
            players=tuple(players),
            games=tuple(games),
            excluded=tuple(excluded),
        )

    def calendar_changes(
        self, period_end: date, parameters: Mapping[str, object]
    ) -> CalendarChanges | None:
        """The players without a game whom the period ending on ``period_end`` can change
        (``CalendarChanges``). None, the default: any player may change, read them all."""
        return None

    @abstractmethod
    def rate(self, period: PeriodInput) -> PeriodResult:
        """Rate a whole period."""

    def explain(self, period: PeriodInput, player_id: str) -> Explanation:
        """One player's result and game lines. Default: filter ``rate``; regulations with a
        bulk path override it with a per-player computation that must agree with ``rate``."""
        result = self.rate(period)
        for player in result.players:
            if player.id == player_id:
                lines = tuple(line for line in result.games if line.player == player_id)
                return Explanation(player, lines)
        raise EngineInputError("", "player", _("unknown player %(id)r"), {"id": player_id})


def parameter(default: T, *, non_negative: bool = False) -> T:
    """A parameters dataclass field: its default and, for a number, whether it may be
    negative (``validate_parameters`` refuses a negative ``non_negative`` one)."""
    return dataclasses.field(default=default, metadata={"non_negative": non_negative})


def result_unchanged(player: PlayerInput, notes: Iterable[Decision]) -> PlayerResult:
    """The result of a player the period leaves as he was: no game counted, no rating made."""
    return PlayerResult(
        player.id,
        player.rating,
        player.rating,
        0,
        None,
        "",
        0,
        0.0,
        0.0,
        "unrated",
        tuple(notes),
    )
