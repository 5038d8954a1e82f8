"""Rating-list formats: render CSV, JSON, FIDE-style TXT and XML; read FIDE TXT, CSV and XML.

Pure module (no Django import). Layouts: /work/shared/FORMATS.md and docs/lists.md.

Reading is in two steps so the PostgreSQL import can validate in SQL:

1. ``read_txt`` / ``read_csv`` locate the columns (TXT: from the header line, since FIDE's
   layouts have changed) and yield ``RawRow``: the row number in the file (the header is row
   1, as a spreadsheet shows it) and the raw text of each known field. ``read_xml`` yields the
   same rows from FIDE's XML list (row = the player's ordinal; ``xml_problems_at_lines`` turns
   those into line numbers when something is reported).
2. ``validate_rows`` checks numbers, ranges, flags and duplicate IDs in Python (the SQLite
   path); ``ratings/imports.py`` runs the same checks in SQL on PostgreSQL. Both report
   ``Problem`` objects with the codes and templates of ``TEMPLATES``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from xml.parsers import expat
from xml.sax.saxutils import escape as _xml_escape

from tournaments.reports.problems import Problem


def _(s: str) -> str:
    """No-op marker so ``makemessages`` finds the templates."""
    return s


RATING_MIN = 100
RATING_MAX = 3500
BIRTH_MIN = 1850
BIRTH_MAX = 2100
FLAGS = frozenset({"", "i", "w", "wi"})
MAX_PROBLEMS = 200  # problems reported per import; the count of all is given too

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
CSV_COLUMNS = (
    "fide_id",
    "fed_id",
    "name",
    "fed",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "rating",
    "change",
    "games",
    "k",
    "birth_year",
    "flag",
)

# ---------------------------------------------------------------------------------------------
# Rendering

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: str) -> str:
    """Neutralise spreadsheet formulas: a text cell starting with = + - @ gets a leading '."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def _s(value: object) -> str:
    return "" if value is None else str(value)


def render_csv(rows: Iterable[ListRow], *, header: bool = True) -> Iterator[str]:
    """CSV lines. Text cells are neutralised; numbers we print ourselves are left as numbers."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    if header:
        writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            [
                _s(r.fide_id),
                csv_safe(r.fed_id),
                csv_safe(r.name),
                csv_safe(r.fed),
                csv_safe(r.sex),
                csv_safe(r.title),
                csv_safe(r.w_title),
                csv_safe(r.o_title),
                csv_safe(r.foa_title),
                _s(r.rating),
                _s(r.change),
                r.games,
                _s(r.k),
                _s(r.birth_year),
                csv_safe(r.flag),
            ]
        )
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()
    rest = buf.getvalue()
    if rest:
        yield rest


def render_json(rows: Iterable[ListRow], *, meta: Mapping[str, object]) -> Iterator[str]:
    """A JSON object ``{"list": meta, "players": [...]}``, written piece by piece."""
    yield '{"list": ' + json.dumps(dict(meta), ensure_ascii=False) + ', "players": ['
    first = True
    for r in rows:
        item = {name: getattr(r, name) for name in CSV_COLUMNS}
        yield ("" if first else ",") + "\n" + json.dumps(item, ensure_ascii=False)
        first = False
    yield "\n]}\n"


# Single-type FIDE TXT list (FORMATS.md): the combined list's columns up to FOA, then one
# rating whose header is a month token (e.g. NOV26), Gms, K, B-day, Flag. (label, width)
TXT_LAYOUT: tuple[tuple[str, str, int], ...] = (
    ("fide_id", "ID Number", 15),
    ("name", "Name", 61),
    ("fed", "Fed", 4),
    ("sex", "Sex", 4),
    ("title", "Tit", 5),
    ("w_title", "WTit", 5),
    ("o_title", "OTit", 15),
    ("foa_title", "FOA", 4),
    ("rating", "", 6),
    ("games", "Gms", 4),
    ("k", "K", 3),
    ("birth_year", "B-day", 6),
    ("flag", "Flag", 4),
)


def txt_header(rating_label: str) -> str:
    parts = [(label or rating_label).ljust(width) for _f, label, width in TXT_LAYOUT]
    return "".join(parts).rstrip()


def render_txt(rows: Iterable[ListRow], *, rating_label: str) -> Iterator[str]:
    """Fixed-width lines, CRLF like FIDE's files. Longer values are cut to the column width."""
    yield txt_header(rating_label) + "\r\n"
    for r in rows:
        parts = []
        for name, _label, width in TXT_LAYOUT:
            value = _s(getattr(r, name)).replace("\r", " ").replace("\n", " ")
            parts.append(value[: width - 1].ljust(width))
        yield "".join(parts).rstrip() + "\r\n"


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
XML_TAGS = (
    ("fideid", "fide_id"),
    ("name", "name"),
    ("country", "fed"),
    ("sex", "sex"),
    ("title", "title"),
    ("w_title", "w_title"),
    ("o_title", "o_title"),
    ("foa_title", "foa_title"),
    ("rating", "rating"),
    ("games", "games"),
    ("k", "k"),
    ("birthday", "birth_year"),
    ("flag", "flag"),
)


