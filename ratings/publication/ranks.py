"""The ranks and filter columns of a list's entries, computed by the statement that writes them
(issue 27 item 1, docs/lists.md "Ranks and filter columns"), so a list is never shown without
them and no task rewrites it. Entries without a rating get no rank; region and club ranks only
for players who have one; the active rank only for active entries
(ratings.models.ACTIVE_ENTRY_STATUSES).

A rank is 1 + the entries of its group rated strictly higher, which is what ``rank()`` over the
group by rating gives. It is read from a histogram (ratings, or region or club and rating, with
their counts, summed from the top) joined back to the entries, not from windows over the
entries themselves: each window sorted every entry, whole rows, once more (docs/benchmarks.md,
"The month's publication at its floor")."""

from __future__ import annotations

from ratings.models import ACTIVE_ENTRY_STATUSES


def active_sql(*, entry: str = "e") -> str:
    """Whether the entry is active: not inactive, and of an active status."""
    statuses = ", ".join(f"'{status}'" for status in ACTIVE_ENTRY_STATUSES)
    return f"(NOT {entry}.inactive AND {entry}.status IN ({statuses}))"


#: The entries rated strictly higher than a histogram row: its predecessors from the top.
_ABOVE = "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING"


def _group_ranks(column: str) -> str:
    """The rank of each (`column`, rating) among the rated entries with a `column`. The groups
    are partitioned under the "C" collation, bytes compared: the rows of equal bytes, as under
    any deterministic collation, sorted faster than by the database's locale."""
    return (
        f"SELECT {column}, rating, 1 + COALESCE(sum(count(*)::int) OVER (PARTITION BY "
        f'{column} COLLATE "C" ORDER BY rating DESC {_ABOVE}), 0) AS rank '
        f"FROM ranked_source WHERE rating IS NOT NULL AND {column} <> '' "
        f"GROUP BY {column}, rating"
    )


def ranked_sql(*, source: str) -> str:
    """A query of every column of `source` followed by ``rank_national``, ``rank_region``,
    ``rank_club`` and ``rank_active``, in player order (the (list, player) index then grows at
    one end). `source` is a query with ``player_id``, ``rating``, ``region``, ``club`` and
    ``active`` among its columns, one row per player; nothing is interpolated but it and
    literals. The same ranks as ratings.lists.ranks.FILL_SQL writes for the lists before."""
    return f"""WITH ranked_source AS MATERIALIZED ({source}),
        ranked_national AS (
            SELECT rating,
                   1 + COALESCE(sum(count(*)::int) OVER above, 0) AS rank,
                   1 + COALESCE(sum((count(*) FILTER (WHERE active))::int) OVER above, 0)
                   AS rank_active
            FROM ranked_source WHERE rating IS NOT NULL GROUP BY rating
            WINDOW above AS (ORDER BY rating DESC {_ABOVE})
        ),
        ranked_region AS ({_group_ranks("region")}),
        ranked_club AS ({_group_ranks("club")})
        SELECT s.*, n.rank, r.rank, c.rank, CASE WHEN s.active THEN n.rank_active END
        FROM ranked_source s
        LEFT JOIN ranked_national n ON n.rating = s.rating
        LEFT JOIN ranked_region r ON r.region = s.region AND r.rating = s.rating
        LEFT JOIN ranked_club c ON c.club = s.club AND c.rating = s.rating
        ORDER BY s.player_id"""
