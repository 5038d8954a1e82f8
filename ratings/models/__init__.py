"""Rating systems, periods, per-player state, published lists and protests.

A published list is never edited: PostgreSQL refuses UPDATE, DELETE and TRUNCATE on published
lists and their entries (the triggers declared in their Meta.triggers, IMMUTABLE below), and
the ORM refuses them too (ImmutableModel). A correction is a
new version of the list.

One module per kind of record; every model is importable from ``ratings.models``.
"""

from .calculation import LINE_DTYPE, CalculationRun, DraftExcluded, DraftResult, DraftTournament
from .imports import ListImportChunk, ListImportJob
from .protests import (
    DECIDED_STATUSES,
    OPEN_STATUSES,
    PROTEST_SUBMISSION_FIELDS,
    Protest,
    ProtestAttachment,
    ProtestStatus,
)
from .published import (
    IMMUTABLE_MESSAGE,
    EntryStatus,
    ImmutableModel,
    ImmutableQuerySet,
    ImmutableRowError,
    ListEntry,
    ListFilterRow,
    ListRank,
    PublishedList,
)
from .states import Activity, PlayerRating, RatingKind

__all__ = [
    "DECIDED_STATUSES",
    "IMMUTABLE_MESSAGE",
    "LINE_DTYPE",
    "OPEN_STATUSES",
    "PROTEST_SUBMISSION_FIELDS",
    "Activity",
    "CalculationRun",
    "DraftExcluded",
    "DraftResult",
    "DraftTournament",
    "EntryStatus",
    "ImmutableModel",
    "ImmutableQuerySet",
    "ImmutableRowError",
    "ListEntry",
    "ListFilterRow",
    "ListImportChunk",
    "ListImportJob",
    "ListRank",
    "PlayerRating",
    "Protest",
    "ProtestAttachment",
    "ProtestStatus",
    "PublishedList",
    "RatingKind",
]
