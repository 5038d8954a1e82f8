"""Rating-list formats: render CSV, JSON, FIDE-style TXT and XML; read FIDE TXT, CSV and XML.

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.

Reading is in two steps so the PostgreSQL import can validate in SQL:

1. ``read_txt`` / ``read_csv`` locate the columns (TXT: from the header line, since FIDE's
   layouts have changed) and yield ``RawRow``: the row number in the file (the header is row
   1, as a spreadsheet shows it) and the raw text of each known field. ``read_xml`` yields the
   same rows from FIDE's XML list (row = the player's ordinal; ``xml_problems_at_lines`` turns
   those into line numbers when something is reported).
2. ``validate_rows`` checks numbers, ranges, flags and duplicate IDs in Python (the tests'
   oracle); ``lists/imports/importer.py`` runs the same checks in SQL. Both report ``Problem``
   objects with the codes and templates of ``TEMPLATES``.

The package: rows.py (rows, problems, limits), render.py (writers), read.py (TXT and CSV),
xml.py (FIDE XML), validate.py (checks and normalisation). Callers import the package:
``from formats import lists as lf``.
"""

from __future__ import annotations

from formats.lists.layout import (
    LAYOUT_COLUMNS,
    layout_keys,
    layout_txt_header,
    render_layout_txt,
    render_layout_xml,
)
from formats.lists.read import ALL_RATES, read_csv, read_txt, txt_header_layout
from formats.lists.render import (
    XML_TAGS,
    csv_safe,
    render_csv,
    render_json,
    render_txt,
    render_xml,
    txt_header,
)
from formats.lists.rows import (
    BIRTH_MAX,
    BIRTH_MIN,
    CSV_ALL_COLUMNS,
    CSV_COLUMNS,
    EXTRA_COLUMNS,
    FIELDS,
    FLAGS,
    MAX_LINE_CHARS,
    MAX_PROBLEMS,
    RATING_MAX,
    RATING_MIN,
    TEMPLATES,
    ListRow,
    RawRow,
    problem,
)
from formats.lists.validate import (
    OLD_TITLES,
    VALID_TITLES,
    normal_sex,
    normal_title,
    sort_problems,
    split_name,
    validate_rows,
)
from formats.lists.xml import ListReadError, read_xml, xml_problems_at_lines

__all__ = [
    "ALL_RATES",
    "BIRTH_MAX",
    "BIRTH_MIN",
    "CSV_ALL_COLUMNS",
    "CSV_COLUMNS",
    "EXTRA_COLUMNS",
    "FIELDS",
    "FLAGS",
    "LAYOUT_COLUMNS",
    "MAX_LINE_CHARS",
    "MAX_PROBLEMS",
    "OLD_TITLES",
    "RATING_MAX",
    "RATING_MIN",
    "TEMPLATES",
    "VALID_TITLES",
    "XML_TAGS",
    "ListReadError",
    "ListRow",
    "RawRow",
    "csv_safe",
    "layout_keys",
    "layout_txt_header",
    "normal_sex",
    "normal_title",
    "problem",
    "read_csv",
    "read_txt",
    "read_xml",
    "render_csv",
    "render_json",
    "render_layout_txt",
    "render_layout_xml",
    "render_txt",
    "render_xml",
    "sort_problems",
    "split_name",
    "txt_header",
    "txt_header_layout",
    "validate_rows",
    "xml_problems_at_lines",
]
