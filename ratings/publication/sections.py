"""The section of each entry of a list being published, in SQL (issue 24 item 2).

The same rule as ``rating_engine.list_layout.entry_section``, read from the regulation's
facts: passive players left out (cnxc-2000 5.2), inactive players left out after their limit
(fide-2000 9.23b) or published apart after their count of lists (feda-1996 8.22b), titled
players without a rating in a separate list (fide-2000 9.22). Left-out entries stay in the
table (their data kept, carried to the next list) and are not shown.
"""

from __future__ import annotations

from rating_engine.list_layout import FIDE_TITLES, ListLayout


def section_sql(*, layout: ListLayout, entry: str = "e", player: str = "p") -> str:
    """A CASE over the entry's ``rating``, ``status``, ``inactive``, ``inactive_lists`` and the
    player's ``title``; only literals of the regulation's facts are interpolated."""
    whens: list[str] = []
    if layout.passive_left_out is not None:
        whens.append(f"WHEN {entry}.status = 'passive' THEN 'left_out'")
    if layout.inactive_left_out_after is not None:
        limit = int(layout.inactive_left_out_after.value)
        whens.append(f"WHEN {entry}.inactive AND {entry}.inactive_lists > {limit} THEN 'left_out'")
    if layout.inactive_apart_after is not None:
        count = int(layout.inactive_apart_after.value)
        whens.append(f"WHEN {entry}.inactive AND {entry}.inactive_lists > {count} THEN 'inactive'")
    if layout.titled_unrated_apart is not None:
        titles = ", ".join(f"'{t}'" for t in sorted(FIDE_TITLES))
        whens.append(
            f"WHEN {entry}.rating IS NULL AND {player}.title IN ({titles}) THEN 'titled_unrated'"
        )
    if not whens:
        return "'active'"
    return "CASE " + " ".join(whens) + " ELSE 'active' END"
