"""FIDE TXT and CSV lists read into raw rows: columns found from the header line.

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Iterable, Iterator

from formats.lists.rows import RawRow, problem
from formats.problems import Problem

# Header labels (lower case) -> field. Rapid and blitz columns of the combined list are
# recognised so the standard ones end where they should; which rating is read depends on
# ``rate`` (standard / rapid / blitz).
_LABELS: dict[str, str] = {
    "id": "fide_id",
    "idnumber": "fide_id",
    "id number": "fide_id",
    "fideid": "fide_id",
    "fide_id": "fide_id",
    "name": "name",
    "fed": "fed",
    "federation": "fed",
    "country": "fed",
    "sex": "sex",
    "tit": "title",
    "titl": "title",
    "title": "title",
    "wtit": "w_title",
    "w_title": "w_title",
    "otit": "o_title",
    "o_title": "o_title",
    "foa": "foa_title",
    "foa_title": "foa_title",
    "rating": "rating",
    "rtng": "rating",
    "games": "games",
    "gms": "games",
    "gm": "games",
    "k": "k",
    "b-day": "birth_year",
    "bday": "birth_year",
    "born": "birth_year",
    "birth": "birth_year",
    "birthday": "birth_year",
    "birth_year": "birth_year",
    "flag": "flag",
    "fed_id": "fed_id",
    "change": "change",
    "srtng": "s:rating",
    "sgm": "s:games",
    "sk": "s:k",
    "rrtng": "r:rating",
    "rgm": "r:games",
    "rk": "r:k",
    "brtng": "b:rating",
    "bgm": "b:games",
    "bk": "b:k",
}
_MONTH_TOKEN = re.compile(r"^[A-Za-z]{3}\d{2}$")  # Mar11, JAN23
_RATE_PREFIX = {"standard": "s", "rapid": "r", "blitz": "b"}
_KNOWN = sorted((k for k in _LABELS if " " not in k), key=len, reverse=True)


#: ``rate`` that reads the rating of every rate of a combined list (FIDE's SRtng, RRtng and
#: BRtng as rating_standard, rating_rapid, rating_blitz); a single-type list's rating column
#: stays ``rating`` (its rate is not in the file).
ALL_RATES = "all"
_RATE_FIELD = {"s": "rating_standard", "r": "rating_rapid", "b": "rating_blitz"}


def _label_field(token: str, rate: str) -> str | None:
    low = token.lower()
    if _MONTH_TOKEN.match(token):
        return "rating"
    target = _LABELS.get(low)
    if target and ":" in target:
        prefix, name = target.split(":")
        if rate == ALL_RATES:
            return _RATE_FIELD[prefix] if name == "rating" else None
        return name if prefix == _RATE_PREFIX.get(rate, "s") else None
    return target


def _split_glued(token: str) -> list[tuple[int, str]] | None:
    """'TitlFed' -> [(0, 'Titl'), (4, 'Fed')]: the 2011 header glues some labels together."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(token):
        for known in _KNOWN:
            if token.lower().startswith(known, i) and known not in ("k",):
                out.append((i, token[i : i + len(known)]))
                i += len(known)
                break
        else:
            if _MONTH_TOKEN.match(token[i:]):
                out.append((i, token[i:]))
                break
            return None
    return out