def render_xml(rows: Iterable[ListRow]) -> Iterator[str]:
    """FIDE's single-type XML list: <playerslist><player><fideid>…</player>…</playerslist>."""
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n'
    for r in rows:
        inner = "".join(
            f"<{tag}>{_xml_escape(_XML_BAD.sub('', _s(getattr(r, attr))))}</{tag}>"
            for tag, attr in XML_TAGS
        )
        yield f"<player>{inner}</player>\n"
    yield "</playerslist>\n"


# ---------------------------------------------------------------------------------------------
# Reading

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


def _label_field(token: str, rate: str) -> str | None:
    low = token.lower()
    if _MONTH_TOKEN.match(token):
        return "rating"
    target = _LABELS.get(low)
    if target and ":" in target:
        prefix, name = target.split(":")
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
    columns = header_columns(header, rate=rate)
    found = {f for _p, _t, f in columns if f}
    missing = [
        label
        for f, label in (("fide_id", "ID"), ("name", "Name"), ("rating", "Rating"))
        if f not in found
    ]
    if missing:
        return (
            [problem("missing_column", row=number, column=m) for m in missing],
            [],
            {},
            len(lines),
        )
    spans: list[tuple[str, int, int | None]] = []
    labels: dict[str, str] = {}
    for idx, (pos, tok, fld) in enumerate(columns):
        end = columns[idx + 1][0] if idx + 1 < len(columns) else None
        if fld and fld not in labels:
            spans.append((fld, pos, end))
            labels[fld] = tok
    return [], spans, labels, number


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


@dataclass(frozen=True)
class TxtBlock:
    """The located columns and the lines after the header, not split (see read_txt_block)."""

    problems: list[Problem]
    spans: list[tuple[str, int, int | None]]  # (field, start, end or None = to the line's end)
    labels: dict[str, str]
    first_row: int  # row number of lines[0] (the header is first_row - 1)
    lines: list[str]


def read_txt_block(text: str, *, rate: str = "standard") -> TxtBlock:
    """Header and column spans of read_txt, and the remaining lines as one list, for a reader
    that cuts the columns itself (the PostgreSQL import does it in SQL). Blank lines are kept,
    so lines[i] is row first_row + i."""
    lines = text.lstrip("\ufeff").splitlines()
    problems, spans, labels, after = _txt_header(lines, rate)
    if problems:
        return TxtBlock(problems, [], {}, 0, [])
    del lines[:after]
    return TxtBlock([], spans, labels, after + 1, lines)


def read_txt(text: str, *, rate: str = "standard") -> tuple[list[Problem], Iterator[RawRow]]:
    """Locate the columns from the header line; yield the raw text of each field per row."""
    problems, spans, labels, lines = _txt_layout(text, rate)

    def rows() -> Iterator[RawRow]:
        for n, line in lines:
            if not line.strip():
                continue
            yield RawRow(n, {f: line[a:b].strip() for f, a, b in spans}, labels)

    return problems, rows()


def read_txt_tuples(
    text: str, *, fields: tuple[str, ...], rate: str = "standard"
) -> tuple[list[Problem], dict[str, str], Iterator[tuple[int, list[str]]]]:
    """Like read_txt, but each row is (row number, [values in the order of ``fields``]);
    a field the file lacks is "". The bulk import's fast path."""
    problems, spans, labels, lines = _txt_layout(text, rate)
    where = {f: slice(a, b) for f, a, b in spans}
    slices = [where.get(f) for f in fields]

    def rows() -> Iterator[tuple[int, list[str]]]:
        for n, line in lines:
            if not line or line.isspace():
                continue
            yield n, [line[s].strip() if s is not None else "" for s in slices]

    return problems, labels, rows()


_CSV_ALIASES = {
    **{k: v for k, v in _LABELS.items() if ":" not in v},
    "srtng": "rating",
    "sgm": "games",
    "sk": "k",
}


def _unneutralise(value: str) -> str:
    """Undo csv_safe() on cells we wrote ourselves ("'=x" -> "=x")."""
    return value[1:] if value.startswith("'") and value[1:2] in ("=", "+", "-", "@") else value


def read_csv(text: str) -> tuple[list[Problem], Iterator[RawRow]]:
    text = text.lstrip("\ufeff")
    if not text.strip():
        return [problem("empty_file")], iter(())
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
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

XML_ROOT = "playerslist"
XML_PLAYER = "player"
_XML_CHUNK = 1 << 16  # characters fed to expat at a time


