"""A list's rows as COPY text for the staging table: a TXT file cut by columns with no Python
code per row, other formats field by field; the name keys of new players; the problems read
back from the checks' rows."""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable, Iterator

from core.pg.copy import copy_text
from players.names import fold, fold_all
from ratings.lists import formats as lf
from ratings.lists.import_result import _read
from tournaments.reports.problems import Problem

_FIELD_COLUMNS = (
    "row_no",
    "surname",
    "given_name",
    "fide_raw",
    "fed_raw",
    "sex_raw",
    "title_raw",
    "rating_raw",
    "games_raw",
    "k_raw",
    "birth_raw",
    "flag_raw",
)


_READ_FIELDS = (
    "fide_id",
    "name",
    "fed",
    "sex",
    "title",
    "rating",
    "games",
    "k",
    "birth_year",
    "flag",
)


_ASCII_SEPARATORS = re.compile(r"[\s,.;'`\-]+")


def name_key(surname: str, given_name: str) -> str:
    """players.names.full_name_key, with a shortcut for ASCII names (same result: NFKD and
    the accent/ß/ª/º rules change nothing in ASCII, and casefold() is lower() there)."""
    text = f"{surname} {given_name}"
    if text.isascii():
        return _ASCII_SEPARATORS.sub(" ", text.lower()).strip()
    return fold(text)


def _tuples(
    text: str, fmt: str, rate: str
) -> tuple[list[Problem], dict[str, str], Iterator[tuple[int, list[str]]]]:
    """(problems, labels, iterator of (row, [values in _READ_FIELDS order])) read in Python."""
    if fmt == "txt":
        return lf.read_txt_tuples(text, fields=_READ_FIELDS, rate=rate)
    problems, raw_rows = _read(text, fmt, rate)
    raw_rows = iter(raw_rows)
    first = next(raw_rows, None)
    labels = dict(first.labels) if first else {}

    def rows() -> Iterator[tuple[int, list[str]]]:
        if first is None:
            return
        for raw in itertools.chain([first], raw_rows):
            yield raw.row, [raw.values.get(f, "") for f in _READ_FIELDS]

    return problems, labels, rows()


def _cut_txt(block: lf.TxtBlock) -> str:
    """COPY text of list_fields for a TXT file (all of it; the import sends it in chunks)."""
    return "".join(_cut_txt_chunks(block))


def _cut_txt_chunks(block: lf.TxtBlock, size: int = 20_000) -> Iterator[str]:
    """COPY text of list_fields for a TXT file, `size` lines at a time: read_txt's values
    (each field stripped, the name split as lf.split_name does), with map()/zip() doing the
    per-row work in C. In chunks so that PostgreSQL parses one while the next is cut. The
    caller ensures there is no tab in the lines."""
    where = {f: slice(a, b) for f, a, b in block.spans}
    others = [where.get(f, slice(0, 0)) for f in _READ_FIELDS if f != "name"]
    name = where["name"]
    for start in range(0, len(block.lines), size):
        lines = block.lines[start : start + size]
        first = block.first_row + start
        numbers = list(
            itertools.compress(range(first, first + len(lines)), map(str.strip, lines))
        )  # the non-blank lines
        if len(numbers) < len(lines):
            lines = [lines[n - first] for n in numbers]
        # "Surname, Given" -> surname, given (lf.split_name: a one-word name is the surname).
        names = itertools.chain.from_iterable(
            map(lf.split_name, map(operator.itemgetter(name), lines))
        )
        fields = map(
            str.strip, itertools.chain.from_iterable(map(operator.itemgetter(*others), lines))
        )
        # zip() takes from the same iterator as often as it is repeated: one row per tuple.
        rows = zip(map(str, numbers), names, names, *[fields] * len(others))
        text = "\n".join(map("\t".join, rows))
        if "\\" in text:
            text = text.replace("\\", "\\\\")
        if text:
            yield text + "\n"


_DEFAULT_LABELS = {
    "fide_id": "ID",
    "rating": "Rating",
    "games": "Games",
    "k": "K",
    "birth_year": "B-day",
    "flag": "Flag",
    "fed": "Fed",
}


def _problems_from(rows: list[tuple], labels: dict[str, str]) -> list[Problem]:
    out = []
    for row_no, code, fld, value, first, *_rest in rows:
        column = labels.get(fld, _DEFAULT_LABELS.get(fld, fld))
        params: dict[str, object] = {"value": value}
        if code == "rating_out_of_range":
            params.update(value=int(value), min=lf.RATING_MIN, max=lf.RATING_MAX)
        elif code == "birth_out_of_range":
            params.update(value=int(value), min=lf.BIRTH_MIN, max=lf.BIRTH_MAX)
        elif code == "duplicate_id":
            params.update(value=int(value), first=first)
        out.append(lf.problem(code, row=row_no, column=column, **params))
    return out


def _field_lines(
    rows: Iterable[tuple[int, list[str]]], names: list[tuple[int, str]]
) -> Iterator[str]:
    """COPY lines of list_fields (names split here); (row, "surname given") go to ``names``."""
    split = lf.split_name
    for row, (fide_id, name, fed, sex, title, rating, games, k, birth, flag) in rows:
        surname, given = split(name)
        names.append((row, f"{surname} {given}"))
        values = (str(row), surname, given, fide_id, fed, sex, title, rating, games, k, birth, flag)
        line = "\t".join(values)
        if "\\" in line or line.count("\t") != 11 or "\n" in line or "\r" in line:
            line = "\t".join(map(copy_text, values))
        yield line + "\n"


def _key_lines(rows: list[int], keys: list[str]) -> str:
    text = "".join(f"{r}\t{k}\n" for r, k in zip(rows, keys, strict=True))
    return text.translate(_ESCAPE_KEY) if "\\" in text else text


_ESCAPE_KEY = str.maketrans({"\\": "\\\\"})  # keys hold no tab or newline (fold collapses them)


def _name_keys(block: lf.TxtBlock) -> list[str]:
    """The name_key of every line of a TXT block (blank lines included). fold() of the raw
    "Surname, Given" field equals full_name_key(surname, given): the comma and the spaces
    around it are separators that fold() collapses, and it strips the ends."""
    name = next(slice(a, b) for f, a, b in block.spans if f == "name")
    return fold_all(list(map(operator.itemgetter(name), block.lines)))
