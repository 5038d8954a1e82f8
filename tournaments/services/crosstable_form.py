"""The browser's crosstable form, written as the CSV crosstable."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from formats.reports.fields import split_fields


def crosstable_form_to_csv(*, rows: list[dict[str, Any]], cells: dict[tuple[int, int], str]) -> str:
    """The browser form, written as the CSV crosstable, so it goes through the same parser and
    gives the same messages (docs/reports.md)."""
    n = len(rows)
    out = [
        ",".join(["No", "Name", "FIDE ID", "Fed ID", "Rating"] + [str(i) for i in range(1, n + 1)])
    ]
    for i, row in enumerate(rows, start=1):
        name = str(row.get("name", "")).replace('"', "'")
        values = [
            str(i),
            f'"{name}"',
            str(row.get("fide_id") or ""),
            str(row.get("fed_id") or ""),
            str(row.get("rating") or ""),
        ]
        values += ["x" if i == j else cells.get((i, j), "").strip() for j in range(1, n + 1)]
        out.append(",".join(values))
    return "\n".join(out) + "\n"


#: The parser's messages about a round, said of the form's cells (a crosstable has no rounds:
#: "Round -: …" would name nothing the arbiter typed).
_FORM_TEMPLATES = {
    "invalid_result": gettext_noop(
        "Player %(rank)s against player %(against)s: %(value)s is not a result (1, ½, 0, + or -)"
    ),
    "result_mismatch": gettext_noop(
        "Results do not mirror: player %(rank)s has %(result)s against player %(opponent)s, "
        "who has %(opponent_result)s"
    ),
    "asymmetric_pairing": gettext_noop(
        "Player %(rank)s has a result against player %(opponent)s, but player %(opponent)s has "
        "none against player %(rank)s"
    ),
}

#: The form's columns, in the order crosstable_form_to_csv writes them.
_ROW_FIELDS = ("no", "name", "fide_id", "fed_id", "rating")


def crosstable_form_cells(*, text: str, problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parser's problems on the CSV written from the form, located back in the form: each
    gets ``form_row`` (the player's row), ``form_field`` (the input's name, e.g. ``cell_2_3``
    or ``name_2``) and ``form_against`` (the opponent of a result cell), so the page names the
    row and the cell the arbiter typed, never a line and column of a CSV he never saw."""
    starts: dict[int, list[int]] = {}
    for lineno, text_line in enumerate(text.splitlines(), start=1):
        starts[lineno] = [f.column for f in split_fields(text_line, ",")]
    out = []
    for p in problems:
        line, column = p.get("line"), p.get("column")
        located = dict(p)
        if isinstance(line, int) and line > 1 and line in starts:
            row = line - 1
            located["form_row"] = row
            if isinstance(column, int):
                index = sum(1 for s in starts[line] if s <= column) - 1
                if 0 < index < len(_ROW_FIELDS):
                    located["form_field"] = f"{_ROW_FIELDS[index]}_{row}"
                elif index >= len(_ROW_FIELDS):
                    against = index - len(_ROW_FIELDS) + 1
                    located["form_field"] = f"cell_{row}_{against}"
                    located["form_against"] = against
                    if p.get("code") in _FORM_TEMPLATES:
                        located["template"] = _FORM_TEMPLATES[p["code"]]
                        located["params"] = {**p.get("params", {}), "against": against}
        out.append(located)
    return out
