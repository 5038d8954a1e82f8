"""Inputs and outputs of the rating engine: frozen dataclasses, nothing else.

Regulations may append optional fields (with defaults) at the END of these classes;
``rating_engine.jsonio`` reads and writes fields generically, so a new field is
picked up by the calculator without editing the reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

__all__ = [
    "RESULTS",
    "STATUSES",
    "Decision",
    "Excluded",
    "Game",
    "GameLine",
    "PeriodInput",
    "PeriodResult",
    "PlayerInput",
    "PlayerResult",
    "PriorResult",
    "Substitution",
    "SubstitutionLink",
    "TournamentInput",
]

#: Normalised result codes and the score of (white, black).
RESULTS: Mapping[str, tuple[float, float]] = {
    "1-0": (1.0, 0.0),
    "0-1": (0.0, 1.0),
    "1/2-1/2": (0.5, 0.5),
}

#: Statuses a PlayerResult may carry.
STATUSES: tuple[str, ...] = (
    "rated",
    "new",
    "unrated",
    "out_of_list",
    "inactive",
    "provisional",
    "passive",
)


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class PriorResult:
    """One game of a not-yet-rated player from an earlier period (pooled for a first rating)."""

    opponent_rating: int
    score: float
    tournament: str = ""
    end_date: date | None = None
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class PlayerInput:
    """A player's state at the start of the period (the list in force)."""

    id: str
    rating: int | None
    games: int = 0
    birth_date: date | None = None
    sex: str = ""
    federation: str = ""
    reached_2400: bool = False
    reached_2200: bool = False
    prior_results: tuple[PriorResult, ...] = ()
    status: str = ""
    last_game_date: date | None = None
    #: Rated games of the 12 months before the period (fide-2000 9.23, feda-1996 8.22).
    #: None: unknown, which is not zero (no inactivity judgement).
    games_last_12_months: int | None = None
    fide_rating: int | None = None
    fide_rapid_rating: int | None = None
    fide_blitz_rating: int | None = None
    iccf_rating: int | None = None
    fpx_rating: int | None = None
    affiliated: bool = True
    #: First day of the first list that carried this player's rating (for 8.2.4-style rules:
    #: tournaments ending before it are rated for him as rated, for his opponents as unrated).
    rated_since: date | None = None
    #: Lists already published with this player flagged inactive (fide-2000 9.23b: shown
    #: flagged in the next 7 lists; feda-1996 8.22b: in the next 3 lists).
    inactive_lists: int = 0
    #: The player's rating in the reference list a regulation calibrates against
    #: (cnxc-2000 7.3: the ICCF list in force the day after the period; None: not in it).
    #: Distinct from ``iccf_rating``, the list in force when calculating (5.3).
    calibration_rating: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    white: str
    black: str
    result: str  # "1-0" | "0-1" | "1/2-1/2"
    forfeit: bool = False
    round: int = 0
    played: bool = True


@dataclass(frozen=True, slots=True)
class SubstitutionLink:
    """One player who held a side of a substituted game, and whether he made a move."""

    id: str
    moved: bool


@dataclass(frozen=True, slots=True)
class Substitution:
    """A side of a team game held by more than one player (cnxc-2000 7.2): the game (white,
    black and, when the pair met more than once, round), the side, and its players in order,
    the first being the game's player."""

    white: str
    black: str
    side: str  # "white" | "black"
    players: tuple[SubstitutionLink, ...]
    round: int | None = None


@dataclass(frozen=True, slots=True)
class ListRating:
    """A player's rating in the list in force on a tournament's start date (feda-1996 8.11);
    None: listed without a rating."""

    id: str
    rating: int | None


@dataclass(frozen=True, slots=True)
class TournamentInput:
    id: str
    system: str  # swiss | round_robin | double_round_robin | match | team
    end_date: date | None
    start_date: date | None = None
    rate_of_play: str = "standard"
    national_championship: bool = False
    match_length: int | None = None
    kind: str = ""
    norm_event: bool = False
    games: tuple[Game, ...] = ()
    #: cnxc-2000 7.2: the substituted sides of this competition's games.
    substitutions: tuple[Substitution, ...] = ()
    #: cnxc-2000 7.1: the winner after tie-breaks of a competition valid for norms (None: the
    #: sole top scorer).
    winner: str | None = None
    #: feda-1996 8.11 ("La lista de Enero entra en vigor para torneos cuya fecha de comienzo se
    #: halle entre el 1º de Enero y el 30 de Junio"; ``facts.lists.list_in_force_at_start``):
    #: the ratings its players' opponents count with, from the list in force on its start date,
    #: when that is not the list the period starts from. A player missing here was not rated in
    #: that list: unrated for his opponents. None: each player counts with ``PlayerInput.rating``
    #: (the list in force at the period's start). The player's own R stays his rating at the
    #: period's start, the Ro his changes add to (feda-1996 9.54, fide-2000 10.55).
    list_ratings: tuple[ListRating, ...] | None = None


@dataclass(frozen=True, slots=True)
class PeriodInput:
    ruleset: str
    start: date
    end: date
    parameters: Mapping[str, object]
    players: tuple[PlayerInput, ...]
    tournaments: tuple[TournamentInput, ...]


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True, slots=True)
class Decision:
    """A rule applied, with the article that applies it and a translatable message.

    ``template`` is an English template marked with the no-op ``_()``; the Django layer
    translates it and then formats it with ``params``.
    """

    code: str
    article: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def message(self) -> str:
        if not self.params:
            return self.template
        return self.template % dict(self.params)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One counted game of one player, for the per-player calculation table."""

    tournament: str
    player: str
    opponent: str
    opponent_rating: int | None
    score: float
    expected: float
    change: float  # K x (score - expected), before rounding
    k: int


@dataclass(frozen=True, slots=True)
class Excluded:
    """A game left out of the calculation, with the reason and its article."""

    tournament: str
    white: str
    black: str
    round: int
    code: str
    reason: str
    article: str


@dataclass(frozen=True, slots=True)
class PlayerResult:
    id: str
    rating_before: int | None
    rating_after: int | None
    change: int
    k: int | None
    k_article: str
    games: int
    score: float
    expected: float
    status: str
    notes: tuple[Decision, ...] = ()
    performance: float | None = None


@dataclass(frozen=True, slots=True)
class PeriodResult:
    ruleset: str
    #: The regulation's version, ``"<ruleset>/<n>"`` (``Regulation.version``).
    regulation_version: str
    players: tuple[PlayerResult, ...]
    games: tuple[GameLine, ...]
    excluded: tuple[Excluded, ...]
