"""A list's rows as COPY text for the staging table, read as a stream: a TXT file cut by
columns with no Python code per row (a batch of lines at a time), other formats field by field;
the name keys of new players; the problems read back from the checks' rows.

``list_stream`` reads the header (TXT, CSV) or the first player (XML) and the first batch of
rows, and returns a ``ListStream``: what the staging table needs to be created (the rating
fields the file has, the labels) and ``chunks(keys)``, the COPY text of every row, batch by
batch, with or without the new players' name keys (players.names.fold of the name).
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from core.pg.copy import copy_text
from formats import lists as lf
from formats.problems import Problem
from lists.imports import sql
from lists.imports.result import ListImportError, _fail
from lists.imports.source import batches, newline_lines, text_lines
from players.names import fold, fold_all

#: Lines (or rows) cut and sent at a time: PostgreSQL parses one batch while the next is cut.
BATCH_ROWS = 20_000

_ASCII_SEPARATORS = re.compile(r"[\s,.;'`\-]+")

_RATING_FIELDS = ("rating", *sql.FIDE_COLUMNS)


def name_key(surname: str, given_name: str) -> str:
    """players.names.full_name_key, with a shortcut for ASCII names (same result: NFKD and
    the accent/ß/ª/º rules change nothing in ASCII, and casefold() is lower() there)."""
    text = f"{surname} {given_name}"
    if text.isascii():
        return _ASCII_SEPARATORS.sub(" ", text.lower()).strip()
    return fold(text)


def read_fields(ratings: tuple[str, ...]) -> tuple[str, ...]:
    """The fields read from each row, in the COPY order of list_fields (the row number, the
    split name and the name key aside)."""
    return ("fide_id", "name", "fed", "sex", "title", *ratings, "games", "k", "birth_year", "flag")


@dataclass(frozen=True)
class ListStream:
    labels: dict[str, str]  # field -> its label in the file
    ratings: tuple[str, ...]  # the rating fields read (sql.py: "rating" or the FIDE ones)
    sample_ids: list[int]  # FIDE IDs from the first rows (are they new players?)
    chunks: Callable[[bool], Iterator[str]]  # keys? -> COPY text of list_fields
    #: The words of the name keys chunks(True) computed (players.models.NameWord's words),
    #: filled as the chunks are made.
    words: set[str] = field(default_factory=set)


def add_words(words: set[str], keys: list[str]) -> None:
    """The words of folded names (single spaces between them: players.names.fold) into
    `words`, split in C over the whole batch."""
    words.update(" ".join(keys).split(" "))
    words.discard("")


def _fide_ids(values: Iterable[str], most: int = 256) -> list[int]:
    found = [v for v in values if v.isascii() and v.isdigit() and len(v) <= 18]
    step = max(1, len(found) // most)
    return [int(v) for v in found[::step]]


def _ratings_read(found: Iterable[str], *, fide_rate: str | None) -> tuple[str, ...]:
    """The rating fields, renamed for the target: into FIDE fields a single-type list's
    ``rating`` is the FIDE rating of ``fide_rate`` (the officer's choice)."""
    out = []
    for f in _RATING_FIELDS:
        if f in found:
            out.append(sql.fide_field(fide_rate) if fide_rate and f == "rating" else f)
    return tuple(out) or ((sql.fide_field(fide_rate),) if fide_rate else ("rating",))


def list_stream(text: Iterable[str], fmt: str, *, rate: str, fide: bool) -> ListStream:
    """The file's decoded text (pieces in order) as COPY text. ``rate`` is the rate of play
    read (a rating system's, or for ``fide`` the one a single-type list is taken for).
    Raises ListImportError for a header that cannot be read."""
    if fmt == "txt":
        return _txt_stream(text, rate=rate, fide=fide)
    if fmt == "csv":
        problems, rows = lf.read_csv(newline_lines(text))
    else:
        problems, rows = lf.read_xml(text, rate=lf.ALL_RATES if fide else rate)
    if problems:
        raise _fail(problems)
    return _rows_stream(rows, rate=rate, fide=fide)


# --------------------------------------------------------------------------- TXT


def _txt_stream(text: Iterable[str], *, rate: str, fide: bool) -> ListStream:
    lines = text_lines(text)
    row = 0
    for line in lines:
        row += 1
        if line.strip():
            header = line.lstrip("\ufeff") if row == 1 else line
            break
    else:
        raise _fail([lf.problem("empty_file")])
    problems, spans, labels = lf.txt_header_layout(header, row, rate=lf.ALL_RATES if fide else rate)
    if problems:
        raise _fail(problems)
    ratings = _ratings_read(labels, fide_rate=rate if fide else None)
    if fide and "rating" in labels:  # a single-type list: its rating is of the chosen rate
        renamed = sql.fide_field(rate)
        spans = [(renamed if f == "rating" else f, a, b) for f, a, b in spans]
        labels = {(renamed if f == "rating" else f): v for f, v in labels.items()}
    fields = read_fields(ratings)
    where = {f: slice(a, b) for f, a, b in spans}
    line_batches = batches(lines, BATCH_ROWS)
    first = next(line_batches, [])
    fide_id = where["fide_id"]
    sample = _fide_ids(line[fide_id].strip() for line in first)

    words: set[str] = set()

    def chunks(keys: bool) -> Iterator[str]:
        start = row + 1
        for batch in itertools.chain([first], line_batches):
            yield _cut_txt(where, fields, start, batch, words=words if keys else None)
            start += len(batch)

    return ListStream(labels, ratings, sample, chunks, words)


def _cut_txt(
    where: dict[str, slice],
    fields: tuple[str, ...],
    first: int,
    lines: list[str],
    *,
    words: set[str] | None,
) -> str:
    """COPY text of list_fields for a batch of TXT lines (line i is row first + i): each field
    stripped, the name split as lf.split_name does, with map()/zip() doing the per-row work in
    C. A batch with a tab (which would need escaping field by field) goes row by row. With
    `words`, the name keys too (their words added to it); without, an empty key column."""
    others = [where.get(f, slice(0, 0)) for f in fields if f != "name"]
    name = where["name"]
    numbers = list(
        itertools.compress(range(first, first + len(lines)), map(str.strip, lines))
    )  # the non-blank lines
    if len(numbers) < len(lines):
        lines = [lines[n - first] for n in numbers]
    if not lines:
        return ""
    # The name column's trailing blanks: fold() would spend as long on them as on the name.
    raw_names = list(map(str.rstrip, map(operator.itemgetter(name), lines)))
    key_values: list[str] | itertools.repeat[str] = itertools.repeat("", len(lines))
    if words is not None:
        key_values = fold_all(raw_names)
        add_words(words, key_values)
    # "Surname, Given" -> surname, given (lf.split_name: a one-word name is the surname).
    names = itertools.chain.from_iterable(map(lf.split_name, raw_names))
    values = map(str.strip, itertools.chain.from_iterable(map(operator.itemgetter(*others), lines)))
    # zip() takes from the same iterator as often as it is repeated: one row per tuple.
    rows_text = zip(map(str, numbers), names, names, *[values] * len(others), key_values)
    text = "\n".join(map("\t".join, rows_text)) + "\n"
    if text.count("\t") != len(lines) * (len(others) + 3):
        # A tab inside a field (it would need escaping): the batch goes row by row.
        slices = [where.get(f) for f in fields]
        rows = (
            (n, [line[s].strip() if s is not None else "" for s in slices])
            for n, line in zip(numbers, lines)
        )
        keys = key_values if words is not None else itertools.repeat("")
        return "".join(_field_lines(rows, _escape_keys(list(keys))))
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    return text


def _escape_keys(keys: list[str]) -> list[str]:
    """Keys hold no tab or newline (fold collapses them); a backslash is doubled."""
    return [k.replace("\\", "\\\\") for k in keys] if any("\\" in k for k in keys) else keys


# --------------------------------------------------------------------------- CSV and XML


def _rows_stream(rows: Iterator[lf.RawRow], *, rate: str, fide: bool) -> ListStream:
    row_batches = batches(rows, BATCH_ROWS)
    first = next(row_batches, [])
    labels = dict(first[0].labels) if first else {}
    ratings = _ratings_read(first[0].values if first else (), fide_rate=rate if fide else None)
    # A file's field for each column of list_fields: a single-type list's "rating" read into
    # a FIDE field keeps its name in the file's rows.
    keys_in_rows = [
        "rating" if fide and f == sql.fide_field(rate) and "rating" in labels else f
        for f in read_fields(ratings)
    ]
    if fide and "rating" in labels and sql.fide_field(rate) in ratings:
        labels[sql.fide_field(rate)] = labels.pop("rating")
    sample = _fide_ids(r.values.get("fide_id", "") for r in first)
    words: set[str] = set()

    def chunks(keys: bool) -> Iterator[str]:
        for batch in itertools.chain([first], row_batches):
            values = [(r.row, [r.values.get(f, "") for f in keys_in_rows]) for r in batch]
            key_values: Iterable[str] = itertools.repeat("")
            if keys:
                names = (lf.split_name(v[1]) for _r, v in values)
                folded = fold_all([f"{s} {g}" for s, g in names])
                add_words(words, folded)
                key_values = _escape_keys(folded)
            yield "".join(_field_lines(values, key_values))

    return ListStream(labels, ratings, sample, chunks, words)


def _field_lines(rows: Iterable[tuple[int, list[str]]], keys: Iterable[str]) -> Iterator[str]:
    """COPY lines of list_fields (names split here), each with its (escaped) name key."""
    split = lf.split_name
    for (row, (fide_id, name, *rest)), key in zip(rows, keys):
        surname, given = split(name)
        values = (str(row), surname, given, fide_id, *rest)
        line = "\t".join(values)
        if "\\" in line or line.count("\t") != len(values) - 1 or "\n" in line or "\r" in line:
            line = "\t".join(map(copy_text, values))
        yield f"{line}\t{key}\n"


def key_lines_words(words: list[str]) -> str:
    """COPY text of one column of words (name-key words: no tab or newline)."""
    return "".join(f"{w}\n" for w in _escape_keys(words))


def key_lines(rows: list[int], keys: list[str]) -> str:
    return "".join(f"{r}\t{k}\n" for r, k in zip(rows, _escape_keys(keys), strict=True))


# --------------------------------------------------------------------------- problems

_DEFAULT_LABELS = {
    "fide_id": "ID",
    "rating": "Rating",
    "games": "Games",
    "k": "K",
    "birth_year": "B-day",
    "flag": "Flag",
    "fed": "Fed",
}


def problems_from(rows: list[tuple], labels: dict[str, str]) -> list[Problem]:
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


def checks_failed(rows: list[tuple], labels: dict[str, str]) -> ListImportError:
    return ListImportError(problems_from(rows, labels), total=rows[0][5] if rows else 0)
