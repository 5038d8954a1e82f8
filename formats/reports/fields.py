"""Splitting delimited lines while remembering where each field starts (for columns)."""

from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    text: str  # unquoted, stripped
    column: int  # 1-based column of the field's first character in the line


def split_fields(line: str, delimiter: str) -> list[Field]:
    """Split on ``delimiter`` outside double quotes; ``""`` inside quotes is a quote.

    Linear in the line: a line without quotes is one ``str.split``; otherwise one pass
    over the characters (whether the field so far is blank is tracked, not recomputed).
    """
    if '"' not in line:
        out: list[Field] = []
        start = 0
        for part in line.split(delimiter):
            lead = len(part) - len(part.lstrip(" \t"))
            # the column of the first non-blank character when there is one
            out.append(Field(part.strip(), start + 1 + (lead if lead < len(part) else 0)))
            start += len(part) + 1
        return out
    fields: list[Field] = []
    buf: list[str] = []
    blank = True  # buf holds only whitespace
    start = 0
    quoted = False
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if quoted:
            if ch == '"':
                if i + 1 < n and line[i + 1] == '"':
                    buf.append('"')
                    blank = False
                    i += 1
                else:
                    quoted = False
            else:
                buf.append(ch)
                blank = blank and ch.isspace()
        elif ch == '"' and blank:
            buf = []
            quoted = True
        elif ch == delimiter:
            fields.append(Field("".join(buf).strip(), start + 1))
            buf = []
            blank = True
            start = i + 1
        else:
            buf.append(ch)
            blank = blank and ch.isspace()
        i += 1
    fields.append(Field("".join(buf).strip(), start + 1))
    # point the column at the first non-blank character when there is one
    out = []
    for f in fields:
        col = f.column
        j = col - 1
        while j < n and line[j] in " \t" and line[j] != delimiter:
            j += 1
        if j < n and line[j] != delimiter:
            col = j + 1
        out.append(Field(f.text, col))
    return out


def guess_delimiter(line: str) -> str:
    counts = {d: line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: (counts[d], d == ","))