class ListReadError(Exception):
    """The file could not be read to its end (malformed XML, a DOCTYPE): nothing is imported."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


class _XmlStop(Exception):
    def __init__(self, found: Problem | None = None) -> None:
        self.problem = found
        super().__init__(found.message if found else "")


def _xml_parser() -> expat.XMLParserType:
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(*_args: object) -> None:
        raise _XmlStop(problem("xml_doctype", row=parser.CurrentLineNumber))

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    return parser


def _xml_feed(parser: expat.XMLParserType, text: str) -> Iterator[None]:
    """Feed ``text`` to ``parser`` a chunk at a time, pausing after each chunk."""
    try:
        for start in range(0, len(text), _XML_CHUNK):
            parser.Parse(text[start : start + _XML_CHUNK], False)
            yield
        parser.Parse("", True)
        yield
    except expat.ExpatError as exc:
        reason = expat.ErrorString(exc.code) if exc.code else str(exc)
        raise ListReadError(
            [problem("xml_malformed", row=exc.lineno, position=exc.offset + 1, reason=reason)]
        ) from None
    except _XmlStop as exc:
        raise ListReadError([exc.problem] if exc.problem else []) from None


def _xml_columns(
    first: Mapping[str, str], rate: str
) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """(tag, field) pairs and the field -> tag labels. The combined list's rapid or blitz
    columns are read for such a system when the first player has them; otherwise (a
    single-type list) ``rating``, ``games`` and ``k`` are the system's."""
    tags = dict(XML_TAGS)
    if rate in ("rapid", "blitz") and f"{rate}_rating" in first:
        for name in ("rating", "games", "k"):
            del tags[name]
            tags[f"{rate}_{name}"] = name
    pairs = list(tags.items())
    return pairs, {fld: tag for tag, fld in pairs}


def read_xml(text: str, *, rate: str = "standard") -> tuple[list[Problem], Iterator[RawRow]]:
    """Yield one RawRow per <player>, numbered 1, 2, … in file order (unique and dense, as the
    bulk import needs); a missing child is "". Raises ListReadError, while iterating, at a
    malformed spot, a DOCTYPE or a root other than <playerslist>."""
    if not text.strip():
        return [problem("empty_file")], iter(())
    return [], _xml_rows(text, rate)


def _xml_rows(text: str, rate: str) -> Iterator[RawRow]:
    parser = _xml_parser()
    done: list[dict[str, str]] = []
    parts: list[str] = []
    player: dict[str, str] | None = None
    depth = 0

    def start(name: str, _attrs: object) -> None:
        nonlocal depth, player
        depth += 1
        if depth == 3:
            parts.clear()
        elif depth == 2:
            player = {} if name == XML_PLAYER else None
        elif depth == 1 and name != XML_ROOT:
            raise _XmlStop(problem("xml_root", row=parser.CurrentLineNumber, value=name))

    def end(name: str) -> None:
        nonlocal depth, player
        if depth == 3 and player is not None:
            player[name] = "".join(parts).strip()
        elif depth == 2 and player is not None:
            done.append(player)
            player = None
        depth -= 1

    def data(chunk: str) -> None:
        if depth == 3:
            parts.append(chunk)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    pairs: list[tuple[str, str]] | None = None
    labels: dict[str, str] = {}
    ordinal = 0
    for _ in _xml_feed(parser, text):
        for found in done:
            if pairs is None:
                pairs, labels = _xml_columns(found, rate)
            ordinal += 1
            yield RawRow(ordinal, {fld: found.get(tag, "") for tag, fld in pairs}, labels)
        done.clear()


class _Enough(Exception):
    pass


def xml_player_lines(text: str, ordinals: Iterable[int]) -> dict[int, int]:
    """The line of the start tag of each wanted <player> (1 = the first), read again: only a
    failed import needs them."""
    wanted = set(ordinals)
    last = max(wanted, default=0)
    lines: dict[int, int] = {}
    if not last:
        return lines
    parser = _xml_parser()
    depth = 0
    seen = 0

    def start(name: str, _attrs: object) -> None:
        nonlocal depth, seen
        depth += 1
        if depth == 2 and name == XML_PLAYER:
            seen += 1
            if seen in wanted:
                lines[seen] = parser.CurrentLineNumber
            if seen >= last:
                raise _Enough

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        for _ in _xml_feed(parser, text):
            pass
    except (_Enough, ListReadError):
        pass
    return lines


def xml_problems_at_lines(text: str, problems: list[Problem]) -> list[Problem]:
    """Problems found on rows of read_xml (player ordinals) renumbered with the line of each
    player's start tag, and the earlier row of a duplicate ID too."""
    ordinals: set[int] = set()
    for p in problems:
        if p.line:
            ordinals.add(p.line)
        first = p.params.get("first")
        if isinstance(first, int):
            ordinals.add(first)
    lines = xml_player_lines(text, ordinals)
    out = []
    for p in problems:
        if not p.line:
            out.append(p)
            continue
        line = lines.get(p.line, p.line)
        params = {**p.params, "row": line}
        first = params.get("first")
        if isinstance(first, int):
            params["first"] = lines.get(first, first)
        out.append(replace(p, line=line, params=params))
    return out


