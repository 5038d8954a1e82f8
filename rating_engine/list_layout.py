"""What a regulation's published list shows: its columns and its sections (issue 24, items 1-2).

Each regulation declares its ``ListLayout`` in its facts (``Facts.list_layout``), citing the
article that lists the data (feda-1996 8.12a, fide-2000 9.12, fce 9.4, cnxc-2000 4.2, fide-2024
7.1.2) and the articles that publish players apart or leave them out (feda-1996 8.22b,
fide-2000 9.22 and 9.23b, cnxc-2000 5.2). The list page, the downloads and the API read it
through the registry; nothing compares a ruleset id. docs/lists.md "Layouts".
"""

from __future__ import annotations

from .registry import all_regulations, get_regulation
from .regulations.base import (
    COLUMN_KEYS,
    FIDE_TITLES,
    SECTION_KEYS,
    ListColumn,
    ListLayout,
    Rule,
    Section,
)

__all__ = [
    "COLUMN_KEYS",
    "FIDE_TITLES",
    "OFFICE_LIST_LAYOUT",
    "SECTION_KEYS",
    "ListColumn",
    "ListLayout",
    "Section",
    "entry_section",
    "list_layout_of",
]


def entry_section(
    *,
    layout: ListLayout,
    rating: int | None,
    title: str,
    inactive: bool,
    passive: bool,
    inactive_lists: int,
) -> Section:
    """The section of one entry (the publication writes the same in SQL,
    ratings.publication.sections): passive left out (cnxc-2000 5.2); inactive past the limit
    left out (fide-2000 9.23b) or past the count published apart (feda-1996 8.22b); titled
    without a rating apart (fide-2000 9.22); else the list."""
    if passive and layout.passive_left_out is not None:
        return "left_out"
    if inactive:
        limit = layout.inactive_left_out_after
        if limit is not None and inactive_lists > limit.value:
            return "left_out"
        apart = layout.inactive_apart_after
        if apart is not None and inactive_lists > apart.value:
            return "inactive"
    if rating is None and title in FIDE_TITLES and layout.titled_unrated_apart is not None:
        return "titled_unrated"
    return "active"


#: A regulation that declares no layout: the columns of FIDE's list (fide-2024 7.1.2) and the
#: federation's own, one section.
OFFICE_LIST_LAYOUT = ListLayout(
    columns=Rule(
        (
            "fide_id",
            "fed_id",
            "name",
            "title",
            "federation",
            "rating",
            "change",
            "games",
            "k",
            "birth_year",
            "sex",
        ),
        "office default",
    ),
)


def list_layout_of(ruleset: str) -> ListLayout:
    """The layout of a regulation's lists: the office's when its facts declare none or the
    ruleset is none the registry knows (a list imported before regulations had ids)."""
    if ruleset not in all_regulations():
        return OFFICE_LIST_LAYOUT
    return get_regulation(ruleset).facts.list_layout or OFFICE_LIST_LAYOUT
