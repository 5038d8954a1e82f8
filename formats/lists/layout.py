"""A published list in its regulation's layout (issue 24 item 1): TXT and XML with the columns
the regulation's article lists, the FIDE ID and the federation ID first, and the section.

Pure module (no Django import). The columns come from the regulation's facts
(rating_engine.list_layout), passed in as keys; docs/lists.md "Layouts".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from xml.sax.saxutils import escape as _xml_escape

from formats.lists.rows import ListRow

#: Column key -> (ListRow attribute, TXT header label, TXT width). The rating's label is the
#: list's month token, as in FIDE's files.
LAYOUT_COLUMNS: dict[str, tuple[str, str, int]] = {
    "fide_id": ("fide_id", "ID Number", 15),
    "fed_id": ("fed_id", "Fed ID", 13),
    "name": ("name", "Name", 61),
    "title": ("any_title", "Tit", 5),
    "fide_title": ("fide_title", "Tit", 5),
    "federation": ("fed", "Fed", 4),
    "region": ("region", "Region", 21),
    "club": ("club", "Club", 31),
    "rating": ("rating", "", 6),
    "provisional": ("provisional", "P", 2),
    "change": ("change", "Chg", 5),
    "birth_date": ("birth_date", "Born", 11),
    "birth_year": ("birth_year", "B-day", 6),
    "sex": ("sex", "Sex", 4),
    "activity": ("activity", "Status", 9),
    "k": ("k", "K", 3),
    "games": ("games", "Gms", 4),
    "total_games": ("total_games", "Total", 6),
    "games_k25": ("games_k25", "K25", 4),
    "section": ("section", "Section", 15),
}


def layout_keys(columns: Sequence[str]) -> tuple[str, ...]:
    """The columns written: the FIDE ID and the federation ID first (issue 24, "Tried in the
    browser" 2: a player without a FIDE ID is told apart by his federation ID), then the
    regulation's columns in its article's order, then the section."""
    rest = [c for c in columns if c not in ("fide_id", "fed_id")]
    return ("fide_id", "fed_id", *rest, "section")


def _s(value: object) -> str:
    return "" if value is None else str(value)


def layout_txt_header(columns: Sequence[str], *, rating_label: str) -> str:
    parts = []
    for key in layout_keys(columns):
        _attr, label, width = LAYOUT_COLUMNS[key]
        parts.append((label or rating_label).ljust(width))
    return "".join(parts).rstrip()


def render_layout_txt(
    rows: Iterable[ListRow], *, columns: Sequence[str], rating_label: str
) -> Iterator[str]:
    """Fixed-width lines, CRLF; the header names every column (``Fed ID`` next to ``ID
    Number``). Longer values are cut to the column width."""
    keys = layout_keys(columns)
    yield layout_txt_header(columns, rating_label=rating_label) + "\r\n"
    for r in rows:
        parts = []
        for key in keys:
            attr, _label, width = LAYOUT_COLUMNS[key]
            value = _s(getattr(r, attr)).replace("\r", " ").replace("\n", " ")
            parts.append(value[: width - 1].ljust(width))
        yield "".join(parts).rstrip() + "\r\n"


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def render_layout_xml(rows: Iterable[ListRow], *, columns: Sequence[str]) -> Iterator[str]:
    """``<ratinglist><player>`` with one child per column, named by its key."""
    keys = layout_keys(columns)
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<ratinglist>\n'
    for r in rows:
        values = ((key, _s(getattr(r, LAYOUT_COLUMNS[key][0]))) for key in keys)
        inner = "".join(f"<{k}>{_xml_escape(_XML_BAD.sub('', v))}</{k}>" for k, v in values)
        yield f"<player>{inner}</player>\n"
    yield "</ratinglist>\n"