# ---------------------------------------------------------------------------------------------
# Normalising and validating

_OLD_TITLES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}
VALID_TITLES = frozenset(
    {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "MN", "MF", "MC", "WMF", "MI", "WMI"}
)


def normal_title(raw: str) -> str:
    """'g' -> 'GM' (2011 codes), 'GM' -> 'GM'; an unknown title is dropped (docs/lists.md)."""
    value = _OLD_TITLES.get(raw, raw.upper())
    return value if value in VALID_TITLES else ""


def normal_sex(raw_sex: str, flag: str) -> str:
    """The Sex column if given; otherwise the flag (FIDE marks women with 'w')."""
    s = raw_sex.strip().upper()[:1]
    if s in ("M", "F"):
        return s
    return "F" if "w" in flag.lower() else "M"


def split_name(name: str) -> tuple[str, str]:
    """'Andreikin, Dmitry' -> ('Andreikin', 'Dmitry'); ', Vardharajan' -> ('', 'Vardharajan')."""
    surname, sep, given = name.partition(",")
    return (surname.strip(), given.strip()) if sep else (name.strip(), "")


_DIGITS = re.compile(r"^[0-9]{1,9}$")  # imports.py: the same patterns in SQL
_ID_DIGITS = re.compile(r"^[0-9]{1,18}$")


def validate_rows(raw_rows: Iterable[RawRow]) -> tuple[list[ListRow], list[Problem]]:
    """Python checks (a reader's oracle for the tests); imports.py runs the same checks in SQL."""
    out: list[ListRow] = []
    problems: list[Problem] = []
    seen: dict[int, int] = {}

    def number(raw: RawRow, fld: str) -> int | None:
        value = raw.values.get(fld, "")
        if value == "":
            return None
        if not (_ID_DIGITS if fld == "fide_id" else _DIGITS).match(value):
            problems.append(
                problem("bad_number", row=raw.row, column=raw.labels.get(fld, fld), value=value)
            )
            return None
        return int(value)

    for raw in raw_rows:
        v = raw.values
        lab = raw.labels
        before = len(problems)
        fide_id = number(raw, "fide_id")
        if fide_id is None and v.get("fide_id", "") == "":
            problems.append(problem("missing_id", row=raw.row, column=lab.get("fide_id", "ID")))
        rating = number(raw, "rating")
        if rating == 0:
            rating = None
        if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
            problems.append(
                problem(
                    "rating_out_of_range",
                    row=raw.row,
                    column=lab["rating"],
                    value=rating,
                    min=RATING_MIN,
                    max=RATING_MAX,
                )
            )
        games = number(raw, "games")
        k = number(raw, "k")
        birth = number(raw, "birth_year")
        if birth == 0:
            birth = None
        if birth is not None and not BIRTH_MIN <= birth <= BIRTH_MAX:
            problems.append(
                problem(
                    "birth_out_of_range",
                    row=raw.row,
                    column=lab["birth_year"],
                    value=birth,
                    min=BIRTH_MIN,
                    max=BIRTH_MAX,
                )
            )
        flag = v.get("flag", "").lower()
        if flag not in FLAGS:
            problems.append(
                problem(
                    "bad_flag", row=raw.row, column=lab.get("flag", "Flag"), value=v.get("flag", "")
                )
            )
        fed = v.get("fed", "").upper()
        if len(fed) > 3:
            problems.append(
                problem(
                    "bad_federation",
                    row=raw.row,
                    column=lab.get("fed", "Fed"),
                    value=v.get("fed", ""),
                )
            )
        if fide_id is not None:
            if fide_id in seen:
                problems.append(
                    problem(
                        "duplicate_id",
                        row=raw.row,
                        column=lab.get("fide_id", "ID"),
                        value=fide_id,
                        first=seen[fide_id],
                    )
                )
            else:
                seen[fide_id] = raw.row
        if len(problems) > before:
            continue
        out.append(
            ListRow(
                fide_id=fide_id,
                name=v.get("name", ""),
                fed=fed,
                sex=normal_sex(v.get("sex", ""), flag),
                title=normal_title(v.get("title", "")),
                w_title=v.get("w_title", ""),
                o_title=v.get("o_title", ""),
                foa_title=v.get("foa_title", ""),
                rating=rating,
                games=games or 0,
                k=k,
                birth_year=birth,
                flag=flag,
                fed_id=v.get("fed_id", ""),
            )
        )
    return out, problems


def sort_problems(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.line or 0, p.code))
