"""Per-player rating states, calculation runs and their drafts, and published lists.

A published list is never edited: PostgreSQL refuses UPDATE, DELETE and TRUNCATE on published
lists and their entries (the triggers declared in their Meta.triggers, IMMUTABLE below), and
the ORM refuses them too (ImmutableModel). A correction is a
new version of the list.

One module per kind of record; every model is importable from ``ratings.models``. Rating
systems and periods are the periods app's, protests the protests app's, list import jobs the
lists app's (their tables keep their ratings_ names).
"""

from .calculation import LINE_DTYPE, CalculationRun, DraftExcluded, DraftResult, DraftTournament
from .calibration import Calibration, CalibrationEntry, CalibrationReason
from .differentials import Differential, DifferentialStatus
from .live import LiveRating
from .published import (
    ACTIVE_ENTRY_STATUSES,
    IMMUTABLE_MESSAGE,
    LIST_AGE_GROUPS,
    EntryStatus,
    ImmutableModel,
    ImmutableQuerySet,
    ImmutableRowError,
    ListEntry,
    ListFilterCount,
    ListFilterRow,
    ListRank,
    PublishedList,
)
from .rerating import RerateChain
from .states import Activity, PlayerRating, RatingKind
from .statistics import AgeBand, ListStatistics, ScaleMonitoring, StatisticsScope

__all__ = [
    "ACTIVE_ENTRY_STATUSES",
    "IMMUTABLE_MESSAGE",
    "LINE_DTYPE",
    "LIST_AGE_GROUPS",
    "Activity",
    "AgeBand",
    "CalculationRun",
    "Calibration",
    "CalibrationEntry",
    "CalibrationReason",
    "Differential",
    "DifferentialStatus",
    "DraftExcluded",
    "DraftResult",
    "DraftTournament",
    "EntryStatus",
    "ImmutableModel",
    "ImmutableQuerySet",
    "ImmutableRowError",
    "ListEntry",
    "ListFilterCount",
    "ListFilterRow",
    "ListRank",
    "ListStatistics",
    "LiveRating",
    "PlayerRating",
    "PublishedList",
    "RatingKind",
    "RerateChain",
    "ScaleMonitoring",
    "StatisticsScope",
]
