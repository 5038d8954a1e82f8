"""External rating lists that a regulation reads beside its own: the ICCF list and the FPX list
(cnxc-2000 5.3: a virtual rating from the ICCF list, else the FPX list; 7.3: calibration
against the ICCF list). Pure module (no Django import); docs/lists.md, "ICCF and FPX lists".

Both are read from delimited text with a header row (tab, ``;`` or ``,``, found from the
header), the columns found by their labels, case and accents as written:

- **ICCF**: the columns of ICCF's rating list as ICCF publishes it (its rating list pages and
  their spreadsheet, saved as text): ``ICCF-id`` (also ``ICCF ID``, ``ID``), ``Country``
  (``Fed``, ``Federation``), ``Title``, ``Name``, ``Games``, ``Rating``; ``ID``, ``Name`` and
  ``Rating`` are required. Our CSV layout is the same with the labels ``iccf_id, name,
  federation, title, games, rating``.
- **FPX** (Federação Portuguesa de Xadrez, the Portuguese federation's Elo list): no
  published file layout, so a CSV with the documented columns ``fpx_id`` (the FPX licence
  number; also ``Licença``, ``Nº``, ``ID``), ``name`` (``Nome``), ``rating`` (``Elo``),
  optional ``fide_id`` (``ID FIDE``), ``federation``, ``games`` (``Jogos``), ``title``.

``read_external(lines, source=...)`` yields an ``ExternalRow`` per data row, each with the
problems of that row (``ExternalRow.problems``); the header's problems come first. Rows are
numbered as a spreadsheet shows them (the header is row 1). A rating of 0 or blank is "no
rating" (the row is kept, without a rating).
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from formats.lists.rows import RATING_MAX, RATING_MIN
from formats.problems import Problem

__all__ = [
    "EXTERNAL_COLUMNS",
    "EXTERNAL_SOURCES",
    "EXTERNAL_TEMPLATES",
    "ExternalRow",
    "read_external",
]


def _(s: str) -> str:
    """No-op marker so ``makemessages`` finds the templates."""
    return s


#: The external lists read, and the registry of their IDs (players.Player.iccf_id; the FPX
#: licence number is kept in the list only).
EXTERNAL_SOURCES = ("iccf", "fpx")

EXTERNAL_TEMPLATES: dict[str, str] = {
    "external_empty_file": _("The file is empty."),
    "external_missing_column": _("Row %(row)s: the header has no %(column)s column."),
    "external_bad_id": _("Row %(row)s, column %(column)s: “%(value)s” is not an ID (1–9 digits)."),
    "external_duplicate_id": _(
        "Row %(row)s, column %(column)s: ID %(value)s already appears in row %(first)s."
    ),
    "external_bad_number": _("Row %(row)s, column %(column)s: “%(value)s” is not a whole number."),
    "external_rating_out_of_range": _(
        "Row %(row)s, column %(column)s: rating %(value)s is outside %(min)s–%(max)s."
    ),
    "external_missing_name": _("Row %(row)s, column %(column)s: the name is missing."),
    "external_line_too_long": _(
        "Row %(row)s: the line is longer than %(max)s characters; this is not a rating list."
    ),
}

MAX_LINE_CHARS = 4096

#: Labels (lower case, stripped) → field, per source. The first column found for a field wins.
_ALIASES: Mapping[str, Mapping[str, str]] = {
    "iccf": {
        "iccf-id": "ext_id",
        "iccf id": "ext_id",
        "iccf_id": "ext_id",
        "iccfid": "ext_id",
        "id": "ext_id",
        "country": "federation",
        "fed": "federation",
        "federation": "federation",
        "title": "title",
        "name": "name",
        "games": "games",
        "rating": "rating",
        "fide_id": "fide_id",
    },
    "fpx": {
        "fpx_id": "ext_id",
        "fpx id": "ext_id",
        "licença": "ext_id",
        "licenca": "ext_id",
        "nº": "ext_id",
        "n.º": "ext_id",
        "id": "ext_id",
        "name": "name",
        "nome": "name",
        "rating": "rating",
        "elo": "rating",
        "fide_id": "fide_id",
        "id fide": "fide_id",
        "fide id": "fide_id",
        "federation": "federation",
        "fed": "federation",
        "games": "games",
        "jogos": "games",
        "title": "title",
        "título": "title",
    },
}

#: The columns our CSV layout writes, per source (docs/lists.md).
EXTERNAL_COLUMNS: Mapping[str, tuple[str, ...]] = {
    "iccf": ("iccf_id", "name", "federation", "title", "games", "rating"),
    "fpx": ("fpx_id", "name", "rating", "fide_id", "federation", "games", "title"),
}

_REQUIRED = ("ext_id", "name", "rating")


@dataclass(frozen=True, slots=True)
class ExternalRow:
    """A row of an external list: its number in the file and its values (None: blank)."""

    row: int
    ext_id: int | None
    name: str
    federation: str = ""
    title: str = ""
    games: int | None = None
    rating: int | None = None
    fide_id: int | None = None
    problems: tuple[Problem, ...] = ()


def problem(code: str, *, row: int | None = None, column: str = "", **params: object) -> Problem:
    return Problem(
        severity="error",
        code=code,
        template=EXTERNAL_TEMPLATES[code],
        params={"row": row, "column": column, **params},
        line=row,
        field=column,
    )


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in ("\t", ";", ",")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _digits(value: str, most: int = 9) -> bool:
    return value.isascii() and value.isdigit() and 1 <= len(value) <= most


def read_external(
    text: str | Iterable[str], *, source: str
) -> tuple[list[Problem], Iterator[ExternalRow]]:
    """The header's problems and the rows of an ICCF or FPX list (the module's docstring).
    ``text`` is the whole text or its lines, each with its end (as iterating a StringIO gives
    them: what the streaming import passes)."""
    if source not in _ALIASES:
        raise ValueError(f"unknown external list {source!r}")
    aliases = _ALIASES[source]
    lines = iter(io.StringIO(text) if isinstance(text, str) else text)
    first = next(lines, "").lstrip("\ufeff")
    while first and not first.strip():
        first = next(lines, "")
    if not first.strip():
        return [problem("external_empty_file")], iter(())
    if len(first) > MAX_LINE_CHARS:
        return [problem("external_line_too_long", row=1, max=MAX_LINE_CHARS)], iter(())
    reader = csv.reader(itertools.chain([first], lines), delimiter=_delimiter(first))
    header = next(reader)
    index: dict[str, int] = {}
    labels: dict[str, str] = {}
    for i, label in enumerate(header):
        fld = aliases.get(label.strip().lower())
        if fld and fld not in index:
            index[fld] = i
            labels[fld] = label.strip()
    missing = [f for f in _REQUIRED if f not in index]
    if missing:
        names = {"ext_id": f"{source}_id", "name": "name", "rating": "rating"}
        return [problem("external_missing_column", row=1, column=names[m]) for m in missing], iter(
            ()
        )

    def rows() -> Iterator[ExternalRow]:
        seen: dict[int, int] = {}
        for cells in reader:
            row = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if max(map(len, cells)) > MAX_LINE_CHARS:
                yield ExternalRow(
                    row,
                    None,
                    "",
                    problems=(problem("external_line_too_long", row=row, max=MAX_LINE_CHARS),),
                )
                continue
            yield _row(row, cells, index, labels, seen)

    return [], rows()


def _row(
    row: int,
    cells: list[str],
    index: Mapping[str, int],
    labels: Mapping[str, str],
    seen: dict[int, int],
) -> ExternalRow:
    def cell(f: str) -> str:
        i = index.get(f)
        return cells[i].strip() if i is not None and i < len(cells) else ""

    problems: list[Problem] = []

    def number(f: str) -> int | None:
        value = cell(f)
        if not value:
            return None
        if not _digits(value, 18 if f == "fide_id" else 9):
            code = "external_bad_id" if f in ("ext_id", "fide_id") else "external_bad_number"
            problems.append(problem(code, row=row, column=labels[f], value=value))
            return None
        return int(value)

    raw_id = cell("ext_id")
    ext_id = number("ext_id")
    if not raw_id:
        problems.append(problem("external_bad_id", row=row, column=labels["ext_id"], value=""))
    elif ext_id is not None:
        if ext_id in seen:
            problems.append(
                problem(
                    "external_duplicate_id",
                    row=row,
                    column=labels["ext_id"],
                    value=ext_id,
                    first=seen[ext_id],
                )
            )
        else:
            seen[ext_id] = row
    name = " ".join(cell("name").split())
    if not name:
        problems.append(problem("external_missing_name", row=row, column=labels["name"]))
    rating = number("rating")
    if rating == 0:
        rating = None  # 0 is "no rating", as in FIDE's lists
    elif rating is not None and not RATING_MIN <= rating <= RATING_MAX:
        problems.append(
            problem(
                "external_rating_out_of_range",
                row=row,
                column=labels["rating"],
                value=rating,
                min=RATING_MIN,
                max=RATING_MAX,
            )
        )
        rating = None
    return ExternalRow(
        row=row,
        ext_id=ext_id,
        name=name,
        federation=cell("federation")[:30],
        title=cell("title")[:10],
        games=number("games"),
        rating=rating,
        fide_id=number("fide_id") if "fide_id" in index else None,
        problems=tuple(problems),
    )
