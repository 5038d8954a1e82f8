"""The rows of a rating list and the problems reading one reports (codes, templates, limits).

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from formats.problems import Problem


def _(s: str) -> str:
    """No-op marker so ``makemessages`` finds the templates."""
    return s


RATING_MIN = 100
RATING_MAX = 3500
BIRTH_MIN = 1850
BIRTH_MAX = 2100
FLAGS = frozenset({"", "i", "w", "wi"})
MAX_PROBLEMS = 200  # problems reported per import; the count of all is given too
# A line (TXT, CSV) or an XML value longer than this is refused: a real list's lines have a
# few hundred characters, and the streaming import keeps a batch of lines in memory.
MAX_LINE_CHARS = 4096

TEMPLATES: dict[str, str] = {
    "empty_file": _("The file is empty."),
    "missing_column": _("Row %(row)s: the header has no %(column)s column."),
    "bad_number": _("Row %(row)s, column %(column)s: “%(value)s” is not a whole number."),
    "rating_out_of_range": _(
        "Row %(row)s, column %(column)s: rating %(value)s is outside %(min)s–%(max)s."
    ),
    "birth_out_of_range": _(
        "Row %(row)s, column %(column)s: birth year %(value)s is outside %(min)s–%(max)s."
    ),
    "missing_id": _("Row %(row)s, column %(column)s: the FIDE ID is missing."),
    "duplicate_id": _(
        "Row %(row)s, column %(column)s: FIDE ID %(value)s already appears in row %(first)s."
    ),
    "bad_flag": _("Row %(row)s, column %(column)s: unknown flag “%(value)s” (i, w or wi)."),
    "bad_federation": _(
        "Row %(row)s, column %(column)s: federation “%(value)s” is longer than three letters."
    ),
    "fed_id_taken": _(
        "Row %(row)s, column %(column)s: the federation ID %(value)s for this new player "
        "already belongs to another player."
    ),
    "too_many_problems": _("%(count)s problems in all; the first %(shown)s are shown."),
    "line_too_long": _(
        "Row %(row)s: the line is longer than %(max)s characters; this is not a rating list."
    ),
    "xml_value_too_long": _("Line %(row)s: a value is longer than %(max)s characters."),
    "xml_malformed": _(
        "Line %(row)s, position %(position)s: the XML is not well-formed (%(reason)s)."
    ),
    "xml_doctype": _(
        "Line %(row)s: the file has a DOCTYPE declaration; DTDs and entities are refused."
    ),
    "xml_root": _("Line %(row)s: the root element is <%(value)s>, not <playerslist>."),
}


def problem(code: str, *, row: int | None = None, column: str = "", **params: object) -> Problem:
    return Problem(
        severity="error",
        code=code,
        template=TEMPLATES[code],
        params={"row": row, "column": column, **params},
        line=row,
        field=column,
    )


# ---------------------------------------------------------------------------------------------
# Rows


@dataclass(frozen=True)
class ListRow:
    """One line of a rating list, in the FIDE columns (FORMATS.md)."""

    fide_id: int | None
    name: str  # "Surname, Given name"
    fed: str = ""
    sex: str = ""
    title: str = ""
    w_title: str = ""
    o_title: str = ""
    foa_title: str = ""
    rating: int | None = None
    games: int = 0
    k: int | None = None
    birth_year: int | None = None
    flag: str = ""  # "", "i", "w", "wi"
    fed_id: str = ""
    change: int | None = None
    # Issue 24 item 1: the columns the regulations' layouts add (docs/lists.md "Layouts").
    region: str = ""
    club: str = ""
    birth_date: str = ""  # ISO date, blank when unknown
    total_games: int | None = None
    provisional: str = ""  # "*" next to a provisional rating (cnxc-2000 4.2)
    games_k25: int | None = None  # games accumulated while K is 25 (fide-2000 9.12c)
    section: str = ""  # active, inactive, titled_unrated (issue 24 item 2)
    fide_title: str = ""  # FIDE's titles only (fide-2000 9.12b, fide-2024 7.1.2)
    any_title: str = ""  # FIDE or national title (feda-1996 8.12a, fce 9.4)
    activity: str = ""  # "active" or "inactive" (feda-1996 8.12a)


@dataclass(frozen=True)
class RawRow:
    row: int
    values: Mapping[str, str]
    labels: Mapping[str, str] = field(default_factory=dict)  # field -> column label in the file


# The fields, their label in our CSV/JSON, and their header in the TXT we write.
FIELDS = (
    "fide_id",
    "name",
    "fed",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "rating",
    "games",
    "k",
    "birth_year",
    "flag",
)
# Our CSV and JSON carry two columns more: the federation ID after the FIDE ID, the change
# after the rating.
_CSV_ADDED_AFTER = {"fide_id": "fed_id", "rating": "change"}
CSV_COLUMNS = tuple(
    column for name in FIELDS for column in (name, _CSV_ADDED_AFTER.get(name)) if column
)

#: Appended to our CSV and JSON (issue 24): every column a regulation's layout may publish
#: that FIDE's columns do not hold, and the entry's section.
EXTRA_COLUMNS = (
    "region",
    "club",
    "birth_date",
    "total_games",
    "provisional",
    "games_k25",
    "section",
)
CSV_ALL_COLUMNS = CSV_COLUMNS + EXTRA_COLUMNS
