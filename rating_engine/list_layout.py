"""What a regulation's published list shows: its columns and its sections (issue 24, items 1-2).

Each regulation declares its ``ListLayout`` in its facts (``Facts.list_layout``), citing the
article that lists the data (feda-1996 8.12a, fide-2000 9.12, fce 9.4, cnxc-2000 4.2, fide-2024
7.1.2) and the articles that publish players apart or leave them out (feda-1996 8.22b,
fide-2000 9.22 and 9.23b, cnxc-2000 5.2). The list page, the downloads and the API read it
through the registry; nothing compares a ruleset id. docs/lists.md "Layouts".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .registry import all_regulations, get_regulation
from .regulations.base import Rule

__all__ = [
    "COLUMN_KEYS",
    "OFFICE_LIST_LAYOUT",
    "SECTION_KEYS",
    "ListColumn",
    "ListLayout",
    "Section",
    "entry_section",
    "list_layout_of",
]

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
COLUMN_KEYS: tuple[ListColumn, ...] = (
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
)

#: The sections of a list. ``active``: the list itself (inactive players still within their
#: count of lists are in it, flagged); ``inactive``: published apart (feda-1996 8.22b);
#: ``titled_unrated``: titled players without a rating, a separate list (fide-2000 9.22);
#: ``left_out``: kept in the record (and carried to the next list) but not published: passive
#: players (cnxc-2000 5.2) and inactive players past their limit (fide-2000 9.23b).
Section = Literal["active", "inactive", "titled_unrated", "left_out"]
SECTION_KEYS: tuple[Section, ...] = ("active", "inactive", "titled_unrated", "left_out")

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
