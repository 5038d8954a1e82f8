"""The ranks and filter columns of a list's entries, computed by the statement that writes them
(issue 27 item 1, docs/lists.md "Ranks and filter columns"): window functions over the list being
written, so a list is never shown without them and no task rewrites it. Entries without a rating
get no rank; region and club ranks only for players who have one; the active rank only for
active entries (ratings.models.ACTIVE_ENTRY_STATUSES)."""

from __future__ import annotations

from ratings.models import ACTIVE_ENTRY_STATUSES


def _active_sql(entry: str) -> str:
    statuses = ", ".join(f"'{status}'" for status in ACTIVE_ENTRY_STATUSES)
    return f"(NOT {entry}.inactive AND {entry}.status IN ({statuses}))"


def ranks_sql(*, entry: str = "e", player: str = "p") -> str:
    """The select-list of the entry's ``active``, ``rank_national``, ``rank_region``,
    ``rank_club`` and ``rank_active`` over the rows being written (`entry` has ``rating``,
    ``status`` and ``inactive``; `player` is the player's row): the same ranks as
    ratings.lists.ranks.FILL_SQL writes for the lists before. Only the statuses' literals are
    interpolated."""
    active = _active_sql(entry)
    rated = f"{entry}.rating IS NOT NULL"
    by_rating = f"ORDER BY {entry}.rating DESC"

    def rank(*partition: str) -> str:
        keys = ", ".join((f"{entry}.rating IS NULL", *partition))
        return f"rank() OVER (PARTITION BY {keys} {by_rating})"

    return (
        f"{active}, CASE WHEN {rated} THEN {rank()} END, "
        f"CASE WHEN {rated} AND {player}.region <> '' THEN {rank(f'{player}.region')} END, "
        f"CASE WHEN {rated} AND {player}.club <> '' THEN {rank(f'{player}.club')} END, "
        f"CASE WHEN {rated} AND {active} THEN {rank(active)} END"
    )
