"""Problems found while reading a report: a stable code, a translatable template and params.

Pure module (no Django). The Django layer translates ``template`` with gettext and then
formats it with ``params`` (CONTRIBUTING.md, "Messages that users read").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, SupportsIndex

from .numbers import SMALLINT_MAX

Severity = Literal["error", "warning"]


def _(s: str) -> str:
    """No-op marker so ``makemessages`` finds the templates."""
    return s


@dataclass(frozen=True)
class Problem:
    severity: Severity
    code: str
    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    line: int | None = None
    column: int | None = None
    field: str = ""

    @property
    def message(self) -> str:
        """The English message (untranslated template formatted with its params)."""
        try:
            # Templates such as malformed_number name the problem's ``field`` (kept outside params).
            return self.template % {"field": self.field, **dict(self.params)}
        except (KeyError, TypeError, ValueError):
            return self.template

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"line {self.line}"
            if self.column is not None:
                where += f", column {self.column}"
            where += ": "
        return f"{self.severity} [{self.code}] {where}{self.message}"


# A report lists at most this many problems (errors first): a file of junk gives a readable
# list and bounded memory, not a million rows (validate.sort_problems).
MAX_PROBLEMS = 1000


class ProblemList(list[Problem]):
    """A list of problems that keeps at most ``MAX_PROBLEMS`` errors and as many warnings,
    and counts the others (``left_out``), so memory stays bounded whatever the file."""

    def __init__(self, problems: Iterable[Problem] = ()) -> None:
        super().__init__()
        self.errors = 0
        self.warnings = 0
        self.left_out_errors = 0
        self.left_out_warnings = 0
        self.extend(problems)

    def append(self, p: Problem, /) -> None:
        if p.severity == "error":
            if self.errors < MAX_PROBLEMS:
                self.errors += 1
                super().append(p)
            else:
                self.left_out_errors += 1
        elif self.warnings < MAX_PROBLEMS:
            self.warnings += 1
            super().append(p)
        else:
            self.left_out_warnings += 1

    def extend(self, problems: Iterable[Problem], /) -> None:
        for p in problems:
            self.append(p)
        if isinstance(problems, ProblemList):
            self.left_out_errors += problems.left_out_errors
            self.left_out_warnings += problems.left_out_warnings

    def __iadd__(self, problems: Iterable[Problem], /) -> ProblemList:  # type: ignore[override, misc]
        self.extend(problems)
        return self

    def insert(self, index: SupportsIndex, p: Problem, /) -> None:
        raise NotImplementedError("ProblemList only appends")


# The only codes of problems about the whole file (``line`` is None); every other problem
# has a line (1-based) and, where it is one field, a column.
WHOLE_FILE_CODES = frozenset({"no_players", "too_many_problems"})

# Every template, by code. Parsers build problems through ``problem()`` so a code always
# carries the same message whichever format it was found in.
TEMPLATES: dict[str, str] = {
    # whole file / format
    "format_mismatch": _(
        "The file was declared as %(declared)s but its content looks like %(detected)s"
    ),
    "unknown_format": _("The content is not a TRF report, a FEDA ASCII file or a CSV crosstable"),
    "no_players": _("The report contains no players"),
    "unknown_line": _("Line ignored: unknown record %(record)s"),
    "column_ruler": _("Line %(lineno)s looks like a column ruler; ignored"),
    "control_character": _("Control character %(value)s: a report is plain text"),
    "too_many_problems": _("%(count)s more problems are not listed"),
    # fields
    "malformed_number": _("%(field)s: %(value)s is not a valid number"),
    "number_out_of_range": _("%(field)s: %(value)s is out of range (%(low)s to %(high)s)"),
    "invalid_date": _("%(field)s: %(value)s is not a date"),
    "ambiguous_date": _(
        "%(field)s: %(value)s can be read more than one way; read as %(date)s (%(reading)s)"
    ),
    "dates_reversed": _("The end date %(end)s is before the start date %(start)s"),
    "invalid_sex": _("Player %(rank)s: sex %(value)s is not m or w"),
    "unknown_title": _("Player %(rank)s: unknown title %(value)s"),
    "invalid_colour": _("Round %(round)s: player %(rank)s has colour %(value)s (w, b or -)"),
    "invalid_result": _("Round %(round)s: player %(rank)s has result %(value)s"),
    "bye_draw_sign": _(
        "Round %(round)s: player %(rank)s has a bye written %(value)s; read as a half-point bye (H)"
    ),
    "separator_not_blank": _(
        "Player %(rank)s: %(value)s where a blank column separates the fields; ignored"
    ),
    "missing_name": _("Player %(rank)s has no name"),
    "invalid_federation": _("Player %(rank)s: federation %(value)s is not three letters"),
    "invalid_rating": _("Player %(rank)s: rating %(value)s is out of range"),
    "field_count": _("Expected %(expected)s fields, found %(found)s"),
    "fields_joined": _(
        "%(value)s looks like two fields joined by a dot; read as %(first)s and %(second)s"
    ),
    "points_exceed_games": _("Player %(rank)s: %(points)s points in %(games)s games"),
    # players
    "duplicate_start_rank": _("Start rank %(rank)s is used twice (first on line %(first_line)s)"),
    "duplicate_id": _(
        "ID %(id)s is given to players %(rank)s and %(other)s (first on line %(first_line)s)"
    ),
    "points_mismatch": _(
        "Player %(rank)s: declared points %(declared)s, computed from the games %(computed)s"
    ),
    # pairings
    "self_paired": _("Round %(round)s: player %(rank)s is paired with himself"),
    "unknown_opponent": _("Round %(round)s: player %(rank)s plays unknown opponent %(opponent)s"),
    "asymmetric_pairing": _(
        "Round %(round)s: player %(rank)s lists opponent %(opponent)s, "
        "but %(opponent)s does not list %(rank)s"
    ),
    "colour_mismatch": _(
        "Round %(round)s: players %(rank)s and %(opponent)s have colours "
        "%(colour)s and %(opponent_colour)s"
    ),
    "result_mismatch": _(
        "Round %(round)s: results do not mirror: %(rank)s has %(result)s, "
        "%(opponent)s has %(opponent_result)s"
    ),
    "two_games_in_round": _(
        "Round %(round)s: player %(opponent)s is listed as opponent by %(rank)s and %(other)s"
    ),
    "bye_result_with_opponent": _(
        "Round %(round)s: player %(rank)s has bye result %(value)s against opponent %(opponent)s"
    ),
    "game_result_without_opponent": _(
        "Round %(round)s: player %(rank)s has game result %(value)s but no opponent"
    ),
    "multiple_pab": _("Round %(round)s: %(count)s pairing-allocated byes (at most one)"),
    # CSV crosstable
    "csv_header": _("The header must be No,Name,FIDE ID,Fed ID,Rating,1,2,…,n: %(detail)s"),
    "csv_not_square": _("The crosstable has %(rows)s players but %(columns)s result columns"),
    "csv_row_number": _("Row %(row)s is numbered %(value)s"),
}


# A value shown in a message is cut to this many characters (a 5 MiB line is not a message).
SHOWN_CHARS = 40


def shown(value: object) -> object:
    """``value`` as it goes into params: long strings are cut with an ellipsis."""
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return value[: SHOWN_CHARS - 1] + "…"
    return value


def problem(
    severity: Severity,
    code: str,
    *,
    line: int | None = None,
    column: int | None = None,
    field: str = "",
    **params: object,
) -> Problem:
    """Build a problem with the shared template of ``code``."""
    return Problem(
        severity=severity,
        code=code,
        template=TEMPLATES[code],
        params={k: shown(v) for k, v in params.items()},
        line=line,
        column=column,
        field=field,
    )


def error(
    code: str,
    *,
    line: int | None = None,
    column: int | None = None,
    field: str = "",
    **params: object,
) -> Problem:
    return problem("error", code, line=line, column=column, field=field, **params)


def warning(
    code: str,
    *,
    line: int | None = None,
    column: int | None = None,
    field: str = "",
    **params: object,
) -> Problem:
    return problem("warning", code, line=line, column=column, field=field, **params)


def out_of_range(
    *,
    line: int | None,
    column: int | None,
    field: str,
    value: object,
    low: object = 1,
    high: object = SMALLINT_MAX,
    severity: Severity = "error",
) -> Problem:
    """``value`` (of ``field``) is outside ``low``–``high``: by default a start rank or round
    past what a smallint holds."""
    return problem(
        severity,
        "number_out_of_range",
        line=line,
        column=column,
        field=field,
        value=value,
        low=low,
        high=high,
    )
