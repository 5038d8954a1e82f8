"""Splitting delimited lines while remembering where each field starts (for columns)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    text: str  # unquoted, stripped
    column: int  # 1-based column of the field's first character in the line


def split_fields(line: str, delimiter: str) -> list[Field]:
    """Split on ``delimiter`` outside double quotes; ``""`` inside quotes is a quote."""
    fields: list[Field] = []
    buf: list[str] = []
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
                    i += 1
                else:
                    quoted = False
            else:
                buf.append(ch)
        elif ch == '"' and not "".join(buf).strip():
            buf = []
            quoted = True
        elif ch == delimiter:
            fields.append(Field("".join(buf).strip(), start + 1))
            buf = []
            start = i + 1
        else:
            buf.append(ch)
        i += 1
    fields.append(Field("".join(buf).strip(), start + 1))
    # point the column at the first non-blank character when there is one
    out: list[Field] = []
    for f in fields:
        col = f.column
        j = col - 1
        while j < n and line[j] in " \t":
            j += 1
        if j < n and line[j] != delimiter:
            col = j + 1
        out.append(Field(f.text, col))
    return out


def guess_delimiter(line: str) -> str:
    counts = {d: line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: (counts[d], d == ","))