def header_columns(header: str, *, rate: str = "standard") -> list[tuple[int, str, str | None]]:
    """(start, label, field or None) of every header token, left to right."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    merged: list[tuple[int, str]] = []
    i = 0
    while i < len(tokens):
        pos, tok = tokens[i]
        if tok.lower() == "id" and i + 1 < len(tokens) and tokens[i + 1][1].lower() == "number":
            merged.append((pos, f"{tok} {tokens[i + 1][1]}"))
            i += 2
            continue
        if _label_field(tok, rate) is None and tok.lower() not in _LABELS:
            parts = _split_glued(tok)
            if parts and len(parts) > 1:
                merged.extend((pos + off, part) for off, part in parts)
                i += 1
                continue
        merged.append((pos, tok))
        i += 1
    return [(pos, tok, _label_field(tok, rate)) for pos, tok in merged]


def _txt_header(
    lines: list[str], rate: str
) -> tuple[list[Problem], list[tuple[str, int, int | None]], dict[str, str], int]:
    """(problems, spans, labels, index of the first line after the header)."""
    for number, header in enumerate(lines, start=1):  # noqa: B007 (number is used after the loop)
        if header.strip():
            break
    else:
        return [problem("empty_file")], [], {}, len(lines)
    problems, spans, labels = txt_header_layout(header, number, rate=rate)
    return problems, spans, labels, number if not problems else len(lines)


def txt_header_layout(
    header: str, number: int, *, rate: str = "standard"
) -> tuple[list[Problem], list[tuple[str, int, int | None]], dict[str, str]]:
    """(problems, spans, labels) of the header line (row ``number``): each known label's
    field runs from its start column to the next label's (the streaming import calls this
    with the first non-blank line)."""
    columns = header_columns(header, rate=rate)
    found = {f for _p, _t, f in columns if f}
    if found & set(_RATE_FIELD.values()):
        found.add("rating")  # a combined list read for every rate
    missing = [
        label
        for f, label in (("fide_id", "ID"), ("name", "Name"), ("rating", "Rating"))
        if f not in found
    ]
    if missing:
        return [problem("missing_column", row=number, column=m) for m in missing], [], {}
    spans: list[tuple[str, int, int | None]] = []
    labels: dict[str, str] = {}
    for idx, (pos, tok, fld) in enumerate(columns):
        end = columns[idx + 1][0] if idx + 1 < len(columns) else None
        if fld and fld not in labels:
            spans.append((fld, pos, end))
            labels[fld] = tok
    return [], spans, labels


def _txt_layout(
    text: str, rate: str
) -> tuple[
    list[Problem], list[tuple[str, int, int | None]], dict[str, str], Iterator[tuple[int, str]]
]:
    lines = text.lstrip("\ufeff").splitlines()
    problems, spans, labels, after = _txt_header(lines, rate)
    if problems:
        return problems, [], {}, iter(())
    return [], spans, labels, enumerate(lines[after:], start=after + 1)


def read_txt(text: str, *, rate: str = "standard") -> tuple[list[Problem], Iterator[RawRow]]:
    """Locate the columns from the header line; yield the raw text of each field per row."""
    problems, spans, labels, lines = _txt_layout(text, rate)

    def rows() -> Iterator[RawRow]:
        for n, line in lines:
            if not line.strip():
                continue
            yield RawRow(n, {f: line[a:b].strip() for f, a, b in spans}, labels)

    return problems, rows()


_CSV_ALIASES = {
    **{k: v for k, v in _LABELS.items() if ":" not in v},
    "srtng": "rating",
    "sgm": "games",
    "sk": "k",
}


def _unneutralise(value: str) -> str:
    """Undo csv_safe() on cells we wrote ourselves ("'=x" -> "=x")."""
    return value[1:] if value.startswith("'") and value[1:2] in ("=", "+", "-", "@") else value


def _csv_delimiter(text: str) -> str:
    """The delimiter (comma, semicolon or tab) that splits the header into the most known
    column names. Only the header is looked at, read with the standard quoting (a quote in a
    field is doubled): csv.Sniffer's guess from the rows took a field holding ``""`` or a
    quoted delimiter for a different dialect and misread the rows."""
    first = text.split("\n", 1)[0]

    def known(delimiter: str) -> int:
        cells = next(csv.reader([first], delimiter=delimiter), [])
        return sum(1 for c in cells if c.strip().lower() in _CSV_ALIASES)

    return max(",;\t", key=known)  # a tie keeps the earlier: comma first


def read_csv(text: str | Iterable[str]) -> tuple[list[Problem], Iterator[RawRow]]:
    """The rows of a CSV list: ``text`` is the whole text or its lines, each with its end
    (split at LF only, as iterating a StringIO gives them: the streaming import's)."""
    lines = iter(io.StringIO(text) if isinstance(text, str) else text)
    first = next(lines, "").lstrip("\ufeff")
    if not first.strip():
        if all(line.isspace() for line in lines):  # read to the end, nothing kept
            return [problem("empty_file")], iter(())
        first = "\n"  # a blank first line: the header names no column
    reader = csv.reader(
        itertools.chain([first], lines), delimiter=_csv_delimiter(first), doublequote=True
    )
    header = next(reader)
    index: dict[str, int] = {}
    labels: dict[str, str] = {}
    for i, label in enumerate(header):
        fld = _CSV_ALIASES.get(label.strip().lower())
        if fld and fld not in index:
            index[fld] = i
            labels[fld] = label.strip()
    missing = [
        label
        for f, label in (("fide_id", "fide_id"), ("name", "name"), ("rating", "rating"))
        if f not in index
    ]
    if missing:
        return [problem("missing_column", row=1, column=m) for m in missing], iter(())

    def rows() -> Iterator[RawRow]:
        for cells in reader:
            row = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            yield RawRow(
                row,
                {
                    f: _unneutralise(cells[i].strip()) if i < len(cells) else ""
                    for f, i in index.items()
                },
                labels,
            )

    return [], rows()


# FIDE's XML list: <playerslist><player><fideid>…</fideid>…</player>…</playerslist>, the tags
# of XML_TAGS (the combined list adds rapid_rating, rapid_games, rapid_k and the blitz_ ones).
#
# Read with expat, the streaming parser under xml.etree's iterparse, called directly: nothing
# is kept but the current player's fields, the start tag's line number is available (iterparse
# does not give it), and it read a 500,000-player combined list twice as fast as iterparse
# (7.6 s against 16 s). defusedxml is not a dependency, so DTDs are refused here: a DOCTYPE
# stops the reading where it starts, so no entity can be declared (the EntityDeclHandler
# refusal is a second lock), and an undeclared entity is a well-formedness error.
