"""Rating lists written out: CSV, JSON, FIDE-style TXT and XML.

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from xml.sax.saxutils import escape as _xml_escape

from formats.lists.rows import CSV_ALL_COLUMNS, ListRow

#: The formats a published list is downloaded in (render_csv, render_json, render_txt,
#: render_xml), each with the content type it is served as: the list downloads (lists/exports.py)
#: and their links in the API (ratings/api/lists.py).
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "xml": "application/xml; charset=utf-8",
}

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
        writer.writerow(CSV_ALL_COLUMNS)
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
                csv_safe(r.region),
                csv_safe(r.club),
                r.birth_date,
                _s(r.total_games),
                csv_safe(r.provisional),
                _s(r.games_k25),
                r.section,
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
        item = {name: getattr(r, name) for name in CSV_ALL_COLUMNS}
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
